package dwarf

import (
	godwarf "debug/dwarf"
	"path/filepath"
	"testing"
)

// TestPCRangeAndMemberOffset checks PCRange against debug/dwarf's Ranges
// for every entry with low_pc/high_pc, and MemberOffset against the
// ByteOffset debug/dwarf's type reader computes for every member of every
// structure, on the navigation inputs plus DWARF 2 and 3 objects (where
// member locations are expressions).
func TestPCRangeAndMemberOffset(t *testing.T) {
	objs := withOldDWARF(t)
	for _, obj := range objs {
		d, gd, closeBoth := openBoth(t, obj)
		r := d.NewReader()
		var e Entry
		np, nm := 0, 0
		var structOff Offset
		var members []uint64
		kids := false // a member has children (DW_TAG_LLVM_annotation)
		checkStruct := func() {
			if structOff == 0 {
				return
			}
			if kids {
				// debug/dwarf's type reader stops at a member with
				// children, so it cannot be the oracle for this struct.
				return
			}
			typ, err := gd.Type(godwarf.Offset(structOff))
			if err != nil {
				t.Fatalf("debug/dwarf Type(0x%x): %v", structOff, err)
			}
			st, ok := typ.(*godwarf.StructType)
			if !ok || st.Incomplete {
				return
			}
			if len(st.Field) != len(members) {
				t.Fatalf("%s: struct 0x%x: %d member offsets, debug/dwarf %d fields", filepath.Base(obj), structOff, len(members), len(st.Field))
			}
			for i, f := range st.Field {
				if uint64(f.ByteOffset) != members[i] {
					t.Fatalf("%s: struct 0x%x member %d: offset %d, debug/dwarf %d", filepath.Base(obj), structOff, i, members[i], f.ByteOffset)
				}
				nm++
			}
		}
		for i := range d.Units() {
			if d.Units()[i].Section != ".debug_info" {
				continue
			}
			if err := r.Reset(&d.Units()[i]); err != nil {
				t.Fatal(err)
			}
			for {
				ok, err := r.Next(&e)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				if lo, hi, ok := e.PCRange(); ok {
					gr := gd.Reader()
					gr.Seek(godwarf.Offset(e.Offset))
					ge, _ := gr.Next()
					want, err := gd.Ranges(ge)
					if err != nil || len(want) != 1 || want[0] != [2]uint64{lo, hi} {
						t.Fatalf("%s: DIE 0x%x: [%#x, %#x), debug/dwarf %x %v", filepath.Base(obj), e.Offset, lo, hi, want, err)
					}
					np++
				}
				switch {
				case e.Tag == TagStructureType && e.Children && e.Depth == 1:
					checkStruct()
					structOff, members, kids = e.Offset, members[:0], false
				case e.Tag == TagMember && structOff != 0 && e.Depth == 2:
					off := uint64(0)
					if f := e.Field(AttrDataMemberLocation); f != nil {
						v, ok := d.MemberOffset(f)
						if !ok {
							t.Fatalf("%s: DIE 0x%x: member location %v not understood", filepath.Base(obj), e.Offset, f.Class)
						}
						off = v
					}
					members = append(members, off)
					kids = kids || e.Children
				case e.Depth <= 1 && e.Tag != 0:
					checkStruct()
					structOff = 0
				}
			}
			checkStruct()
			structOff = 0
		}
		if np == 0 && nm == 0 {
			t.Errorf("%s: nothing checked", obj)
		}
		t.Logf("%s: %d PC ranges, %d member offsets equal to debug/dwarf's", filepath.Base(obj), np, nm)
		closeBoth()
	}
}
