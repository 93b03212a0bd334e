package encode

import (
	"fmt"
	"math/bits"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
)

// Functions and variables, per unit.
//
// The walk records every top-level subprogram (with its direct parameter
// children) and every top-level variable of a unit next to the type
// records. After the unit's types have their IDs, funcConv applies
// pahole's per-unit rules: names and types of out-of-line instances come
// from their abstract origin, parameter locations are checked against
// the calling convention (optimized-out parameters, unexpected
// registers), and the result is a list of function candidates ("states"
// in pahole) carried by the fragment. Which candidates become FUNCs is
// decided after the merge (funcsel.go), when every unit's candidates and
// the ELF symbol table are known. Variables are decided per unit and
// carried by the fragment too, so that the merge can drop duplicates.

// Extra presence bits for funcAttrs.has.
const (
	fxLowPC = 1 << iota
	fxOrigin
	fxSpec
	fxLoc        // DW_AT_location present (any form)
	fxConstValue // DW_AT_const_value present (any form)
	fxArtificial
	fxInline    // DW_AT_inline non-zero
	fxNoCall    // DW_AT_calling_convention == DW_CC_nocall
	fxAddr      // variable: location is DW_OP_addr [DW_OP_plus_uconst]
	fxLocExpr   // location is a single expression (exprloc), not a list
	fxDecl      // DW_AT_declaration present (any value)
	fxExternal  // DW_AT_external present (any value)
	fxAnnotated // DW_AT_GNU_annotation present
)

// paramRegUnknown marks a parameter location with no known register.
const paramRegUnknown = -1

// funcAttrs are the attributes of subprograms, parameters and variables
// that only function and variable encoding reads. Readers fill them in
// die.fx.
type funcAttrs struct {
	has    uint32
	lowPC  uint64
	origin uint64 // DW_AT_abstract_origin
	spec   uint64 // DW_AT_specification
	addr   uint64 // variables
	loc    locSummary
}

// locSummary is what pahole learns from a parameter's location: the
// register it is in on entry (for a scalar and for an aggregate larger
// than a word, which are read differently), whether it lives on the
// stack or is a constant.
type locSummary struct {
	regSmall, regBig int8 // DWARF register numbers, paramRegUnknown if none
	stack, constant  bool
	// Aggregates in two registers: bit n of first (second) says a
	// DW_OP_piece starts at byte n of the first (second) register's word.
	first, second uint64
}

func (l *locSummary) init() { l.regSmall, l.regBig = paramRegUnknown, paramRegUnknown }

// fnRec is one top-level subprogram of the unit.
type fnRec struct {
	off         uint64
	name        string
	typ         uint64
	has         uint32 // die.has bits
	fx          uint32 // funcAttrs.has bits
	lowPC       uint64
	origin      uint64
	spec        uint64
	annotation  uint64
	unspec      bool
	p0, np      int32 // parameters: prms[p0 : p0+np]
	a0, na      int32 // LLVM decl tags: annots[a0 : a0+na]
	reordered   bool
	optimized   bool // optimized_parms
	unexpected  bool // unexpected_reg
	uncertain   bool
	sigChanged  bool
	retResolved bool
	foreign     bool   // the abstract origin is in another unit (LTO)
	originFx    uint32 // foreign: the origin's fxNoCall and fxInline bits
}

// prmRec is one formal parameter of a subprogram.
type prmRec struct {
	off        uint64
	name       string
	typ        uint64
	has        uint32
	fx         uint32
	origin     uint64
	annotation uint64
	idx        int32
	loc        locSummary
	locReg     int8
	size       uint64
	hasLoc     bool
	hasConst   bool
	passedMem  bool
	optimized  bool
	unexpected bool
	// An aggregate in two registers that its pieces show passed as one
	// member (pahole's true_sig_member): the member's name and type.
	first, second uint64 // piece fields (locSummary), aggregates only
	member        string
	memberHas     uint32
	memberTyp     uint64
	memberFound   bool  // the member's type is a type of the unit
	foreign       bool  // the abstract origin is in another unit: typ is its offset there
	oidx          int32 // foreign: the origin's position among its function's parameters
}

// varRec is one top-level variable.
type varRec struct {
	off        uint64
	name       string
	typ        uint64
	has        uint32
	fx         uint32
	addr       uint64
	spec       uint64
	annotation uint64
	a0, na     int32
}

// annotRec is an LLVM btf_decl_tag annotation of a function (comp -1), a
// parameter (comp = its index) or a variable.
type annotRec struct {
	value string
	comp  int32
}

// funcConv is the per-unit state of function and variable encoding.
type funcConv struct {
	elf    *elfInfo // nil: no functions or variables
	feat   Features
	clang  bool
	addrs  addrTable // the unit's .debug_addr entries (DW_OP_addrx)
	curFn  int32     // the open top-level subprogram, -1 if none
	curPrm int32     // the open parameter of curFn, -1 if none
	curVar int32
	fns    []fnRec
	prms   []prmRec
	vars   []varRec
	annots []annotRec
	fnAnn  []annotRec // scratch
	// Entries of other units that abstract origins point to (LTO's
	// DW_FORM_ref_addr); nil when the reader offers none. The unit's
	// own entries lie in [unitLo, unitHi).
	foreign        foreignDIEs
	unitLo, unitHi uint64
	ffn            foreignFn // scratch
}

