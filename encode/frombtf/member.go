package frombtf

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
)

// A member's functions and variables, taken out of its types before the
// merge (doc.go): their names as strings, their types as IDs that follow
// the member's types through the merges and deduplications.

// member is one archive member after extract: its FUNCs and the VARs of
// its DATASECs (its other types are in its group's Builder).
type member struct {
	funcs []memberFunc
	vars  []memberVar
	// wanted says that funcs holds only functions extract's want took.
	wanted bool
}

// memberFunc is a FUNC: its name, its prototype's return and parameter
// types, and the DECL_TAGs that point at it.
type memberFunc struct {
	name   string
	ret    btf.TypeID
	params []memberParam
	tags   []memberTag
}

type memberParam struct {
	name string
	typ  btf.TypeID
}

// memberTag is a DECL_TAG of a FUNC or VAR: its value and component
// index (-1: the declaration itself).
type memberTag struct {
	value string
	comp  uint32
}

// memberVar is a VAR listed in a DATASEC.
type memberVar struct {
	name    string
	typ     btf.TypeID
	linkage uint32
	section string
	tags    []memberTag
}

// funcAt is a FUNC of a member and its FUNC_PROTO, as extract finds
// them.
type funcAt struct {
	id, proto btf.TypeID
}

// protoMarker is what extract's walk over a member's references does:
// a reference to a type of the member marks it used if it is a
// FUNC_PROTO (mark, on the reference followed past the types fixMember
// dropped).
type protoMarker struct {
	m         *btf.Spec
	first, n  uint32
	fixed     []btf.TypeID // fixMember's drops (nil: none)
	protoUsed []bool
}

// follow is a reference as in m rebuilt without the types fixed drops: a
// kept type of m, or 0 (void or a type nothing kept refers to); a
// reference outside m is left as it is.
func (pm *protoMarker) follow(id uint32) uint32 {
	for hops := uint32(0); pm.fixed != nil && id-pm.first < pm.n && hops <= pm.n; hops++ {
		a := pm.fixed[id-pm.first]
		if a == 0 {
			return id
		}
		if a == noType {
			return 0
		}
		id = uint32(a)
	}
	return id
}

// kind is the kind of type id of m, 0 for one outside m.
func (pm *protoMarker) kind(id uint32) btf.Kind {
	if i := id - pm.first; i < pm.n {
		return btf.KindOf(pm.m.OwnInfo(i))
	}
	return 0
}

func (pm *protoMarker) mark(t uint32) { pm.markFollowed(pm.follow(t)) }

func (pm *protoMarker) markFollowed(t uint32) {
	if i := t - pm.first; i < pm.n && btf.KindOf(pm.m.OwnInfo(i)) == btf.KindFuncProto {
		pm.protoUsed[i] = true
	}
}

// ref is mark in a member without dropped types (nothing to follow).
func (pm *protoMarker) ref(t uint32) { pm.markFollowed(t) }

// refs marks each type reference of a type that stays; where nothing was
// dropped, written out per kind for the common ones (most of a member's
// references) with ref inlined, not a callback per reference.
func (pm *protoMarker) refs(info, st uint32, ext []uint32) {
	if pm.fixed != nil {
		btf.ForEachTypeRef(info, &st, ext, func(p *uint32) { pm.mark(*p) })
		return
	}
	switch btf.KindOf(info) {
	case btf.KindInt, btf.KindEnum, btf.KindEnum64, btf.KindFwd, btf.KindFloat:
		// no references
	case btf.KindStruct, btf.KindUnion:
		for k := 1; k < len(ext); k += 3 {
			pm.ref(ext[k])
		}
	case btf.KindPtr, btf.KindTypedef, btf.KindVolatile, btf.KindConst, btf.KindRestrict,
		btf.KindFunc, btf.KindVar, btf.KindDeclTag, btf.KindTypeTag:
		pm.ref(st)
	case btf.KindArray:
		pm.ref(ext[0])
		pm.ref(ext[1])
	case btf.KindFuncProto:
		pm.ref(st)
		for k := 1; k < len(ext); k += 2 {
			pm.ref(ext[k])
		}
	default:
		btf.ForEachTypeRef(info, &st, ext, func(p *uint32) { pm.ref(*p) })
	}
}

