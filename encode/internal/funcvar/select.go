package funcvar

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

// merged is a candidate with the merged Spec's string offsets and type
// IDs.
type merged struct {
	nameOff uint32 // string offset: from AddFunc, else set when the FUNC is added
	candidate
	symbols *funcSymbols // the ELF's function symbols of its name
}

// sectionEntry is a variable's entry in its section's DATASEC.
type sectionEntry struct {
	id, off, size uint32
}

// varPlace is where a variable is: one VAR per place (name, section,
// offset), whichever unit has it.
type varPlace struct {
	section, off uint32
	name         uint32
}

// Merged is the merged type table a Selection reads and appends to: a
// *btf.Spec numbered from 1, or the encoder's deduplicating stream
// (btf/dedup.Stream), which reads a FWD's size/type word as 0.
type Merged interface {
	NextID() btf.TypeID
	AddRaw(nameOff, info, sizeType uint32, ext ...uint32) btf.TypeID
	RawType(id btf.TypeID) (nameOff, info, sizeType uint32, ext []uint32)
}

// Selection is the merge's part of function and variable encoding: it
// takes every unit's Candidates in unit order (Add) and then decides the
// functions (Finish), on one goroutine.
type Selection struct {
	elf      *ELF
	o        Options
	funcs    []merged
	words    []uint32
	sections map[uint32][]sectionEntry
	seenVar  map[varPlace]bool
	rep      *Report // LogTo's
}

// LogTo makes Add record in rep the variables left out with a warning
// (LeftOut) and, with rep.Log, each unit's log (Units).
func (s *Selection) LogTo(rep *Report) { s.rep = rep }

// NewSelection returns the selection for the file whose ELF side is elf.
func NewSelection(elf *ELF, o Options) *Selection {
	return &Selection{elf: elf, o: o}
}

// MergedRef flags a fragment's string reference that is out's string
// offset itself (the rest of its bits) rather than an index into the
// fragment's strings: the encoder refers so to names the merge already
// holds.
const MergedRef = 1 << 31

// Add takes a unit's candidates, merged into out right after the unit's
// types: strs maps the fragment's string references (reference i is
// strs[i-1]; one with MergedRef set is the offset itself) to out's string
// offsets, and shift is added to its type IDs.
// Its variables (VAR and their DECL_TAGs) are appended to out at once,
// except one at a place a unit before already encoded; its function
// candidates are kept for Finish. The error is the unit's, if it could
// not be encoded.
func (s *Selection) Add(c *Candidates, out Merged, strs []uint32, shift uint32) error {
	if c.err != nil {
		return c.err
	}
	var log *UnitLog
	if s.rep != nil {
		s.rep.LeftOut = append(s.rep.LeftOut, c.leftOut...)
		if s.rep.Log {
			s.rep.Units = append(s.rep.Units, UnitLog{Name: strings.Clone(c.unit), TypesEnd: out.NextID()})
			if c.addedInt != 0 {
				s.rep.Units[len(s.rep.Units)-1].AddedInt = btf.TypeID(c.addedInt + shift)
			}
			log = &s.rep.Units[len(s.rep.Units)-1]
			for i := range c.funcs {
				// pahole looks functions up only in an ELF that has
				// function symbols.
				if len(s.elf.funcByName) > 0 && c.funcs[i].flags&(noSymbol|unnamedParams) == noSymbol {
					log.NoSymbol = append(log.NoSymbol, strings.Clone(c.funcs[i].name))
				}
			}
			defer func() { log.End = out.NextID() }()
		}
	}
	if len(c.funcs) == 0 && len(c.vars) == 0 {
		return nil
	}
	str := func(i uint32) uint32 {
		if i == 0 || i&MergedRef != 0 {
			return i &^ MergedRef
		}
		return strs[i-1]
	}
	typ := func(id uint32) uint32 {
		if id == 0 {
			return 0
		}
		return id + shift
	}
	for _, v := range c.vars {
		name := str(v.name)
		k := varPlace{v.section, v.off, name}
		if s.seenVar == nil {
			s.seenVar = make(map[varPlace]bool)
			s.sections = make(map[uint32][]sectionEntry)
		}
		if s.seenVar[k] {
			continue
		}
		s.seenVar[k] = true
		if log != nil {
			log.Vars = append(log.Vars, VarLog{Name: strings.Clone(v.label), Addr: uint64(v.off)})
		}
		id := out.AddRaw(name, btf.Info(btf.KindVar, 0, false), typ(v.typ), v.linkage)
		for i := uint32(0); i < v.nTags; i++ {
			w := c.words[v.tags0+2*i:]
			out.AddRaw(str(w[0]), btf.Info(btf.KindDeclTag, 0, false), uint32(id), w[1])
		}
		s.sections[v.section] = append(s.sections[v.section], sectionEntry{uint32(id), v.off, v.size})
	}
	for _, fn := range c.funcs {
		g := merged{candidate: fn}
		g.name = strings.Clone(fn.name)
		g.ret = typ(fn.ret)
		g.params0 = uint32(len(s.words))
		for i := uint32(0); i < fn.nParams; i++ {
			w := c.words[fn.params0+2*i:]
			t := w[1]
			if !fn.inOtherUnit {
				t = typ(t)
			}
			s.words = append(s.words, str(w[0]), t)
		}
		g.tags0 = uint32(len(s.words))
		for i := uint32(0); i < fn.nTags; i++ {
			w := c.words[fn.tags0+2*i:]
			s.words = append(s.words, str(w[0]), w[1])
		}
		s.funcs = append(s.funcs, g)
	}
	return nil
}