// foreignDIEs reads the entries of other units that a unit's abstract
// origins refer to: pahole loads a file whose units refer to each other
// (DW_FORM_ref_addr, as gcc's and clang's LTO emit) as one unit, so that
// an out-of-line instance in one unit takes its name, prototype and
// parameters from its abstract origin in another.
type foreignDIEs interface {
	// subprogram reads the subprogram at off and its formal parameters.
	subprogram(off uint64, out *foreignFn) bool
	// param reads the formal parameter at off.
	param(off uint64, out *foreignPrm) bool
	typeEntries // the other unit's types
}

// typeEntries reads the type entry at off for pahole's parameter rules
// (typeByteSize, isStructParam): a unit's own types from its recs
// (unitConv), another unit's from its DWARF (foreignDIEs).
type typeEntries interface {
	typeEntry(off uint64) (typeFacts, bool)
}

// typeFacts is what the parameter rules read of a type entry.
type typeFacts struct {
	tag  dwarf.Tag
	has  uint32 // hasType
	typ  uint64
	size uint64 // DW_AT_byte_size, 0 if none
}

func (c *unitConv) typeEntry(off uint64) (typeFacts, bool) {
	i := c.find(off)
	if i < 0 {
		return typeFacts{}, false
	}
	r := &c.recs[i]
	t := typeFacts{tag: r.tag, has: r.has & hasType, typ: r.typ}
	if r.has&hasByteSize != 0 {
		t.size = r.size
	}
	return t, true
}

// typesOf returns where p's type entries are: the unit's, or another
// unit's for a parameter whose abstract origin is there.
func (fc *funcConv) typesOf(c *unitConv, p *prmRec) typeEntries {
	if p.foreign {
		return fc.foreign
	}
	return c
}

// foreignFn is a subprogram of another unit: its name (following its own
// origins), return type, calling convention and inline bits (fxNoCall,
// fxInline) and formal parameters in order.
type foreignFn struct {
	name   string
	has    uint32 // hasType
	typ    uint64
	fx     uint32
	params []foreignPrm
}

// foreignPrm is a formal parameter of another unit.
type foreignPrm struct {
	off  uint64
	name string
	has  uint32 // hasType
	typ  uint64
}

// foreignRef reports whether off lies outside the unit and can be read.
func (fc *funcConv) foreignRef(off uint64) bool {
	return fc.foreign != nil && (off < fc.unitLo || off >= fc.unitHi)
}

func (fc *funcConv) reset() {
	fc.clang = false
	fc.curFn, fc.curPrm, fc.curVar = -1, -1, -1
	fc.fns = fc.fns[:0]
	fc.prms = fc.prms[:0]
	fc.vars = fc.vars[:0]
	clear(fc.annots)
	fc.annots = fc.annots[:0]
}

// entry records d if it is a top-level subprogram or variable, a
// parameter of one, or an annotation of those.
func (fc *funcConv) entry(d *die) {
	switch d.depth {
	case 1:
		fc.curFn, fc.curPrm, fc.curVar = -1, -1, -1
		switch d.tag {
		case dwarf.TagSubprogram:
			fc.fns = append(fc.fns, fnRec{
				off: d.off, name: d.name, typ: d.typ, has: d.has, fx: d.fx.has,
				lowPC: d.fx.lowPC, origin: d.fx.origin, spec: d.fx.spec, annotation: d.annotation,
				p0: int32(len(fc.prms)), a0: -1,
			})
			if d.children {
				fc.curFn = int32(len(fc.fns) - 1)
			}
		case dwarf.TagVariable:
			fc.vars = append(fc.vars, varRec{
				off: d.off, name: d.name, typ: d.typ, has: d.has, fx: d.fx.has,
				addr: d.fx.addr, spec: d.fx.spec, annotation: d.annotation, a0: -1,
			})
			if d.children {
				fc.curVar = int32(len(fc.vars) - 1)
			}
		}
	case 2:
		fc.curPrm = -1
		if fc.curVar >= 0 && d.tag == dwarf.TagLLVMAnnotation && d.name == annotationDeclTagName {
			v := &fc.vars[fc.curVar]
			fc.addAnnot(&v.a0, &v.na, annotRec{d.constString, -1})
			return
		}
		if fc.curFn < 0 {
			return
		}
		fn := &fc.fns[fc.curFn]
		switch d.tag {
		case dwarf.TagFormalParameter:
			p := prmRec{
				off: d.off, name: d.name, typ: d.typ, has: d.has, fx: d.fx.has,
				origin: d.fx.origin, annotation: d.annotation, idx: fn.np, loc: d.fx.loc,
			}
			if d.fx.has&fxLoc == 0 {
				p.loc.init()
			}
			fc.prms = append(fc.prms, p)
			fn.np++
			if d.children {
				fc.curPrm = int32(len(fc.prms) - 1)
			}
		case dwarf.TagUnspecifiedParameters:
			fn.unspec = true
		case dwarf.TagLLVMAnnotation:
			if d.name == annotationDeclTagName {
				fc.addAnnot(&fn.a0, &fn.na, annotRec{d.constString, -1})
			}
		}
	case 3:
		if fc.curFn >= 0 && fc.curPrm >= 0 && d.tag == dwarf.TagLLVMAnnotation && d.name == annotationDeclTagName {
			fn := &fc.fns[fc.curFn]
			fc.addAnnot(&fn.a0, &fn.na, annotRec{d.constString, fc.prms[fc.curPrm].idx})
		}
	}
}

