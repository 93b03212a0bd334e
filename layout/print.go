package layout

import (
	"github.com/btfkit/btfkit/btf"
)

// conf is pahole's conf_fprintf: how the type being printed is laid out.
// It is copied by value into nested printing, as pahole copies it, so a
// nested struct sees its container's settings as they were when it was
// reached; only cachelinep is shared.
type conf struct {
	prefix, suffix       string
	hasPrefix, hasSuffix bool // pahole's NULL versus a string

	indent                int
	typeSpacing           int
	nameSpacing           int
	emitStats             bool
	suppressOffsetComment bool
	relOffset             bool
	baseOffset            uint32
	cachelinep            *uint32
	unionMember           bool
	lastMember            bool
	firstMember           bool
	noSemicolon           bool

	hex bool // --hex

	// How a layout is printed (print_options.go sets them from Options).
	expandTypes              bool // -E
	expandPointers           bool // -p
	suppressComments         bool
	suppressAlignedAttribute bool // --suppress_aligned_attribute
	suppressPacked           bool // --suppress_packed
	suppressForcePaddings    bool // --suppress_force_paddings
	classesAsStructs         bool // --classes_as_structs
	showOnlyDataMembers      bool // -M, and --show_private_classes
	showDeclInfo             bool // -I
	showFirstBiggest         bool // -l
	flatArrays               bool // --flat_arrays

	// noAlignmentInfo is pahole's has_alignment_info unset: a conf made
	// for one printing (--compile's) does not know the loader has
	// alignments, and prints no forced paddings.
	noAlignmentInfo bool
}

// Spacing pahole uses when the caller sets none.
const (
	defaultTypeSpacing      = 26
	defaultNameSpacing      = 23
	defaultUnionNameSpacing = 21
)

// packedAttrLen is sizeof("__attribute__((__packed__))") in C, NUL included,
// which pahole adds to an inline struct's name length.
const packedAttrLen = 28

// printTop is pahole's tag__fprintf for a type printed on its own: a
// struct, union, enum or typedef, followed by ';'.
func (u *unit) printTop(b *buf, id btf.TypeID, c conf) {
	t, _ := u.typ(id)
	if c.nameSpacing == 0 || c.typeSpacing == 0 {
		if c.nameSpacing == 0 {
			switch {
			case c.expandTypes:
				c.nameSpacing = 55
			case t.IsUnion():
				c.nameSpacing = defaultUnionNameSpacing
			default:
				c.nameSpacing = defaultNameSpacing
			}
		}
		if c.typeSpacing == 0 {
			c.typeSpacing = defaultTypeSpacing
		}
	}
	u.expansions, u.cut = 0, false
	u.printTag(b, id, c)
	if u.cut && u.opts != nil && u.opts.ExpansionsCut != nil {
		u.opts.ExpansionsCut(t.Name())
	}
}

// printTag is the rest of pahole's tag__fprintf, also used for the types
// a struct's body defines (DWARF from clang).
func (u *unit) printTag(b *buf, id btf.TypeID, c conf) {
	t, _ := u.typ(id)
	if c.expandTypes {
		u.raiseRecursion(id)
		defer u.lowerRecursion(id)
	}
	if c.showDeclInfo {
		u.printDeclInfo(b, id, c) // decl_info.go
	}
	b.Tabs(c.indent)
	switch {
	case t.Kind() == btf.KindArray:
		u.printArray(b, id, "array", true, c)
	case t.IsEnum():
		u.printEnum(b, t, c)
	case t.Kind() == btf.KindTypedef:
		u.printTypedef(b, t, c)
	case t.IsStruct():
		u.printClass(b, u.class(id), c)
	case t.Kind() == btf.KindFuncProto:
		u.writeFtype(b, t, "", false, false, 0, true)
	case t.IsUnion():
		u.printUnion(b, u.class(id), c)
	default:
		b.Str("/* tag__fprintf: " + u.dwarfTagName(t) + " tag not supported! */")
	}
	if !c.noSemicolon {
		b.Byte(';')
	}
}

