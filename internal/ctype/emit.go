package ctype

import (
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/cfmt"
)

// Type emission, as pahole 1.32's dwarves_emit.c does it for --compile
// and pfunct's -b: before a declaration, the definitions of the types it
// needs, dependencies first (the types a struct embeds, forward
// declarations of the structs and unions it points to, typedefs, enums,
// the types of function pointers' parameters, typedefs for C11's
// atomic_* base types). Whether a type was emitted is remembered per
// unit (pahole's flags on the unit's type objects: Emitter) and, by kind
// and name, across the units of one output (pahole's lists: Emissions);
// a struct, union or enum whose name another of those kinds already took
// is renamed NAME__1, as pahole does.

// defKind is the C namespace a definition is looked up in (pahole
// compares DWARF tags).
type defKind uint8

const (
	defStruct defKind = iota + 1
	defClass          // a C++ class, DW_TAG_class_type
	defUnion
	defEnum
	defTypedef
)

// kindOf is the namespace of a struct, class, union, enum or typedef; 0
// for other types.
func (em *Emitter) kindOf(t btf.Type) defKind {
	switch {
	case t.IsStruct() && em.n.facts.Class(t.ID):
		return defClass
	case t.IsStruct():
		return defStruct
	case t.IsUnion():
		return defUnion
	case t.IsEnum():
		return defEnum
	case t.Kind() == btf.KindTypedef:
		return defTypedef
	}
	return 0
}

type defKey struct {
	kind defKind
	name string
}

// Emissions is what one output has emitted, across its units: pahole's
// type_emissions (its lists of definitions, forward declarations and
// atomic base type typedefs), kept by kind and name.
type Emissions struct {
	defs   map[defKey]bool
	fwds   map[string]int // forward declarations not defined since, by name
	atomic map[string]bool
}

// NewEmissions starts an output.
func NewEmissions() *Emissions {
	return &Emissions{defs: map[defKey]bool{}, fwds: map[string]int{}, atomic: map[string]bool{}}
}

// EmitPrinter prints what an Emitter emits, the way the caller's tool
// prints a type on its own (pahole and pfunct set its conf differently).
type EmitPrinter interface {
	// Emit prints pahole's type__emit of a struct, union or enum:
	// tag__fprintf with the summary, prefix and suffix (nil: C's NULL),
	// then "\n".
	Emit(b *cfmt.Buf, id btf.TypeID, prefix, suffix *string)
	// Typedef prints typedef__fprintf of the typedef id, then ";\n".
	Typedef(b *cfmt.Buf, id btf.TypeID)
	// Enum prints enumeration__fprintf of the enum id with the suffix
	// (nil: none), then ";\n".
	Enum(b *cfmt.Buf, id btf.TypeID, suffix *string)
	// CheckUnnaturalAlignments is type__check_structs_at_unnatural_alignments
	// of a struct or union about to be emitted: the structs it embeds
	// where their alignment forbids are marked packed.
	CheckUnnaturalAlignments(id btf.TypeID)
	// Rename gives the struct, union or enum id a new name in every
	// later mention (the Emitter's Namer must see it).
	Rename(id btf.TypeID, name string)
}

// EmitOptions change what is emitted.
type EmitOptions struct {
	// SkipAtomicTypedefs is --skip_emitting_atomic_typedefs: no typedef
	// for an atomic_* base type.
	SkipAtomicTypedefs bool
	// SkipBuiltinTypedefs leaves out a typedef named like a compiler
	// builtin ("__builtin_..."), which pahole prints: the kernel's
	// "typedef struct __va_list_tag __builtin_va_list[1];" compiles with
	// gcc and clang rejects it as a redefinition (btfkit pahole
	// --compile's one difference from pahole).
	SkipBuiltinTypedefs bool
}

// Emitter emits the definitions one unit's types need (the unit named by
// its Namer), into an output's Emissions.
type Emitter struct {
	e    *Emissions
	n    *Namer
	p    EmitPrinter
	o    EmitOptions
	unit map[btf.TypeID]emitted
	dp   int
}