// addAnnot appends an annotation to a record's run. Runs are contiguous
// because a record's annotations come before the next record's.
func (fc *funcConv) addAnnot(a0, na *int32, a annotRec) {
	if *na == 0 {
		*a0 = int32(len(fc.annots))
	}
	fc.annots = append(fc.annots, a)
	*na++
}

// findFn returns the index of the subprogram at off, or -1.
func (fc *funcConv) findFn(off uint64) int {
	return searchOff(fc.fns, off, func(f *fnRec) uint64 { return f.off })
}

// findPrm returns the index of the parameter at off, or -1.
func (fc *funcConv) findPrm(off uint64) int {
	return searchOff(fc.prms, off, func(p *prmRec) uint64 { return p.off })
}

// typeByteSize is pahole's size of a parameter's type for register
// assignment: a pointer is a word; otherwise the first DW_AT_byte_size
// found following DW_AT_type.
func typeByteSize(types typeEntries, has uint32, off uint64, addrSize int) uint64 {
	for n := 0; n < 64 && has&hasType != 0; n++ {
		t, ok := types.typeEntry(off)
		if !ok {
			return 0
		}
		if t.tag == dwarf.TagPointerType {
			return uint64(addrSize)
		}
		if t.size != 0 {
			return t.size
		}
		has, off = t.has, t.typ
	}
	return 0
}

// tagSize is pahole's tag__size of the type at off: the size a variable
// of that type takes.
func (c *unitConv) tagSize(off uint64, addrSize int, depth int) uint64 {
	if depth > 64 {
		return 0
	}
	i := c.find(off)
	if i < 0 {
		return 0
	}
	r := &c.recs[i]
	switch r.tag {
	case dwarf.TagPointerType, dwarf.TagReferenceType, dwarf.TagRvalueReferenceType:
		return uint64(addrSize)
	case dwarf.TagBaseType, dwarf.TagEnumerationType:
		return r.size
	case dwarf.TagSubroutineType:
		if r.size != 0 {
			return r.size
		}
		return uint64(addrSize)
	}
	if r.has&hasType == 0 {
		if isStructTag(r.tag) && r.size == 1 && r.nMembers == 0 {
			return 0
		}
		return r.size
	}
	size := c.tagSize(r.typ, addrSize, depth+1)
	if r.tag == dwarf.TagArrayType {
		n := uint64(1)
		for j := r.first; j >= 0; j = c.items[j].next {
			if c.items[j].kind == itSubrange {
				n *= c.items[j].loc
			}
		}
		size *= n
	}
	return size
}

// isStructParam is pahole's param__is_struct: the parameter's type is a
// struct, possibly behind const and typedefs.
func isStructParam(types typeEntries, has uint32, off uint64) bool {
	for n := 0; n < 64 && has&hasType != 0; n++ {
		t, ok := types.typeEntry(off)
		if !ok {
			return false
		}
		switch t.tag {
		case dwarf.TagStructureType:
			return true
		case dwarf.TagConstType, dwarf.TagTypedef:
			has, off = t.has, t.typ
			continue
		}
		return false
	}
	return false
}

// pieceMember is pahole 1.31's reading of an aggregate parameter whose
// pieces carry exactly one field in exactly one of its two registers:
// the member of the parameter's struct at that byte offset (the field's
// offset in the first register's word, or a word plus its offset in the
// second's) is what is passed, and it is recorded with its type. Only a
// parameter with its own name and type qualifies (not one that takes
// them from an abstract origin); the type is followed through entries
// without a byte size (typedefs, qualifiers) to a struct; the member is
// the first whose bit offset is the field's.
func (c *unitConv) pieceMember(p *prmRec, addrSize int) {
	f, s := p.first, p.second
	if f == 0 && s == 0 || f != 0 && s != 0 || bits.OnesCount64(f) >= 2 || bits.OnesCount64(s) >= 2 {
		return
	}
	if p.name == "" || p.has&hasType == 0 {
		return
	}
	off := uint64(bits.TrailingZeros64(f))
	if f == 0 {
		off = uint64(addrSize) + uint64(bits.TrailingZeros64(s))
	}
	has, typ := p.has, p.typ
	for n := 0; ; n++ {
		if n == 64 || has&hasType == 0 {
			return
		}
		i := c.find(typ)
		if i < 0 {
			return
		}
		r := &c.recs[i]
		if r.has&hasByteSize == 0 || r.size == 0 {
			has, typ = r.has, r.typ
			continue
		}
		if r.tag != dwarf.TagStructureType {
			return
		}
		for j := r.first; j >= 0; j = c.items[j].next {
			it := &c.items[j]
			if it.kind != itMember {
				continue
			}
			var bitOff uint64
			switch {
			case it.has&hasDataBitOffset != 0:
				bitOff = it.dataBitOff
			case it.has&hasMemberLoc != 0:
				bitOff = it.loc * 8
			default:
				continue
			}
			if bitOff != off*8 {
				continue
			}
			if it.name == "" || it.has&hasType == 0 {
				return
			}
			p.member, p.memberHas, p.memberTyp = it.name, it.has&hasType, it.typ
			p.memberFound = c.find(it.typ) >= 0
			return
		}
		return
	}
}

