package btf

import "fmt"

// Check's rules for one type's record, kind by kind (the kernel's
// per-kind check_meta and check_member callbacks), each looking at most
// one reference deep.

func (c *checker) noVlen(t Type) {
	if t.Vlen() != 0 {
		c.add(t, RuleVlen, "vlen is %d, must be 0 for %s", t.Vlen(), t.Kind())
	}
}

func (c *checker) noKindFlag(t Type) {
	if t.KindFlag() {
		c.add(t, RuleKindFlag, "kind_flag set, not allowed on %s", t.Kind())
	}
}

// regularInt reports whether t is an INT of whole bytes (1, 2, 4, 8 or 16)
// at bit offset 0, what the kernel calls a regular int.
func regularInt(t Type) bool {
	if t.Kind() != KindInt || len(t.Extra()) != 1 {
		return false
	}
	_, off, bits := t.IntEncoding()
	if bits%8 != 0 || off != 0 {
		return false
	}
	switch bits / 8 {
	case 1, 2, 4, 8, 16:
		return true
	}
	return false
}

func (c *checker) checkType(t Type) {
	k := t.Kind()
	v := c.cfg.kernel
	if !v.Has(Feature24BitVlen) && t.Info()&^infoMask16 != 0 {
		c.add(t, RuleInfo, "reserved bits set in info word 0x%08x (Linux %s rejects them; %s widened vlen to 24 bits and kind to 7)", t.Info(), v, Feature24BitVlen.Since)
		// Read as such a kernel reads the word.
		k = Kind(t.Info() >> 24 & 0x1f)
	}
	if k == KindUnknown || k > MaxKind {
		c.add(t, RuleKind, "unknown kind %d", uint8(k))
		return
	}
	if f, ok := kindFeature(k); ok && !v.Has(f) {
		c.add(t, RuleKind, "%s is unknown to Linux %s (added in %s)", k, v, f.Since)
		return
	}
	if t.KindFlag() {
		switch {
		case k == KindEnum && !v.Has(FeatureEnum64):
			c.add(t, RuleKindFlag, "kind_flag (signed) on ENUM: Linux %s rejects it (allowed from %s)", v, FeatureEnum64.Since)
		case (k == KindDeclTag || k == KindTypeTag) && !v.Has(FeatureTagFlag):
			c.add(t, RuleKindFlag, "kind_flag (attribute) on %s: Linux %s rejects it (allowed from %s)", k, v, FeatureTagFlag.Since)
		}
	}
	if k == KindFunc && t.Vlen() == LinkageGlobal && !v.Has(FeatureGlobalFunc) {
		c.add(t, RuleLinkage, "global FUNC: Linux %s knows only static ones (global from %s)", v, FeatureGlobalFunc.Since)
	}
	if want := ExtraWords(k, t.Vlen()); want != len(t.Extra()) {
		c.add(t, RuleLayout, "%d trailing words, %s with vlen %d needs %d", len(t.Extra()), k, t.Vlen(), want)
		return
	}
	switch k {
	case KindInt:
		c.checkInt(t)
	case KindPtr, KindTypedef, KindVolatile, KindConst, KindRestrict, KindTypeTag:
		c.checkRef(t)
	case KindArray:
		c.checkArray(t)
	case KindStruct, KindUnion:
		c.checkStruct(t)
	case KindEnum, KindEnum64:
		c.checkEnum(t)
	case KindFwd:
		c.noVlen(t)
		if t.SizeType() != 0 {
			c.add(t, RuleSize, "type/size field is %d, must be 0 for FWD", t.SizeType())
		}
		c.checkName(t, nameIdent)
	case KindFunc:
		c.checkFunc(t)
	case KindFuncProto:
		c.checkName(t, nameNone)
		c.noKindFlag(t)
		c.checkProto(t)
	case KindVar:
		c.checkVar(t)
	case KindDatasec:
		c.checkDatasec(t)
	case KindFloat:
		c.noVlen(t)
		c.noKindFlag(t)
		c.checkName(t, nameUnchecked)
		switch t.Size() {
		case 2, 4, 8, 12, 16:
		default:
			c.add(t, RuleSize, "size %d, FLOAT size must be 2, 4, 8, 12 or 16", t.Size())
		}
	case KindDeclTag:
		c.checkDeclTag(t)
	}
}

