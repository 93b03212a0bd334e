package encode

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// Selection of functions, after the merge.
//
// Every unit contributes candidates (pahole's "function states") for its
// defined subprograms; a candidate counts when its name is a function of
// the ELF symbol table (symbol names without their ".suffix"). The
// candidates are sorted by name, stably, so that those of one name stay in
// unit order, and each name is then decided once, with pahole 1.31's rules:
//
//   - its prototypes must agree between units (consistent_func), loosely:
//     const is looked through, structs, unions, enums and typedefs match by
//     name;
//   - no parameter may be in an unexpected register (unless a struct is
//     passed by value, which shifts registers legitimately), no struct
//     argument on the stack may be packed, no parameter reordered;
//   - an optimized clone (.isra, .constprop) with optimized-out parameters
//     is skipped (optimized_func keeps the others);
//   - all symbols of the name must be at one address.
//
// The FUNC_PROTO and FUNC of each kept name follow all types, in name
// order, with the function's DECL_TAGs (and the bpf_kfunc and
// bpf_fastcall tags of kfuncs); then one DATASEC per section with
// variables, in section order.

// mergedFunc is a candidate with merged string offsets and type IDs.
type mergedFunc struct {
	name    uint32 // string offset, once the FUNC is added
	nameS   string
	elfIdx  int32
	addr    uint64
	hasAddr bool
	flags   uint8
	ret     uint32
	p0, np  uint32 // pairs in mergeFx.words
	a0, na  uint32
	elf     *elfFunc
	off     uint64 // DWARF offset of the subprogram
	// foreign: an instance of the subprogram at origin in another unit,
	// whose types are still to be taken from that one's candidate
	// (resolveForeign); full: all formal parameters are in the words.
	origin        uint64
	foreign, full bool
}

type secEntry struct {
	id, off, size uint32
}

type varKey struct {
	shndx, off uint32
	name       uint32
}

// mergeFx is the merger's part of function and variable encoding.
type mergeFx struct {
	funcs   []mergedFunc
	words   []uint32
	secs    map[uint32][]secEntry
	seenVar map[varKey]bool
}

// addFx appends the fragment's variables (dropping a variable already
// encoded at the same place) and keeps its function candidates.
func (m *merger) addFx(f *fragment, local []uint32, shift uint32) error {
	fx := &f.fx
	if fx.err != nil {
		return fx.err
	}
	if len(fx.funcs) == 0 && len(fx.vars) == 0 {
		return nil
	}
	str := func(i uint32) uint32 {
		if i == 0 {
			return 0
		}
		return local[i-1]
	}
	typ := func(id uint32) uint32 {
		if id == 0 {
			return 0
		}
		return id + shift
	}
	mf := &m.fx
	for _, v := range fx.vars {
		name := str(v.name)
		k := varKey{v.shndx, v.off, name}
		if mf.seenVar == nil {
			mf.seenVar = make(map[varKey]bool)
			mf.secs = make(map[uint32][]secEntry)
		}
		if mf.seenVar[k] {
			continue
		}
		mf.seenVar[k] = true
		id := m.out.AddRaw(name, btf.Info(btf.KindVar, 0, false), typ(v.typ), v.linkage)
		for i := uint32(0); i < v.na; i++ {
			w := fx.words[v.a0+2*i:]
			m.out.AddRaw(str(w[0]), btf.Info(btf.KindDeclTag, 0, false), uint32(id), w[1])
		}
		mf.secs[v.shndx] = append(mf.secs[v.shndx], secEntry{uint32(id), v.off, v.size})
	}
	for _, fn := range fx.funcs {
		g := mergedFunc{nameS: strings.Clone(fn.nameS), elfIdx: fn.elfIdx, addr: fn.addr, hasAddr: fn.hasAddr, flags: fn.flags, ret: typ(fn.ret),
			off: fn.off, origin: fn.origin, foreign: fn.foreign, full: fn.full}
		g.p0 = uint32(len(mf.words))
		for i := uint32(0); i < fn.np; i++ {
			w := fx.words[fn.p0+2*i:]
			t := w[1]
			if !fn.foreign {
				t = typ(t)
			}
			mf.words = append(mf.words, str(w[0]), t)
		}
		g.np = fn.np
		g.a0 = uint32(len(mf.words))
		for i := uint32(0); i < fn.na; i++ {
			w := fx.words[fn.a0+2*i:]
			mf.words = append(mf.words, str(w[0]), w[1])
		}
		g.na = fn.na
		mf.funcs = append(mf.funcs, g)
	}
	return nil
}

