package layout

import (
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// --compile: compilable C, as pahole 1.32's dwarves_emit.c prints it.
// Before each type the listing prints, the types it needs are printed
// (definitions of the types its members embed, forward declarations of
// the structs and unions it points to, typedefs, enums, the types of
// function pointers' parameters), each once per listing: a type whose
// kind and name were printed before, from this unit or an earlier one, is
// not printed again. The types needed are printed with pahole's default
// options (offsets in decimal, no -E...), the listed type itself with
// the listing's. A struct, union or enum whose name another kind of tag
// already took is renamed NAME__1, as pahole does.
//
// One difference from pahole, so that the output compiles with clang
// too: a typedef named like a compiler builtin ("__builtin_...") is not
// printed (typedefDefs).

// defKind is the C namespace a definition is looked up in: pahole
// compares DWARF tags.
type defKind uint8

const (
	defStruct defKind = iota + 1
	defUnion
	defEnum
	defTypedef
)

type defKey struct {
	kind defKind
	name string
}

// emissions is pahole's type_emissions: what the listing has printed.
type emissions struct {
	defs   map[defKey]bool // definitions, by kind and name
	fwd    map[string]int  // forward declarations not defined since, by name
	atomic map[string]bool // "atomic_" base type typedefs, by name
}

// unitEmissions is what pahole marks on a unit's types while emitting:
// definition_emitted, fwd_decl_emitted, and which list a type is on.
type unitEmissions struct {
	u       *unit
	b       *buf
	e       *emissions
	defined map[btf.TypeID]bool
	fwded   map[btf.TypeID]bool
	listed  map[btf.TypeID]byte // 'd': on the definitions list, 'f': on the forward declarations
}

// formatCompilable is pahole's class_formatter with --compile: the types
// id needs, then id with the listing's options, c.
func (l *Listing) formatCompilable(u *unit, b *buf, id btf.TypeID, c conf) {
	if l.emit == nil {
		l.emit = &emissions{defs: map[defKey]bool{}, fwd: map[string]int{}, atomic: map[string]bool{}}
	}
	if l.emitUnit == nil || l.emitUnit.u != u {
		l.emitUnit = &unitEmissions{u: u, e: l.emit, defined: map[btf.TypeID]bool{},
			fwded: map[btf.TypeID]bool{}, listed: map[btf.TypeID]byte{}}
	}
	ue := l.emitUnit
	ue.b = b
	if ue.typeDefs(id) {
		c.noSemicolon = true
		u.printTop(b, id, c)
		b.Byte(';')
	}
	b.Byte('\n')
}

// kindOf is the namespace of a struct, union, enum or typedef (0 for
// other types).
func kindOf(t btf.Type) defKind {
	switch {
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

// hasDef is type_emissions__find_definition.
func (ue *unitEmissions) hasDef(k defKind, name string) bool {
	return name != "" && ue.e.defs[defKey{k, name}]
}

// hasShadow is type_emissions__find_shadow_definition: a struct, union
// or enum of another kind with that name.
func (ue *unitEmissions) hasShadow(k defKind, name string) bool {
	if name == "" {
		return false
	}
	for _, o := range []defKind{defStruct, defUnion, defEnum} {
		if o != k && ue.e.defs[defKey{o, name}] {
			return true
		}
	}
	return false
}

// addDef is type_emissions__add_definition.
func (ue *unitEmissions) addDef(id btf.TypeID) {
	ue.defined[id] = true
	t := ue.u.spec.Type(id)
	name := ue.u.nameOf(t)
	if ue.listed[id] == 'f' {
		ue.e.fwd[name]--
	}
	ue.listed[id] = 'd'
	if name != "" {
		ue.e.defs[defKey{kindOf(t), name}] = true
	}
}

// typeDefs is pahole's type__emit_definitions: the types a struct, union,
// enum or typedef needs are printed, and whether it still needs printing
// is returned.
func (ue *unitEmissions) typeDefs(id btf.TypeID) bool {
	u := ue.u
	if ue.defined[id] || !u.enter() {
		return false
	}
	defer u.leave()
	t := u.spec.Type(id)
	k := kindOf(t)
	if ue.hasDef(k, u.nameOf(t)) {
		ue.defined[id] = true
		return false
	}
	if k == defTypedef {
		return ue.typedefDefs(id)
	}
	if name := u.nameOf(t); ue.hasShadow(k, name) {
		u.rename(id, name+"__1")
		if ue.hasDef(k, u.nameOf(t)) {
			ue.defined[id] = true
			return false
		}
	}
	ue.addDef(id)
	if t.IsStruct() || t.IsUnion() {
		cl := u.class(id)
		u.markUnnaturalStructs(cl)
		for i := range cl.members {
			if ue.tagDefs(cl.members[i].typ) {
				ue.b.Byte('\n')
			}
		}
	}
	return true
}

// tagDefs is pahole's tag__emit_definitions for a member's, parameter's
// or return type typ: what it needs printed before it, through pointers
// (a forward declaration of a struct or union), arrays and qualifiers. It
// reports whether anything was printed.
func (ue *unitEmissions) tagDefs(typ btf.TypeID) bool {
	u := ue.u
	pointer := false
	for steps := 0; steps < maxDepth; steps++ {
		t, ok := u.typ(typ)
		if !ok {
			return false
		}
		switch k := t.Kind(); {
		case k == btf.KindInt || k == btf.KindFloat:
			if u.opts != nil && u.opts.SkipEmittingAtomicTypedefs {
				return false
			}
			return ue.atomicDefs(t)
		case k == btf.KindPtr:
			pointer = true
			typ = t.Ref()
			continue
		case k == btf.KindArray:
			typ = u.arrayElem(typ, t.Array())
			continue
		case k == btf.KindConst || k == btf.KindVolatile:
			typ = t.Ref()
			continue
		case k == btf.KindTypedef:
			return ue.typedefDefs(typ)
		case t.IsEnum():
			if t.Name() != "" {
				return ue.enumDefs(typ, "", false)
			}
			return false
		case t.IsStruct() || t.IsUnion():
			if pointer {
				if t.Name() == "" {
					ue.typeDefs(typ)
				}
				return ue.fwdDecl(typ)
			}
			if ue.typeDefs(typ) {
				ue.emit(typ, "", "", false, false)
			}
			return true
		case k == btf.KindFuncProto:
			return ue.ftypeDefs(t)
		}
		return false
	}
	return false
}

// ftypeDefs is pahole's ftype__emit_definitions: the return and parameter
// types of a function type, and an empty line after them if any.
func (ue *unitEmissions) ftypeDefs(proto btf.Type) bool {
	printed := ue.tagDefs(proto.Ref())
	for i := 0; i < proto.Vlen(); i++ {
		if ue.tagDefs(proto.Param(i).Type) {
			printed = true
		}
	}
	if printed {
		ue.b.Byte('\n')
	}
	return printed
}

// typedefDefs is pahole's typedef__emit_definitions: what the typedef
// needs, then the typedef; a typedef of an anonymous struct, union or
// enum is printed as "typedef" and the type's body.
func (ue *unitEmissions) typedefDefs(id btf.TypeID) bool {
	u := ue.u
	if ue.defined[id] || !u.enter() {
		return false
	}
	defer u.leave()
	def := u.spec.Type(id)
	name := def.Name()
	if ue.hasDef(defTypedef, name) {
		ue.defined[id] = true
		return false
	}
	if tt, ok := u.typ(def.Ref()); ok {
		switch k := tt.Kind(); {
		case k == btf.KindArray:
			ue.tagDefs(u.arrayElem(def.Ref(), tt.Array()))
		case k == btf.KindTypedef:
			ue.typedefDefs(def.Ref())
		case k == btf.KindPtr:
			pt, ok := u.typ(tt.Ref())
			switch {
			case !ok:
			case pt.Kind() == btf.KindTypedef:
				ue.typedefDefs(tt.Ref())
			case pt.Kind() == btf.KindFuncProto:
				ue.ftypeDefs(pt)
			}
		case k == btf.KindFuncProto:
			ue.ftypeDefs(tt)
		case tt.IsEnum():
			if tt.Name() == "" {
				ue.b.Str("typedef ")
				ue.enumDefs(def.Ref(), name, true)
				ue.addDef(id)
				return true
			}
			ue.enumDefs(def.Ref(), "", false)
		case tt.IsStruct() || tt.IsUnion():
			if tt.Name() == "" {
				ue.typeDefs(def.Ref())
				ue.emit(def.Ref(), "typedef", name, true, true)
				ue.addDef(id)
				return true
			}
			if ue.typeDefs(def.Ref()) {
				ue.emit(def.Ref(), "", "", false, false)
			}
		}
	}
	// Printed meanwhile (a typedef its own types need), it is not
	// printed again. Nor is a compiler's own typedef (btfkit's one
	// difference from pahole here): pahole prints the kernel's
	// "typedef struct __va_list_tag __builtin_va_list[1];", which gcc
	// accepts and clang rejects as a redefinition.
	if !ue.defined[id] && !strings.HasPrefix(name, "__builtin_") {
		u.printTypedef(ue.b, def, defaultConf())
		ue.b.Str(";\n")
	}
	ue.addDef(id)
	return true
}

// defaultConf is pahole's conf_fprintf__defaults, which the typedefs
// printed for --compile get.
func defaultConf() conf {
	return conf{nameSpacing: defaultNameSpacing, typeSpacing: defaultTypeSpacing, emitStats: true, noAlignmentInfo: true}
}

// enumDefs is pahole's enumeration__emit_definitions: the enum, unless
// printed before; an enum without enumerators is a declaration, which
// does not count as a definition.
func (ue *unitEmissions) enumDefs(id btf.TypeID, suffix string, hasSuffix bool) bool {
	u := ue.u
	if ue.defined[id] {
		return false
	}
	t := u.spec.Type(id)
	if ue.hasDef(defEnum, t.Name()) {
		ue.defined[id] = true
		return false
	}
	u.printEnum(ue.b, t, conf{suffix: suffix, hasSuffix: hasSuffix})
	ue.b.Str(";\n")
	if t.Vlen() != 0 {
		ue.addDef(id)
	}
	return true
}

// fwdDecl is pahole's type__emit_fwd_decl: "struct NAME;" once per name
// not declared or defined since.
func (ue *unitEmissions) fwdDecl(id btf.TypeID) bool {
	u := ue.u
	if ue.fwded[id] {
		return false
	}
	t := u.spec.Type(id)
	name := u.nameOf(t)
	if name == "" {
		return false
	}
	if ue.e.fwd[name] > 0 {
		ue.fwded[id] = true
		return false
	}
	if t.IsUnion() {
		ue.b.Str("union ")
	} else {
		ue.b.Str("struct ")
	}
	ue.b.Str(name)
	ue.b.Str(";\n")
	ue.fwded[id] = true
	if ue.listed[id] == 0 {
		ue.listed[id] = 'f'
		ue.e.fwd[name]++
	}
	return true
}

// atomicDefs is pahole's base_type__emit_definitions: a base type named
// "atomic_..." gets a typedef of the _Atomic type it names.
func (ue *unitEmissions) atomicDefs(t btf.Type) bool {
	name := t.Name()
	rest, ok := strings.CutPrefix(name, "atomic_")
	if !ok || ue.defined[t.ID] {
		return false
	}
	if ue.e.atomic[name] {
		ue.defined[t.ID] = true
		return false
	}
	b := ue.b
	b.Str("typedef _Atomic")
	switch {
	case len(rest) > 1 && rest[0] == 's' && rest[1] != 'i' && rest[1] != 'h':
		b.Str(" signed " + rest[1:])
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
			b.Str(" " + stdintSimple(rest[1:]))
		}
	case len(rest) > 0 && rest[0] == 'b':
		b.Str(" _Bool")
	default:
		b.Str(" " + stdintSimple(rest))
	}
	b.Str(" " + name + ";\n")
	ue.defined[t.ID] = true
	ue.e.atomic[name] = true
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

// emit is pahole's type__emit: a needed struct, union or enum printed on
// its own, with pahole's default options.
func (ue *unitEmissions) emit(id btf.TypeID, prefix, suffix string, hasPrefix, hasSuffix bool) {
	u := ue.u
	t := u.spec.Type(id)
	if u.nameOf(t) == "" && !hasPrefix && !hasSuffix {
		return
	}
	c := conf{emitStats: true, prefix: prefix, hasPrefix: hasPrefix, suffix: suffix, hasSuffix: hasSuffix, noAlignmentInfo: true}
	u.printTop(ue.b, id, c)
	ue.b.Byte('\n')
}
