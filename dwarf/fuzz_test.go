package dwarf

import (
	"errors"
	"reflect"
	"testing"

	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// exercise drives every reader entry point over d, as an encoder would:
// walk each unit, follow references, resolve strings and bytes, read
// location and range lists, skip children. Errors are fine; any error
// must be a *DecodeError (naming section and offset).
func exercise(t *testing.T, d *Data) {
	check := func(err error) bool {
		if err == nil {
			return true
		}
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("error without section and offset: %v", err)
		}
		return false
	}
	r := d.NewReader()
	var e, ref Entry
	for i := range d.Units() {
		if !check(r.Reset(&d.Units()[i])) {
			continue
		}
		for n := 0; ; n++ {
			ok, err := r.Next(&e)
			if !check(err) || !ok {
				break
			}
			for j := range e.Fields {
				f := &e.Fields[j]
				switch f.Class {
				case ClassString, ClassStringAlt:
					_, err = d.String(f)
					check(err)
				case ClassReference:
					check(d.EntryAt(f.Ref(), &ref))
				case ClassReferenceSig:
					d.TypeUnit(f.Val)
				case ClassLocList, ClassLocListPtr:
					check(r.LocList(f, func(LocEntry) error { return nil }))
				case ClassRngList, ClassRangeListPtr:
					check(r.Ranges(f, func(uint64, uint64) error { return nil }))
				}
				d.Bytes(f)
			}
			if n%3 == 1 {
				check(r.SkipChildren())
			}
		}
	}
	_, err := CountTags(d, 2)
	check(err)
}

// FuzzUnit feeds arbitrary .debug_info, .debug_abbrev and auxiliary section
// bytes (used as every string, offset and list section) to the unit
// decoder. It must never panic or hang; bad input gives a DecodeError.
func FuzzUnit(f *testing.F) {
	for _, v := range []testc.Variant{
		{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}},
		{CC: testc.Clang, Flags: []string{"-gdwarf-5", "-O0"}},
		{CC: testc.GCC, Flags: []string{"-gdwarf-4", "-O0", "-fdebug-types-section"}},
	} {
		if !testc.Have(v.CC) {
			continue
		}
		for _, src := range testc.CorpusFiles(f) {
			obj := testc.Compile(f, src, v)
			ef, err := elfx.Open(obj)
			if err != nil {
				f.Fatal(err)
			}
			d, err := FromELF(ef)
			if err != nil {
				f.Fatal(err)
			}
			s := d.sec
			aux := s.Str
			if len(s.StrOffsets) > 0 {
				aux = s.StrOffsets
			}
			f.Add(append([]byte(nil), s.Info...), append([]byte(nil), s.Abbrev...), append([]byte(nil), aux...), uint8(0))
			if len(s.Types) > 0 {
				f.Add(append([]byte(nil), s.Types...), append([]byte(nil), s.Abbrev...), append([]byte(nil), s.Str...), uint8(1))
			}
			ef.Close()
		}
	}
	f.Fuzz(func(t *testing.T, info, abbrev, aux []byte, flags uint8) {
		s := Sections{Abbrev: abbrev, Str: aux, LineStr: aux, StrOffsets: aux, Addr: aux,
			Rnglists: aux, Loclists: aux, Ranges: aux, Loc: aux, BigEndian: flags&2 != 0}
		if flags&1 != 0 {
			s.Types = info
		} else {
			s.Info = info
		}
		d, err := New(s)
		samePeeked(t, s, d, err)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error without section and offset: %v", err)
			}
			return
		}
		scanAgrees(t, d)
		exercise(t, d)
	})
}

// copyPeek reads as elfx.File.ReadView does for a view that is not of a
// mapping.
func copyPeek(p, view []byte, off int) int {
	if off < 0 || off >= len(view) {
		return 0
	}
	return copy(p, view[off:])
}

// samePeeked checks that reading s's unit headers through a peek
// function (FromELF reads them from the file) finds what New, reading
// them in place, found: the same units, or the same error.
func samePeeked(t *testing.T, s Sections, d *Data, err error) {
	t.Helper()
	dp, perr := newData(s, copyPeek)
	if (err == nil) != (perr == nil) || err != nil && err.Error() != perr.Error() {
		t.Fatalf("unit headers read in place: %v; through peek: %v", err, perr)
	}
	if err == nil && !reflect.DeepEqual(d.units, dp.units) {
		t.Fatalf("unit headers read in place and through peek differ:\n%+v\n%+v", d.units, dp.units)
	}
}

// scanAgrees checks UsesForm's scan of each unit's abbreviation table
// against the table parsed in full: a table the scan finds clean parses,
// and a form the parsed table declares the scan finds (it may find more:
// a declaration whose code an earlier one of the table took, which the
// parsed table drops and pahole's walk of the table sees).
func scanAgrees(t *testing.T, d *Data) {
	t.Helper()
	for i := range d.units {
		u := &d.units[i]
		for _, f := range []Form{FormRefAddr, FormStrp, FormData1} {
			uses, ok := d.scanForms(u.AbbrevOffset, f)
			if !ok {
				continue
			}
			tab, err := parseAbbrev(d.sec.Abbrev, u.AbbrevOffset, unitFormat{version: u.Version, offSize: u.OffsetSize, addrSize: u.AddrSize})
			if err != nil {
				t.Fatalf("unit %d: the scan finds the table at 0x%x clean, parsing it fails: %v", i, u.AbbrevOffset, err)
			}
			declared := false
			for _, a := range tab.dense {
				declared = declared || a.uses(f)
			}
			for _, a := range tab.sparse {
				declared = declared || a.uses(f)
			}
			if declared && !uses {
				t.Fatalf("unit %d: the table at 0x%x declares form 0x%x, the scan does not find it", i, u.AbbrevOffset, f)
			}
		}
	}
}