// intern returns the offset of s in the merged string table, adding it.
func (m *merger) intern(s string) uint32 {
	if s == "" {
		return 0
	}
	return m.internString(s)
}

func (m *merger) str(off uint32) string {
	return strings.Clone(btf.CString(m.strBuf[off:]))
}

// Skip reasons, as pahole words them.
const (
	ReasonUnexpectedReg = "unexpected register usage for parameter"
	ReasonInconsistent  = "inconsistent prototype"
	ReasonUncertainLoc  = "uncertain parameter location"
	ReasonReordered     = "reordered parameters"
	ReasonOptimized     = "optimized parameters"
	ReasonAmbiguous     = "ambiguous address"
	ReasonNoArgNames    = "unnamed parameters"
	ReasonNoSymbol      = "no ELF function symbol"
	ReasonPartOnly      = "only .part/.cold symbols (partly inlined)"
)

// FuncReport lists the functions that have DWARF and an address but got
// no FUNC, each with the reason.
type FuncReport struct {
	Skipped []SkippedFunc // sorted by name
	Encoded int           // FUNCs encoded
}

// SkippedFunc is one function left out, and why.
type SkippedFunc struct {
	Name, Reason string
}

// finishFx decides the functions and appends FUNC_PROTOs, FUNCs, their
// DECL_TAGs and the DATASECs.
func (m *merger) finishFx(o *Options) error {
	info := o.elf
	if info == nil {
		return nil
	}
	mf := &m.fx
	feat := o.Features
	m.resolveForeign()
	// Candidates whose name is an ELF function; the rest are reported.
	var states []mergedFunc
	var skipped []SkippedFunc
	noSym := map[string]bool{}
	noNames := map[string]bool{}
	for _, fn := range mf.funcs {
		name := fn.nameS
		var e *elfFunc
		if fn.flags&(ffNoSymbol|ffNoArgNames) == 0 {
			e = &info.funcs[fn.elfIdx]
		} else if fn.flags&ffNoArgNames != 0 {
			e = info.findFunc(name)
		}
		if e == nil {
			if fn.hasAddr && (fn.addr != 0 || info.rel) {
				noSym[name] = true
			}
			continue
		}
		if fn.flags&ffNoArgNames != 0 {
			if fn.hasAddr && (fn.addr != 0 || info.rel) {
				noNames[name] = true
			}
			continue
		}
		fn.elf = e
		states = append(states, fn)
	}
	// By name: the ELF table is sorted by name, so by its index.
	slices.SortStableFunc(states, func(a, b mergedFunc) int { return cmp.Compare(a.elfIdx, b.elfIdx) })
	kfTag, fcTag := uint32(0), uint32(0)
	encoded := map[string]bool{}
	nEncoded := 0
	for i := 0; i < len(states); {
		j := i + 1
		a := &states[i]
		for j < len(states) && states[j].elf == a.elf {
			b := &states[j]
			un := (a.flags | b.flags) & ffUnexpectedReg
			inc := (a.flags | b.flags) & ffInconsistent
			unc := (a.flags | b.flags) & ffUncertainLoc
			reo := (a.flags | b.flags) & ffReorderedParm
			if un == 0 && inc == 0 && reo == 0 && !m.funcsMatch(a, b) {
				inc = ffInconsistent
			}
			const mask = ffUnexpectedReg | ffInconsistent | ffUncertainLoc | ffReorderedParm
			a.flags = a.flags&^mask | un | inc | unc | reo
			b.flags = b.flags&^mask | un | inc | unc | reo
			j++
		}
		group := states[i:j]
		i = j
		if feat.Has(FeatTrueSignature) {
			// An optimized clone found at its own address is encoded
			// under its symbol's name (foo.isra.0), and the name is done.
			if t, sym := trueSignature(group); t != nil {
				encoded[t.elf.name] = true
				nEncoded++
				t.name = m.intern(sym)
				m.addFunc(t)
				continue
			}
		}
		canon := &group[0]
		if len(group) > 1 {
			canon = selectCanonical(group, feat)
		}
		st := &group[0]
		reason := ""
		if st.flags&ffUnexpectedReg != 0 {
			reason = ReasonUnexpectedReg
		}
		if feat.Has(FeatConsistentFunc) && st.flags&ffInconsistent != 0 {
			reason = ReasonInconsistent
		}
		if st.flags&ffUncertainLoc != 0 {
			reason = ReasonUncertainLoc
		}
		if st.flags&ffReorderedParm != 0 {
			reason = ReasonReordered
		}
		if skipOptimized(canon, feat) {
			reason = ReasonOptimized
		}
		if st.elf.ambiguous {
			reason = ReasonAmbiguous
		}
		if reason != "" {
			skipped = append(skipped, SkippedFunc{st.elf.name, reason})
			continue
		}
		encoded[st.elf.name] = true
		nEncoded++
		if canon.elf.kfunc && feat.Has(FeatDeclTagKfuncs) && feat.Has(FeatAttributes) {
			m.arenaTags(canon)
		}
		canon.name = m.intern(canon.nameS)
		id := m.addFunc(canon)
		if canon.elf.kfunc && feat.Has(FeatDeclTagKfuncs) && feat.Has(FeatDeclTag) {
			if kfTag == 0 {
				kfTag = m.intern("bpf_kfunc")
			}
			m.out.AddRaw(kfTag, btf.Info(btf.KindDeclTag, 0, false), id, ^uint32(0))
			if canon.elf.kflags&kfFastcall != 0 {
				if fcTag == 0 {
					fcTag = m.intern("bpf_fastcall")
				}
				m.out.AddRaw(fcTag, btf.Info(btf.KindDeclTag, 0, false), id, ^uint32(0))
			}
		}
	}
	// DATASECs, in section order, entries by offset.
	for shndx := uint32(1); shndx < uint32(len(info.secs)); shndx++ {
		ents := mf.secs[shndx]
		if len(ents) == 0 {
			continue
		}
		sort.SliceStable(ents, func(i, j int) bool { return ents[i].off < ents[j].off })
		last := ents[len(ents)-1]
		w := make([]uint32, 0, 3*len(ents))
		for _, e := range ents {
			w = append(w, e.id, e.off, e.size)
		}
		if len(ents) > 0xffff {
			return fmt.Errorf("section %s: too many variables for one DATASEC (%d)", info.secs[shndx].name, len(ents))
		}
		m.out.AddRaw(m.intern(info.secs[shndx].name), btf.Info(btf.KindDatasec, len(ents), false), last.off+last.size, w...)
	}
	if o.Report != nil {
		for n := range noSym {
			if !encoded[n] {
				r := ReasonNoSymbol
				if info.parts[n] {
					r = ReasonPartOnly
				}
				skipped = append(skipped, SkippedFunc{n, r})
			}
		}
		for n := range noNames {
			if !encoded[n] {
				skipped = append(skipped, SkippedFunc{n, ReasonNoArgNames})
			}
		}
		sort.Slice(skipped, func(i, j int) bool {
			if skipped[i].Name != skipped[j].Name {
				return skipped[i].Name < skipped[j].Name
			}
			return skipped[i].Reason < skipped[j].Reason
		})
		o.Report.Skipped = skipped
		o.Report.Encoded = nEncoded
	}
	return nil
}

