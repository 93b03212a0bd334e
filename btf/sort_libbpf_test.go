package btf_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc/libbpfsorted"
)

// TestSortLibbpfDetects: libbpf (1.7 or newer, the first to detect sorted
// BTF) finds SortByName's output sorted and searches it by bisection, and
// does not for the unsorted input nor for the sorted output with one type
// out of order at its end; likewise for a module sorted against the
// sorted base. Two observations tell libbpf's paths apart (see
// libbpfsorted): the strcmp calls a lookup makes, and the ID it finds when
// an anonymous type before the match carries the sought name too (a scan
// returns that type, a bisection starts after it). Both lookups must also
// find the type SortByName moved the input's match to.
func TestSortLibbpfDetects(t *testing.T) {
	major, minor := libbpfsorted.Version(t)
	t.Logf("libbpf %d.%d from %s", major, minor, libbpfsorted.Dir())
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
	// almost is sorted with one more type at its end, a STRUCT whose name
	// sorts first: no longer in name order, so libbpf must scan it.
	almost, _ := btf.SortByName(s)
	almost.Add("aaaa_out_of_order", btf.KindStruct, 0, false, 0)
	if _, ok := btf.SortedByName(almost); ok {
		t.Fatal("SortedByName: a type out of order at the end goes unnoticed")
	}
	unsortedPath, sortedPath, almostPath := write("unsorted.btf", s), write("sorted.btf", sorted), write("almost.btf", almost)
	// anon is the first anonymous type of kind k: the alias libbpf is
	// given (in sorted BTF every anonymous type precedes the named ones).
	anon := func(s *btf.Spec, k btf.Kind) int {
		for id := s.FirstID(); id < s.NextID(); id++ {
			if ty := s.Type(id); ty.Kind() == k && ty.Name() == "" {
				return int(id)
			}
		}
		t.Fatalf("no anonymous %v", k)
		return 0
	}
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
	const k = btf.KindStruct
	aliasU, aliasS := anon(s, k), anon(sorted, k)
	for _, name := range []string{"task_struct", "sk_buff", "zswap_pool", "xdp_buff", "vm_area_struct"} {
		u := libbpfsorted.Find(t, libbpfsorted.Query{File: unsortedPath, Kind: int(k), Alias: aliasU}, name)[0]
		o := libbpfsorted.Find(t, libbpfsorted.Query{File: sortedPath, Kind: int(k), Alias: aliasS}, name)[0]
		a := libbpfsorted.Find(t, libbpfsorted.Query{File: almostPath, Kind: int(k), Alias: aliasS}, name)[0]
		if u.ID <= aliasU || o.ID != int(newID[u.ID-1]) || a.ID != o.ID {
			t.Fatalf("%s: libbpf finds [%d] unsorted, [%d] sorted, [%d] almost sorted; the sort maps [%d] to [%d]; the aliases are [%d], [%d]",
				name, u.ID, o.ID, a.ID, u.ID, newID[max(u.ID, 1)-1], aliasU, aliasS)
		}
		// Unsorted, and almost sorted: a scan.
		for _, c := range []struct {
			what  string
			s     *btf.Spec
			l     libbpfsorted.Lookup
			alias int
		}{{"unsorted", s, u, aliasU}, {"almost sorted", almost, a, aliasS}} {
			if want := scan(c.s, c.l.ID, k); c.l.Comparisons != want {
				t.Errorf("%s, %s: %d comparisons, a scan makes %d; libbpf did not scan, or the harness does not count its strcmp calls", name, c.what, c.l.Comparisons, want)
			}
			if c.l.Aliased != c.alias {
				t.Errorf("%s, %s: with [%d] named %s too, libbpf finds [%d]; a scan finds [%d] first", name, c.what, c.alias, name, c.l.Aliased, c.alias)
			}
		}
		// Sorted: a bisection.
		if o.Comparisons > 64 || scan(sorted, o.ID, k) < 1000 {
			t.Errorf("%s, sorted: %d comparisons, a scan would make %d; libbpf did not take its sorted path", name, o.Comparisons, scan(sorted, o.ID, k))
		}
		if o.Aliased != o.ID {
			t.Errorf("%s, sorted: with [%d] named %s too, libbpf finds [%d]; a bisection from the first named type finds [%d]", name, aliasS, name, o.Aliased, o.ID)
		}
		t.Logf("%s: sorted [%d]: %d comparisons (a scan: %d), [%d] with the alias [%d]; unsorted [%d]: %d comparisons, [%d] with the alias [%d]",
			name, o.ID, o.Comparisons, scan(sorted, o.ID, k), o.Aliased, aliasS, u.ID, u.Comparisons, u.Aliased, aliasU)
	}
	// A split BTF sorted against the sorted base: libbpf checks it too.
	// Its first type is an anonymous TYPEDEF (libbpf reads it; only the
	// kernel asks typedefs for a name), the alias; sorting keeps it first.
	split := btf.NewSplitSpec(sorted)
	ints, _ := btf.FindSorted(sorted, "int")
	alias := int(split.Add("", btf.KindTypedef, 0, false, uint32(ints[0])))
	const n = 3000
	for i := n - 1; i >= 0; i-- {
		split.Add(fmt.Sprintf("t%05d", i), btf.KindTypedef, 0, false, uint32(ints[0]))
	}
	ss, _ := btf.SortByName(split)
	if ss.Type(btf.TypeID(alias)).Name() != "" {
		t.Fatalf("split: sorting moved the anonymous typedef [%d]", alias)
	}
	for _, c := range []struct {
		s      *btf.Spec
		path   string
		sorted bool
	}{{split, write("split.btf", split), false}, {ss, write("split-sorted.btf", ss), true}} {
		l := libbpfsorted.Find(t, libbpfsorted.Query{File: c.path, Base: sortedPath, Kind: int(btf.KindTypedef), Alias: alias}, "t00000")[0]
		if l.ID <= alias || c.s.Type(btf.TypeID(l.ID)).Name() != "t00000" {
			t.Fatalf("split: libbpf finds t00000 at [%d]", l.ID)
		}
		// The base is searched first (by bisection, it is sorted),
		// then the split's own types: by bisection when sorted, else a
		// scan of its typedefs, which meets the alias first.
		t.Logf("split, sorted=%v: t00000 at [%d], %d comparisons, [%d] with the alias [%d]", c.sorted, l.ID, l.Comparisons, l.Aliased, alias)
		if c.sorted != (l.Comparisons < 100) {
			t.Errorf("split, sorted=%v: %d comparisons; libbpf's path does not match", c.sorted, l.Comparisons)
		}
		if want := map[bool]int{true: l.ID, false: alias}[c.sorted]; l.Aliased != want {
			t.Errorf("split, sorted=%v: with [%d] named t00000 too, libbpf finds [%d], want [%d]", c.sorted, alias, l.Aliased, want)
		}
	}
}
