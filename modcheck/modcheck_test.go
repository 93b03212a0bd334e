package modcheck

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/finalize"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/kmod"
)

// fitBase is a base of two types: int and struct s { int x; }.
func fitBase() *btf.Spec {
	b := btf.NewSpec()
	i := b.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	b.Add("sss", btf.KindStruct, 1, false, 4, b.AddString("x"), uint32(i), 0)
	return b
}

func TestFit(t *testing.T) {
	base := fitBase()
	starts := stringStarts(base.RawStrings())
	good := btf.NewSplitSpec(base)
	p := good.Add("", btf.KindPtr, 0, false, 2)
	good.Add("own", btf.KindTypedef, 0, false, uint32(p))
	if m, _ := fit(good, starts); len(m) != 0 {
		t.Fatalf("split BTF of this base: %v", m)
	}

	// Names into the middle of a base string ("nt" of "int") and of an
	// own one, a reference past the last type, a FUNC on a struct.
	sss, _ := base.FindString("sss")
	bad := btf.NewSplitSpec(base)
	own := bad.AddString("ownname")
	bad.AddRaw(sss+1, btf.Info(btf.KindTypedef, 0, false), 1)                                              // [3]
	bad.AddRaw(own+3, btf.Info(btf.KindTypedef, 0, false), 1)                                              // [4]
	bad.AddRaw(0, btf.Info(btf.KindPtr, 0, false), 99)                                                     // [5]
	bad.AddRaw(own, btf.Info(btf.KindFunc, 0, false), 2)                                                   // [6]
	bad.AddRaw(own, btf.Info(btf.KindTypedef, 0, false), 1)                                                // [7] fits
	bad.AddRaw(base.StringsStart()+uint32(base.StringsLen())+1000, btf.Info(btf.KindTypedef, 0, false), 1) // [8]
	m, first := fit(bad, starts)
	want := []struct {
		id   btf.TypeID
		rule btf.Rule
	}{{3, btf.RuleNameStart}, {4, btf.RuleNameStart}, {5, btf.RuleRefKind}, {6, btf.RuleRefKind}, {8, btf.RuleNameOffset}}
	if len(m) != len(want) || first.ID != 3 {
		t.Fatalf("misfits %v", m)
	}
	for i, w := range want {
		if m[i].ID != w.id || m[i].Rule != w.rule {
			t.Errorf("misfit %d: %v, want [%d] %s", i, m[i], w.id, w.rule)
		}
	}
	if !mismatch(5, 6) || mismatch(1, 200) || !mismatch(1, 4) {
		t.Error("mismatch thresholds")
	}
}

// TestRunOrder: results come in module order and are the same at any
// number of workers (run with -race: Run's goroutines).
func TestRunOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads the Debian kernel's modules")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	base, err := LoadBase(vmlinux)
	if err != nil {
		t.Fatal(err)
	}
	var mods []kmod.Module
	for _, p := range testenv.ModuleSample(t, 24) {
		mods = append(mods, kmod.Module{Path: p, Name: kmod.Name(p)})
	}
	run := func(jobs int) []string {
		var out []string
		Run(base, mods, Options{Jobs: jobs, Kernel: btf.KernelVersion{Major: 6, Minor: 1}}, func(r Result) {
			out = append(out, fmt.Sprint(r.Module.Path, r.HasBTF, r.Types, r.Problems))
		})
		return out
	}
	one := run(1)
	for i, m := range mods {
		if want := fmt.Sprint(m.Path); len(one) != len(mods) || one[i][:len(want)] != want {
			t.Fatalf("result %d is not module %s", i, m.Path)
		}
	}
	if four := run(4); fmt.Sprint(four) != fmt.Sprint(one) {
		t.Fatalf("-j4 differs from -j1:\n%v\n%v", four, one)
	}
}

// TestIDsHostileCount: a set whose symbol size claims 2^32 entries in a
// 16-byte section is a problem, not a loop over 2^32 words.
func TestIDsHostileCount(t *testing.T) {
	base := fitBase()
	split := btf.NewSplitSpec(base)
	proto := split.Add("", btf.KindFuncProto, 0, false, 0)
	fn := split.Add("f", btf.KindFunc, 0, false, uint32(proto))
	data := make([]byte, 16)
	binary.LittleEndian.PutUint32(data[0:], 1)          // the set's count, as resolve_btfids writes it
	binary.LittleEndian.PutUint32(data[8:], uint32(fn)) // the set's one pair
	ids := &finalize.IDs{Data: data, Order: binary.LittleEndian, Entries: []*finalize.IDEntry{
		{Kind: finalize.IDSet8, Name: "s", Addrs: []uint64{0}, Count: 0xffffffff},
		{Kind: finalize.IDFunc, Name: "f", Addrs: []uint64{8}},
	}}
	probs := checkIDs(NewBase(base), split, ids)
	if len(probs) != 2 || probs[0].Rule != RuleBTFIDs || !strings.Contains(probs[0].Detail, "runs past the section") ||
		!strings.Contains(probs[1].Detail, "holds a count of 1, its symbol's size 4294967295 entries") {
		t.Fatalf("%v", probs)
	}
	ids.Entries[0].Count = 1
	if probs := checkIDs(NewBase(base), split, ids); len(probs) != 0 {
		t.Fatalf("a sound set: %v", probs)
	}
	binary.LittleEndian.PutUint32(data[0:], 0) // the count the BTF_SET8 macro leaves
	if probs := checkIDs(NewBase(base), split, ids); len(probs) != 1 || !strings.Contains(probs[0].Detail, "holds a count of 0") {
		t.Fatalf("an unresolved count: %v", probs)
	}
	binary.LittleEndian.PutUint32(data[0:], 1)
	binary.LittleEndian.PutUint32(data[8:], 1) // the set's word: INT, no entry of the set
	if probs := checkIDs(NewBase(base), split, ids); len(probs) != 1 || probs[0].ID != 1 {
		t.Fatalf("a word naming the INT: %v", probs)
	}
}

