package btf_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/btf/distill"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/btfgen"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

func loadRef(t *testing.T, name string, base *btf.Spec) *btf.Spec {
	t.Helper()
	s, err := btf.LoadFile(testenv.Reference(t, name), base)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// kernelAccepts loads raw BTF into the running kernel (BPF_BTF_LOAD).
func kernelAccepts(t *testing.T, what string, raw []byte) {
	t.Helper()
	err := kernload.Load(raw)
	if errors.Is(err, kernload.ErrNotPermitted) {
		testenv.SkipPartOrFail(t, "kernel half: %v", err)
		return
	}
	if err != nil {
		t.Errorf("%s: %v", what, err)
	}
}

// flatten is btfgen.Flatten, failing the test on error.
func flatten(t *testing.T, split *btf.Spec) []byte {
	t.Helper()
	b, err := btfgen.Flatten(split)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSortByNameVmlinux: the 6.18 kernel's BTF and pahole 1.32's for the
// Debian vmlinux, sorted: in libbpf's sorted order, accepted by the
// running kernel, no semantic difference from the input (btf/diff),
// sorting again changes no byte, and a name lookup by bisection finds
// what a scan of the input finds.
func TestSortByNameVmlinux(t *testing.T) {
	for _, ref := range []string{"host-6.18/vmlinux.btf", "pahole-1.32/debian-6.1.0-57-cloud.btf"} {
		t.Run(filepath.Dir(ref), func(t *testing.T) {
			s := loadRef(t, ref, nil)
			if _, ok := btf.SortedByName(s); ok {
				t.Fatalf("%s is sorted already; the test needs unsorted input", ref)
			}
			sorted, newID := btf.SortByName(s)
			first, ok := btf.SortedByName(sorted)
			if !ok {
				t.Fatal("SortByName's output is not sorted by name")
			}
			if sorted.Type(first-1).Name() != "" || first > 1 && sorted.Type(first).Name() == "" {
				t.Errorf("first named type %d: the anonymous types do not all come first", first)
			}
			if err := sorted.Check(); err != nil {
				t.Errorf("Check: %v", err)
			}
			raw := sorted.Marshal(nil)
			kernelAccepts(t, "sorted "+ref, raw)
			if r := diff.Compare(s, sorted, diff.Options{}); !r.Equal() {
				var b bytes.Buffer
				r.Write(&b)
				t.Errorf("btf/diff sees differences:\n%.2000s", b.String())
			}
			again, _ := btf.SortByName(sorted)
			if !bytes.Equal(again.Marshal(nil), raw) {
				t.Error("sorting sorted BTF changed it")
			}
			if !bytes.Equal(sorted.RawStrings(), s.RawStrings()) {
				t.Error("the string table changed")
			}
			for _, name := range []string{"task_struct", "int", "sk_buff", "bpf_prog", "zzz_no_such_type"} {
				var want []btf.TypeID
				for id := s.FirstID(); id < s.NextID(); id++ {
					if s.Type(id).Name() == name {
						want = append(want, newID[id-s.FirstID()])
					}
				}
				got, err := btf.FindSorted(sorted, name)
				if err != nil || len(got) != len(want) || (len(got) > 0 && got[0] != want[0]) {
					t.Errorf("FindSorted(%q) = %v, %v; a scan finds %v", name, got, err, want)
				}
			}
		})
	}
}

// TestSortByNameModule: a module's split BTF (pahole 1.32's for xfs,
// against pahole 1.32's BTF of the Debian vmlinux) moved onto the sorted vmlinux BTF
// (distilled against its base, relocated onto the sorted one) and sorted
// itself: only the module's types move, it passes Check against the sorted
// base, libbpf's order holds, sorting made no semantic difference
// (btf/diff against the relocated module), and base plus module, joined,
// load into the running kernel.
func TestSortByNameModule(t *testing.T) {
	testc.Require(t, "tar", "xz")
	base := loadRef(t, "pahole-1.32/debian-6.1.0-57-cloud.btf", nil)
	dir := t.TempDir()
	testc.Run(t, "tar", "-xJf", testenv.Reference(t, "debian-6.1.0-57-cloud/modules-pahole-1.32.tar.xz"), "-C", dir, "btf/xfs.btf", "btf/vxlan.btf")
	sortedBase, _ := btf.SortByName(base)
	for _, mod := range []string{"xfs", "vxlan"} {
		raw, err := os.ReadFile(filepath.Join(dir, "btf", mod+".btf"))
		if err != nil {
			t.Fatal(err)
		}
		split, err := btf.Parse(raw, base)
		if err != nil {
			t.Fatal(err)
		}
		_, dsplit, err := distill.Distill(split)
		if err != nil {
			t.Fatal(err)
		}
		moved, err := distill.Relocate(dsplit, sortedBase)
		if err != nil {
			t.Fatal(err)
		}
		sorted, _ := btf.SortByName(moved)
		if sorted.FirstID() != sortedBase.NextID() || sorted.Base() != sortedBase {
			t.Fatalf("%s: the sorted module does not continue the sorted base", mod)
		}
		if _, ok := btf.SortedByName(sorted); !ok {
			t.Errorf("%s: not sorted", mod)
		}
		if err := sorted.Check(); err != nil {
			t.Errorf("%s: Check against the sorted base: %v", mod, err)
		}
		if r := diff.Compare(moved, sorted, diff.Options{}); !r.Equal() {
			var b bytes.Buffer
			r.Write(&b)
			t.Errorf("%s: btf/diff sees differences:\n%.2000s", mod, b.String())
		}
		again, _ := btf.SortByName(sorted)
		if !bytes.Equal(again.Marshal(nil), sorted.Marshal(nil)) {
			t.Errorf("%s: sorting again changed it", mod)
		}
		kernelAccepts(t, mod+" sorted, joined to the sorted base", flatten(t, sorted))
	}
}

// TestSortByNameOrder: a small Spec: anonymous types first in ID order,
// then names in byte order (upper case before lower, "a" before "ab"),
// equal names in ID order, references rewritten, the base untouched.
func TestSortByNameOrder(t *testing.T) {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, uint32(btf.IntSigned)<<24|32) // 1
	p := s.Add("", btf.KindPtr, 0, false, 0)                                  // 2, fixed below
	st := s.Add("ab", btf.KindStruct, 1, false, 8, s.AddString("next"), uint32(p), 0)
	s.SetRaw(p, 0, btf.Info(btf.KindPtr, 0, false), uint32(st))
	s.Add("a", btf.KindTypedef, 0, false, uint32(i))   // 4
	s.Add("Z", btf.KindTypedef, 0, false, uint32(i))   // 5
	s.Add("", btf.KindConst, 0, false, uint32(i))      // 6
	s.Add("ab", btf.KindTypedef, 0, false, uint32(st)) // 7
	sorted, newID := btf.SortByName(s)
	var got []string
	for id := sorted.FirstID(); id < sorted.NextID(); id++ {
		tt := sorted.Type(id)
		got = append(got, tt.Kind().String()+":"+tt.Name())
	}
	want := []string{"PTR:", "CONST:", "TYPEDEF:Z", "TYPEDEF:a", "STRUCT:ab", "TYPEDEF:ab", "INT:int"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
	if sorted.Type(newID[p-1]).Ref() != newID[st-1] || sorted.Type(newID[st-1]).Member(0).Type != newID[p-1] {
		t.Error("references not rewritten")
	}
	if err := sorted.Check(); err != nil {
		t.Error(err)
	}
	split := btf.NewSplitSpec(sorted)
	split.Add("b", btf.KindTypedef, 0, false, uint32(newID[i-1]))
	split.Add("a", btf.KindPtr, 0, false, uint32(split.FirstID()))
	ss, _ := btf.SortByName(split)
	if ss.Type(ss.FirstID()).Name() != "a" || ss.Type(ss.FirstID()).Ref() != ss.FirstID()+1 || ss.Type(ss.FirstID()+1).Ref() != newID[i-1] {
		t.Error("split sort: wrong order or references")
	}
}
