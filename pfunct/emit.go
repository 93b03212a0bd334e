package pfunct

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/cfmt"
	"github.com/btfkit/btfkit/internal/ctype"
	"github.com/btfkit/btfkit/layout"
)

// Type emission for -b and --compile, as pahole's dwarves_emit.c does it
// (internal/ctype's Emitter, shared with pahole --compile): before a
// function, the definitions of the types its prototype needs,
// dependencies first, each once per unit and, by kind and name, once
// across units; a struct, union or enum whose name another of those
// kinds already used is renamed NAME__1, as pahole does, in the unit's
// types. The types are printed by layout's TypePrinter with pfunct's
// conf.

// emitter returns the unit's Emitter, made on first use.
func (p *printer) emitter(u *unit) *ctype.Emitter {
	if u.emitted == nil {
		tp := layout.NewTypePrinter(u.spec, u.facts, layout.Options{CachelineSize: p.o.cacheline()})
		u.emitted = p.emissions.Unit(p.namer(u).Namer, emitPrinter{u, tp}, ctype.EmitOptions{})
	}
	return u.emitted
}

// emitPrinter prints emitted types with layout's TypePrinter.
type emitPrinter struct {
	u  *unit
	tp *layout.TypePrinter
}

func (e emitPrinter) Emit(b *cfmt.Buf, id btf.TypeID, prefix, suffix *string) {
	*b = e.tp.Emit(*b, id, prefix, suffix)
}

func (e emitPrinter) Typedef(b *cfmt.Buf, id btf.TypeID) { *b = e.tp.Typedef(*b, id) }

func (e emitPrinter) Enum(b *cfmt.Buf, id btf.TypeID, suffix *string) {
	*b = e.tp.Enum(*b, id, suffix)
}

func (e emitPrinter) CheckUnnaturalAlignments(id btf.TypeID) { e.tp.CheckUnnaturalAlignments(id) }

// Rename gives the type pahole's disambiguated name in the unit's types,
// so that every later mention, the TypePrinter's too, prints it.
func (e emitPrinter) Rename(id btf.TypeID, name string) {
	s := e.u.spec
	_, info, sizeType, ext := s.RawType(id)
	s.SetRaw(id, s.AddString(name), info, sizeType, append([]uint32(nil), ext...)...)
}

// isType is pahole's tag__is_type: a struct, union, enum or typedef.
func isType(t btf.Type) bool {
	return t.IsStruct() || t.IsUnion() || t.IsEnum() || t.Kind() == btf.KindTypedef
}

// functionTypes is pfunct's function__emit_type_definitions: the return
// type and each parameter's type, through pointers and qualifiers.
func (p *printer) functionTypes(b *buf, u *unit, f *function) {
	n := p.namer(u)
	em := p.emitter(u)
	proto := n.funcProto(f)
	t, ok := n.typ(proto.Ret)
	for k := 0; ok && k < maxDepth; k++ {
		if t.Kind() == btf.KindPtr || btf.IsQualifier(t.Kind()) {
			t, ok = n.typ(t.Ref())
			continue
		}
		if isType(t) && !em.Emitted(t.ID) {
			em.TypeDefs(b, t.ID)
			em.Emit(b, t.ID, nil, nil)
		}
		break
	}
	proto.EachParam(func(_ string, typ btf.TypeID) {
		t, ok := n.typ(typ)
		for k := 0; ok && k < maxDepth; k++ {
			if t.Kind() == btf.KindPtr || btf.IsQualifier(t.Kind()) {
				t, ok = n.typ(t.Ref())
				continue
			}
			if t.Kind() == btf.KindFuncProto {
				em.FtypeDefs(b, ctype.ProtoOf(t))
			} else if isType(t) && !em.Emitted(t.ID) {
				em.TypeDefs(b, t.ID)
				if t.Kind() != btf.KindTypedef {
					em.Emit(b, t.ID, nil, nil)
				}
				b.Byte('\n')
			}
			break
		}
	})
}