// printTypedef is pahole's typedef__fprintf.
func (u *unit) printTypedef(b *buf, t btf.Type, c conf) {
	name := t.Name()
	b.Str("typedef ")
	if t.Ref() == 0 {
		b.Str("void ")
		b.Str(name)
		return
	}
	tt, ok := u.typ(t.Ref())
	// An _Atomic typedef says so and goes on with the type under it
	// (pahole prints this keyword here, not through tag__name).
	for n := 0; ok && n < maxDepth && tt.Kind() == btf.KindVolatile && u.facts.Atomic(tt.ID); n++ {
		b.Str("_Atomic ")
		tt, ok = u.typ(tt.Ref())
	}
	if !ok {
		b.Str("<ERROR> ")
		b.Str(name)
		return
	}
	switch {
	case tt.Kind() == btf.KindArray:
		u.printArray(b, tt.ID, name, true, c)
		return
	case tt.Kind() == btf.KindPtr:
		if tt.Ref() != 0 {
			if pt, ok := u.typ(tt.Ref()); ok && pt.Kind() == btf.KindFuncProto {
				u.writeFtype(b, pt, name, false, true, 0, true)
				return
			}
		}
	case tt.Kind() == btf.KindFuncProto:
		u.writeFtype(b, tt, name, false, false, 0, true)
		return
	case tt.IsStruct():
		if tt.Name() != "" && !c.expandTypes {
			b.Str("struct " + u.nameOf(tt) + " " + name)
			return
		}
		cl := u.class(tt.ID)
		if !c.suppressComments {
			cl.findHoles()
		}
		c.typeSpacing -= 8
		c.suffix, c.hasSuffix = name, true
		u.printClass(b, cl, c)
		return
	case tt.IsUnion():
		u.printUnionDecl(b, tt, name, true, c)
		return
	case tt.IsEnum():
		if tt.Name() != "" {
			b.Str("enum " + u.nameOf(tt) + " " + name)
			return
		}
		c.suffix, c.hasSuffix = name, true
		u.printEnum(b, tt, c)
		return
	}
	b.Str(u.tagName(tt.ID, 512))
	b.Byte(' ')
	b.Str(name)
}

// printEnum is pahole's enumeration__fprintf.
func (u *unit) printEnum(b *buf, t btf.Type, c conf) {
	b.Str("enum")
	if t.Name() != "" {
		b.Byte(' ')
		b.Str(u.nameOf(t))
	}
	if t.Vlen() == 0 {
		return
	}
	b.Str(" {\n")
	maxLen := u.enumNameLen(t)
	signed := t.KindFlag()
	for i := 0; i < t.Vlen(); i++ {
		e := t.Enum(i)
		b.Tabs(c.indent)
		b.Byte('\t')
		b.PadRight(t.Spec().String(e.NameOff), int(maxLen))
		b.Str(" = ")
		switch {
		case c.hex:
			b.Str(numStr(e.Val, true))
		case signed:
			b.Int(int64(e.Val))
		default:
			b.Uint(e.Val)
		}
		b.Str(",\n")
	}
	b.Tabs(c.indent)
	b.Byte('}')
	if enumOrFloatSize(t) != 4 {
		b.Str(" __attribute__((__packed__))")
	}
	if c.hasSuffix {
		b.Byte(' ')
		b.Str(c.suffix)
	}
}

func (u *unit) enumNameLen(t btf.Type) uint16 {
	if n, ok := u.enumLen[t.ID]; ok {
		return n
	}
	var n uint16
	for i := 0; i < t.Vlen(); i++ {
		if l := uint16(len(t.Spec().String(t.Enum(i).NameOff))); l > n {
			n = l
		}
	}
	if u.enumLen == nil {
		u.enumLen = make(map[btf.TypeID]uint16)
	}
	u.enumLen[t.ID] = n
	return n
}

// printArray is pahole's array_type__fprintf: the element type and name,
// then each dimension; a last member's empty dimension is "[]".
func (u *unit) printArray(b *buf, id btf.TypeID, name string, named bool, c conf) {
	t := u.spec.Type(id)
	elem, dims := u.array(id, t.Array())
	et, ok := u.typ(elem)
	if !ok && elem != 0 {
		b.PadRight("<ERROR", c.typeSpacing)
		b.Str("> " + name)
		return
	}
	if len(dims) >= 1 && dims[0] == 0 && ok && et.Kind() == btf.KindConst {
		elem = et.Ref()
	}
	u.printType(b, elem, name, named, c)
	single := c.lastMember && c.firstMember
	if c.flatArrays {
		printFlatDims(b, dims, c.lastMember && !single && !c.unionMember) // flat_arrays.go
		return
	}
	for _, d := range dims {
		if d != 0 || !c.lastMember || single || c.unionMember {
			b.Byte('[')
			b.Uint(uint64(d))
			b.Byte(']')
		} else {
			b.Str("[]")
		}
	}
}

// skipTagAnnotations follows TYPE_TAGs.
func (u *unit) skipTagAnnotations(id btf.TypeID) btf.TypeID {
	for n := btf.TypeID(0); n < u.spec.NextID() && id != 0; n++ { // longer chains loop
		t, ok := u.typ(id)
		if !ok || t.Kind() != btf.KindTypeTag || t.Ref() == id {
			break
		}
		id = t.Ref()
	}
	return id
}

// innerStruct is what pahole's type__fprintf does to its conf before
// printing a struct, union or enum in place.
func innerStruct(c *conf, name string, named, suppressOffsetComment bool) {
	c.hasPrefix, c.prefix = false, ""
	c.suffix, c.hasSuffix = name, named
	c.emitStats = false
	c.suppressOffsetComment = suppressOffsetComment
}

