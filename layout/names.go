package layout

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/ctype"
)

// Types are spelled by internal/ctype (pahole's tag__name, tag__prefix,
// ftype__fprintf), shared with pfunct; the unit keeps one Namer.

// nameBuf is the buffer pahole spells a type's name into.
const nameBuf = ctype.NameBuf

func trunc(s string, size int) string {
	if len(s) >= size {
		return s[:size-1]
	}
	return s
}

// tagName is pahole's tag__name of type id, cut to fit a buffer of size
// bytes.
func (u *unit) tagName(id btf.TypeID, size int) string { return u.nm.TagName(id, size) }

// writeFtype is pahole's ftype__fprintf of the FUNC_PROTO proto.
func (u *unit) writeFtype(b *buf, proto btf.Type, name string, inlined, isPointer bool, typeSpacing int, isPrototype bool) {
	u.nm.AppendFtype(b, ctype.ProtoOf(proto), name, inlined, isPointer, typeSpacing, isPrototype)
}

// nameOf is a type's name, as renamed by --compile if it was.
func (u *unit) nameOf(t btf.Type) string { return u.nm.Name(t) }

// rename gives a struct, union or enum another name for the rest of the
// unit (--compile's NAME__1 for a name another kind of tag has).
func (u *unit) rename(id btf.TypeID, name string) {
	u.nm.Rename(id, name)
	if t := u.spec.Type(id); t.IsStruct() || t.IsUnion() {
		u.class(id).name = name
	}
}
