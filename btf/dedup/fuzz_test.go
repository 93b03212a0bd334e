package dedup

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/cdump"
	"github.com/btfkit/btfkit/internal/testsupport/btfgen"
	"github.com/btfkit/btfkit/internal/testsupport/testc/libbpfdedup"
)

// FuzzDedup deduplicates random valid BTF (btfgen.Random: every kind,
// repeated names, copies of runs of types, pointer cycles through
// structs) and checks what must hold for any input: the result passes
// Check, deduplicating it again changes no type, deduplicating two
// copies of the input gives the same bytes as one copy, and a split BTF
// made of a second copy deduplicated against the first (as a base)
// keeps none of its types but variables and their sections (which are
// never matched with a base's). Where either of the last two does not
// hold, libbpf's btf__dedup of the same input is the oracle: btfkit
// must keep no more types than it. Both are skipped for BTF with an
// enum declaration that two full enums of its name could complete (the
// choice depends on the order they are met in).
func FuzzDedup(f *testing.F) {
	f.Add([]byte("\x06\x01\x02\x03\x04\x05\x01\x11\x05\x06\x00\x11\x01\x10\x07\x02\x03\x0c\x0d\x0e"))
	f.Add(bytes.Repeat([]byte{6, 3, 1, 2, 0, 17, 0, 8, 9, 7, 1, 4}, 20))
	f.Add(bytes.Repeat([]byte{11, 2, 1, 12, 0, 13, 2, 14, 1, 16, 3, 17, 9}, 30))
	f.Fuzz(func(t *testing.T, data []byte) {
		a := btfgen.Random(data, 3000)
		if err := a.Check(); err != nil {
			t.Fatalf("btfgen made invalid BTF: %v", err)
		}
		d, _, err := Dedup(a, Options{})
		if err != nil {
			t.Fatalf("Dedup of valid BTF: %v", err)
		}
		if err := d.Check(); err != nil {
			t.Fatalf("Dedup's output fails Check: %v", err)
		}
		if d.NumTypes() > a.NumTypes() {
			t.Fatalf("Dedup made %d types of %d", d.NumTypes(), a.NumTypes())
		}
		want := typesOf(d)
		d2, _, err := Dedup(d, Options{})
		if err != nil {
			t.Fatalf("Dedup of Dedup's output: %v", err)
		}
		if typesOf(d2) != want {
			t.Fatalf("Dedup is not idempotent: %d types, then %d", d.NumTypes(), d2.NumTypes())
		}
		if ambiguousEnumDecl(a) {
			// Which of the full enums of its name an enum
			// declaration takes depends on the order they are met
			// in (libbpf: hash bucket order), so a second copy, or
			// a copy split against the first, may take another and
			// keep the types that refer to it.
			return
		}
		aa, err := Merge(a, a)
		if err != nil {
			t.Fatal(err)
		}
		daa, _, err := Dedup(aa, Options{})
		if err != nil {
			t.Fatalf("Dedup of A+A: %v", err)
		}
		if !bytes.Equal(daa.Marshal(nil), d.Marshal(nil)) {
			noWorseThanLibbpf(t, nil, aa, fmt.Sprintf("Dedup(A+A) has %d types, Dedup(A) %d", daa.NumTypes(), d.NumTypes()))
		}
		split, err := MergeOnto(d, a)
		if err != nil {
			t.Fatal(err)
		}
		ds, _, err := Dedup(split, Options{})
		if err != nil {
			t.Fatalf("Dedup of A split against Dedup(A): %v", err)
		}
		if id, k, kept := keptBesidesVars(ds); kept {
			// libbpf keeps such types too where A has a struct
			// reaching a FWD of its own name (struct s { struct s
			// *p; } through a FWD): Dedup(A) resolved that FWD, so
			// the base's struct is already the walk's hypothesis for
			// A's struct when the FWD meets it. libbpf is the
			// oracle then.
			noWorseThanLibbpf(t, d, a, fmt.Sprintf("A split against Dedup(A) keeps type [%d] %v of A's %d types", id, k, a.NumTypes()))
		}
		if err := ds.Check(btf.CheckBase()); err != nil {
			t.Fatalf("split output fails Check: %v", err)
		}
	})
}