// analyzeFuncs applies pahole's per-unit function rules: names, return
// and parameter types from abstract origins, shared location facts, and
// the checks of parameter locations against the calling convention.
func (fc *funcConv) analyzeFuncs(c *unitConv) {
	info := fc.elf
	addrSize := 8
	nrRegs := 0
	var regs [8]int8
	aggTwo := true
	if info != nil {
		addrSize, nrRegs, regs, aggTwo = info.addrSize, info.nrRegParams, info.regParams, info.aggTwoRegs
	}
	// Sizes and the register each parameter is found in.
	for i := range fc.prms {
		p := &fc.prms[i]
		has, typ := p.has, p.typ
		p.foreign = false
		if p.fx&fxOrigin != 0 {
			has, typ = 0, 0
			if j := fc.findPrm(p.origin); j >= 0 {
				has, typ = fc.prms[j].has, fc.prms[j].typ
			} else if fc.foreignRef(p.origin) {
				var fp foreignPrm
				if fc.foreign.param(p.origin, &fp) {
					p.foreign = true
					has, typ = fp.has, fp.typ
				}
			}
		}
		p.size = typeByteSize(fc.typesOf(c, p), has, typ, addrSize)
		lim := uint64(addrSize)
		if aggTwo {
			lim *= 2
		}
		p.passedMem = p.size > lim
		p.hasLoc = p.fx&fxLoc != 0
		p.hasConst = p.fx&fxConstValue != 0
		p.locReg = p.loc.regSmall
		p.first, p.second, p.member = 0, 0, ""
		if p.size > uint64(addrSize) && aggTwo {
			p.locReg = p.loc.regBig
			p.first, p.second = p.loc.first, p.loc.second
			c.pieceMember(p, addrSize)
		}
	}
	// Out-of-line instances take names and types from their origins and
	// share what they know about locations with the origin's parameters.
	for i := range fc.fns {
		fn := &fc.fns[i]
		if fn.name == "" && fn.fx&(fxOrigin|fxSpec) != 0 {
			j := -1
			if fn.fx&fxOrigin != 0 {
				j = fc.findFn(fn.origin)
			}
			if j < 0 && fn.fx&fxSpec != 0 {
				j = fc.findFn(fn.spec)
			}
			if j >= 0 {
				fn.name = fc.fns[j].name
			}
		}
		fn.foreign = false
		var ffn *foreignFn
		if fn.fx&fxOrigin != 0 && fc.foreignRef(fn.origin) && fc.findFn(fn.origin) < 0 {
			ffn = &fc.ffn
			if fc.foreign.subprogram(fn.origin, ffn) {
				fn.foreign = true
				fn.originFx = ffn.fx
				if fn.name == "" {
					fn.name = ffn.name
				}
				if fn.has&hasType == 0 {
					fn.has |= ffn.has & hasType
					fn.typ = ffn.typ
				}
			}
		}
		for k := fn.p0; k < fn.p0+fn.np; k++ {
			p := &fc.prms[k]
			if p.has&hasType != 0 || p.fx&fxOrigin == 0 {
				continue
			}
			if p.foreign {
				// The origin's parameter, in another unit: its name,
				// type and position; what the location says stays
				// here (the other unit's candidate is made on its own).
				found := false
				if fn.foreign {
					for idx, fp := range ffn.params {
						if fp.off == p.origin {
							p.name = fp.name
							if p.idx != int32(idx) {
								fn.reordered = true
							}
							p.has |= fp.has & hasType
							p.typ = fp.typ
							p.oidx = int32(idx)
							found = true
							break
						}
					}
				}
				if !found {
					p.foreign = false
				}
				continue
			}
			j := fc.findPrm(p.origin)
			if j < 0 {
				continue
			}
			o := &fc.prms[j]
			p.name = o.name
			if p.idx != o.idx {
				fn.reordered = true
			}
			p.has |= o.has & hasType
			p.typ = o.typ
			if p.hasLoc {
				o.hasLoc = true
			}
			if p.hasConst {
				o.hasConst = true
			}
			if p.loc.constant {
				o.loc.constant = true
			}
			if p.loc.stack {
				o.loc.stack = true
			}
			if p.locReg != paramRegUnknown {
				o.locReg = p.locReg
			}
			if p.size != 0 {
				o.size = p.size
			}
			if p.passedMem {
				o.passedMem = true
			}
			o.first |= p.first
			o.second |= p.second
			if p.member != "" && o.member == "" {
				o.member, o.memberHas, o.memberTyp, o.memberFound = p.member, p.memberHas, p.memberTyp, p.memberFound
			}
		}
	}
	for i := range fc.fns {
		fn := &fc.fns[i]
		if fc.clang && fn.fx&fxInline == 0 {
			if fn.fx&fxOrigin == 0 {
				fn.sigChanged = fn.fx&fxNoCall != 0
			} else if j := fc.findFn(fn.origin); j >= 0 {
				fn.sigChanged = fc.fns[j].fx&fxNoCall != 0
			} else if fn.foreign {
				fn.sigChanged = fn.originFx&fxNoCall != 0
			}
		}
		fc.analyzeLocations(fn, nrRegs, regs, addrSize, aggTwo)
		unexpected, structParam := false, false
		for k := fn.p0; k < fn.p0+fn.np; k++ {
			p := &fc.prms[k]
			if p.optimized || !p.hasLoc {
				fn.optimized = true
			}
			if p.unexpected {
				unexpected = true
			}
		}
		if unexpected {
			for k := fn.p0; k < fn.p0+fn.np; k++ {
				p := &fc.prms[k]
				if isStructParam(fc.typesOf(c, p), p.has, p.typ) {
					structParam = true
					break
				}
			}
			fn.unexpected = !structParam
		}
		if fn.has&hasType == 0 && fn.fx&fxOrigin != 0 && !fn.foreign {
			if j := fc.findFn(fn.origin); j >= 0 {
				fn.has |= fc.fns[j].has & hasType
				fn.typ = fc.fns[j].typ
			}
		}
	}
}