// printType is pahole's type__fprintf: a type and the name declared with
// it, padded to the type spacing; structs, unions and enums without a name
// are printed in place.
func (u *unit) printType(b *buf, id btf.TypeID, name string, named bool, c conf) {
	t, ok := u.typ(id)
	if !ok || !u.enter() {
		u.typeNotFound(b, name, named, c)
		return
	}
	defer u.leave()
	expandTypes, suppressOffsetComment := c.expandTypes, c.suppressOffsetComment
	if c.expandPointers || expandTypes {
		e, ok := u.expand(b, t, id, name, named, &c) // expand.go
		if e.counted != 0 {
			defer u.lowerRecursion(e.counted)
		}
		if !ok {
			return
		}
		if e.typedefs != 0 {
			u.inPlace = append(u.inPlace, e.typedefs)
			defer func() { u.inPlace = u.inPlace[:len(u.inPlace)-1] }()
		}
		t, id, name, named = e.t, e.id, e.name, e.named
		expandTypes, suppressOffsetComment = e.expandTypes, e.suppressOffsetComment
	}
	if t.IsStruct() || t.IsUnion() || t.IsEnum() {
		innerStruct(&c, name, named, suppressOffsetComment)
	}
	for steps := 0; ; steps++ {
		if steps == maxDepth { // qualifiers that qualify themselves
			u.typeNotFound(b, name, named, c)
			return
		}
		switch k := t.Kind(); {
		case k == btf.KindPtr:
			if pid := u.skipTagAnnotations(t.Ref()); pid != 0 {
				pt, ok := u.typ(pid)
				if !ok {
					u.typeNotFound(b, name, named, c)
					return
				}
				if pt.Kind() == btf.KindFuncProto {
					u.writeFtype(b, pt, cname(name, named), false, true, c.typeSpacing, true)
					return
				}
				if (pt.IsStruct() || pt.IsUnion() || pt.IsEnum()) && pt.Name() == "" {
					name, named = trunc("* "+cname(name, named), 258), true
					c.relOffset = true
					t, id = pt, pid
					c.typeSpacing -= 8
					innerStruct(&c, name, named, suppressOffsetComment)
					continue
				}
			}
			u.printDefault(b, id, name, named, c)
		case k == btf.KindFuncProto:
			u.writeFtype(b, t, cname(name, named), false, false, c.typeSpacing, true)
		case k == btf.KindConst || k == btf.KindVolatile && u.facts.Atomic(id):
			// const and _Atomic are written before the type; volatile
			// goes by tag__name (the default case).
			kw := "const "
			if k == btf.KindVolatile {
				kw = "_Atomic "
			}
			b.Str(kw)
			c.typeSpacing -= len(kw)
			if nt, ok := u.typ(t.Ref()); ok {
				t, id = nt, t.Ref()
				continue
			}
			u.printDefault(b, id, name, named, c)
		case k == btf.KindArray:
			u.printArray(b, id, name, named, c)
		case t.IsStruct():
			// Under -p pahole's own check ends every chain of named
			// structs, not of anonymous ones (printed in place where
			// pointed to); without -p only malformed BTF holds a
			// struct in itself.
			loops := (!c.expandPointers || t.Name() == "") && u.loopsInPlace(id, c.expandPointers)
			if t.Name() != "" && (!expandTypes || loops) {
				kw := u.structKeyword(id, c) // class.go
				b.Str(kw + " ")
				b.PadRight(u.nameOf(t), c.typeSpacing-7)
				b.Byte(' ')
				b.Str(name)
				return
			}
			if loops {
				u.typeNotFound(b, name, named, c)
				return
			}
			u.inPlace = append(u.inPlace, id)
			defer func() { u.inPlace = u.inPlace[:len(u.inPlace)-1] }()
			cl := u.class(id)
			if !c.suppressComments {
				cl.findHoles()
			}
			c.typeSpacing -= 8
			u.printClass(b, cl, c)
		case t.IsUnion():
			u.printUnionDecl(b, t, name, named, c)
		case t.IsEnum():
			if t.Name() != "" && !expandTypes {
				b.Str("enum ")
				b.PadRight(u.nameOf(t), c.typeSpacing-5)
				b.Byte(' ')
				b.Str(name)
				return
			}
			u.printEnum(b, t, c)
		case k == btf.KindTypeTag:
			nt, ok := u.typ(t.Ref())
			if !ok {
				u.typeNotFound(b, name, named, c)
				return
			}
			t, id = nt, t.Ref()
			continue
		default:
			u.printDefault(b, id, name, named, c)
		}
		return
	}
}

