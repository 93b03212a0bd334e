package dedup

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// requireMergeDedupEqualsDedup: MergeDedup gives, byte for byte, what
// Dedup gives for Merge of the same specs, and the same Mapping, with
// each set of options the archive route and dedup use; so does Dedup
// with UniqueStrings.
func requireMergeDedupEqualsDedup(t *testing.T, specs []*btf.Spec) {
	t.Helper()
	merged, err := Merge(specs...)
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []Options{{}, {KeepDuplicateVars: true}, {KeepDuplicateVars: true, NoNameFwdResolution: true}} {
		want, wm, err := Dedup(merged, opts)
		if err != nil {
			t.Fatal(err)
		}
		// A Merge result has each string once: UniqueStrings's strings
		// phase must give the same bytes.
		u := opts
		u.UniqueStrings = true
		if uniq, _, err := Dedup(merged, u); err != nil {
			t.Fatal(err)
		} else if !bytes.Equal(uniq.Marshal(nil), want.Marshal(nil)) {
			t.Fatalf("%+v: Dedup with UniqueStrings differs from Dedup", opts)
		}
		got, gm, err := MergeDedup(specs, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Marshal(nil), want.Marshal(nil)) {
			g, w := render(got), render(want)
			for i := 0; i < len(g) && i < len(w); i++ {
				if g[i] != w[i] {
					t.Errorf("%+v: first difference: MergeDedup %s, Dedup %s", opts, g[i], w[i])
					break
				}
			}
			t.Fatalf("%+v: MergeDedup's %d types (%d bytes of strings) differ from Dedup of Merge's %d (%d)",
				opts, got.NumTypes(), got.StringsLen(), want.NumTypes(), want.StringsLen())
		}
		if gm.Len() != wm.Len() {
			t.Fatalf("%+v: mapping of %d types, want %d", opts, gm.Len(), wm.Len())
		}
		for id := merged.FirstID(); id < merged.NextID(); id++ {
			if gm.Map(id) != wm.Map(id) {
				t.Fatalf("%+v: type %d maps to %d, Dedup's mapping to %d", opts, id, gm.Map(id), wm.Map(id))
			}
		}
	}
}

// TestMergeDedupGCCArchive: the members of an archive that ld -r makes
// of objects compiled by gcc -gbtf (the archive route's input).
func TestMergeDedupGCCArchive(t *testing.T) {
	members := gccMembers(t, 40)
	requireMergeDedupEqualsDedup(t, members)
	// Groups of members, as the archive route deduplicates them.
	for lo := 0; lo < len(members); lo += 16 {
		requireMergeDedupEqualsDedup(t, members[lo:min(lo+16, len(members))])
	}
}

// TestMergeDedupCases: closures cut from the vmlinux BTF (cycles, FWDs,
// typedef chains) and the hand-built cases.
func TestMergeDedupCases(t *testing.T) {
	_, units := closureUnits(t, 60)
	for i, us := range [][]unit{units, cyclicUnits(), fwdUnits(), enumFwdUnits()} {
		specs := make([]*btf.Spec, len(us))
		for j, u := range us {
			specs[j] = u.Spec
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { requireMergeDedupEqualsDedup(t, specs) })
	}
	t.Run("none", func(t *testing.T) { requireMergeDedupEqualsDedup(t, nil) })
}

// TestMergeDedupMalformed: a reference past a spec's last type and a
// string offset past its table are errors naming the spec and type, as
// Merge's are.
func TestMergeDedupMalformed(t *testing.T) {
	good := newUnit()
	good.ptr(good.int_("int", 4, true))
	for _, tc := range []struct {
		name string
		bad  func() *btf.Spec
		want string
	}{
		{"type", func() *btf.Spec {
			s := btf.NewSpec()
			s.AddRaw(0, btf.Info(btf.KindPtr, 0, false), 7)
			return s
		}, "spec 1 type [1]: refers to type 7, past the last type 1"},
		{"string", func() *btf.Spec {
			s := btf.NewSpec()
			s.AddRaw(1000, btf.Info(btf.KindInt, 0, false), 4, 32)
			return s
		}, "spec 1 type [1]: string offset 1000 past the end"},
		// The first bad type in order decides, whichever its fault.
		{"string then type", func() *btf.Spec {
			s := btf.NewSpec()
			s.AddRaw(1000, btf.Info(btf.KindInt, 0, false), 4, 32)
			s.AddRaw(0, btf.Info(btf.KindPtr, 0, false), 7)
			return s
		}, "spec 1 type [1]: string offset 1000 past the end"},
		{"type then string", func() *btf.Spec {
			s := btf.NewSpec()
			s.AddRaw(0, btf.Info(btf.KindPtr, 0, false), 7)
			s.AddRaw(1000, btf.Info(btf.KindInt, 0, false), 4, 32)
			return s
		}, "spec 1 type [1]: refers to type 7, past the last type 2"},
		// Far past MergeDedup's first chunks of types.
		{"late string", func() *btf.Spec {
			s := btf.NewSpec()
			for i := 0; i < 3*mergeChunk; i++ {
				s.AddRaw(0, btf.Info(btf.KindPtr, 0, false), 0)
			}
			s.AddRaw(1000, btf.Info(btf.KindInt, 0, false), 4, 32)
			s.AddRaw(0, btf.Info(btf.KindPtr, 0, false), 1<<20)
			return s
		}, fmt.Sprintf("spec 1 type [%d]: string offset 1000 past the end", 3*mergeChunk+1)},
		{"late type", func() *btf.Spec {
			s := btf.NewSpec()
			for i := 0; i < 3*mergeChunk; i++ {
				s.AddRaw(0, btf.Info(btf.KindPtr, 0, false), 0)
			}
			s.AddRaw(0, btf.Info(btf.KindPtr, 0, false), 1<<20)
			s.AddRaw(1000, btf.Info(btf.KindInt, 0, false), 4, 32)
			return s
		}, fmt.Sprintf("spec 1 type [%d]: refers to type %d", 3*mergeChunk+1, 1<<20)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := MergeDedup([]*btf.Spec{good.Spec, tc.bad()}, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if _, merr := Merge(good.Spec, tc.bad()); merr == nil || !strings.Contains(merr.Error(), tc.want) {
				t.Fatalf("Merge's error %v, want one saying %q as MergeDedup's", merr, tc.want)
			}
		})
	}
	if _, _, err := MergeDedup(nil, Options{Base: &Base{}}); err == nil {
		t.Errorf("MergeDedup took a prepared base")
	}
}