// Reserve makes room for about funcs more candidates with words more
// parameter and tag words, before the first Add (a vmlinux's 156,000
// candidates otherwise leave ~65 MB of outgrown arrays behind).
func (s *Selection) Reserve(funcs, words int) {
	s.funcs = slices.Grow(s.funcs, funcs)
	s.words = slices.Grow(s.words, words)
}

// Finish decides the functions and appends to out the FUNC_PROTOs, FUNCs
// and their DECL_TAGs of those kept, then the DATASECs; intern returns
// the string offset of a name in out (0 for ""). rep, when not nil, gets
// the functions left out and why.
func (s *Selection) Finish(out Merged, intern func(string) uint32, rep *Report) error {
	elf, o := s.elf, s.o
	s.resolveOtherUnits()
	// Candidates whose name is an ELF function; the rest are reported.
	// They are kept in place: s.funcs is not read again.
	states := s.funcs[:0]
	var skipped []Skipped
	noSym := map[string]bool{}
	noNames := map[string]bool{}
	for _, fn := range s.funcs {
		name := fn.name
		var syms *funcSymbols
		if fn.flags&(noSymbol|unnamedParams) == 0 {
			syms = &elf.funcs[fn.symbolsIndex]
		} else if fn.flags&unnamedParams != 0 {
			syms = elf.findFunc(name)
		}
		if syms == nil {
			if fn.hasAddr && (fn.addr != 0 || elf.relocatable) {
				noSym[name] = true
			}
			continue
		}
		if fn.flags&unnamedParams != 0 {
			if fn.hasAddr && (fn.addr != 0 || elf.relocatable) {
				noNames[name] = true
			}
			continue
		}
		fn.symbols = syms
		states = append(states, fn)
	}
	clear(s.funcs[len(states):])
	s.funcs = nil
	// By name: the ELF table is sorted by name, so by its index.
	states = sortBySymbol(states, len(elf.funcs))
	kfuncTag, fastcallTag := uint32(0), uint32(0)
	encoded := make(map[string]bool, len(states))
	nEncoded := 0
	for i := 0; i < len(states); {
		j := i + 1
		a := &states[i]
		for j < len(states) && states[j].symbols == a.symbols {
			b := &states[j]
			const shared = unexpectedReg | inconsistent | uncertainLoc | reorderedParams
			both := (a.flags | b.flags) & shared
			if both&(unexpectedReg|inconsistent|reorderedParams) == 0 {
				if ok, mm := s.funcsMatch(out, a, b); !ok {
					both |= inconsistent
					if rep != nil {
						mm.Name = a.symbols.name
						rep.Mismatches = append(rep.Mismatches, mm)
					}
				}
			}
			a.flags = a.flags&^shared | both
			b.flags = b.flags&^shared | both
			j++
		}
		group := states[i:j]
		i = j
		if o.TrueSignature {
			// An optimized clone found at its own address is encoded
			// under its symbol's name (foo.isra.0), and the name is done.
			if t, sym := trueSignature(group); t != nil {
				encoded[t.symbols.name] = true
				nEncoded++
				t.nameOff = intern(sym)
				s.addFunc(out, t)
				continue
			}
		}
		canon := &group[0]
		if len(group) > 1 {
			canon = s.selectCanonical(group)
		}
		st := &group[0]
		reason := ""
		if st.flags&unexpectedReg != 0 {
			reason = ReasonUnexpectedReg
		}
		if o.Consistent && st.flags&inconsistent != 0 {
			reason = ReasonInconsistent
		}
		if st.flags&uncertainLoc != 0 {
			reason = ReasonUncertainLoc
		}
		if st.flags&reorderedParams != 0 {
			reason = ReasonReordered
		}
		if s.skipOptimized(canon) {
			reason = ReasonOptimized
		}
		if st.fromBTF && clonesOnly(st.symbols) {
			reason = ReasonClonesOnly
		}
		if st.symbols.ambiguous {
			reason = ReasonAmbiguous
		}
		if reason != "" {
			skipped = append(skipped, Skipped{st.symbols.name, reason})
			continue
		}
		encoded[st.symbols.name] = true
		nEncoded++
		if canon.symbols.kfunc && o.KfuncTags && o.ArenaAttrs {
			s.arenaTags(out, intern, canon)
		}
		if canon.nameOff == 0 {
			canon.nameOff = intern(canon.name)
		}
		id := s.addFunc(out, canon)
		if canon.symbols.kfunc && o.KfuncTags && o.DeclTags {
			if kfuncTag == 0 {
				kfuncTag = intern("bpf_kfunc")
			}
			out.AddRaw(kfuncTag, btf.Info(btf.KindDeclTag, 0, false), id, ^uint32(0))
			if canon.symbols.kfuncFlags&kfFastcall != 0 {
				if fastcallTag == 0 {
					fastcallTag = intern("bpf_fastcall")
				}
				out.AddRaw(fastcallTag, btf.Info(btf.KindDeclTag, 0, false), id, ^uint32(0))
			}
		}
	}
	// DATASECs, in section order, entries by offset.
	for sec := uint32(1); sec < uint32(len(elf.sections)); sec++ {
		ents := s.sections[sec]
		if len(ents) == 0 {
			continue
		}
		sort.SliceStable(ents, func(i, j int) bool { return ents[i].off < ents[j].off })
		last := ents[len(ents)-1]
		w := make([]uint32, 0, 3*len(ents))
		for _, ent := range ents {
			w = append(w, ent.id, ent.off, ent.size)
		}
		if len(ents) > 0xffff {
			return fmt.Errorf("section %s: too many variables for one DATASEC (%d)", elf.sections[sec].name, len(ents))
		}
		out.AddRaw(intern(elf.sections[sec].name), btf.Info(btf.KindDatasec, len(ents), false), last.off+last.size, w...)
	}
	if rep != nil {
		for n := range noSym {
			if !encoded[n] {
				r := ReasonNoSymbol
				if elf.partlyInlined[n] {
					r = ReasonPartOnly
				}
				skipped = append(skipped, Skipped{n, r})
			}
		}
		for n := range noNames {
			if !encoded[n] {
				skipped = append(skipped, Skipped{n, ReasonNoArgNames})
			}
		}
		sort.Slice(skipped, func(i, j int) bool {
			if skipped[i].Name != skipped[j].Name {
				return skipped[i].Name < skipped[j].Name
			}
			return skipped[i].Reason < skipped[j].Reason
		})
		rep.Skipped = skipped
		rep.Encoded = nEncoded
	}
	return nil
}