// analyzeLocations is pahole's check of where each parameter is on entry
// against the calling convention (default, non-true_signature mode).
func (fc *funcConv) analyzeLocations(fn *fnRec, nrRegs int, regs [8]int8, addrSize int, aggTwo bool) {
	slotsOf := func(p *prmRec) int {
		if !aggTwo || p.size <= uint64(addrSize) {
			return 1
		}
		s := int((p.size + uint64(addrSize) - 1) / uint64(addrSize))
		return max(s, 1)
	}
	if fc.clang && !fn.sigChanged {
		reg := 0
		for k := fn.p0; k < fn.p0+fn.np; k++ {
			p := &fc.prms[k]
			slots := slotsOf(p)
			if p.passedMem {
				continue
			}
			if reg >= nrRegs {
				break
			}
			if p.locReg != paramRegUnknown {
				ok := false
				for s := 0; s < slots && reg+s < nrRegs; s++ {
					if regs[reg+s] == p.locReg {
						ok = true
						break
					}
				}
				if !ok {
					p.unexpected = true
				}
			}
			reg += slots
		}
		return
	}
	trueSig := fc.feat.Has(FeatTrueSignature) && fn.sigChanged
	reg := 0
	for k := fn.p0; k < fn.p0+fn.np; k++ {
		p := &fc.prms[k]
		consumes := true
		avail := reg < nrRegs
		expected := int8(-1)
		if avail {
			expected = regs[reg]
		}
		regSlots := slotsOf(p)
		if p.passedMem {
			regSlots = 1
		}
		// trueSig: true_signature on a function whose signature the
		// compiler changed (clang's DW_CC_nocall): parameters that are
		// constants or not passed are dropped from the prototype.
		switch {
		case p.hasLoc:
			switch {
			case trueSig && p.loc.constant:
				p.optimized = true
				consumes = false
			case !avail:
				consumes = false
			case trueSig && p.loc.stack:
				if p.passedMem {
					consumes = false
				} else {
					p.unexpected = true
				}
			case p.locReg == paramRegUnknown:
				if trueSig {
					p.unexpected = true
				} else {
					p.optimized = true
				}
			case expected >= 0 && expected != p.locReg:
				p.unexpected = true
			case trueSig && (p.first != 0 || p.second != 0):
				// An aggregate in register pieces: whole when
				// both registers carry fields or the next
				// parameter sits past its registers; otherwise
				// the one member passed takes one register.
				switch {
				case p.first != 0 && p.second != 0:
					reg += slotsOf(p)
					continue
				case fc.nextKeepsSlots(fn, k, reg+slotsOf(p), nrRegs, regs):
					p.member = ""
					reg += slotsOf(p)
					continue
				case p.member != "" && p.memberFound:
					p.has = p.has&^hasType | p.memberHas
					p.typ = p.memberTyp
					reg++
					continue
				}
			}
		case p.hasConst && !fc.clang:
			p.optimized = true
		case trueSig:
			if avail && fc.nextKeepsSlots(fn, k, reg+slotsOf(p), nrRegs, regs) {
				reg += slotsOf(p)
				continue
			}
			p.optimized = true
			consumes = false
		}
		if consumes {
			reg += regSlots
		}
	}
}

