package btf_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testc/libbpfsorted"
)

// TestSortLibbpfDetects: libbpf v1.8 finds SortByName's output sorted and
// searches it by bisection (a few dozen strcmp calls a lookup, where the
// unsorted input costs thousands), and finds the same types by name in
// both; likewise for a module sorted against the sorted base. It needs
// $BTFKIT_LIBBPF (see libbpfsorted).
func TestSortLibbpfDetects(t *testing.T) {
	libbpfsorted.Harness(t)
	dir := t.TempDir()
	write := func(name string, s *btf.Spec) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, s.Marshal(nil), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s := loadRef(t, "host-6.18/vmlinux.btf", nil)
	sorted, newID := btf.SortByName(s)
	unsortedPath, sortedPath := write("unsorted.btf", s), write("sorted.btf", sorted)
	// scan is the comparisons a scan makes to find name of kind k: one
	// with "void", then one per type of that kind up to the match
	// (libbpf's unsorted path).
	scan := func(s *btf.Spec, id int, k btf.Kind) int {
		n := 1
		for i := btf.TypeID(1); i <= btf.TypeID(id); i++ {
			if s.Type(i).Kind() == k {
				n++
			}
		}
		return n
	}
	for _, name := range []string{"task_struct", "sk_buff", "zswap_pool", "xdp_buff", "vm_area_struct"} {
		k := btf.KindStruct
		u := libbpfsorted.Find(t, unsortedPath, "", int(k), name)[0]
		o := libbpfsorted.Find(t, sortedPath, "", int(k), name)[0]
		if u.ID <= 0 || o.ID != int(newID[u.ID-1]) {
			t.Fatalf("%s: libbpf finds [%d] unsorted, [%d] sorted; the sort maps [%d] to [%d]", name, u.ID, o.ID, u.ID, newID[max(u.ID, 1)-1])
		}
		if want := scan(s, u.ID, k); u.Comparisons != want {
			t.Errorf("%s, unsorted: %d comparisons, a scan makes %d; the harness does not count libbpf's strcmp calls", name, u.Comparisons, want)
		}
		if o.Comparisons > 64 || scan(sorted, o.ID, k) < 1000 {
			t.Errorf("%s, sorted: %d comparisons, a scan would make %d; libbpf did not take its sorted path", name, o.Comparisons, scan(sorted, o.ID, k))
		} else {
			t.Logf("%s: [%d]: %d comparisons in the sorted BTF (a scan: %d), %d in the unsorted", name, o.ID, o.Comparisons, scan(sorted, o.ID, k), u.Comparisons)
		}
	}
	// A split BTF sorted against the sorted base: libbpf checks it too.
	split := btf.NewSplitSpec(sorted)
	ints, _ := btf.FindSorted(sorted, "int")
	const n = 3000
	for i := n - 1; i >= 0; i-- {
		split.Add(fmt.Sprintf("t%05d", i), btf.KindTypedef, 0, false, uint32(ints[0]))
	}
	ss, _ := btf.SortByName(split)
	for _, c := range []struct {
		s      *btf.Spec
		path   string
		sorted bool
	}{{split, write("split.btf", split), false}, {ss, write("split-sorted.btf", ss), true}} {
		l := libbpfsorted.Find(t, c.path, sortedPath, int(btf.KindTypedef), "t00000")[0]
		if l.ID <= 0 || c.s.Type(btf.TypeID(l.ID)).Name() != "t00000" {
			t.Fatalf("split: libbpf finds t00000 at [%d]", l.ID)
		}
		// The base is searched first (by bisection, it is sorted),
		// then the split's own types: by bisection when sorted, else a
		// scan of its typedefs.
		t.Logf("split, sorted=%v: t00000 at [%d], %d comparisons", c.sorted, l.ID, l.Comparisons)
		if c.sorted != (l.Comparisons < 100) {
			t.Errorf("split, sorted=%v: %d comparisons; libbpf's path does not match", c.sorted, l.Comparisons)
		}
	}
}