// emitted is what pahole marks on one type object of the unit.
type emitted struct {
	def, fwd bool   // definition_emitted, fwd_decl_emitted
	list     uint8  // the list its node is on: onDefs or onFwds
	fwdName  string // the name it was counted under on the forward list
}

const (
	onDefs = iota + 1
	onFwds
)

// Unit returns the Emitter of one unit's types, named by n and printed by
// p.
func (e *Emissions) Unit(n *Namer, p EmitPrinter, o EmitOptions) *Emitter {
	return &Emitter{e: e, n: n, p: p, o: o, unit: map[btf.TypeID]emitted{}}
}

// Emitted reports whether the definition of id was emitted in this unit
// (or found emitted in an earlier one): pahole's definition_emitted.
func (em *Emitter) Emitted(id btf.TypeID) bool { return em.unit[id].def }

func (em *Emitter) setDef(id btf.TypeID) {
	s := em.unit[id]
	s.def = true
	em.unit[id] = s
}

// named is a type's current name (renamed or not) and whether it has
// one.
func (em *Emitter) named(id btf.TypeID) (btf.Type, string) {
	t := em.n.spec.Type(id)
	return t, em.n.Name(t)
}

func (em *Emitter) hasDef(k defKind, name string) bool {
	return name != "" && em.e.defs[defKey{k, name}]
}

// hasShadow is type_emissions__find_shadow_definition: a struct, union or
// enum of another kind has the name.
func (em *Emitter) hasShadow(k defKind, name string) bool {
	if name == "" {
		return false
	}
	for _, o := range []defKind{defStruct, defClass, defUnion, defEnum} {
		if o != k && em.e.defs[defKey{o, name}] {
			return true
		}
	}
	return false
}

// addDef is type_emissions__add_definition: the type leaves the forward
// declarations (if it was there) for the definitions.
func (em *Emitter) addDef(id btf.TypeID) {
	s := em.unit[id]
	s.def = true
	if s.list == onFwds {
		em.e.fwds[s.fwdName]--
	}
	s.list = onDefs
	em.unit[id] = s
	if t, name := em.named(id); name != "" {
		em.e.defs[defKey{em.kindOf(t), name}] = true
	}
}

// TypeDefs is pahole's type__emit_definitions for a struct, union, enum
// or typedef: the types it needs are printed to b, and whether it still
// needs printing itself (Emit) is returned.
func (em *Emitter) TypeDefs(b *cfmt.Buf, id btf.TypeID) bool {
	if em.unit[id].def || em.dp >= maxDepth {
		return false
	}
	em.dp++
	defer func() { em.dp-- }()
	t, name := em.named(id)
	k := em.kindOf(t)
	if em.hasDef(k, name) {
		em.setDef(id)
		return false
	}
	if k == defTypedef {
		return em.typedefDefs(b, id)
	}
	if em.hasShadow(k, name) {
		em.p.Rename(id, name+"__1")
		if _, name = em.named(id); em.hasDef(k, name) {
			em.setDef(id)
			return false
		}
	}
	em.addDef(id)
	em.p.CheckUnnaturalAlignments(id)
	if k := t.Kind(); k == btf.KindStruct || k == btf.KindUnion {
		for i := 0; i < t.Vlen(); i++ {
			if em.TagDefs(b, t.Member(i).Type) {
				b.Byte('\n')
			}
		}
	}
	return true
}

