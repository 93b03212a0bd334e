package layout

import (
	"github.com/btfkit/btfkit/btf"
)

// C buffer sizes pahole spells names into; a name is cut to one byte less.
const (
	nameBuf    = 128  // type__fprintf's and ftype__fprintf's buffers
	ptrNameBuf = 1024 // tag__ptr_name's buffer for the pointee
)

func trunc(s string, size int) string {
	if len(s) >= size {
		return s[:size-1]
	}
	return s
}

// baseName is how pahole names a base type: from DWARF as written; from
// BTF a float gets "single " before its name. (pahole would also put
// "bool " before a boolean's, but its BTF loader stores BTF_INT_BOOL, 4,
// in a one-bit field, which keeps 0.)
func (u *unit) baseName(t btf.Type) string {
	name := t.Name()
	if name == "" {
		return "nameless base type!"
	}
	if !u.dwarf() && t.Kind() == btf.KindFloat {
		return "single " + name
	}
	return name
}

// tagName is pahole's tag__name: how a type is spelled before a
// declarator, cut to fit a buffer of size bytes.
func (u *unit) tagName(id btf.TypeID, size int) string {
	t, ok := u.typ(id)
	if !ok {
		return trunc("void", size)
	}
	if !u.enter() {
		return trunc("<ERROR: type loop>", size)
	}
	defer u.leave()
	switch k := t.Kind(); {
	case k == btf.KindInt || k == btf.KindFloat:
		return trunc(u.baseName(t), size)
	case k == btf.KindFunc || k == btf.KindVar:
		return trunc(t.Name(), size)
	case k == btf.KindPtr:
		return u.ptrName(t, "*", size)
	case btf.IsQualifier(k):
		inner := u.tagName(t.Ref(), nameBuf)
		prefix, suffix := "", ""
		switch k {
		case btf.KindConst:
			prefix = "const "
		case btf.KindVolatile:
			prefix = "volatile "
			if u.facts.Atomic(id) {
				prefix = "_Atomic "
			}
		case btf.KindRestrict:
			suffix = " restrict"
		}
		return trunc(prefix+inner+suffix+" ", size)
	case k == btf.KindArray:
		return u.tagName(u.arrayElem(id, t.Array()), size)
	case k == btf.KindTypeTag:
		return u.tagName(t.Ref(), size)
	case k == btf.KindFuncProto:
		var b buf
		u.writeFtype(&b, t, "", false, false, 0, true)
		return trunc(string(b), size)
	}
	return trunc(u.prefixOf(t)+u.nameOf(t), size)
}

// nameOf is a type's name, as renamed by --compile if it was.
func (u *unit) nameOf(t btf.Type) string {
	if n, ok := u.names[t.ID]; ok {
		return n
	}
	return t.Name()
}

// rename gives a struct, union or enum another name for the rest of the
// unit (--compile's NAME__1 for a name another kind of tag has).
func (u *unit) rename(id btf.TypeID, name string) {
	if u.names == nil {
		u.names = make(map[btf.TypeID]string)
	}
	u.names[id] = name
	if t := u.spec.Type(id); t.IsStruct() || t.IsUnion() {
		u.class(id).name = name
	}
}

// prefixOf is the keyword pahole puts before a type's name (tag__prefix):
// a C++ class is a "class", and so is any struct of a DW_LANG_C_plus_plus
// unit, unless --classes_as_structs.
func (u *unit) prefixOf(t btf.Type) string {
	switch {
	case t.IsEnum():
		return "enum "
	case t.IsStruct():
		if (u.opts == nil || !u.opts.ClassesAsStructs) && (u.facts.Class(t.ID) || u.facts.Language() == dwLangCPlusPlus) {
			return "class "
		}
		return "struct "
	case t.IsUnion():
		return "union "
	}
	return ""
}

// ptrName is pahole's tag__ptr_name: the pointee's name, a space, "const "
// for a const pointer, and the suffix ("*").
func (u *unit) ptrName(t btf.Type, suffix string, size int) string {
	ref := t.Ref()
	if ref == 0 {
		return trunc("void "+suffix, size)
	}
	target := ref
	constPtr := ""
	if rt, ok := u.typ(ref); ok && rt.Kind() == btf.KindConst {
		if nt, ok := u.typ(rt.Ref()); ok && nt.Kind() == btf.KindPtr {
			constPtr = "const "
			target = rt.Ref()
		}
	}
	return trunc(u.tagName(target, ptrNameBuf)+" "+constPtr+suffix, size)
}

// writeFtype is pahole's ftype__fprintf: return type, padded to
// typeSpacing, then "(*name)" or "name" and the parameters.
func (u *unit) writeFtype(b *buf, proto btf.Type, name string, inlined, isPointer bool, typeSpacing int, isPrototype bool) {
	ret := u.tagName(proto.Ref(), nameBuf)
	if inlined {
		b.Str("inline ")
	}
	b.PadRight(ret, typeSpacing)
	b.Byte(' ')
	if isPrototype {
		b.Byte('(')
	}
	if isPointer {
		b.Byte('*')
	}
	b.Str(name)
	if isPrototype {
		b.Byte(')')
	}
	u.writeParms(b, proto)
}

// writeParms is pahole's ftype__fprintf_parms.
func (u *unit) writeParms(b *buf, proto btf.Type) {
	b.Byte('(')
	first := true
	unspec := false
	for i := 0; i < proto.Vlen(); i++ {
		p := proto.Param(i)
		if p.Type == 0 {
			unspec = true
			continue
		}
		if !first {
			b.Str(", ")
		}
		first = false
		name := proto.Spec().String(p.NameOff)
		t, ok := u.typ(p.Type)
		if ok && t.Kind() == btf.KindPtr && t.Ref() != 0 {
			if pt, ok := u.typ(t.Ref()); ok && pt.Kind() == btf.KindFuncProto {
				u.writeFtype(b, pt, name, false, true, 0, true)
				continue
			}
		} else if ok && t.Kind() == btf.KindFuncProto {
			u.writeFtype(b, t, name, true, false, 0, false)
			continue
		}
		b.Str(u.tagName(p.Type, nameBuf))
		if name != "" {
			b.Byte(' ')
			b.Str(name)
		}
	}
	switch {
	case first:
		b.Str("void)")
	case unspec:
		b.Str(", ...)")
	default:
		b.Byte(')')
	}
}