// ambiguousEnumDecl reports whether s has an enum declaration (an ENUM
// or ENUM64 without values) whose name two or more different full enums
// have.
func ambiguousEnumDecl(s *btf.Spec) bool {
	full := map[string]map[string]bool{} // name -> the full enums' records
	var decls []string
	for id := s.FirstID(); id < s.NextID(); id++ {
		ty := s.Type(id)
		if k := ty.Kind(); k != btf.KindEnum && k != btf.KindEnum64 {
			continue
		}
		if ty.Vlen() == 0 {
			decls = append(decls, ty.Name())
			continue
		}
		if full[ty.Name()] == nil {
			full[ty.Name()] = map[string]bool{}
		}
		var rec strings.Builder
		fmt.Fprintf(&rec, "%x %d", ty.Info(), ty.Size())
		for i := 0; i < ty.Vlen(); i++ {
			e := ty.Enum(i)
			fmt.Fprintf(&rec, " %q=%d", s.String(e.NameOff), e.Val)
		}
		full[ty.Name()][rec.String()] = true
	}
	for _, name := range decls {
		if len(full[name]) > 1 {
			return true
		}
	}
	return false
}

// keptBesidesVars finds a type of split BTF ds that is not a variable,
// its section or a tag of a variable (the base's are never candidates
// for those, nor are they in libbpf).
func keptBesidesVars(ds *btf.Spec) (btf.TypeID, btf.Kind, bool) {
	for id := ds.FirstID(); id < ds.NextID(); id++ {
		ty := ds.Type(id)
		switch k := ty.Kind(); {
		case k == btf.KindVar, k == btf.KindDatasec:
		case k == btf.KindDeclTag && ds.Type(ty.Ref()).Kind() == btf.KindVar:
		default:
			return id, k, true
		}
	}
	return 0, 0, false
}

// noWorseThanLibbpf deduplicates in (standalone BTF; split against base
// when base is not nil) keeping variables as libbpf does, and fails with
// why unless libbpf's btf__dedup of the same input keeps as many types
// or more: where a property FuzzDedup checks does not hold for libbpf
// either, btfkit must still merge what libbpf merges (module BTF is
// libbpf's), and may merge more (the co-inductive fallback, typedefs
// mapped from a walk).
func noWorseThanLibbpf(t *testing.T, base, in *btf.Spec, why string) {
	t.Helper()
	m, basePath := in, ""
	if base != nil {
		var err error
		if m, err = MergeOnto(base, in); err != nil {
			t.Fatal(err)
		}
		basePath = writeTemp(t, "base.btf", base.Marshal(nil))
	}
	ours, _, err := Dedup(m, Options{KeepDuplicateVars: true})
	if err != nil {
		t.Fatal(err)
	}
	inPath := writeTemp(t, "in.btf", in.Marshal(nil))
	var raw []byte
	if base != nil {
		raw = libbpfdedup.DedupStandaloneOnto(t, inPath, basePath)
	} else {
		raw = libbpfdedup.Dedup(t, inPath, "")
	}
	lib := mustParse(t, raw, base)
	if ours.NumTypes() > lib.NumTypes() {
		var o, l bytes.Buffer
		cdump.WriteRaw(&o, ours)
		cdump.WriteRaw(&l, lib)
		t.Fatalf("%s, and keeps more than libbpf:\n--- ours\n%s--- libbpf\n%s", why, o.String(), l.String())
	}
}

// typesOf spells out a Spec's types, each record with its strings in
// place of their offsets: equal for two Specs with the same types in the
// same order, whatever their string tables hold (Dedup keeps the strings
// of the types it drops, in their places, as libbpf does).
func typesOf(s *btf.Spec) string {
	var b strings.Builder
	for id := s.FirstID(); id < s.NextID(); id++ {
		nameOff, info, sizeType, ext := s.RawType(id)
		ext = append([]uint32(nil), ext...)
		var names []string
		btf.ForEachStringRef(info, &nameOff, ext, func(off *uint32) {
			names = append(names, s.String(*off))
			*off = 0
		})
		fmt.Fprintf(&b, "%x %x %v %q\n", info, sizeType, ext, names)
	}
	return b.String()
}