// extract takes m's FUNCs, VARs and DATASECs out, with the DECL_TAGs
// that point at FUNCs and VARs and the FUNC_PROTOs only FUNCs refer to.
// fixed, when not nil, marks the types fixMember dropped (as rebuild
// takes it): they are left out too, and references to them follow it, as
// if m had been rebuilt without them. want, when not nil, says which
// FUNCs to keep as member functions (by name; those not wanted are
// dropped all the same, but not recorded). The other types are appended
// to g; the member's functions and variables refer to them by their IDs
// there.
func extract(m *btf.Spec, fixed []btf.TypeID, want func(name string) bool, g *groupBuilder) (member, error) {
	first, next := m.FirstID(), m.NextID()
	n := m.NumTypes()
	alias := scratch(g.alias, n)
	protoUsed := scratch(g.protoUsed, n)
	g.alias, g.protoUsed = alias, protoUsed
	funcs := g.funcs[:0]
	defer func() { g.funcs = funcs[:0] }()
	var entries [][2]uint32 // (VAR ID, DATASEC ID)
	tags := map[btf.TypeID][]memberTag{}
	found := false
	mk := protoMarker{m: m, first: uint32(first), n: uint32(n), fixed: fixed, protoUsed: protoUsed}
	follow, kindOf := mk.follow, mk.kind
	for id := first; id < next; id++ {
		i := id - first
		name, info, st, ext := m.RawType(id)
		if fixed != nil && fixed[i] != 0 {
			continue
		}
		switch btf.KindOf(info) {
		case btf.KindFunc:
			funcs = append(funcs, funcAt{id, btf.TypeID(follow(st))})
			alias[i], found = noType, true
		case btf.KindVar:
			alias[i], found = noType, true
		case btf.KindDatasec:
			for k := 0; k < btf.VlenOf(info); k++ {
				entries = append(entries, [2]uint32{follow(ext[3*k]), uint32(id)})
			}
			alias[i], found = noType, true
		case btf.KindDeclTag:
			to := follow(st)
			if k := kindOf(to); k == btf.KindFunc || k == btf.KindVar {
				tags[btf.TypeID(to)] = append(tags[btf.TypeID(to)], memberTag{m.String(name), ext[0]})
				alias[i], found = noType, true
			}
		}
		if alias[i] != 0 {
			continue
		}
		mk.refs(info, st, ext)
	}
	if !found {
		_, err := g.add(m, fixed)
		return member{}, err
	}
	for _, f := range funcs {
		if kindOf(uint32(f.proto)) == btf.KindFuncProto && !protoUsed[f.proto-first] {
			alias[f.proto-first] = noType
		}
	}
	if fixed != nil {
		for i, a := range fixed {
			if a != 0 {
				alias[i] = a
			}
		}
	}
	newID, err := g.add(m, alias)
	if err != nil {
		return member{}, err
	}
	remap := func(id uint32) btf.TypeID {
		if id < uint32(first) || id >= uint32(next) {
			return 0
		}
		return btf.TypeID(newID[id-uint32(first)])
	}
	res := member{wanted: want != nil}
	// The functions' parameters share one slice.
	// Declarations are not recorded (funcvar.UnnamedParams).
	nf, np := 0, 0
	pairs := g.pairs[:0]
	defer func() { g.pairs = pairs[:0] }()
	for i, f := range funcs {
		if kindOf(uint32(f.proto)) != btf.KindFuncProto {
			funcs[i].proto = 0
			continue
		}
		// Declarations first: most FUNCs of an archive are, and the
		// test is cheaper than want's look-up by name.
		_, info, _, ext := m.RawType(f.proto)
		pairs = append(pairs[:0], ext...)
		for k := 0; k < len(pairs); k += 2 {
			if pairs[k] != 0 && m.String(pairs[k]) == "" {
				pairs[k] = 0
			}
		}
		name, _, _, _ := m.RawType(f.id)
		if funcvar.UnnamedParams(pairs) || want != nil && !want(m.String(name)) {
			funcs[i].proto = 0
			continue
		}
		nf++
		np += btf.VlenOf(info)
	}
	res.funcs = make([]memberFunc, 0, nf)
	params := make([]memberParam, 0, np)
	for _, f := range funcs {
		if f.proto == 0 {
			continue
		}
		name, _, _, _ := m.RawType(f.id)
		_, info, st, ext := m.RawType(f.proto)
		st = follow(st)
		fn := memberFunc{name: m.String(name), ret: remap(st), tags: tags[f.id]}
		if st != 0 && fn.ret == 0 {
			continue // malformed: a return type that is gone
		}
		ok := true
		at := len(params)
		for k := 0; k < btf.VlenOf(info); k++ {
			pname, ptype := ext[2*k], follow(ext[2*k+1])
			t := remap(ptype)
			if ptype != 0 && t == 0 {
				ok = false
			}
			params = append(params, memberParam{m.String(pname), t})
		}
		fn.params = params[at:len(params):len(params)]
		if ok {
			res.funcs = append(res.funcs, fn)
		}
	}
	for _, e := range entries {
		if kindOf(e[0]) != btf.KindVar {
			continue
		}
		v := m.Type(btf.TypeID(e[0]))
		t := remap(follow(uint32(v.Ref())))
		if t == 0 {
			continue
		}
		res.vars = append(res.vars, memberVar{name: v.Name(), typ: t, linkage: v.Linkage(),
			section: m.Type(btf.TypeID(e[1])).Name(), tags: tags[btf.TypeID(e[0])]})
	}
	res.ownNames()
	return res, nil
}