// resolveOtherUnits gives each instance of an abstract origin in another
// unit the return and parameter types of that origin's candidate (the
// types live in the origin's unit). An instance whose origin has no
// candidate with all its parameters, or that lists a parameter the
// origin does not have, is dropped.
func (s *Selection) resolveOtherUnits() {
	var byOff map[uint64]int
	drop := 0
	for i := range s.funcs {
		fn := &s.funcs[i]
		if !fn.inOtherUnit {
			continue
		}
		if fn.flags&(noSymbol|unnamedParams) != 0 {
			fn.inOtherUnit = false // only its name counts (the report)
			continue
		}
		if byOff == nil {
			byOff = make(map[uint64]int)
			for j := range s.funcs {
				g := &s.funcs[j]
				if !g.inOtherUnit && g.allParams && g.flags&(noSymbol|unnamedParams) == 0 {
					if _, dup := byOff[g.off]; !dup {
						byOff[g.off] = j
					}
				}
			}
		}
		if j, ok := byOff[fn.origin]; ok && s.takeTypes(fn, &s.funcs[j]) {
			fn.inOtherUnit = false
		} else {
			drop++
		}
	}
	if drop == 0 {
		return
	}
	keep := s.funcs[:0]
	for _, fn := range s.funcs {
		if !fn.inOtherUnit {
			keep = append(keep, fn)
		}
	}
	clear(s.funcs[len(keep):])
	s.funcs = keep
}