// TagDefs is pahole's tag__emit_definitions for a member's, parameter's
// or return type typ: what it needs printed before it, through pointers
// (a forward declaration of a struct or union), arrays and qualifiers. It
// reports whether anything was printed.
func (em *Emitter) TagDefs(b *cfmt.Buf, typ btf.TypeID) bool {
	if em.dp >= maxDepth {
		return false
	}
	em.dp++
	defer func() { em.dp-- }()
	pointer := false
	for steps := 0; steps < maxDepth; steps++ {
		t, ok := em.n.Type(typ)
		if !ok {
			return false
		}
		switch k := t.Kind(); {
		case k == btf.KindInt || k == btf.KindFloat:
			if em.o.SkipAtomicTypedefs {
				return false
			}
			return em.atomicDefs(b, t)
		case k == btf.KindPtr:
			pointer = true
			typ = t.Ref()
		case k == btf.KindArray:
			typ = t.Array().Elem
		case k == btf.KindConst || k == btf.KindVolatile:
			typ = t.Ref()
		case k == btf.KindTypedef:
			return em.typedefDefs(b, typ)
		case t.IsEnum():
			if t.NameOff() != 0 {
				return em.enumDefs(b, typ, nil)
			}
			return false
		case em.kindOf(t) == defClass:
			// pahole emits nothing for a C++ class a member or
			// parameter has, nor declares it.
			return false
		case t.IsStruct() || t.IsUnion():
			if pointer {
				if t.NameOff() == 0 {
					em.TypeDefs(b, typ)
				}
				return em.fwdDecl(b, typ)
			}
			if em.TypeDefs(b, typ) {
				em.Emit(b, typ, nil, nil)
			}
			return true
		case k == btf.KindFuncProto:
			return em.FtypeDefs(b, ProtoOf(t))
		default:
			return false
		}
	}
	return false
}

// FtypeDefs is pahole's ftype__emit_definitions: what the return type
// and each parameter's type need, and an empty line after them if
// anything was printed.
func (em *Emitter) FtypeDefs(b *cfmt.Buf, p Proto) bool {
	printed := em.TagDefs(b, p.Ret)
	p.EachParam(func(_ string, typ btf.TypeID) {
		if em.TagDefs(b, typ) {
			printed = true
		}
	})
	if printed {
		b.Byte('\n')
	}
	return printed
}

// typedefDefs is pahole's typedef__emit_definitions: what the typedef
// needs, then the typedef; a typedef of an anonymous struct, union or
// enum is printed as "typedef" and the type's body.
func (em *Emitter) typedefDefs(b *cfmt.Buf, id btf.TypeID) bool {
	if em.unit[id].def || em.dp >= maxDepth {
		return false
	}
	em.dp++
	defer func() { em.dp-- }()
	def := em.n.spec.Type(id)
	name := def.Name()
	if em.hasDef(defTypedef, name) {
		em.setDef(id)
		return false
	}
	if tt, ok := em.n.Type(def.Ref()); ok {
		switch k := tt.Kind(); {
		case k == btf.KindVolatile && em.n.facts.Atomic(tt.ID):
			// A typedef of a DW_TAG_atomic_type: what the type under
			// it needs.
			em.TagDefs(b, tt.Ref())
		case k == btf.KindArray:
			em.TagDefs(b, tt.Array().Elem)
		case k == btf.KindTypedef:
			em.typedefDefs(b, def.Ref())
		case k == btf.KindPtr:
			pt, ok := em.n.Type(tt.Ref())
			switch {
			case !ok:
			case pt.Kind() == btf.KindTypedef:
				em.typedefDefs(b, tt.Ref())
			case pt.Kind() == btf.KindFuncProto:
				em.FtypeDefs(b, ProtoOf(pt))
			}
		case k == btf.KindFuncProto:
			em.FtypeDefs(b, ProtoOf(tt))
		case tt.IsEnum():
			if tt.NameOff() == 0 {
				b.Str("typedef ")
				em.enumDefs(b, def.Ref(), &name)
				em.addDef(id)
				return true
			}
			em.enumDefs(b, def.Ref(), nil)
		case (tt.IsStruct() || tt.IsUnion()) && em.kindOf(tt) != defClass:
			if tt.NameOff() == 0 {
				em.TypeDefs(b, def.Ref())
				prefix := "typedef"
				em.Emit(b, def.Ref(), &prefix, &name)
				em.addDef(id)
				return true
			}
			if em.TypeDefs(b, def.Ref()) {
				em.Emit(b, def.Ref(), nil, nil)
			}
		}
	}
	// Printed meanwhile (a typedef its own types need, as the kernel's
	// wait_queue_t was), it is not printed again.
	if !em.unit[id].def && !(em.o.SkipBuiltinTypedefs && strings.HasPrefix(name, "__builtin_")) {
		em.p.Typedef(b, id)
	}
	em.addDef(id)
	return true
}

