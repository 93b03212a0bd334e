package funcvar

import (
	"math/bits"

	"github.com/btfkit/btfkit/dwarf"
)

// analyze applies pahole's per-unit function rules: names, return and
// parameter types from abstract origins, shared location facts, and the
// checks of parameter locations against the calling convention.
func (u *Unit) analyze(types Types) {
	elf := u.elf
	addrSize := elf.addrSize
	// Sizes and the register each parameter is found in.
	for i := range u.params {
		p := &u.params[i]
		hasType, typ := p.has&HasType != 0, p.typ
		p.inOtherUnit = false
		if p.has&HasOrigin != 0 {
			hasType, typ = false, 0
			if j := u.findParam(p.origin); j >= 0 {
				hasType, typ = u.params[j].has&HasType != 0, u.params[j].typ
			} else if u.inOtherUnit(p.origin) {
				var orig originParam
				if u.others.param(p.origin, &orig) {
					p.inOtherUnit = true
					hasType, typ = orig.hasType, orig.typ
				}
			}
		}
		p.size = typeByteSize(u.typesOf(types, p), hasType, typ, addrSize)
		regBytes := uint64(addrSize)
		if elf.twoRegAggregates {
			regBytes *= 2
		}
		p.inMemory = p.size > regBytes
		p.hasLoc = p.has&HasLocation != 0
		p.hasConst = p.has&HasConstValue != 0
		p.reg = reg(p.loc.scalarReg)
		p.firstPieces, p.secondPieces, p.member = 0, 0, ""
		if p.size > uint64(addrSize) && elf.twoRegAggregates {
			p.reg = reg(p.loc.aggregateReg)
			p.firstPieces, p.secondPieces = p.loc.firstPieces, p.loc.secondPieces
			p.findPassedMember(types, addrSize)
		}
	}
	// Out-of-line instances take names and types from their origins and
	// share what they know about locations with the origin's parameters.
	for i := range u.funcs {
		fn := &u.funcs[i]
		if fn.name == "" && fn.has&(HasOrigin|HasSpec) != 0 {
			j := -1
			if fn.has&HasOrigin != 0 {
				j = u.findFunc(fn.origin)
			}
			if j < 0 && fn.has&HasSpec != 0 {
				j = u.findFunc(fn.spec)
			}
			if j >= 0 {
				fn.name = u.funcs[j].name
			}
		}
		fn.inOtherUnit = false
		var origin *originFunc
		if fn.has&HasOrigin != 0 && u.inOtherUnit(fn.origin) && u.findFunc(fn.origin) < 0 {
			origin = &u.origin
			if u.others.subprogram(fn.origin, origin) {
				fn.inOtherUnit = true
				fn.originFlags = origin.has
				if fn.name == "" {
					fn.name = origin.name
				}
				if fn.has&HasType == 0 {
					if origin.hasType {
						fn.has |= HasType
					}
					fn.typ = origin.typ
				}
			}
		}
		for k := fn.params0; k < fn.params0+fn.nParams; k++ {
			p := &u.params[k]
			if p.has&HasType != 0 || p.has&HasOrigin == 0 {
				continue
			}
			if p.inOtherUnit {
				// The origin's parameter, in another unit: its name,
				// type and position; what the location says stays
				// here (the other unit's candidate is made on its own).
				found := false
				if fn.inOtherUnit {
					for idx, orig := range origin.params {
						if orig.off == p.origin {
							p.name = orig.name
							if p.index != int32(idx) {
								fn.reordered = true
							}
							if orig.hasType {
								p.has |= HasType
							}
							p.typ = orig.typ
							p.originIndex = int32(idx)
							found = true
							break
						}
					}
				}
				if !found {
					p.inOtherUnit = false
				}
				continue
			}
			j := u.findParam(p.origin)
			if j < 0 {
				continue
			}
			orig := &u.params[j]
			p.name = orig.name
			if p.index != orig.index {
				fn.reordered = true
			}
			p.has |= orig.has & HasType
			p.typ = orig.typ
			orig.learnFrom(p)
		}
	}
	for i := range u.funcs {
		fn := &u.funcs[i]
		if u.clang && fn.has&Inline == 0 {
			if fn.has&HasOrigin == 0 {
				fn.signatureChanged = fn.has&NoCall != 0
			} else if j := u.findFunc(fn.origin); j >= 0 {
				fn.signatureChanged = u.funcs[j].has&NoCall != 0
			} else if fn.inOtherUnit {
				fn.signatureChanged = fn.originFlags&NoCall != 0
			}
		}
		u.checkLocations(fn)
		unexpected, structParam := false, false
		for k := fn.params0; k < fn.params0+fn.nParams; k++ {
			p := &u.params[k]
			if p.optimized || !p.hasLoc {
				fn.optimized = true
			}
			if p.unexpected {
				unexpected = true
			}
		}
		if unexpected {
			for k := fn.params0; k < fn.params0+fn.nParams; k++ {
				p := &u.params[k]
				if isStructParam(u.typesOf(types, p), p.has&HasType != 0, p.typ) {
					structParam = true
					break
				}
			}
			fn.unexpected = !structParam
		}
		if fn.has&HasType == 0 && fn.has&HasOrigin != 0 && !fn.inOtherUnit {
			if j := u.findFunc(fn.origin); j >= 0 {
				fn.has |= u.funcs[j].has & HasType
				fn.typ = u.funcs[j].typ
			}
		}
	}
}