// nextKeepsSlots reports whether the parameter after k is in the register
// at index next, i.e. parameter k still takes its registers.
func (fc *funcConv) nextKeepsSlots(fn *fnRec, k int32, next int, nrRegs int, regs [8]int8) bool {
	if k+1 >= fn.p0+fn.np {
		return false
	}
	q := &fc.prms[k+1]
	return q.locReg != paramRegUnknown && next < nrRegs && q.locReg == regs[next]
}

// hasPackedStructBeyondRegs is pahole's uncertain-location check: a
// named struct passed after the register parameters whose layout implies
// it is packed.
func (fc *funcConv) hasUncertainArgLoc(c *unitConv, fn *fnRec, nrRegs int) bool {
	if int(fn.np) < nrRegs {
		return false
	}
	for k := fn.p0 + int32(nrRegs); k < fn.p0+fn.np; k++ {
		p := &fc.prms[k]
		if p.has&hasType == 0 {
			continue
		}
		i := c.find(p.typ)
		if i < 0 {
			continue
		}
		r := &c.recs[i]
		if !isStructTag(r.tag) || r.name == "" {
			continue
		}
		if c.structIsPacked(i, fc.elf.addrSize) {
			return true
		}
	}
	return false
}

// emitFuncsVars records the unit's function candidates and encodes its
// variables into the fragment.
func (fc *funcConv) emitFuncsVars(c *unitConv, s *fragment) {
	if fc.elf == nil || c.skip {
		return
	}
	fc.analyzeFuncs(c)
	ff := &s.fx
	decl := fc.feat.Has(FeatDeclTag)
	for i := range fc.fns {
		fn := &fc.fns[i]
		if fn.has&hasDeclaration != 0 || fn.fx&fxDecl != 0 {
			continue
		}
		named := true
		for k := fn.p0; k < fn.p0+fn.np; k++ {
			if fc.prms[k].name == "" {
				named = false
				break
			}
		}
		if fn.name == "" {
			continue
		}
		// Strings are added in pahole's order (parameter names as a
		// function is saved; its own name only when its FUNC is added,
		// funcsel.go), so that the string table comes out as its.
		f := fragFunc{nameS: fn.name, addr: fn.lowPC, hasAddr: fn.fx&fxLowPC != 0, off: fn.off}
		if !named {
			f.flags |= ffNoArgNames
			ff.funcs = append(ff.funcs, f)
			continue
		}
		ei, ok := fc.elf.byName[fn.name]
		if !ok {
			f.flags |= ffNoSymbol
			ff.funcs = append(ff.funcs, f)
			continue
		}
		f.elfIdx = ei
		if fn.unexpected {
			f.flags |= ffUnexpectedReg
		}
		if fn.optimized {
			f.flags |= ffOptimizedParms
		}
		if fn.reordered {
			f.flags |= ffReorderedParm
		}
		if fn.sigChanged {
			f.flags |= ffSigChanged
		}
		if fc.hasUncertainArgLoc(c, fn, nrRegsOf(fc.elf)) {
			f.flags |= ffUncertainLoc
		}
		// An instance of another unit's abstract origin takes its types
		// from that origin's candidate after the merge (funcsel.go): its
		// words hold each parameter's position in the origin instead.
		f.foreign = fn.foreign
		if fn.foreign {
			f.origin = fn.origin
		} else {
			f.ret = c.ref(fn.has, fn.typ)
		}
		f.p0 = uint32(len(ff.words))
		for k := fn.p0; k < fn.p0+fn.np; k++ {
			p := &fc.prms[k]
			if fn.reordered && (!p.hasLoc || p.optimized) {
				continue
			}
			if fn.sigChanged && p.optimized && fc.feat.Has(FeatTrueSignature) {
				continue
			}
			name := p.name
			if fn.sigChanged && p.member != "" && name != "" && fc.feat.Has(FeatTrueSignature) {
				name += "__" + p.member
			}
			typ := uint32(0)
			switch {
			case fn.foreign && p.foreign:
				typ = uint32(p.oidx)
			case fn.foreign:
				typ = ^uint32(0) // a parameter of its own: unresolvable
			default:
				typ = c.ref(p.has, p.typ)
			}
			ff.words = append(ff.words, c.strs.add(name), typ)
			f.np++
		}
		f.full = f.np == uint32(fn.np)
		if fn.unspec {
			ff.words = append(ff.words, 0, 0)
			f.np++
		}
		if decl {
			f.a0 = uint32(len(ff.words))
			for k := fn.a0; k < fn.a0+fn.na; k++ {
				ff.words = append(ff.words, c.strs.add(fc.annots[k].value), uint32(fc.annots[k].comp))
				f.na++
			}
			for k := fn.p0; k < fn.p0+fn.np; k++ {
				p := &fc.prms[k]
				if p.fx&fxAnnotated != 0 {
					idx := uint32(p.idx)
					c.gnuChain(p.annotation, func(a *rec) bool {
						if a.name == annotationDeclTagName {
							ff.words = append(ff.words, c.strs.add(a.constString), idx)
							f.na++
						}
						return true
					})
				}
			}
			if fn.fx&fxAnnotated != 0 {
				c.gnuChain(fn.annotation, func(a *rec) bool {
					if a.name == annotationDeclTagName {
						ff.words = append(ff.words, c.strs.add(a.constString), ^uint32(0))
						f.na++
					}
					return true
				})
			}
		}
		ff.funcs = append(ff.funcs, f)
	}
	if fc.feat&(FeatVar|FeatGlobalVar) != 0 {
		fc.emitVars(c, s)
	}
}