// enumDefs is pahole's enumeration__emit_definitions: the enum, unless
// printed before; an enum without enumerators is a declaration, which
// does not count as a definition.
func (em *Emitter) enumDefs(b *cfmt.Buf, id btf.TypeID, suffix *string) bool {
	if em.unit[id].def {
		return false
	}
	t, name := em.named(id)
	if em.hasDef(defEnum, name) {
		em.setDef(id)
		return false
	}
	em.p.Enum(b, id, suffix)
	if t.Vlen() != 0 {
		em.addDef(id)
	}
	return true
}

// fwdDecl is pahole's type__emit_fwd_decl: "struct NAME;" once per name
// not declared or defined since.
func (em *Emitter) fwdDecl(b *cfmt.Buf, id btf.TypeID) bool {
	s := em.unit[id]
	if s.fwd {
		return false
	}
	t, name := em.named(id)
	if name == "" {
		return false
	}
	s.fwd = true
	if em.e.fwds[name] > 0 {
		em.unit[id] = s
		return false
	}
	if t.IsUnion() {
		b.Str("union ")
	} else {
		b.Str("struct ")
	}
	b.Str(name)
	b.Str(";\n")
	if s.list == 0 {
		s.list, s.fwdName = onFwds, name
		em.e.fwds[name]++
	}
	em.unit[id] = s
	return true
}

// atomicDefs is pahole's base_type__emit_definitions: a base type named
// "atomic_..." gets a typedef of the _Atomic type it names.
func (em *Emitter) atomicDefs(b *cfmt.Buf, t btf.Type) bool {
	name := t.Name()
	rest, ok := strings.CutPrefix(name, "atomic_")
	if !ok || em.unit[t.ID].def {
		return false
	}
	if em.e.atomic[name] {
		em.setDef(t.ID)
		return false
	}
	b.Str("typedef _Atomic")
	switch {
	case len(rest) > 1 && rest[0] == 's' && rest[1] != 'i' && rest[1] != 'h':
		b.Str(" signed ")
		b.Str(rest[1:])
	case len(rest) > 1 && rest[0] == 'l' && rest[1] == 'l':
		b.Str(" long long")
	case len(rest) > 0 && rest[0] == 'u':
		b.Str(" unsigned")
		if len(rest) > 1 && rest[1] == 'l' {
			b.Str(" long")
			if len(rest) > 2 && rest[2] == 'l' {
				b.Str(" long")
			}
		} else {
			b.Byte(' ')
			b.Str(stdintSimple(rest[1:]))
		}
	case len(rest) > 0 && rest[0] == 'b':
		b.Str(" _Bool")
	default:
		b.Byte(' ')
		b.Str(stdintSimple(rest))
	}
	b.Byte(' ')
	b.Str(name)
	b.Str(";\n")
	em.setDef(t.ID)
	em.e.atomic[name] = true
	return true
}

// stdintSimple is pahole's base_type__stdint2simple.
func stdintSimple(name string) string {
	switch name {
	case "int32_t":
		return "int"
	case "int16_t":
		return "short"
	case "int8_t":
		return "char"
	case "int64_t":
		return "long"
	}
	return name
}

// Emit is pahole's type__emit: a needed struct, union or enum printed on
// its own, if it has a name or is given a prefix or suffix (nil: C's
// NULL).
func (em *Emitter) Emit(b *cfmt.Buf, id btf.TypeID, prefix, suffix *string) {
	if _, name := em.named(id); name == "" && prefix == nil && suffix == nil {
		return
	}
	em.p.Emit(b, id, prefix, suffix)
}

// EachParam calls f with each parameter of the prototype, in order ("..."
// is none).
func (p Proto) EachParam(f func(name string, typ btf.TypeID)) {
	if p.isProto {
		t := p.fp
		for i := 0; i < t.Vlen(); i++ {
			pm := t.Param(i)
			if pm.Type == 0 {
				continue
			}
			var name string
			if pm.NameOff != 0 {
				name = t.Spec().String(pm.NameOff)
			}
			f(name, pm.Type)
		}
		return
	}
	if p.List != nil {
		for i := range p.List.NumParams() {
			f(p.List.Param(i))
		}
	}
}
