package encode

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/dwarffacts"
)

// The DWARF facts hook (EachUnit): besides a unit's BTF, what pahole's
// DWARF loader knows and BTF cannot hold, keyed by the fragment's type
// IDs. The walk records DW_AT_alignment of struct, union and member
// entries (die.alignment, rec.align, item.align), whether a type entry is
// nested (rec.nested), and for types defined in a struct or union's body
// how many members came before (rec.after), and which VOLATILE stands for
// a DW_TAG_atomic_type (emitted only in this walk); collectFacts turns them, and
// the dimensions of multi-dimensional arrays (their subrange items), into
// a dwarffacts.Facts. Nothing here runs unless the walk asks for facts
// (walkConfig.facts, set by EachUnit).

// collectFacts builds the facts of the unit just emitted (c.ids set).
func (c *unitConv) collectFacts() *dwarffacts.Facts {
	f := &dwarffacts.Facts{}
	f.SetLanguage(c.lang)
	for i := range c.recs {
		r := &c.recs[i]
		if ref := c.idOf(i); ref != 0 {
			f.SetEntry(r.off, btf.TypeID(ref))
		}
		id := c.ids[i]
		if id == noID || id == 0 {
			continue
		}
		switch r.tag {
		case dwarf.TagAtomicType:
			f.SetAtomic(btf.TypeID(id))
		case dwarf.TagEnumerationType, dwarf.TagTypedef:
			if r.nested {
				f.SetNested(btf.TypeID(id))
			}
		case dwarf.TagStructureType, dwarf.TagClassType, dwarf.TagUnionType:
			if r.nested {
				f.SetNested(btf.TypeID(id))
			}
			if r.tag == dwarf.TagClassType {
				f.SetClass(btf.TypeID(id))
			}
			if r.has&hasDeclaration != 0 {
				continue
			}
			if r.align != 0 {
				f.SetAlign(btf.TypeID(id), r.align)
			}
			union := r.tag == dwarf.TagUnionType
			k := 0
			for j := r.first; j >= 0; j = c.items[j].next {
				it := &c.items[j]
				if it.kind != itemMember {
					continue
				}
				if !it.inBTF(union) {
					continue
				}
				if it.align != 0 {
					f.SetMemberAlign(btf.TypeID(id), k, it.align)
				}
				k++
			}
		case dwarf.TagArrayType:
			var dims []uint32
			for j := r.first; j >= 0; j = c.items[j].next {
				if c.items[j].kind == itemSubrange {
					dims = append(dims, uint32(c.items[j].loc))
				}
			}
			if len(dims) != 1 {
				if dims == nil {
					dims = []uint32{}
				}
				f.SetDims(btf.TypeID(id), dims)
			}
		}
	}
	for _, n := range c.nested {
		child, container := c.ids[n[0]], c.ids[n[1]]
		if child == noID || child == 0 || container == noID || container == 0 {
			continue
		}
		f.AddNestedIn(btf.TypeID(container), c.btfMemberIndex(n[1], c.recs[n[0]].after), btf.TypeID(child))
	}
	return f
}

// btfMemberIndex converts a count of a struct's member entries into a
// count of its BTF members (static members have none).
func (c *unitConv) btfMemberIndex(rec int32, entries int32) int {
	r := &c.recs[rec]
	union := r.tag == dwarf.TagUnionType
	k, n := 0, int32(0)
	for j := r.first; j >= 0 && n < entries; j = c.items[j].next {
		it := &c.items[j]
		if it.kind != itemMember {
			continue
		}
		n++
		if !it.inBTF(union) {
			continue
		}
		k++
	}
	return k
}

// collectDecls records where the unit's structs, unions, enums and
// typedefs are declared (Options.DeclInfo): their DW_AT_decl_file, named
// from the unit's line program as elfutils 0.196 names it (index 0 is no
// file before DWARF 5, the unit's primary file from DWARF 5 on), DW_AT_decl_line, and the
// entry's offset (-I prints it); r is moved to the unit of each entry
// (a merged unit's come from several). The entries are decoded again here so
// that the walk does not carry these attributes for every encode.
func (c *unitConv) collectDecls(r *dwarf.UnitReader, f *dwarffacts.Facts) error {
	var files []string
	loaded := false
	var e dwarf.Entry
	for i := range c.recs {
		rc := &c.recs[i]
		id := c.ids[i]
		if id == noID || id == 0 {
			continue
		}
		switch rc.tag {
		case dwarf.TagStructureType, dwarf.TagClassType, dwarf.TagUnionType, dwarf.TagEnumerationType, dwarf.TagTypedef:
		default:
			continue
		}
		if u := r.Unit(); u == nil || dwarf.Offset(rc.off) < u.First || dwarf.Offset(rc.off) >= u.End {
			// A merged unit's type from another of the file's units
			// (merged.go): its file names are that unit's.
			if u = r.Data().UnitAt(dwarf.Offset(rc.off)); u == nil {
				return fmt.Errorf("type entry at 0x%x: in no unit", rc.off)
			}
			if err := r.Reset(u); err != nil {
				return err
			}
			loaded = false
		}
		if err := r.EntryAt(dwarf.Offset(rc.off), &e); err != nil {
			return err
		}
		d := dwarffacts.Decl{Offset: rc.off}
		for j := range e.Fields {
			fl := &e.Fields[j]
			switch fl.Attr {
			case dwarf.AttrDeclFile:
				// Index 0 is no file before DWARF 5 (LineFiles has ""
				// there) and the unit's primary file from DWARF 5 on,
				// which elfutils 0.196's libdw (pahole 1.32's in Debian
				// sid) names; 0.188's named none.
				if !loaded {
					var err error
					if files, err = r.LineFiles(); err != nil {
						return err
					}
					loaded = true
				}
				if fl.Val < uint64(len(files)) {
					d.File = files[fl.Val] // a copy, shared by the unit's types
				}
			case dwarf.AttrDeclLine:
				d.Line = uint32(fl.Val)
			}
		}
		if d != (dwarffacts.Decl{}) {
			f.SetDecl(btf.TypeID(id), d)
		}
	}
	return nil
}
