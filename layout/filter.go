package layout

import (
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// Which types a listing selects: pahole's class__filter and cu__filter
// with the options of Options' "which structs and unions" group.

// unitExcluded is pahole's cu__filter: a compile unit whose name starts
// with CUExcludePrefix is skipped whole.
func (l *Listing) unitExcluded(name string) bool {
	p := l.opts.CUExcludePrefix
	return p != nil && strings.HasPrefix(name, *p)
}

// filter is pahole's class__filter: whether the struct or union id
// (or a FWD of one) is selected. Like pahole it finds holes and infers
// attributes on the way, for types it then rejects too, which later
// printing of other types sees (the inference is order-dependent).
func (l *Listing) filter(u *unit, id btf.TypeID, t btf.Type) bool {
	return l.filterWith(u, id, t, false)
}

// filterWith is filter; lazy leaves out what it finds on the way that
// its answer does not need: the class and its holes, unless an option
// asks about them (filterNeedsClass). Those are caches that any later
// use builds alike and every reader of holes searches first, so the
// answer and what is printed are the same (parallel.go asks lazily, and
// filter itself for the types it prints).
func (l *Listing) filterWith(u *unit, id btf.TypeID, t btf.Type, lazy bool) bool {
	o := &l.opts
	if o.JustUnions && !t.IsUnion() {
		return false
	}
	if o.JustStructs && !t.IsStruct() {
		return false
	}
	if o.JustPacked && !u.inferPacked(u.class(id)) {
		return false
	}
	nested := u.facts.Nested(id)
	if nested {
		// Defined inside a function or another type.
		if !lazy {
			u.class(id).findHoles()
		}
		if !o.ShowPrivateClasses {
			return false
		}
	}
	if t.Kind() == btf.KindFwd {
		return false
	}
	name := t.Name()
	if !o.AnonInclude && name == "" {
		return false
	}
	if o.ExcludePrefix != nil || o.IncludePrefix != nil {
		if name == "" {
			name = u.firstTypedefName(id)
		}
		if p := o.ExcludePrefix; p != nil && name != "" && strings.HasPrefix(name, *p) {
			return false
		}
		if p := o.IncludePrefix; p != nil && name != "" && !strings.HasPrefix(name, *p) {
			return false
		}
	}
	if p := o.DeclExcludePrefix; p != nil {
		file := u.declFile(id)
		if file == "" || strings.HasPrefix(file, *p) {
			return false
		}
	}
	if !t.IsStruct() {
		// pahole 1.32 applies the struct-only filters to unions as well,
		// with --unions too (1.31 let --unions skip them): a union has
		// no holes, bit holes or padding, is never packable and has no
		// flexible array (1.32 no longer matches a union whose last
		// member is an array of no elements).
		return !(o.JustStructs || o.Packable || uint16(o.NrHoles) != 0 || uint16(o.NrBitHoles) != 0 ||
			o.HoleSizeGE != 0 || uint16(o.PaddingGE) != 0 || o.WithFlexibleArray || o.WithEmbeddedFlexibleArray)
	}
	if lazy && !l.filterNeedsClass() {
		return true
	}
	c := u.class(id)
	if !nested {
		c.findHoles()
	}
	// pahole keeps these thresholds in 16 bits.
	if uint16(c.nrHoles) < uint16(o.NrHoles) ||
		c.padding < uint16(o.PaddingGE) ||
		uint16(c.nrBitHoles) < uint16(o.NrBitHoles) ||
		(o.HoleSizeGE != 0 && !c.hasHoleGE(uint16(o.HoleSizeGE))) {
		return false
	}
	if o.Packable && !u.packable(c) {
		return false
	}
	if o.WithFlexibleArray && !u.hasFlexibleArray(c) {
		return false
	}
	if o.WithEmbeddedFlexibleArray && !u.hasEmbeddedFlexibleArray(c) {
		return false
	}
	return true
}

// filterNeedsClass reports whether filter's answer for a struct depends
// on its members: holes, padding, packing, flexible arrays.
func (l *Listing) filterNeedsClass() bool {
	o := &l.opts
	return o.NrHoles != 0 || o.PaddingGE != 0 || o.NrBitHoles != 0 || o.HoleSizeGE != 0 ||
		o.Packable || o.WithFlexibleArray || o.WithEmbeddedFlexibleArray
}

// hasHoleGE is pahole's class__has_hole_ge: a hole after some member is
// at least size bytes (the hole before the first member does not count).
func (c *class) hasHoleGE(size uint16) bool {
	if c.nrHoles == 0 {
		return false
	}
	for i := range c.members {
		if c.members[i].hole >= int32(size) {
			return true
		}
	}
	return false
}

// firstTypedef is pahole's cu__find_first_typedef_of_type: the first
// typedef, in type ID order, of exactly the type id (not through
// qualifiers); 0 when there is none.
func (u *unit) firstTypedef(id btf.TypeID) btf.TypeID {
	if id == 0 {
		return 0
	}
	if u.typedefOf == nil {
		u.typedefOf = make(map[btf.TypeID]btf.TypeID)
		for tid := btf.TypeID(1); tid < u.spec.NextID(); tid++ {
			t := u.spec.Type(tid)
			if t.Kind() != btf.KindTypedef {
				continue
			}
			if _, ok := u.typedefOf[t.Ref()]; !ok {
				u.typedefOf[t.Ref()] = tid
			}
		}
	}
	return u.typedefOf[id]
}

// firstTypedefName is the name of the type's first typedef, "" when it
// has none.
func (u *unit) firstTypedefName(id btf.TypeID) string {
	if td := u.firstTypedef(id); td != 0 {
		return u.spec.Type(td).Name()
	}
	return ""
}

// declFile is the file the type id was declared in as pahole's DWARF
// loader names it; "" when unknown, as always from BTF (the facts have it
// when the encoder was asked for it: encode.Options.DeclInfo).
func (u *unit) declFile(id btf.TypeID) string {
	return u.facts.Decl(id).File
}