func (c *checker) checkInt(t Type) {
	c.noVlen(t)
	c.noKindFlag(t)
	c.checkName(t, nameUnchecked)
	w := t.Extra()[0]
	enc, off, bits := t.IntEncoding()
	if w&^intMask != 0 {
		c.add(t, RuleInt, "reserved bits set in encoding word 0x%08x", w)
	}
	if int(off)+int(bits) > 128 {
		c.add(t, RuleInt, "bit offset %d + %d bits exceed 128", off, bits)
	} else if (uint32(off)+uint32(bits)+7)/8 > t.Size() {
		c.add(t, RuleInt, "bit offset %d + %d bits exceed the size of %d bytes", off, bits, t.Size())
	}
	switch enc {
	case 0, IntSigned, IntChar, IntBool:
	default:
		c.add(t, RuleInt, "encoding 0x%x: at most one of SIGNED, CHAR, BOOL", enc)
	}
	if c.cfg.strict {
		switch t.Size() {
		case 1, 2, 4, 8, 16:
		default:
			c.add(t, RuleConvention, "size %d, INT sizes are 1, 2, 4, 8 or 16", t.Size())
		}
	}
}

// checkRef checks PTR and the modifiers: the target exists, is not a
// source-only kind, and resolves to something with a size, void, a FWD
// or a FUNC_PROTO.
func (c *checker) checkRef(t Type) {
	k := t.Kind()
	c.noVlen(t)
	if k != KindTypeTag {
		c.noKindFlag(t)
	}
	switch k {
	case KindTypedef:
		c.checkName(t, nameIdent)
	case KindTypeTag:
		c.checkName(t, nameAny)
	default:
		c.checkName(t, nameNone)
	}
	ref := t.Ref()
	if ref >= c.next {
		c.add(t, RuleTypeID, "refers to type %d, which does not exist", ref)
		return
	}
	if ref == 0 {
		return
	}
	rt := c.s.Type(ref)
	if sourceOnly(rt.Kind()) {
		c.add(t, RuleRefKind, "refers to %s, which only a DATASEC or nothing may refer to", c.describe(ref))
		return
	}
	if IsModifier(k) && k != KindTypeTag && rt.Kind() == KindTypeTag {
		c.add(t, RuleTypeTag, "refers to %s: type tags must come before other modifiers", c.describe(ref))
	}
	rid, ok := c.resolve(ref)
	if !ok || rid == 0 {
		return
	}
	// Whether a pointer or modifier may refer to a FUNC depends on the
	// order the kernel resolves types in: see checkDepth.
	if rid, ok := c.resolve(ref); ok && rid != 0 && sourceOnly(c.s.Type(rid).Kind()) {
		c.add(t, RuleRefKind, "resolves to %s, which only a DATASEC or nothing may refer to", c.describe(rid))
	}
}

func (c *checker) checkArray(t Type) {
	c.checkName(t, nameNone)
	c.noVlen(t)
	c.noKindFlag(t)
	if t.SizeType() != 0 {
		c.add(t, RuleSize, "size field is %d, must be 0 for ARRAY", t.SizeType())
	}
	a := t.Array()
	idxOK := c.refNeedsSize(t, a.Index, "index type")
	elemOK := c.refNeedsSize(t, a.Elem, "element type")
	if idxOK {
		if rid, ok := c.resolve(a.Index); ok && rid != 0 && !regularInt(c.s.Type(rid)) {
			c.add(t, RuleArray, "index type %s is not a regular INT", c.describe(rid))
		}
	}
	if elemOK {
		esz, rid, ok := c.sizeOf(a.Elem)
		if !ok {
			return
		}
		if rt := c.s.Type(rid); rt.Kind() == KindInt && !regularInt(rt) {
			c.add(t, RuleArray, "element type %s is not a regular INT (whole bytes, no bit offset)", c.describe(rid))
		}
		if a.Nelems != 0 && esz > 0xffffffff/uint64(a.Nelems) {
			c.add(t, RuleArray, "%d elements of %d bytes overflow 32 bits", a.Nelems, esz)
		}
	}
}