const ffInconsistent = 1 << 7

// resolveForeign gives each instance of an abstract origin in another
// unit the return and parameter types of that origin's candidate (the
// types live in the origin's unit). An instance whose origin has no
// candidate with all its parameters, or that lists a parameter the
// origin does not have, is dropped.
func (m *merger) resolveForeign() {
	mf := &m.fx
	var byOff map[uint64]int
	drop := 0
	for i := range mf.funcs {
		fn := &mf.funcs[i]
		if !fn.foreign {
			continue
		}
		if fn.flags&(ffNoSymbol|ffNoArgNames) != 0 {
			fn.foreign = false // only its name counts (the report)
			continue
		}
		if byOff == nil {
			byOff = make(map[uint64]int)
			for j := range mf.funcs {
				g := &mf.funcs[j]
				if !g.foreign && g.full && g.flags&(ffNoSymbol|ffNoArgNames) == 0 {
					if _, dup := byOff[g.off]; !dup {
						byOff[g.off] = j
					}
				}
			}
		}
		if j, ok := byOff[fn.origin]; ok && m.takeTypes(fn, &mf.funcs[j]) {
			fn.foreign = false
		} else {
			drop++
		}
	}
	if drop == 0 {
		return
	}
	keep := mf.funcs[:0]
	for _, fn := range mf.funcs {
		if !fn.foreign {
			keep = append(keep, fn)
		}
	}
	clear(mf.funcs[len(keep):])
	mf.funcs = keep
}