func nrRegsOf(info *elfInfo) int {
	if info == nil {
		return 0
	}
	return info.nrRegParams
}

// emitVars encodes the unit's variables that live in an encoded section
// as VARs of the fragment, each with the section entry it needs.
func (fc *funcConv) emitVars(c *unitConv, s *fragment) {
	info := fc.elf
	ff := &s.fx
	for i := range fc.vars {
		v := &fc.vars[i]
		if v.has&hasDeclaration != 0 && v.fx&fxSpec == 0 {
			continue
		}
		if v.fx&fxArtificial != 0 || v.fx&fxAddr == 0 || v.has&hasDeclaration != 0 {
			continue
		}
		addr := v.addr
		name, typ, has, ext := v.name, v.typ, v.has, v.has&hasExternal != 0
		a0, na := v.a0, v.na
		gnu, gnuOff := v.fx&fxAnnotated != 0, v.annotation
		if v.fx&fxSpec != 0 {
			j := fc.findVar(v.spec)
			if j < 0 {
				continue
			}
			sp := &fc.vars[j]
			name, typ, has, ext = sp.name, sp.typ, sp.has, sp.has&hasExternal != 0
			a0, na = sp.a0, sp.na
			gnu, gnuOff = sp.fx&fxAnnotated != 0, sp.annotation
		}
		var shndx int
		if info.rel {
			// A section-relative address: the section is that of the
			// variable's symbol.
			shndx = info.objVals[objVal{name, addr}]
		} else {
			shndx = info.section(addr)
		}
		if shndx == 0 || !info.secs[shndx].include {
			continue
		}
		if !info.rel {
			addr -= info.secs[shndx].addr
		}
		if name == "" || filterVariableName(name) {
			continue
		}
		if addr == 0 {
			if _, ok := info.objects[objKey{name, shndx}]; !ok {
				continue
			}
		}
		if !btfNameValid(name) || has&hasType == 0 {
			// pahole stops here unless encode_force says to leave
			// the variable out.
			if !fc.feat.Has(FeatEncodeForce) && ff.err == nil {
				if has&hasType == 0 {
					ff.err = fmt.Errorf("variable %q has void type (encode_force leaves it out)", name)
				} else {
					ff.err = fmt.Errorf("invalid BTF name for variable %q (encode_force leaves it out)", name)
				}
			}
			continue
		}
		size := c.tagSize(typ, info.addrSize, 0)
		if size == 0 || size > 1<<32-1 || addr > 1<<32-1 {
			continue
		}
		linkage := uint32(btf.LinkageStatic)
		if ext {
			linkage = uint32(btf.LinkageGlobal)
		}
		fv := fragVar{name: c.strs.add(name), typ: c.ref(has, typ), linkage: linkage,
			shndx: uint32(shndx), off: uint32(addr), size: uint32(size), a0: uint32(len(ff.words))}
		if fc.feat.Has(FeatDeclTag) {
			for k := a0; k < a0+na; k++ {
				ff.words = append(ff.words, c.strs.add(fc.annots[k].value), ^uint32(0))
				fv.na++
			}
			if gnu {
				c.gnuChain(gnuOff, func(a *rec) bool {
					if a.name == annotationDeclTagName {
						ff.words = append(ff.words, c.strs.add(a.constString), ^uint32(0))
						fv.na++
					}
					return true
				})
			}
		}
		ff.vars = append(ff.vars, fv)
	}
}

// findVar returns the index of the variable at off, or -1.
func (fc *funcConv) findVar(off uint64) int {
	return searchOff(fc.vars, off, func(v *varRec) uint64 { return v.off })
}

// filterVariableName reports whether a variable name has one of the
// prefixes pahole leaves out (compiler and macro artefacts).
func filterVariableName(name string) bool {
	if name == "" || name[0] != '_' {
		return false
	}
	for _, p := range [...]string{"__UNIQUE_ID", "__tpstrtab_", "__exitcall_", "__gendwarfksyms_ptr_", "__func_stack_frame_non_standard_"} {
		if len(name) >= len(p) && name[:len(p)] == p {
			return true
		}
	}
	return false
}

// btfNameValid is the kernel's rule for names of variables: a C
// identifier (dots allowed) shorter than 128 characters.
func btfNameValid(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if i >= 128 {
			return false
		}
		ok := ch == '_' || ch == '.' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z'
		if i > 0 {
			ok = ok || ch >= '0' && ch <= '9'
		}
		if !ok {
			return false
		}
	}
	return true
}

