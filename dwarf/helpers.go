package dwarf

// PCRange returns the [low, high) address range of an entry with
// DW_AT_low_pc and DW_AT_high_pc, where high_pc is either an address or
// (DWARF 4 and later) a constant offset from low_pc.
func (e *Entry) PCRange() (low, high uint64, ok bool) {
	lo := e.Field(AttrLowPC)
	hi := e.Field(AttrHighPC)
	if lo == nil || hi == nil || lo.Class != ClassAddress {
		return 0, 0, false
	}
	switch hi.Class {
	case ClassAddress:
		return lo.Val, hi.Val, true
	case ClassConstant:
		if hi.HasBytes() {
			return 0, 0, false
		}
		return lo.Val, lo.Val + hi.Val, true
	}
	return 0, 0, false
}

// MemberOffset returns the byte offset a DW_AT_data_member_location field
// gives: a constant, or an expression consisting of DW_OP_plus_uconst N or
// DW_OP_constu N (what compilers emit for members at a fixed offset).
// Other expressions and location lists give false.
func (d *Data) MemberOffset(f *Field) (uint64, bool) {
	switch f.Class {
	case ClassConstant:
		if f.HasBytes() {
			return 0, false
		}
		return f.Val, true
	case ClassExprLoc, ClassBlock:
		b := d.Bytes(f)
		if len(b) < 2 {
			return 0, false
		}
		if op := Op(b[0]); op != OpConstu && op != OpPlusUconst {
			return 0, false
		}
		r := reader{data: b, pos: 1, end: len(b)}
		v := r.uleb()
		if r.bad || r.pos != len(b) {
			return 0, false
		}
		return v, true
	}
	return 0, false
}

// ULEB128 decodes the unsigned LEB128 number at the start of b and returns
// it with the number of bytes it takes. Bits past the 64th are dropped;
// an unterminated number takes all of b.
func ULEB128(b []byte) (uint64, int) {
	var v uint64
	var shift uint
	for i, c := range b {
		if shift < 64 {
			v |= uint64(c&0x7f) << shift
		}
		shift += 7
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return v, len(b)
}
