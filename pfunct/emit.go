package pfunct

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/layout"
)

// Type emission for -b and --compile, as pahole's dwarves_emit.c does it:
// before a function, the definitions of the types its prototype needs,
// dependencies first. Whether a type was emitted is remembered per unit
// (pahole's definition_emitted and fwd_decl_emitted flags on the unit's
// type objects) and, by kind and name, across units (pahole's lists of
// definitions and forward declarations); a struct, union or enum whose
// name another of those kinds already used is renamed NAME__1, as
// pahole does, in the unit's types.

// Kinds of definitions pahole tells apart by DWARF tag.
const (
	defStruct = iota
	defUnion
	defEnum
	defTypedef
)

type defKey struct {
	kind uint8
	name string
}

// emissions is pahole's struct type_emissions: what was emitted in any
// unit so far.
type emissions struct {
	defs     map[defKey]int  // definitions by kind and name: how many types
	defNames map[string]int  // struct, union and enum definitions by name
	fwds     map[string]int  // forward declarations by name
	bases    map[string]bool // atomic base type typedefs
}

func newEmissions() *emissions {
	return &emissions{defs: map[defKey]int{}, defNames: map[string]int{}, fwds: map[string]int{}, bases: map[string]bool{}}
}

// Where a type object is on pahole's lists (its one list node).
const (
	onNoList = iota
	onDefs
	onFwds
)

// emitState is one unit's part: pahole's flags on its type objects.
type emitState struct {
	defEmitted map[btf.TypeID]bool
	fwdEmitted map[btf.TypeID]bool
	list       map[btf.TypeID]uint8
	tp         *layout.TypePrinter
}

// emitter emits the types of one unit.
type emitter struct {
	p  *printer
	u  *unit
	s  *emitState
	e  *emissions
	n  *namer
	b  *buf
	dp int
}

func (p *printer) emitter(b *buf, u *unit) *emitter {
	if u.emitted == nil {
		u.emitted = &emitState{
			defEmitted: map[btf.TypeID]bool{},
			fwdEmitted: map[btf.TypeID]bool{},
			list:       map[btf.TypeID]uint8{},
			tp:         layout.NewTypePrinter(u.spec, u.facts, layout.Options{CachelineSize: p.o.cacheline()}),
		}
	}
	return &emitter{p: p, u: u, s: u.emitted, e: p.emissions, n: p.namer(u), b: b}
}

func (e *emitter) typ(id btf.TypeID) (btf.Type, bool) { return e.n.typ(id) }

func (e *emitter) name(t btf.Type) (string, bool) {
	return t.Name(), t.NameOff() != 0
}

// kindOf is the DWARF tag pahole's lists compare, for the kinds that have
// definitions.
func kindOf(t btf.Type) (uint8, bool) {
	switch {
	case t.IsStruct():
		return defStruct, true
	case t.IsUnion():
		return defUnion, true
	case t.IsEnum():
		return defEnum, true
	case t.Kind() == btf.KindTypedef:
		return defTypedef, true
	}
	return 0, false
}

// isType is pahole's tag__is_type.
func isType(t btf.Type) bool {
	_, ok := kindOf(t)
	return ok
}

func (e *emitter) findDef(t btf.Type) bool {
	k, ok := kindOf(t)
	name, named := e.name(t)
	return ok && named && e.e.defs[defKey{k, name}] > 0
}

// findShadow is pahole's type_emissions__find_shadow_definition: a
// struct, union or enum of the same name but another kind was defined.
func (e *emitter) findShadow(t btf.Type) bool {
	k, _ := kindOf(t)
	name, named := e.name(t)
	if !named {
		return false
	}
	n := e.e.defNames[name]
	if k != defTypedef {
		n -= e.e.defs[defKey{k, name}]
	}
	return n > 0
}

// addDef is pahole's type_emissions__add_definition.
func (e *emitter) addDef(t btf.Type) {
	e.s.defEmitted[t.ID] = true
	if e.s.list[t.ID] == onDefs {
		return
	}
	name, named := e.name(t)
	if e.s.list[t.ID] == onFwds && named {
		e.e.fwds[name]--
	}
	e.s.list[t.ID] = onDefs
	if !named {
		return
	}
	k, _ := kindOf(t)
	e.e.defs[defKey{k, name}]++
	if k != defTypedef {
		e.e.defNames[name]++
	}
}