// takeTypes sets the return and parameter types of fn, an instance of
// g's subprogram, from g; its words' types are positions among g's
// formal parameters. It reports false if one is out of range.
func (m *merger) takeTypes(fn, g *mergedFunc) bool {
	w := m.fx.words
	nFormal := g.np
	if last := g.p0 + 2*(nFormal-1); nFormal > 0 && w[last] == 0 && w[last+1] == 0 {
		nFormal-- // the origin's "..."
	}
	for k := uint32(0); k < fn.np; k++ {
		p := w[fn.p0+2*k:]
		if p[0] == 0 && p[1] == 0 {
			continue // the instance's own "..."
		}
		if p[1] >= nFormal {
			return false
		}
	}
	for k := uint32(0); k < fn.np; k++ {
		p := w[fn.p0+2*k:]
		if p[0] != 0 || p[1] != 0 {
			p[1] = w[g.p0+2*p[1]+1]
		}
	}
	fn.ret = g.ret
	return true
}

// trueSignature returns the first candidate of the group that sits at
// the address of a '.'-suffixed symbol, with that symbol's name, unless
// its parameter locations make fentry untrustworthy.
func trueSignature(group []mergedFunc) (*mergedFunc, string) {
	for k := range group {
		s := &group[k]
		if s.addr == 0 || s.elf.rel || s.flags&(ffUnexpectedReg|ffUncertainLoc) != 0 {
			continue
		}
		for _, sym := range s.elf.syms {
			if sym.addr == s.addr && strings.IndexByte(sym.name, '.') >= 0 {
				return s, sym.name
			}
		}
	}
	return nil, ""
}

// kfunc flags saying which pointers point into a BPF arena.
const (
	kfArenaRet  = 1 << 13
	kfArenaArg1 = 1 << 14
	kfArenaArg2 = 1 << 15
	arenaAttr   = "address_space(1)"
)

// arenaTags rewrites the return and first two parameter types of an
// arena kfunc (attributes): PTR -> T becomes PTR -> TYPE_TAG(kind_flag,
// "address_space(1)") -> T, as pahole does with btf__add_type_attr.
func (m *merger) arenaTags(s *mergedFunc) {
	fl := s.elf.kflags
	tag := func(id uint32) uint32 {
		if id == 0 || !m.out.Has(btf.TypeID(id)) || m.out.Type(btf.TypeID(id)).Kind() != btf.KindPtr {
			return id
		}
		attr := m.out.AddRaw(m.intern(arenaAttr), btf.Info(btf.KindTypeTag, 0, true), m.out.Type(btf.TypeID(id)).SizeType())
		return uint32(m.out.AddRaw(0, btf.Info(btf.KindPtr, 0, false), uint32(attr)))
	}
	if fl&kfArenaRet != 0 {
		s.ret = tag(s.ret)
	}
	for i, f := range []uint32{kfArenaArg1, kfArenaArg2} {
		if fl&f != 0 && uint32(i) < s.np {
			w := &m.fx.words[s.p0+2*uint32(i)+1]
			*w = tag(*w)
		}
	}
}

// skipOptimized: without true_signature, a clone whose parameters were
// optimized away keeps no FUNC (its signature is not the source one).
func skipOptimized(s *mergedFunc, feat Features) bool {
	return !feat.Has(FeatTrueSignature) && s.flags&ffOptimizedParms != 0 &&
		(s.flags&ffSigChanged != 0 || optimizedSymbol(s))
}

// optimizedSymbol reports whether the candidate's address is that of an
// .isra or .constprop symbol.
func optimizedSymbol(s *mergedFunc) bool {
	if s.addr == 0 || s.elf.rel {
		return false
	}
	for _, sym := range s.elf.syms {
		if sym.addr == s.addr && hasOptimizedSuffix(sym.name) {
			return true
		}
	}
	return false
}