// refNeedsSize checks a reference that must be to a type with a size:
// array element and index, member, parameter, return value, variable.
func (c *checker) refNeedsSize(t Type, ref TypeID, what string) bool {
	if ref == 0 {
		c.add(t, RuleTypeID, "%s is void", what)
		return false
	}
	if ref >= c.next {
		c.add(t, RuleTypeID, "%s %d does not exist", what, ref)
		return false
	}
	rk := c.s.Type(ref).Kind()
	if sourceOnly(rk) {
		c.add(t, RuleRefKind, "%s %s is not a data type", what, c.describe(ref))
		return false
	}
	_, rid, ok := c.sizeOf(ref)
	if ok {
		return true
	}
	if _, rok := c.resolve(ref); !rok {
		return false // a loop or dangling modifier: reported there
	}
	if c.s.Type(rid).Kind() == KindArray {
		return false // an array without size is reported by the array
	}
	c.add(t, RuleRefKind, "%s %s has no size", what, c.describe(ref))
	return false
}

func (c *checker) checkStruct(t Type) {
	c.checkName(t, nameOptional)
	isUnion := t.Kind() == KindUnion
	ssize := uint64(t.Size())
	var last uint32
	for i := 0; i < t.Vlen(); i++ {
		m := t.Member(i)
		mname := ""
		what := fmt.Sprintf("member %d: ", i)
		if c.nameOffOK(t, m.NameOff, what) {
			mname = c.s.String(m.NameOff)
			if m.NameOff != 0 && !validName(mname, false) {
				c.add(t, RuleNameInvalid, "member %d name '%s' is not a valid identifier", i, mname)
			} else if m.NameOff != 0 {
				c.dottedName(t, what, mname)
			}
		}
		mdesc := fmt.Sprintf("member %d '%s'", i, mname)
		off, bitfieldSize := t.MemberBits(i)
		if isUnion && off != 0 {
			c.add(t, RuleMemberOffset, "%s at bit %d, union members must be at offset 0", mdesc, off)
		}
		if off < last {
			c.add(t, RuleMemberOffset, "%s at bit %d before the previous member's bit %d", mdesc, off, last)
		}
		last = off
		if (uint64(off)+7)/8 > ssize {
			c.add(t, RuleMemberBounds, "%s at bit %d past struct size %d bytes", mdesc, off, ssize)
			continue
		}
		if !c.refNeedsSize(t, m.Type, mdesc+" type") {
			continue
		}
		msize, rid, _ := c.sizeOf(m.Type)
		rt := c.s.Type(rid)
		rk := rt.Kind()
		if c.cfg.strict && m.NameOff == 0 && rk != KindStruct && rk != KindUnion {
			c.add(t, RuleConvention, "%s is anonymous but of type %s", mdesc, c.describe(rid))
		}
		byteOff := uint64(off / 8)
		switch {
		case rk == KindInt:
			c.checkIntMember(t, mdesc, rt, off, bitfieldSize)
			continue
		case (rk == KindEnum || rk == KindEnum64) && t.KindFlag():
			// The kernel's btf_enum_check_kflag_member takes every enum
			// member of a kind_flag struct as 32 bits wide.
			nbits := uint64(bitfieldSize)
			if bitfieldSize == 0 {
				if off%8 != 0 {
					c.add(t, RuleMemberOffset, "%s at bit %d is not byte aligned", mdesc, off)
					continue
				}
				nbits = 32
			} else if bitfieldSize > 32 {
				c.add(t, RuleBitfield, "%s enum bitfield of %d bits; the kernel allows at most 32", mdesc, bitfieldSize)
				continue
			}
			if (uint64(off)+nbits+7)/8 > ssize {
				c.add(t, RuleMemberBounds, "%s at bit %d of %d bits past struct size %d bytes", mdesc, off, nbits, ssize)
			} else if c.cfg.strict && bitfieldSize == 0 && byteOff+msize > ssize {
				c.add(t, RuleConvention, "%s at bit %d of %d bytes past struct size %d bytes", mdesc, off, msize, ssize)
			}
			continue
		default:
			if bitfieldSize != 0 {
				c.add(t, RuleBitfield, "%s is a bitfield of %d bits but of type %s; only INT and ENUM bitfields exist", mdesc, bitfieldSize, c.describe(rid))
				continue
			}
		}
		if rk == KindFloat {
			align := min(msize, ptrSize) * 8
			if align > 0 && uint64(off)%align != 0 {
				c.add(t, RuleMemberOffset, "%s at bit %d is not aligned to %d bytes", mdesc, off, align/8)
			}
		} else if off%8 != 0 {
			c.add(t, RuleMemberOffset, "%s at bit %d is not byte aligned", mdesc, off)
		}
		if byteOff+msize > ssize {
			c.add(t, RuleMemberBounds, "%s at bit %d of %d bytes past struct size %d bytes", mdesc, off, msize, ssize)
		}
	}
}