// learnFrom gives an abstract origin's parameter what the location of
// the out-of-line instance's parameter p says.
func (o *param) learnFrom(p *param) {
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
	if p.reg != noReg {
		o.reg = p.reg
	}
	if p.size != 0 {
		o.size = p.size
	}
	if p.inMemory {
		o.inMemory = true
	}
	o.firstPieces |= p.firstPieces
	o.secondPieces |= p.secondPieces
	if p.member != "" && o.member == "" {
		o.member, o.memberHasType, o.memberType, o.memberIsUnitType = p.member, p.memberHasType, p.memberType, p.memberIsUnitType
	}
}

// findPassedMember is pahole 1.31's reading of an aggregate parameter
// whose pieces carry exactly one field in exactly one of its two
// registers: the member of the parameter's struct at that byte offset
// (the field's offset in the first register's word, or a word plus its
// offset in the second's) is what is passed, and it is recorded with its
// type. Only a parameter with its own name and type qualifies (not one
// that takes them from an abstract origin).
func (p *param) findPassedMember(types Types, addrSize int) {
	f, s := p.firstPieces, p.secondPieces
	if f == 0 && s == 0 || f != 0 && s != 0 || bits.OnesCount64(f) >= 2 || bits.OnesCount64(s) >= 2 {
		return
	}
	if p.name == "" || p.has&HasType == 0 {
		return
	}
	off := uint64(bits.TrailingZeros64(f))
	if f == 0 {
		off = uint64(addrSize) + uint64(bits.TrailingZeros64(s))
	}
	m, ok := types.Member(p.typ, off)
	if !ok || m.Name == "" || !m.HasType {
		return
	}
	p.member, p.memberHasType, p.memberType = m.Name, m.HasType, m.Type
	_, p.memberIsUnitType = types.Type(m.Type)
}

// checkLocations is pahole's check of where each parameter of fn is on
// entry against the calling convention.
func (u *Unit) checkLocations(fn *subprogram) {
	elf := u.elf
	nRegs, regs, addrSize := elf.nParamRegs, elf.paramRegs, elf.addrSize
	slotsOf := func(p *param) int {
		if !elf.twoRegAggregates || p.size <= uint64(addrSize) {
			return 1
		}
		s := int((p.size + uint64(addrSize) - 1) / uint64(addrSize))
		return max(s, 1)
	}
	if u.clang && !fn.signatureChanged {
		reg := 0
		for k := fn.params0; k < fn.params0+fn.nParams; k++ {
			p := &u.params[k]
			slots := slotsOf(p)
			if p.inMemory {
				continue
			}
			if reg >= nRegs {
				break
			}
			if p.reg != noReg {
				ok := false
				for s := 0; s < slots && reg+s < nRegs; s++ {
					if regs[reg+s] == p.reg {
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
	trueSig := u.o.TrueSignature && fn.signatureChanged
	reg := 0
	for k := fn.params0; k < fn.params0+fn.nParams; k++ {
		p := &u.params[k]
		consumes := true
		avail := reg < nRegs
		expected := int8(noReg)
		if avail {
			expected = regs[reg]
		}
		regSlots := slotsOf(p)
		if p.inMemory {
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
				if p.inMemory {
					consumes = false
				} else {
					p.unexpected = true
				}
			case p.reg == noReg:
				if trueSig {
					p.unexpected = true
				} else {
					p.optimized = true
				}
			case expected >= 0 && expected != p.reg:
				p.unexpected = true
			case trueSig && (p.firstPieces != 0 || p.secondPieces != 0):
				// An aggregate in register pieces: whole when
				// both registers carry fields or the next
				// parameter sits past its registers; otherwise
				// the one member passed takes one register.
				switch {
				case p.firstPieces != 0 && p.secondPieces != 0:
					reg += slotsOf(p)
					continue
				case u.nextKeepsSlots(fn, k, reg+slotsOf(p)):
					p.member = ""
					reg += slotsOf(p)
					continue
				case p.member != "" && p.memberIsUnitType:
					p.has &^= HasType
					if p.memberHasType {
						p.has |= HasType
					}
					p.typ = p.memberType
					reg++
					continue
				}
			}
		case p.hasConst && !u.clang:
			p.optimized = true
		case trueSig:
			if avail && u.nextKeepsSlots(fn, k, reg+slotsOf(p)) {
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
func (u *Unit) nextKeepsSlots(fn *subprogram, k int32, next int) bool {
	if k+1 >= fn.params0+fn.nParams {
		return false
	}
	q := &u.params[k+1]
	elf := u.elf
	return q.reg != noReg && next < elf.nParamRegs && q.reg == elf.paramRegs[next]
}

// hasUncertainArgLoc is pahole's uncertain-location check: a named struct
// passed after the register parameters whose layout implies it is packed.
func (u *Unit) hasUncertainArgLoc(types Types, fn *subprogram) bool {
	nRegs := u.elf.nParamRegs
	if int(fn.nParams) < nRegs {
		return false
	}
	for k := fn.params0 + int32(nRegs); k < fn.params0+fn.nParams; k++ {
		p := &u.params[k]
		if p.has&HasType == 0 {
			continue
		}
		t, ok := types.Type(p.typ)
		if !ok {
			continue
		}
		if !isStruct(t.Tag) || t.Name == "" {
			continue
		}
		if types.Packed(p.typ, u.elf.addrSize) {
			return true
		}
	}
	return false
}

// isStruct reports whether the tag is a struct's, a class's or a union's.
func isStruct(tag dwarf.Tag) bool {
	return tag == dwarf.TagStructureType || tag == dwarf.TagClassType || tag == dwarf.TagUnionType
}