// ownNames gives the member's recorded names their own memory, one
// string for all: they were views of the parsed member's string table,
// which they would otherwise keep alive until the end (an archive's
// tables are many megabytes; the names kept, a small part).
func (mb *member) ownNames() {
	n := 0
	each := func(fn func(p *string)) {
		for i := range mb.funcs {
			f := &mb.funcs[i]
			fn(&f.name)
			for k := range f.params {
				fn(&f.params[k].name)
			}
			for k := range f.tags {
				fn(&f.tags[k].value)
			}
		}
		for i := range mb.vars {
			v := &mb.vars[i]
			fn(&v.name)
			fn(&v.section)
			for k := range v.tags {
				fn(&v.tags[k].value)
			}
		}
	}
	each(func(p *string) { n += len(*p) })
	if n == 0 {
		return
	}
	buf := make([]byte, 0, n)
	each(func(p *string) { buf = append(buf, *p...) })
	all := string(buf)
	at := 0
	each(func(p *string) {
		l := len(*p)
		*p = all[at : at+l]
		at += l
	})
}

// shift moves the member's function and variable type IDs through a
// merge (add: the member's first ID in the merged Spec, minus 1) and a
// deduplication (m, when not nil).
func (mb *member) shift(add btf.TypeID, m func(btf.TypeID) btf.TypeID) {
	mv := func(id btf.TypeID) btf.TypeID {
		if id == 0 {
			return 0
		}
		id += add
		if m != nil {
			id = m(id)
		}
		return id
	}
	for i := range mb.funcs {
		f := &mb.funcs[i]
		f.ret = mv(f.ret)
		for k := range f.params {
			f.params[k].typ = mv(f.params[k].typ)
		}
	}
	for i := range mb.vars {
		mb.vars[i].typ = mv(mb.vars[i].typ)
	}
}