// selectCanonical picks the candidate whose prototype is encoded: the
// first at a symbol's address that is not an optimized clone, else the
// first at a symbol's address, else the first.
func selectCanonical(group []mergedFunc, feat Features) *mergedFunc {
	var first *mergedFunc
	for i := range group {
		s := &group[i]
		for _, sym := range s.elf.syms {
			if s.addr != sym.addr || s.elf.rel {
				continue
			}
			if first == nil {
				first = s
			}
			if !skipOptimized(s, feat) {
				return s
			}
		}
	}
	if first != nil {
		return first
	}
	return &group[0]
}

// addFunc appends the FUNC_PROTO and FUNC (and its DECL_TAGs) of s and
// returns the FUNC's ID.
func (m *merger) addFunc(s *mergedFunc) uint32 {
	w := m.fx.words[s.p0 : s.p0+2*s.np]
	proto := m.out.AddRaw(0, btf.Info(btf.KindFuncProto, int(s.np), false), s.ret, w...)
	id := uint32(m.out.AddRaw(s.name, btf.Info(btf.KindFunc, btf.LinkageStatic, false), uint32(proto)))
	for i := uint32(0); i < s.na; i++ {
		a := m.fx.words[s.a0+2*i:]
		m.out.AddRaw(a[0], btf.Info(btf.KindDeclTag, 0, false), id, a[1])
	}
	return id
}

// funcsMatch is pahole's funcs__match: same parameter count, return and
// parameter types matching loosely (typesMatch).
func (m *merger) funcsMatch(a, b *mergedFunc) bool {
	if a.np != b.np {
		return false
	}
	if !m.typesMatch(a.ret, b.ret, 0) {
		return false
	}
	for i := uint32(0); i < a.np; i++ {
		if !m.typesMatch(m.fx.words[a.p0+2*i+1], m.fx.words[b.p0+2*i+1], 0) {
			return false
		}
	}
	return true
}

func fwdKind(t btf.Type) btf.Kind {
	if t.Kind() == btf.KindFwd {
		if t.KindFlag() {
			return btf.KindUnion
		}
		return btf.KindStruct
	}
	return t.Kind()
}

// typesMatch is pahole's types__match over the merged types: kinds equal
// (a FWD as the struct or union it declares, const looked through on
// either side), named types by name, ints by size, encoding and name,
// references by their targets, arrays by element count and type,
// prototypes by all their types.
func (m *merger) typesMatch(id1, id2 uint32, depth int) bool {
	for n := 0; n < 256 && depth < 64; n++ {
		if id1 == id2 {
			return true
		}
		if id1 == 0 || id2 == 0 {
			return false
		}
		t1, t2 := m.out.Type(btf.TypeID(id1)), m.out.Type(btf.TypeID(id2))
		k1, k2 := fwdKind(t1), fwdKind(t2)
		if k1 != k2 {
			if k1 == btf.KindConst {
				id1 = t1.SizeType()
				continue
			}
			if k2 == btf.KindConst {
				id2 = t2.SizeType()
				continue
			}
			return false
		}
		switch k1 {
		case btf.KindInt:
			return t1.Size() == t2.Size() && t1.Extra()[0] == t2.Extra()[0] && t1.NameOff() == t2.NameOff()
		case btf.KindFloat:
			return t1.Size() == t2.Size() && t1.NameOff() == t2.NameOff()
		case btf.KindTypedef, btf.KindStruct, btf.KindUnion, btf.KindEnum, btf.KindEnum64:
			return t1.NameOff() == t2.NameOff()
		case btf.KindPtr, btf.KindVolatile, btf.KindConst, btf.KindRestrict, btf.KindTypeTag:
			id1, id2 = t1.SizeType(), t2.SizeType()
		case btf.KindArray:
			a1, a2 := t1.Extra(), t2.Extra()
			if a1[2] != a2[2] {
				return false
			}
			id1, id2 = a1[0], a2[0]
		case btf.KindFuncProto:
			if t1.Vlen() != t2.Vlen() || !m.typesMatch(t1.SizeType(), t2.SizeType(), depth+1) {
				return false
			}
			p1, p2 := t1.Extra(), t2.Extra()
			for i := 0; i < t1.Vlen(); i++ {
				if !m.typesMatch(p1[2*i+1], p2[2*i+1], depth+1) {
					return false
				}
			}
			return true
		default:
			return false
		}
	}
	return false
}