// checkIntMember applies the kernel's btf_int_check_member and
// btf_int_check_kflag_member.
func (c *checker) checkIntMember(t Type, mdesc string, it Type, off, bitfieldSize uint32) {
	ssize := uint64(t.Size())
	if len(it.Extra()) != 1 {
		return // a malformed INT, reported as such
	}
	_, ioff, ibits := it.IntEncoding()
	var bitOff, nbits uint64
	if t.KindFlag() {
		if !regularInt(it) {
			c.add(t, RuleBitfield, "%s: in a kind_flag struct an INT member must be a regular INT, %s is not", mdesc, c.describe(it.ID))
			return
		}
		bitOff, nbits = uint64(off), uint64(bitfieldSize)
		if bitfieldSize == 0 {
			if off%8 != 0 {
				c.add(t, RuleMemberOffset, "%s at bit %d is not byte aligned", mdesc, off)
				return
			}
			nbits = uint64(ibits)
		} else if bitfieldSize > uint32(ibits) {
			c.add(t, RuleBitfield, "%s bitfield of %d bits wider than its %d-bit INT", mdesc, bitfieldSize, ibits)
			return
		}
	} else {
		bitOff, nbits = uint64(off)+uint64(ioff), uint64(ibits)
	}
	copyBits := nbits + bitOff%8
	if copyBits > 128 {
		c.add(t, RuleBitfield, "%s at bit %d spans %d bits, more than 128", mdesc, bitOff, copyBits)
		return
	}
	if bitOff/8+(copyBits+7)/8 > ssize {
		c.add(t, RuleMemberBounds, "%s at bit %d of %d bits past struct size %d bytes", mdesc, bitOff, nbits, ssize)
	}
}

func (c *checker) checkEnum(t Type) {
	c.checkName(t, nameOptional)
	switch t.Size() {
	case 1, 2, 4, 8:
	default:
		c.add(t, RuleSize, "size %d, %s size must be 1, 2, 4 or 8", t.Size(), t.Kind())
	}
	for i := 0; i < t.Vlen(); i++ {
		off := t.Enum(i).NameOff
		if !c.nameOffOK(t, off, fmt.Sprintf("enumerator %d: ", i)) {
			continue
		}
		if name := c.s.String(off); name == "" {
			c.add(t, RuleNameRequired, "enumerator %d has no name", i)
		} else if !validName(name, false) {
			c.add(t, RuleNameInvalid, "enumerator %d name '%s' is not a valid identifier", i, name)
		} else {
			c.dottedName(t, fmt.Sprintf("enumerator %d: ", i), name)
		}
	}
}

func (c *checker) checkFunc(t Type) {
	c.checkName(t, nameIdent)
	c.noKindFlag(t)
	if l := t.Vlen(); l > LinkageGlobal {
		c.add(t, RuleLinkage, "linkage %d, FUNC linkage must be static (0) or global (1)", l)
	}
	ref := t.Ref()
	if ref == 0 || ref >= c.next || c.s.Type(ref).Kind() != KindFuncProto {
		if ref >= c.next {
			c.add(t, RuleTypeID, "refers to type %d, which does not exist", ref)
		} else {
			c.add(t, RuleRefKind, "refers to %s, FUNC must refer to a FUNC_PROTO", c.describe(ref))
		}
		return
	}
	p := c.s.Type(ref)
	if len(p.Extra()) != 2*p.Vlen() {
		return
	}
	for i := 0; i < p.Vlen(); i++ {
		if prm := p.Param(i); prm.NameOff == 0 && prm.Type != 0 {
			c.add(t, RuleNameRequired, "parameter %d of its prototype %s has no name", i, c.describe(ref))
		}
	}
}