// loopsInPlace reports whether printing struct or union id in place
// would repeat forever, where pahole recurses until its stack runs out:
// the type is being printed in place further out already, and since then
// nothing was printed in place or followed that pahole does only once
// along a chain of pointers. Without -p (pointers false) that is nothing:
// the type holds itself by value, which only malformed BTF does. With -p
// it is a named struct printed in place or a typedef followed; the rest
// on the way (unions, which pahole prints in place whatever its loop
// check says, anonymous structs, pointers and qualifiers) is printed the
// same way every time, so the stretch repeats itself, as for a union
// pointing to itself under -E -p. btfkit prints the type by name there,
// or an error for an anonymous one.
func (u *unit) loopsInPlace(id btf.TypeID, pointers bool) bool {
	for i := len(u.inPlace) - 1; i >= 0; i-- {
		o := u.inPlace[i]
		if o == id {
			return true
		}
		if !pointers {
			continue
		}
		if t, ok := u.typ(o); ok && (t.IsStruct() && t.Name() != "" || t.Kind() == btf.KindTypedef) {
			return false
		}
	}
	return false
}

// cname is a C string argument: NULL prints as "(null)" through printf's
// %s, which pahole does for an anonymous member of a plain type.
func cname(name string, named bool) string {
	if !named {
		return "(null)"
	}
	return name
}

func (u *unit) printDefault(b *buf, id btf.TypeID, name string, named bool, c conf) {
	b.PadRight(u.tagName(id, nameBuf), c.typeSpacing)
	b.Byte(' ')
	b.Str(cname(name, named))
}

func (u *unit) typeNotFound(b *buf, name string, named bool, c conf) {
	b.PadRight("<ERROR", c.typeSpacing)
	b.Str("> ")
	b.Str(cname(name, named))
}

// printUnionDecl is pahole's union_decl__fprintf: a named union by name,
// an anonymous one in place.
func (u *unit) printUnionDecl(b *buf, t btf.Type, name string, named bool, c conf) {
	loops := u.loopsInPlace(t.ID, c.expandPointers)
	if t.Name() != "" && (!c.expandTypes || loops) {
		b.Str("union ")
		b.PadRight(u.nameOf(t), c.typeSpacing-6)
		b.Byte(' ')
		b.Str(name)
		return
	}
	if loops {
		u.typeNotFound(b, name, named, c)
		return
	}
	u.inPlace = append(u.inPlace, t.ID)
	defer func() { u.inPlace = u.inPlace[:len(u.inPlace)-1] }()
	c.typeSpacing -= 8
	c.suffix, c.hasSuffix = name, named
	u.printUnion(b, u.class(t.ID), c)
}

// printUnion is pahole's union__fprintf.
func (u *unit) printUnion(b *buf, cl *class, c conf) {
	indent := min(c.indent, 16)
	if c.hasPrefix {
		b.Str(c.prefix)
		b.Byte(' ')
	}
	b.Str("union")
	if cl.name != "" {
		b.Byte(' ')
		b.Str(cl.name)
	}
	b.Str(" {\n")
	uc := c
	uc.indent = indent + 1
	u.inferUnionPacked(cl)
	var cacheline uint32
	if uc.cachelinep == nil {
		uc.cachelinep = &cacheline
	}
	initial := *uc.cachelinep
	for i := range cl.members {
		pos := &cl.members[i]
		if _, ok := u.typ(pos.typ); !ok {
			b.Tabs(uc.indent)
			b.Str("<ERROR: type not found>\n")
			continue
		}
		uc.unionMember = true
		b.Tabs(uc.indent)
		u.printMember(b, pos, true, &uc)
		b.Byte('\n')
		u.flush(b)
		*uc.cachelinep = initial
	}
	b.Tabs(indent)
	b.Byte('}')
	if c.hasSuffix {
		b.Byte(' ')
		b.Str(c.suffix)
	}
}

// printCachelineBoundary is pahole's class__fprintf_cacheline_boundary.
func (u *unit) printCachelineBoundary(b *buf, c *conf, offset uint32) {
	cl := u.cacheline
	line := offset / cl
	if line <= *c.cachelinep {
		return
	}
	pos := offset % cl
	b.Str("/* --- cacheline ")
	b.Uint(uint64(line))
	b.Str(" boundary (")
	b.Uint(uint64(offset - pos))
	b.Str(" bytes) ")
	if pos != 0 {
		b.Str("was ")
		b.Uint(uint64(pos))
		b.Str(" byte")
		if pos > 1 {
			b.Byte('s')
		}
		b.Str(" ago ")
	}
	b.Str("--- */\n")
	b.Tabs(c.indent)
	*c.cachelinep = line
}