// TestFitPahole132: the BTF pahole 1.32 wrote for every Debian module
// against its vmlinux BTF, and for 20 of them with a distilled base,
// fits its base: no misfit in any (a second producer besides Debian's
// pahole 1.24, whose modules TestCheckTreeDebian checks); against the
// distilled base of another module, or the vmlinux shifted by one type,
// each is a mismatch.
func TestFitPahole132(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 1,121 module BTFs")
	}
	testc.Require(t, "tar", "xz")
	out := t.TempDir()
	testc.Run(t, "tar", "-xJf", testenv.Reference(t, "debian-6.1.0-57-cloud/modules-pahole-1.32.tar.xz"), "-C", out)
	testc.Run(t, "tar", "-xJf", testenv.Reference(t, "debian-6.1.0-57-cloud/distilled-pahole-1.32.tar.xz"), "-C", out)
	vmlinux, err := btf.LoadFile(testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf"), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The vmlinux with one more INT in front: every ID and string moves.
	shifted := btf.NewSpec()
	shifted.Add("shift_int", btf.KindInt, 0, false, 4, 32)
	for id := btf.TypeID(1); id < vmlinux.NextID(); id++ {
		n, i, st, ext := vmlinux.RawType(id)
		ext = append([]uint32(nil), ext...)
		btf.ForEachTypeRef(i, &st, ext, func(p *uint32) {
			if *p != 0 {
				*p++
			}
		})
		shifted.AddRaw(n, i, st, ext...)
	}
	shifted.SetRawStrings(vmlinux.RawStrings())
	starts, shiftedStarts := stringStarts(vmlinux.RawStrings()), stringStarts(shifted.RawStrings())

	mods, _ := filepath.Glob(filepath.Join(out, "btf", "*.btf"))
	if len(mods) < 1000 {
		t.Fatalf("%d module BTFs, want over 1000", len(mods))
	}
	mismatched := 0
	for _, m := range mods {
		raw, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		s, err := btf.Parse(raw, vmlinux)
		if err != nil {
			t.Fatal(err)
		}
		if mis, _ := fit(s, starts); len(mis) != 0 {
			t.Errorf("%s: %d misfits, the first %v", filepath.Base(m), len(mis), mis[0])
		}
		if s, err = btf.Parse(raw, shifted); err == nil {
			if mis, _ := fit(s, shiftedStarts); mismatch(len(mis), s.NumTypes()) {
				mismatched++
			}
		}
	}
	// Shifting IDs and not strings: a module that names nothing of the
	// base but through strings of its own and refers to no base type may
	// still fit; nearly every one must not.
	if mismatched*100 < len(mods)*95 {
		t.Errorf("against the shifted vmlinux only %d of %d modules are a mismatch", mismatched, len(mods))
	}

	dists, _ := filepath.Glob(filepath.Join(out, "*.BTF.base"))
	if len(dists) != 20 {
		t.Fatalf("%d distilled bases, want 20", len(dists))
	}
	var specs []*btf.Spec
	for _, d := range dists {
		db, err := btf.LoadFile(d, nil)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, db)
	}
	for i, d := range dists {
		raw, err := os.ReadFile(strings.TrimSuffix(d, ".base"))
		if err != nil {
			t.Fatal(err)
		}
		own, err := btf.Parse(raw, specs[i])
		if err != nil {
			t.Fatal(err)
		}
		if mis, _ := fit(own, stringStarts(specs[i].RawStrings())); len(mis) != 0 {
			t.Errorf("%s: %d misfits against its .BTF.base, the first %v", filepath.Base(d), len(mis), mis[0])
		}
		other := specs[(i+1)%len(specs)]
		if s, err := btf.Parse(raw, other); err == nil {
			if mis, _ := fit(s, stringStarts(other.RawStrings())); !mismatch(len(mis), s.NumTypes()) {
				t.Errorf("%s against %s: %d misfits, not a mismatch", filepath.Base(d), filepath.Base(dists[(i+1)%len(dists)]), len(mis))
			}
		}
	}
}