// Fragment additions: function candidates and variables.

// Flags of a function candidate.
const (
	ffUnexpectedReg = 1 << iota
	ffOptimizedParms
	ffUncertainLoc
	ffReorderedParm
	ffSigChanged
	ffNoArgNames
	ffNoSymbol // not an ELF function: for the report only
)

// fragFunc is one function candidate: names are fragment string indexes
// (index+1), types fragment type IDs; parameters and annotations are
// pairs in fragFx.words.
type fragFunc struct {
	nameS   string // a view of the reader's strings
	elfIdx  int32  // index in elfInfo.funcs (without ffNoSymbol|ffNoArgNames)
	addr    uint64
	hasAddr bool
	flags   uint8
	ret     uint32
	p0, np  uint32
	a0, na  uint32
	off     uint64 // the subprogram's DWARF offset
	// foreign: ret and parameter types come from the candidate of the
	// subprogram at origin, in another unit; the words' types are
	// parameter positions in it. full: all formal parameters are in
	// the words, in order.
	origin        uint64
	foreign, full bool
}

// fragVar is one variable: its VAR and its section entry.
type fragVar struct {
	name, typ, linkage uint32
	shndx, off, size   uint32
	a0, na             uint32 // decl tags: pairs (value, component) in words
}

// fragFx is what a fragment carries besides types.
type fragFx struct {
	funcs []fragFunc
	vars  []fragVar
	words []uint32
	err   error // the unit cannot be encoded (without encode_force)
}

func (f *fragFx) reset() {
	f.err = nil
	f.funcs = f.funcs[:0]
	f.vars = f.vars[:0]
	f.words = f.words[:0]
}

// stripTypedefs follows typedefs and qualifiers from the type at off to
// the rec of the type under them, or -1.
func (c *unitConv) stripTypedefs(has uint32, off uint64) int {
	for n := 0; n < 64 && has&hasType != 0; n++ {
		i := c.find(off)
		if i < 0 {
			return -1
		}
		r := &c.recs[i]
		switch r.tag {
		case dwarf.TagTypedef, dwarf.TagConstType, dwarf.TagVolatileType, dwarf.TagRestrictType, dwarf.TagAtomicType:
			has, off = r.has, r.typ
			continue
		}
		return i
	}
	return -1
}

// naturalAlign is pahole's natural alignment of the type at rec i.
func (c *unitConv) naturalAlign(i int, addrSize int, depth int) uint64 {
	if i < 0 || depth > 32 {
		return 1
	}
	r := &c.recs[i]
	a := uint64(0)
	switch r.tag {
	case dwarf.TagBaseType, dwarf.TagEnumerationType:
		a = r.size
	case dwarf.TagPointerType, dwarf.TagReferenceType, dwarf.TagRvalueReferenceType:
		a = uint64(addrSize)
	case dwarf.TagStructureType, dwarf.TagClassType, dwarf.TagUnionType:
		for j := r.first; j >= 0; j = c.items[j].next {
			it := &c.items[j]
			if it.kind != itMember || (it.has&hasMemberLoc == 0 && r.tag != dwarf.TagUnionType) {
				continue
			}
			a = max(a, c.naturalAlign(c.stripTypedefs(it.has, it.typ), addrSize, depth+1))
		}
	case dwarf.TagArrayType:
		a = c.naturalAlign(c.stripTypedefs(r.has, r.typ), addrSize, depth+1)
	}
	return max(a, 1)
}

// structIsPacked approximates pahole's class__infer_packed_attributes for
// the struct at rec i: a struct without holes or tail padding is packed
// when a member sits at an offset unnatural for it or its size is not a
// multiple of its largest member alignment.
func (c *unitConv) structIsPacked(i int, addrSize int) bool {
	r := &c.recs[i]
	if r.tag != dwarf.TagStructureType && r.tag != dwarf.TagClassType {
		return false
	}
	end := uint64(0)
	maxAlign := uint64(1)
	unnatural := false
	for j := r.first; j >= 0; j = c.items[j].next {
		it := &c.items[j]
		if it.kind != itMember || it.has&hasMemberLoc == 0 && it.has&hasDataBitOffset == 0 {
			continue
		}
		off := it.loc
		if it.has&hasDataBitOffset != 0 {
			off = it.dataBitOff / 8
		}
		if off > end && it.bitSize == 0 {
			return false // a hole
		}
		t := c.stripTypedefs(it.has, it.typ)
		sz := c.tagSize(it.typ, addrSize, 0)
		if it.bitSize != 0 {
			sz = (it.bitSize + 7) / 8
		}
		end = max(end, off+sz)
		a := c.naturalAlign(t, addrSize, 0)
		if a == 1 {
			continue
		}
		maxAlign = max(maxAlign, a)
		if off%a != 0 {
			unnatural = true
		}
	}
	if r.size > end {
		return false // tail padding
	}
	return unnatural || r.size%maxAlign != 0
}