// printMember is pahole's class_member__fprintf: the declaration, then
// the offset and size comment in the offset column.
func (u *unit) printMember(b *buf, m *member, unionMember bool, c *conf) {
	size := int32(m.byteSize)
	sc := *c
	offset := m.byteOffset
	if !sc.relOffset {
		offset += sc.baseOffset
		if !unionMember {
			sc.baseOffset = offset
		}
	}
	if m.bitfieldOffset < 0 {
		offset += uint32(m.byteSize)
	}
	if !c.suppressComments {
		u.printCachelineBoundary(b, c, offset)
	}
	start := u.pos(b) // flush.go
	t, _ := u.typ(m.typ)
	named := m.name != ""
	inline := t.IsStruct() || t.IsUnion() || t.IsEnum()
	if inline {
		u.printType(b, m.typ, "", false, sc)
		if named {
			if t.Name() == "" || sc.expandTypes {
				b.Byte(' ')
			}
			b.Str(m.name)
		}
	} else {
		u.printType(b, m.typ, m.name, named, sc)
	}
	if m.bitfieldSize != 0 {
		b.Byte(':')
		b.Uint(uint64(m.bitfieldSize))
	}
	alignPrinted := 0
	if !sc.suppressAlignedAttribute && m.alignment != 0 {
		n := len(*b)
		b.Str(" __attribute__((__aligned__(")
		b.Uint(uint64(m.alignment))
		b.Str(")))")
		alignPrinted = len(*b) - n
	}
	b.Byte(';')
	if sc.suppressOffsetComment {
		return
	}
	var spacing int
	if inline && t.Name() == "" {
		slen := alignPrinted - 1
		if named {
			slen = alignPrinted + len(m.name)
		}
		if t.IsStruct() && u.class(m.typ).packed && !c.suppressPacked {
			slen += packedAttrLen
		}
		spacing = sc.typeSpacing + sc.nameSpacing - slen - 3
	} else {
		spacing = max(sc.typeSpacing+sc.nameSpacing-(u.pos(b)-start), 0)
	}
	b.PadLeft(" ", spacing)
	b.Str("/* ")
	b.Num(uint64(offset), 5, sc.hex)
	sizeSpacing := 5
	if m.bitfieldSize != 0 {
		bo := uint32(int32(m.bitfieldOffset))
		if m.bitfieldOffset < 0 {
			bo = uint32(m.byteSize*8) + bo
		}
		b.Byte(':')
		b.Num(uint64(bo), 2, sc.hex)
		sizeSpacing -= 3
	}
	b.Byte(' ')
	b.Num(uint64(uint32(size)), sizeSpacing, sc.hex)
	b.Str(" */")
}

// memberTypeHoles counts what the structs members have inside them, for
// the summary.
type memberTypeHoles struct {
	nrPaddings             uint16
	nrWithBitPaddings      uint16
	nrWithHoles            uint16
	nrWithBitHoles         uint16
	totalNrHoles           uint16
	totalNrBitHoles        uint16
	nrFlexibleArrays       uint16
	nrEmbeddedFlexibleArrs uint16
	sumPaddings            uint32
	sumBitPaddings         uint32
}

// printMemberTypeHoles is pahole's class__fprintf_member_type_holes: the
// "XXX last struct has ..." note after a struct member whose own type has
// holes, padding or a flexible array.
func (u *unit) printMemberTypeHoles(b *buf, cl *class, h *memberTypeHoles, newline *uint8, c *conf) {
	cl.findHoles()
	u.inferPacked(cl)
	padding, bitPadding := cl.padding, cl.bitPadding
	nrHoles, nrBitHoles := cl.nrHoles, cl.nrBitHoles
	flex := u.hasFlexibleArray(cl)
	embFlex := u.hasEmbeddedFlexibleArray(cl)
	if padding == 0 && bitPadding == 0 && nrHoles == 0 && nrBitHoles == 0 && !flex && !embFlex {
		return
	}
	if *newline == 0 {
		b.Byte('\n')
	}
	*newline++
	b.Byte('\n')
	b.Tabs(c.indent)
	b.Str("/* XXX last struct has")
	first := true
	sep := func() {
		if !first {
			b.Byte(',')
		}
		first = false
	}
	if flex {
		b.Str(" a flexible array")
		h.nrFlexibleArrays++
		first = false
	}
	if embFlex {
		sep()
		b.Str(" embedded flexible array(s)")
		h.nrEmbeddedFlexibleArrs++
	}
	if padding != 0 {
		h.nrPaddings++
		h.sumPaddings += uint32(padding)
		sep()
		b.Byte(' ')
		b.Int(int64(padding))
		b.Str(" byte" + plural(int64(padding)) + " of padding")
	}
	if bitPadding != 0 {
		h.nrWithBitPaddings++
		h.sumBitPaddings += uint32(bitPadding)
		sep()
		b.Byte(' ')
		b.Int(int64(bitPadding))
		b.Str(" bit" + plural(int64(bitPadding)) + " of padding")
	}
	if nrHoles != 0 {
		h.nrWithHoles++
		h.totalNrHoles += uint16(nrHoles)
		sep()
		b.Byte(' ')
		b.Int(int64(nrHoles))
		b.Str(" hole" + plural(int64(nrHoles)))
	}
	if nrBitHoles != 0 {
		h.nrWithBitHoles++
		h.totalNrBitHoles += uint16(nrBitHoles)
		sep()
		b.Byte(' ')
		b.Int(int64(nrBitHoles))
		b.Str(" bit hole" + plural(int64(nrBitHoles)))
	}
	b.Str(" */")
}