// typeDefs is pahole's type__emit_definitions.
func (e *emitter) typeDefs(t btf.Type) bool {
	if e.s.defEmitted[t.ID] {
		return false
	}
	if e.findDef(t) {
		e.s.defEmitted[t.ID] = true
		return false
	}
	if t.Kind() == btf.KindTypedef {
		return e.typedefDefs(t)
	}
	if k, _ := kindOf(t); k != defTypedef && e.findShadow(t) {
		e.rename(t)
		t = e.u.spec.Type(t.ID)
		if e.findDef(t) {
			e.s.defEmitted[t.ID] = true
			return false
		}
	}
	e.addDef(t)
	e.s.tp.CheckUnnaturalAlignments(t.ID)
	if t.IsStruct() || t.IsUnion() {
		if t.Kind() == btf.KindStruct || t.Kind() == btf.KindUnion {
			for i := 0; i < t.Vlen(); i++ {
				if e.tagDefs(t.Member(i).Type) {
					e.b.Byte('\n')
				}
			}
		}
	}
	return true
}

// rename gives the type pahole's disambiguated name, NAME__1, in the
// unit's types: every later mention prints it.
func (e *emitter) rename(t btf.Type) {
	s := e.u.spec
	nameOff, info, sizeType, ext := s.RawType(t.ID)
	_ = nameOff
	off := s.AddString(t.Name() + "__1")
	s.SetRaw(t.ID, off, info, sizeType, append([]uint32(nil), ext...)...)
}

// tagDefs is pahole's tag__emit_definitions for a tag of type id.
func (e *emitter) tagDefs(id btf.TypeID) bool {
	if e.dp >= maxDepth {
		return false
	}
	e.dp++
	defer func() { e.dp-- }()
	t, ok := e.typ(id)
	if !ok {
		return false
	}
	pointer := false
	for n := 0; n < maxDepth; n++ {
		switch k := t.Kind(); {
		case k == btf.KindInt || k == btf.KindFloat:
			return e.baseDefs(t)
		case k == btf.KindPtr, k == btf.KindArray, k == btf.KindConst, k == btf.KindVolatile:
			if k == btf.KindPtr {
				pointer = true
			}
			next := t.Ref()
			if k == btf.KindArray {
				next = t.Array().Elem
			}
			if t, ok = e.typ(next); !ok {
				return false
			}
			continue
		case k == btf.KindTypedef:
			return e.typedefDefs(t)
		case t.IsEnum():
			if t.NameOff() != 0 {
				return e.enumDefs(t, nil)
			}
			return false
		case t.IsStruct() || t.IsUnion():
			if pointer {
				if t.NameOff() == 0 {
					e.typeDefs(t)
				}
				return e.fwdDecl(t)
			}
			if e.typeDefs(t) {
				e.emit(t, nil, nil)
			}
			return true
		case k == btf.KindFuncProto:
			return e.ftypeDefs(t.Ref(), e.n.protoParams(t))
		}
		return false
	}
	return false
}

// ftypeDefs is pahole's ftype__emit_definitions.
func (e *emitter) ftypeDefs(ret btf.TypeID, ps []parm) bool {
	printed := e.tagDefs(ret)
	for _, p := range ps {
		if e.tagDefs(p.typ) {
			printed = true
		}
	}
	if printed {
		e.b.Byte('\n')
	}
	return printed
}

// typedefDefs is pahole's typedef__emit_definitions.
func (e *emitter) typedefDefs(td btf.Type) bool {
	if e.s.defEmitted[td.ID] {
		return false
	}
	if e.findDef(td) {
		e.s.defEmitted[td.ID] = true
		return false
	}
	t, ok := e.typ(td.Ref())
	if ok {
		switch k := t.Kind(); {
		case k == btf.KindArray:
			e.tagDefs(t.Array().Elem)
		case k == btf.KindTypedef:
			e.typedefDefs(t)
		case k == btf.KindPtr:
			pt, ok := e.typ(t.Ref())
			switch {
			case !ok:
			case pt.Kind() == btf.KindTypedef:
				e.typedefDefs(pt)
			case pt.Kind() == btf.KindFuncProto:
				e.ftypeDefs(pt.Ref(), e.n.protoParams(pt))
			}
		case k == btf.KindFuncProto:
			e.ftypeDefs(t.Ref(), e.n.protoParams(t))
		case t.IsEnum():
			if t.NameOff() == 0 {
				e.b.Str("typedef ")
				name := td.Name()
				e.enumDefs(t, &name)
				e.addDef(td)
				return true
			}
			e.enumDefs(t, nil)
		case t.IsStruct() || t.IsUnion():
			if t.NameOff() == 0 {
				e.typeDefs(t)
				prefix, suffix := "typedef", td.Name()
				e.emit(t, &prefix, &suffix)
				e.addDef(td)
				return true
			}
			if e.typeDefs(t) {
				e.emit(t, nil, nil)
			}
		}
	}
	if !e.s.defEmitted[td.ID] {
		*e.b = e.s.tp.Typedef(*e.b, td.ID)
	}
	e.addDef(td)
	return true
}