func (c *checker) checkProto(t Type) {
	if ret := t.Ref(); ret != 0 {
		c.refNeedsSize(t, ret, "return type")
	}
	n := t.Vlen()
	for i := 0; i < n; i++ {
		p := t.Param(i)
		what := fmt.Sprintf("parameter %d", i)
		if p.Type == 0 && i == n-1 {
			if p.NameOff != 0 {
				c.add(t, RuleParam, "%s is a vararg (type 0) but has a name '%s'", what, c.name(p.NameOff))
			}
			continue
		}
		if p.Type == 0 {
			c.add(t, RuleParam, "%s has type void; only the last parameter may be a vararg", what)
			continue
		}
		if p.NameOff != 0 && c.nameOffOK(t, p.NameOff, what+": ") {
			if name := c.s.String(p.NameOff); !validName(name, false) {
				c.add(t, RuleNameInvalid, "%s name '%s' is not a valid identifier", what, name)
			} else {
				c.dottedName(t, what+": ", name)
			}
		}
		c.refNeedsSize(t, p.Type, what+" type")
	}
}

func (c *checker) checkVar(t Type) {
	c.noVlen(t)
	c.noKindFlag(t)
	c.checkName(t, nameVar)
	c.refNeedsSize(t, t.Ref(), "type")
	if l := t.Linkage(); l != LinkageStatic && l != LinkageGlobal {
		c.add(t, RuleLinkage, "linkage %d, VAR linkage must be static (0) or global (1)", l)
	}
}

func (c *checker) checkDatasec(t Type) {
	c.noKindFlag(t)
	c.checkName(t, nameSection)
	size := uint64(t.Size())
	if size == 0 {
		c.add(t, RuleSize, "DATASEC size is 0")
	}
	var lastEnd uint64
	for i := 0; i < t.Vlen(); i++ {
		v := t.SecVar(i)
		what := fmt.Sprintf("entry %d (%s)", i, c.describe(v.Type))
		if v.Type == 0 || v.Type >= c.next {
			c.add(t, RuleTypeID, "%s refers to type %d, which does not exist", what, v.Type)
		} else if vt := c.s.Type(v.Type); vt.Kind() != KindVar {
			c.add(t, RuleRefKind, "%s refers to %s, DATASEC entries must be VARs", what, c.describe(v.Type))
		} else if vsz, _, ok := c.sizeOf(vt.Ref()); ok && uint64(v.Size) < vsz {
			c.add(t, RuleDatasec, "%s has size %d, smaller than its type's %d", what, v.Size, vsz)
		}
		off, esz := uint64(v.Offset), uint64(v.Size)
		switch {
		case off < lastEnd:
			c.add(t, RuleDatasec, "%s at offset %d overlaps or precedes the previous entry ending at %d", what, off, lastEnd)
		case size > 0 && off >= size:
			c.add(t, RuleDatasec, "%s at offset %d is past the section size %d", what, off, size)
		case esz == 0:
			c.add(t, RuleDatasec, "%s has size 0", what)
		case off+esz > size:
			c.add(t, RuleDatasec, "%s [%d,%d) runs past the section size %d", what, off, off+esz, size)
		}
		lastEnd = max(lastEnd, off+esz)
	}
}

func (c *checker) checkDeclTag(t Type) {
	c.noVlen(t)
	c.checkName(t, nameAny)
	idx := t.ComponentIdx()
	if idx < -1 {
		c.add(t, RuleDeclTag, "component_idx %d, must be -1 or a member/parameter index", idx)
		return
	}
	ref := t.Ref()
	if ref == 0 || ref >= c.next {
		c.add(t, RuleTypeID, "refers to type %d, which does not exist", ref)
		return
	}
	rt := c.s.Type(ref)
	var vlen int
	switch rt.Kind() {
	case KindStruct, KindUnion:
		vlen = rt.Vlen()
	case KindFunc:
		if p := rt.Ref(); p != 0 && p < c.next && c.s.Type(p).Kind() == KindFuncProto {
			vlen = c.s.Type(p).Vlen()
		} else {
			return // reported by the FUNC
		}
	case KindVar, KindTypedef:
		vlen = -1
	default:
		c.add(t, RuleDeclTag, "tags %s; only FUNC, STRUCT, UNION, VAR and TYPEDEF can be tagged", c.describe(ref))
		return
	}
	if idx == -1 {
		return
	}
	if vlen < 0 {
		c.add(t, RuleDeclTag, "component_idx %d on %s, which has no components", idx, c.describe(ref))
	} else if int(idx) >= vlen {
		c.add(t, RuleDeclTag, "component_idx %d out of range: %s has %d", idx, c.describe(ref), vlen)
	}
}