func isPowerOf2(n uint64) bool { return n != 0 && n&(n-1) == 0 }

// printClass is pahole's __class__fprintf for a struct: the members with
// the holes between them, then, unless printed inside another type, the
// summary.
func (u *unit) printClass(b *buf, cl *class, cin conf) {
	c := cin
	if c.hasPrefix {
		b.Str(c.prefix)
		b.Byte(' ')
	}
	b.Str(u.structKeyword(cl.id, c))
	if cl.name != "" {
		b.Byte(' ')
		b.Str(cl.name)
	}
	indent := min(c.indent, 16)
	var cacheline uint32
	if c.cachelinep == nil {
		c.cachelinep = &cacheline
	}
	c.indent = indent + 1
	c.noSemicolon = false
	u.inferPacked(cl)
	b.Str(" {\n")

	var newline uint8
	var nrForcedAlignments, nrForcedAlignmentHoles uint16
	var sumForcedAlignmentHoles uint32
	var sumBytes, sumBits, sumHoles, sumBitHoles uint32
	var mth memberTypeHoles
	nl := func() {
		if newline == 0 {
			b.Byte('\n')
		}
		newline++
	}
	if cl.preBitHole > 0 && !c.suppressComments {
		nl()
		b.Tabs(c.indent)
		b.Str("/* XXX ")
		b.Int(int64(cl.preBitHole))
		b.Str(" bit" + plural(int64(cl.preBitHole)) + " hole, try to pack */\n")
		sumBitHoles += uint32(cl.preBitHole)
	}
	if cl.preHole > 0 && !c.suppressComments {
		nl()
		b.Tabs(c.indent)
		b.Str("/* XXX ")
		b.Int(int64(cl.preHole))
		b.Str(" byte" + plural(int64(cl.preHole)) + " hole, try to pack */\n")
		sumHoles += uint32(cl.preHole)
	}

	// Types the struct's body defines come between the members (DWARF
	// from clang); a member followed by one is not the last.
	nested := u.facts.NestedIn(cl.id)
	ni := 0
	printNested := func(upto int) {
		if c.showOnlyDataMembers {
			return
		}
		for ; ni < len(nested) && nested[ni].After <= upto; ni++ {
			u.printTag(b, nested[ni].ID, c)
			b.Str("\n\n")
		}
	}
	tagAfterLast := len(nested) > 0 && nested[len(nested)-1].After >= len(cl.members)

	var last *member
	var lastSize uint64
	for i := range cl.members {
		printNested(i)
		pos := &cl.members[i]
		if !c.suppressAlignedAttribute && pos.alignment != 0 {
			forcedHole := int32(cl.preHole)
			if last != nil {
				forcedHole = last.hole
			}
			if forcedHole != 0 {
				nrForcedAlignmentHoles++
				sumForcedAlignmentHoles += uint32(forcedHole)
			}
			nrForcedAlignments++
		}
		if last != nil && lastSize != 0 {
			if last.bitHole != 0 && pos.bitfieldSize != 0 {
				bitfieldSize := last.bitHole
				if last.byteOffset != pos.byteOffset {
					b.Byte('\n')
					b.Tabs(c.indent)
					b.Str("/* Force alignment to the next boundary: */\n")
					bitfieldSize = 0
				}
				b.Tabs(c.indent)
				u.printType(b, pos.typ, "", true, c)
				b.Byte(':')
				b.Uint(uint64(bitfieldSize))
				b.Str(";\n")
			}
			if pos.byteOffset < last.byteOffset ||
				(pos.byteOffset == last.byteOffset && last.bitfieldSize == 0 && pos.bitfieldSize != 0) {
				if !c.suppressComments {
					nl()
					b.Tabs(c.indent)
					b.Str("/* Bitfield combined with previous fields */\n")
				}
			} else {
				ccLastSize := int64(pos.byteOffset) - int64(last.byteOffset)
				if ccLastSize > 0 && uint64(ccLastSize) < lastSize && !c.suppressComments {
					nl()
					b.Tabs(c.indent)
					b.Str("/* Bitfield combined with next fields */\n")
				}
			}
		}
		if newline != 0 {
			b.Byte('\n')
			newline = 0
		}
		pt, ok := u.typ(pos.typ)
		if !ok {
			b.Tabs(c.indent)
			b.Str("<ERROR: type not found>\n")
			last = pos
			continue
		}
		c.lastMember = i == len(cl.members)-1 && !tagAfterLast
		c.firstMember = last == nil
		size := pos.byteSize
		b.Tabs(c.indent)
		u.printMember(b, pos, false, &c)
		if pt.IsStruct() && !c.suppressComments {
			u.printMemberTypeHoles(b, u.class(pos.typ), &mth, &newline, &c)
		}
		if pos.bitHole != 0 && !c.suppressComments {
			nl()
			b.Byte('\n')
			b.Tabs(c.indent)
			b.Str("/* XXX ")
			b.Int(int64(pos.bitHole))
			b.Str(" bit" + plural(int64(pos.bitHole)) + " hole, try to pack */")
			sumBitHoles += uint32(pos.bitHole)
		}
		if pos.hole > 0 && !c.suppressComments {
			nl()
			b.Byte('\n')
			b.Tabs(c.indent)
			b.Str("/* XXX ")
			b.Int(int64(pos.hole))
			b.Str(" byte" + plural(int64(pos.hole)) + " hole, try to pack */")
			sumHoles += uint32(pos.hole)
		}
		b.Byte('\n')
		u.flush(b)
		if pos.bitfieldSize != 0 {
			sumBits += uint32(pos.bitfieldSize)
		} else {
			sumBytes += uint32(size)
		}
		if last == nil || lastSize == 0 || last.byteOffset != pos.byteOffset {
			lastSize = size
		} else if last.bitfieldSize == 0 && pos.bitfieldSize != 0 {
			lastSize = size
		}
		last = pos
	}
	printNested(len(cl.members))

	// Only DWARF says which paddings the compiler added for alignment.
	if cl.padding != 0 && cl.align == 0 && u.dwarf() && !c.noAlignmentInfo && !c.suppressForcePaddings && last != nil {
		if lt, ok := u.typ(last.typ); ok {
			size := u.size(lt.ID)
			if isPowerOf2(size) && uint64(cl.padding) > uint64(u.sz.PtrSize) {
				b.Byte('\n')
				b.Tabs(c.indent)
				b.Str("/* Force padding: */\n")
				for added := uint64(0); added < uint64(cl.padding); added += size {
					b.Tabs(c.indent)
					u.printType(b, lt.ID, "", true, c)
					b.Byte(':')
					b.Uint(size * 8)
					b.Str(";\n")
					u.flush(b)
				}
			}
		}
	}

	if c.emitStats {
		u.printStats(b, cl, &c, stats{sumBytes, sumBits, sumHoles, sumBitHoles,
			nrForcedAlignments, nrForcedAlignmentHoles, sumForcedAlignmentHoles}, &mth)
	}

	b.Tabs(indent)
	b.Byte('}')
	if cl.packed && !c.suppressPacked {
		b.Str(" __attribute__((__packed__))")
	}
	if c.hasSuffix {
		b.Byte(' ')
		b.Str(c.suffix)
	}
	if !c.suppressAlignedAttribute && cl.align != 0 && !cl.packed {
		b.Str(" __attribute__((__aligned__(")
		b.Uint(uint64(cl.align))
		b.Str(")))")
	}
}

