package minimize

import (
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/btfgen"
)

// accessStrings are the access strings fuzzed relocations take.
var accessStrings = []string{"0", "0:0", "0:1", "0:0:0", "0:1:2", "1", "0:2:1:0", "0:0:5", "3:0", ""}

// FuzzMinimize: a kernel BTF (valid BTF built from the bytes, or the bytes
// parsed as they are, references unchecked) and an object BTF with
// relocations of every kind, all from the fuzzer's bytes: Minimize and
// Resolve give a result or an error, never a panic, and what Minimize
// writes reads back.
func FuzzMinimize(f *testing.F) {
	f.Add([]byte{0, 10, 20, 30, 40, 50, 60, 70}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, []byte{1, 0, 0, 2, 1, 3, 3, 2, 4})
	f.Add([]byte{1, 0x9f, 0xeb, 1, 0, 24, 0, 0, 0}, []byte{4, 4, 4, 4}, []byte{2, 5, 1})
	f.Fuzz(func(t *testing.T, kern, local, relos []byte) {
		var kernel *btf.Spec
		if len(kern) > 0 && kern[0]&1 == 1 {
			s, err := btf.Parse(kern[1:], nil)
			if err != nil {
				return
			}
			kernel = s
		} else {
			kernel = btfgen.Random(kern, 64)
		}
		obj := &Object{Path: "fuzz.o", BTF: btfgen.Random(local, 32)}
		offs := make([]uint32, len(accessStrings))
		for i, a := range accessStrings {
			offs[i] = obj.BTF.AddString(a)
		}
		for i := 0; i+3 <= len(relos) && len(obj.Relos) < 32; i += 3 {
			n := int(obj.BTF.NextID()) - 1
			if n == 0 {
				break
			}
			obj.Relos = append(obj.Relos, btf.CORERelo{
				Section:      "fuzz",
				InsnOff:      uint32(8 * i),
				TypeID:       btf.TypeID(1 + int(relos[i])%n),
				AccessStrOff: offs[int(relos[i+1])%len(offs)],
				Kind:         btf.COREKind(relos[i+2] % 13),
			})
		}
		res, err := Minimize(kernel, nil, []*Object{obj})
		if err == nil {
			if _, err := btf.Parse(res.Base.Marshal(nil), nil); err != nil {
				t.Fatalf("minimized BTF does not read back: %v", err)
			}
		}
		Resolve(kernel, nil, obj)
	})
}

// TestMinimizeBadObject: an object built by hand whose relocation names a
// type its BTF lacks, and a kernel BTF whose types refer to types it
// lacks, are errors, not panics.
func TestMinimizeBadObject(t *testing.T) {
	kernel := btf.NewSpec()
	kernel.Add("int", btf.KindInt, 0, false, 4, uint32(btf.IntSigned)<<24|32)
	kernel.Add("s", btf.KindStruct, 1, false, 4, kernel.AddString("x"), 99, 0) // x's type is missing
	local := btf.NewSpec()
	li := local.Add("int", btf.KindInt, 0, false, 4, uint32(btf.IntSigned)<<24|32)
	ls := local.Add("s", btf.KindStruct, 1, false, 4, local.AddString("x"), uint32(li), 0)
	acc := local.AddString("0:0")
	for _, c := range []struct {
		name string
		relo btf.CORERelo
		want string
	}{
		{"missing local type", btf.CORERelo{TypeID: 7, AccessStrOff: acc}, "type [7]"},
		{"kernel member of a missing type", btf.CORERelo{TypeID: ls, AccessStrOff: acc}, "type [99]"},
	} {
		obj := &Object{Path: "bad.o", BTF: local, Relos: []btf.CORERelo{c.relo}}
		_, err := Minimize(kernel, nil, []*Object{obj})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "bad.o") {
			t.Errorf("%s: got %v, want an error naming bad.o and %s", c.name, err, c.want)
		}
	}
}

// TestMinimizeConcurrent: objects read once are shared by goroutines
// minimizing different kernels (btfkit minimize --base DIR -j N): the
// results are each kernel's alone (run with -race to check the sharing).
func TestMinimizeConcurrent(t *testing.T) {
	seed := []byte("local types for the concurrent test, and the kernels' first ones")
	obj := &Object{Path: "obj.o", BTF: btfgen.Random(seed, 32)}
	acc := obj.BTF.AddString("0:0")
	for id := btf.TypeID(1); id < obj.BTF.NextID(); id++ {
		if t := obj.BTF.Type(id); t.Name() == "" || !isComposite(t) || t.Vlen() == 0 {
			continue
		}
		for _, k := range []btf.COREKind{btf.COREFieldByteOffset, btf.CORETypeExists, btf.CORETypeMatches} {
			a := acc
			if k.IsType() {
				a = obj.BTF.AddString("0")
			}
			obj.Relos = append(obj.Relos, btf.CORERelo{Section: "s", TypeID: id, AccessStrOff: a, Kind: k})
		}
	}
	kernels := make([]*btf.Spec, 8)
	want := make([][]byte, len(kernels))
	for i := range kernels {
		kernels[i] = btfgen.Random(append(append([]byte(nil), seed...), byte(i), byte(i*7), 3, byte(i*13)), 64+i)
		res, err := Minimize(kernels[i], nil, []*Object{obj})
		if err == nil {
			want[i] = res.Base.Marshal(nil)
		} else {
			t.Logf("kernel %d: %v", i, err)
		}
	}
	got := make([][]byte, len(kernels))
	done := make(chan int)
	for i := range kernels {
		go func() {
			if res, err := Minimize(kernels[i], nil, []*Object{obj}); err == nil {
				got[i] = res.Base.Marshal(nil)
			}
			done <- i
		}()
	}
	for range kernels {
		<-done
	}
	kept := 0
	for i := range kernels {
		if string(got[i]) != string(want[i]) {
			t.Errorf("kernel %d: concurrent result differs", i)
		}
		if s, err := btf.Parse(want[i], nil); err == nil && s.NumTypes() > 0 {
			kept++
		}
	}
	if kept < 2 {
		t.Errorf("only %d of %d kernels kept any type: the test does not test", kept, len(kernels))
	}
}