// enumDefs is pahole's enumeration__emit_definitions.
func (e *emitter) enumDefs(t btf.Type, suffix *string) bool {
	if e.s.defEmitted[t.ID] {
		return false
	}
	if e.findDef(t) {
		e.s.defEmitted[t.ID] = true
		return false
	}
	*e.b = e.s.tp.Enum(*e.b, t.ID, suffix)
	if t.Vlen() != 0 {
		e.addDef(t)
	}
	return true
}

// fwdDecl is pahole's type__emit_fwd_decl.
func (e *emitter) fwdDecl(t btf.Type) bool {
	if e.s.fwdEmitted[t.ID] {
		return false
	}
	name, named := e.name(t)
	if !named {
		return false
	}
	if e.e.fwds[name] > 0 {
		e.s.fwdEmitted[t.ID] = true
		return false
	}
	if t.IsUnion() {
		e.b.Str("union ")
	} else {
		e.b.Str("struct ")
	}
	e.b.Str(name)
	e.b.Str(";\n")
	e.s.fwdEmitted[t.ID] = true
	if e.s.list[t.ID] == onNoList {
		e.s.list[t.ID] = onFwds
		e.e.fwds[name]++
	}
	return true
}

// baseDefs is pahole's base_type__emit_definitions: only C11's atomic_*
// names get a typedef.
func (e *emitter) baseDefs(t btf.Type) bool {
	const prefix = "atomic_"
	name := t.Name()
	if e.s.defEmitted[t.ID] || len(name) <= len(prefix) && name != prefix || name[:min(len(name), len(prefix))] != prefix {
		return false
	}
	if e.e.bases[name] {
		e.s.defEmitted[t.ID] = true
		return false
	}
	rest := name[len(prefix):]
	e.b.Str("typedef _Atomic")
	switch {
	case len(rest) > 1 && rest[0] == 's' && rest[1] != 'i' && rest[1] != 'h':
		e.b.Str(" signed ")
		e.b.Str(rest[1:])
	case len(rest) > 1 && rest[0] == 'l' && rest[1] == 'l':
		e.b.Str(" long long")
	case len(rest) > 0 && rest[0] == 'u':
		e.b.Str(" unsigned")
		switch {
		case len(rest) > 1 && rest[1] == 'l':
			e.b.Str(" long")
			if len(rest) > 2 && rest[2] == 'l' {
				e.b.Str(" long")
			}
		default:
			e.b.Byte(' ')
			e.b.Str(stdintSimple(rest[1:]))
		}
	case len(rest) > 0 && rest[0] == 'b':
		e.b.Str(" _Bool")
	default:
		e.b.Byte(' ')
		e.b.Str(stdintSimple(rest))
	}
	e.b.Byte(' ')
	e.b.Str(name)
	e.b.Str(";\n")
	e.s.defEmitted[t.ID] = true
	e.e.bases[name] = true
	return true
}

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

// emit is pahole's type__emit: a named type (or one given a prefix or
// suffix) printed on its own with its summary.
func (e *emitter) emit(t btf.Type, prefix, suffix *string) {
	if t.NameOff() == 0 && prefix == nil && suffix == nil {
		return
	}
	*e.b = e.s.tp.Emit(*e.b, t.ID, prefix, suffix)
}

// functionTypes is pfunct's function__emit_type_definitions: the return
// type and each parameter's type, through pointers and qualifiers.
func (e *emitter) functionTypes(f *function) {
	_, ps, _ := e.n.funcParams(f)
	ret, _, _ := e.n.funcParams(f)
	t, ok := e.typ(btfID(ret))
	for n := 0; ok && n < maxDepth; n++ {
		if t.Kind() == btf.KindPtr || btf.IsQualifier(t.Kind()) {
			t, ok = e.typ(t.Ref())
			continue
		}
		if isType(t) && !e.s.defEmitted[t.ID] {
			e.typeDefs(t)
			e.emit(e.u.spec.Type(t.ID), nil, nil)
		}
		break
	}
	for _, p := range ps {
		t, ok := e.typ(p.typ)
		for n := 0; ok && n < maxDepth; n++ {
			if t.Kind() == btf.KindPtr || btf.IsQualifier(t.Kind()) {
				t, ok = e.typ(t.Ref())
				continue
			}
			if t.Kind() == btf.KindFuncProto {
				e.ftypeDefs(t.Ref(), e.n.protoParams(t))
			} else if isType(t) && !e.s.defEmitted[t.ID] {
				e.typeDefs(t)
				if t.Kind() != btf.KindTypedef {
					e.emit(e.u.spec.Type(t.ID), nil, nil)
				}
				e.b.Byte('\n')
			}
			break
		}
	}
}

func btfID(v uint32) btf.TypeID { return btf.TypeID(v) }