type stats struct {
	sumBytes, sumBits, sumHoles, sumBitHoles uint32
	nrForced, nrForcedHoles                  uint16
	sumForcedHoles                           uint32
}

// printStats is the summary block at the end of a struct printed on its
// own.
func (u *unit) printStats(b *buf, cl *class, c *conf, s stats, mth *memberTypeHoles) {
	line := func() { b.Tabs(c.indent) }
	b.Byte('\n')
	line()
	b.Str("/* size: ")
	b.Int(int64(int32(cl.size)))
	b.Str(", cachelines: ")
	sz := cl.tagSize()
	b.Int(int64((sz + uint64(u.cacheline) - 1) / uint64(u.cacheline)))
	b.Str(", members: ")
	b.Uint(uint64(uint16(len(cl.members))))
	b.Str(" */\n")

	if s.sumHoles > 0 || s.sumBitHoles > 0 {
		if s.sumBytes > 0 {
			line()
			b.Str("/* sum members: ")
			b.Uint(uint64(s.sumBytes))
			if s.sumHoles > 0 {
				b.Str(", holes: ")
				b.Int(int64(cl.nrHoles))
				b.Str(", sum holes: ")
				b.Uint(uint64(s.sumHoles))
			}
			b.Str(" */\n")
		}
		if s.sumBits > 0 {
			line()
			b.Str("/* sum bitfield members: ")
			b.Uint(uint64(s.sumBits))
			b.Str(" bits")
			if s.sumBitHoles > 0 {
				b.Str(", bit holes: ")
				b.Int(int64(cl.nrBitHoles))
				b.Str(", sum bit holes: ")
				b.Uint(uint64(s.sumBitHoles))
				b.Str(" bits")
			} else {
				b.Str(" (")
				b.Uint(uint64(s.sumBits / 8))
				b.Str(" bytes)")
			}
			b.Str(" */\n")
		}
	}
	if cl.padding > 0 {
		line()
		b.Str("/* padding: ")
		b.Uint(uint64(cl.padding))
		b.Str(" */\n")
	}
	if mth.nrWithHoles > 0 || mth.nrWithBitHoles > 0 || mth.nrWithBitPaddings > 0 {
		first := true
		line()
		b.Str("/* member types with ")
		if mth.nrWithHoles > 0 {
			b.Str("holes: ")
			b.Uint(uint64(mth.nrWithHoles))
			b.Str(", total: ")
			b.Uint(uint64(mth.totalNrHoles))
			first = false
		}
		if mth.nrWithBitHoles > 0 {
			if !first {
				b.Str(", ")
			}
			b.Str("bit holes: ")
			b.Uint(uint64(mth.nrWithBitHoles))
			b.Str(", total: ")
			b.Uint(uint64(mth.totalNrBitHoles))
			first = false
		}
		if mth.nrWithBitPaddings > 0 {
			if !first {
				b.Str(", ")
			}
			b.Str("bit paddings: ")
			b.Uint(uint64(mth.nrWithBitPaddings))
			b.Str(", total: ")
			b.Uint(uint64(mth.sumBitPaddings))
			b.Str(" bit")
			if mth.sumBitPaddings > 1 {
				b.Byte('s')
			}
		}
		b.Str(" */\n")
	}
	if mth.nrPaddings > 0 {
		line()
		b.Str("/* paddings: ")
		b.Uint(uint64(mth.nrPaddings))
		b.Str(", sum paddings: ")
		b.Uint(uint64(mth.sumPaddings))
		b.Str(" */\n")
	}
	if cl.bitPadding > 0 {
		line()
		b.Str("/* bit_padding: ")
		b.Uint(uint64(cl.bitPadding))
		b.Str(" bits */\n")
	}
	if !c.suppressAlignedAttribute && s.nrForced != 0 {
		line()
		b.Str("/* forced alignments: ")
		b.Uint(uint64(s.nrForced))
		if s.nrForcedHoles != 0 {
			b.Str(", forced holes: ")
			b.Uint(uint64(s.nrForcedHoles))
			b.Str(", sum forced holes: ")
			b.Uint(uint64(s.sumForcedHoles))
		}
		b.Str(" */\n")
	}
	if mth.nrFlexibleArrays > 0 || mth.nrEmbeddedFlexibleArrs > 0 {
		line()
		b.Str("/* flexible array members: ")
		if mth.nrFlexibleArrays > 0 {
			b.Str("end: ")
			b.Uint(uint64(mth.nrFlexibleArrays))
		}
		if mth.nrEmbeddedFlexibleArrs > 0 {
			if mth.nrFlexibleArrays > 0 {
				b.Str(", ")
			}
			b.Str("middle: ")
			b.Uint(uint64(mth.nrEmbeddedFlexibleArrs))
		}
		b.Str(" */\n")
	}
	if last := (c.baseOffset + cl.size) % u.cacheline; last != 0 {
		line()
		b.Str("/* last cacheline: ")
		b.Uint(uint64(last))
		b.Str(" bytes */\n")
	}
	if c.showFirstBiggest {
		u.printFirstBiggest(b, cl, c) // biggest.go
	}
	diff := int32(cl.size*8 - (s.sumBytes*8 + s.sumBits + s.sumHoles*8 + s.sumBitHoles +
		uint32(cl.padding)*8 + uint32(cl.bitPadding)))
	if diff != 0 && len(cl.members) != 0 {
		b.Byte('\n')
		line()
		b.Str("/* BRAIN FART ALERT! ")
		b.Int(int64(int32(cl.size)))
		b.Str(" bytes != ")
		b.Uint(uint64(s.sumBytes))
		b.Str(" (member bytes) + ")
		b.Uint(uint64(s.sumBits))
		b.Str(" (member bits) + ")
		b.Uint(uint64(s.sumHoles))
		b.Str(" (byte holes) + ")
		b.Uint(uint64(s.sumBitHoles))
		b.Str(" (bit holes), diff = ")
		b.Int(int64(diff))
		b.Str(" bits */\n")
	}
}

// dwarfTagName is the DWARF tag pahole's DWARF loader gives a type of
// this kind, for its "not supported" note.
func (u *unit) dwarfTagName(t btf.Type) string {
	if t.Kind() == btf.KindVolatile && u.facts.Atomic(t.ID) {
		return "atomic_type"
	}
	switch t.Kind() {
	case btf.KindInt, btf.KindFloat:
		return "base_type"
	case btf.KindPtr:
		return "pointer_type"
	case btf.KindConst:
		return "const_type"
	case btf.KindVolatile:
		return "volatile_type"
	case btf.KindRestrict:
		return "restrict_type"
	case btf.KindFunc:
		return "subprogram"
	case btf.KindVar:
		return "variable"
	case btf.KindTypeTag:
		return "LLVM_annotation"
	}
	return "INVALID"
}