// takeTypes sets the return and parameter types of fn, an instance of
// g's subprogram, from g; its words' types are positions among g's
// formal parameters. It reports false if one is out of range.
func (s *Selection) takeTypes(fn, g *merged) bool {
	w := s.words
	nFormal := g.nParams
	if last := g.params0 + 2*(nFormal-1); nFormal > 0 && w[last] == 0 && w[last+1] == 0 {
		nFormal-- // the origin's "..."
	}
	for k := uint32(0); k < fn.nParams; k++ {
		p := w[fn.params0+2*k:]
		if p[0] == 0 && p[1] == 0 {
			continue // the instance's own "..."
		}
		if p[1] >= nFormal {
			return false
		}
	}
	for k := uint32(0); k < fn.nParams; k++ {
		p := w[fn.params0+2*k:]
		if p[0] != 0 || p[1] != 0 {
			p[1] = w[g.params0+2*p[1]+1]
		}
	}
	fn.ret = g.ret
	return true
}

// trueSignature returns the first candidate of the group that sits at
// the address of a '.'-suffixed symbol, with that symbol's name, unless
// its parameter locations make fentry untrustworthy.
func trueSignature(group []merged) (*merged, string) {
	for k := range group {
		s := &group[k]
		if s.addr == 0 || s.symbols.relocatable || s.flags&(unexpectedReg|uncertainLoc) != 0 {
			continue
		}
		for _, sym := range s.symbols.syms {
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
func (s *Selection) arenaTags(out Merged, intern func(string) uint32, fn *merged) {
	fl := fn.symbols.kfuncFlags
	tag := func(id uint32) uint32 {
		if id == 0 || id >= uint32(out.NextID()) {
			return id
		}
		t := typeOf(out, id)
		if btf.KindOf(t.info) != btf.KindPtr {
			return id
		}
		attr := out.AddRaw(intern(arenaAttr), btf.Info(btf.KindTypeTag, 0, true), t.sizeType)
		return uint32(out.AddRaw(0, btf.Info(btf.KindPtr, 0, false), uint32(attr)))
	}
	if fl&kfArenaRet != 0 {
		fn.ret = tag(fn.ret)
	}
	for i, f := range []uint32{kfArenaArg1, kfArenaArg2} {
		if fl&f != 0 && uint32(i) < fn.nParams {
			w := &s.words[fn.params0+2*uint32(i)+1]
			*w = tag(*w)
		}
	}
}

// skipOptimized: without true_signature, a clone whose parameters were
// optimized away keeps no FUNC (its signature is not the source one).
func (s *Selection) skipOptimized(fn *merged) bool {
	return !s.o.TrueSignature && fn.flags&optimizedParams != 0 &&
		(fn.flags&signatureChanged != 0 || atOptimizedClone(fn))
}

// atOptimizedClone reports whether the candidate's address is that of an
// .isra or .constprop symbol.
func atOptimizedClone(fn *merged) bool {
	if fn.addr == 0 || fn.symbols.relocatable {
		return false
	}
	for _, sym := range fn.symbols.syms {
		if sym.addr == fn.addr && IsOptimizedClone(sym.name) {
			return true
		}
	}
	return false
}

// selectCanonical picks the candidate whose prototype is encoded: the
// first at a symbol's address that is not an optimized clone, else the
// first at a symbol's address, else (pahole 1.32) the first with an
// address, else the first. A definition whose code is split in ranges
// (gcc's hot/cold partitioning) has no address of its own, so a __weak
// default with one wins over it when neither is at the symbol's address
// (arch_prepare_bpf_trampoline in the Debian 6.1 vmlinux).
func (s *Selection) selectCanonical(group []merged) *merged {
	var first *merged
	for i := range group {
		fn := &group[i]
		for _, sym := range fn.symbols.syms {
			if fn.addr != sym.addr || fn.symbols.relocatable {
				continue
			}
			if first == nil {
				first = fn
			}
			if !s.skipOptimized(fn) {
				return fn
			}
		}
	}
	if first != nil {
		return first
	}
	for i := range group {
		if group[i].addr != 0 {
			return &group[i]
		}
	}
	return &group[0]
}

// addFunc appends the FUNC_PROTO and FUNC (and its DECL_TAGs) of fn and
// returns the FUNC's ID.
func (s *Selection) addFunc(out Merged, fn *merged) uint32 {
	w := s.words[fn.params0 : fn.params0+2*fn.nParams]
	proto := out.AddRaw(0, btf.Info(btf.KindFuncProto, int(fn.nParams), false), fn.ret, w...)
	id := uint32(out.AddRaw(fn.nameOff, btf.Info(btf.KindFunc, btf.LinkageStatic, false), uint32(proto)))
	for i := uint32(0); i < fn.nTags; i++ {
		a := s.words[fn.tags0+2*i:]
		out.AddRaw(a[0], btf.Info(btf.KindDeclTag, 0, false), id, a[1])
	}
	return id
}

// sortBySymbol returns states stably sorted by symbolsIndex (each in
// [0, n)): a counting sort, which moves each of the large records once
// where a comparison sort moves them many times.
func sortBySymbol(states []merged, n int) []merged {
	count := make([]int32, n+1)
	for i := range states {
		k := states[i].symbolsIndex
		if k < 0 || int(k) >= n {
			slices.SortStableFunc(states, func(a, b merged) int { return cmp.Compare(a.symbolsIndex, b.symbolsIndex) })
			return states
		}
		count[k+1]++
	}
	for k := 1; k <= n; k++ {
		count[k] += count[k-1]
	}
	out := make([]merged, len(states))
	for i := range states {
		k := states[i].symbolsIndex
		out[count[k]] = states[i]
		count[k]++
	}
	return out
}
