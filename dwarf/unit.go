package dwarf

// Unit is one unit header of .debug_info or .debug_types.
type Unit struct {
	Index        int      // position in Data.Units
	Section      string   // ".debug_info" or ".debug_types"
	Offset       Offset   // global offset of the unit header
	First        Offset   // global offset of the first (root) DIE
	End          Offset   // global offset just past the unit
	Version      int      // 2..5
	Type         UnitType // DW_UT_*; UTCompile or UTType before DWARF 5
	AddrSize     int      // 1, 2, 4 or 8
	OffsetSize   int      // 4 (32-bit DWARF) or 8 (64-bit DWARF)
	AbbrevOffset uint64   // offset of the unit's table in .debug_abbrev
	Signature    uint64   // type units: the type signature
	TypeOffset   Offset   // type units: global offset of the type's DIE
	DWOID        uint64   // skeleton and split units: the DWO id
}

// secOff converts a global offset into an offset within the unit's section.
func (u *Unit) secOff(o Offset) uint64 {
	if u.Section == ".debug_types" {
		return uint64(o - TypesBase)
	}
	return uint64(o)
}

// parseUnits appends the units of one section to d.units. With peek not
// nil, each header is read through it (elfx.File.ReadView: from the
// file, leaving the section's pages alone) instead of from sec, which is
// then touched only where a header runs into padding.
func (d *Data) parseUnits(sec []byte, name string, base Offset, peek func(p, view []byte, off int) int) error {
	// A header is at most 12 (length) + 2 (version) + 1 + 1 + 8 (DWARF
	// 5: unit type, address size, abbreviation offset) + 8 + 8 (type
	// unit: signature, type offset) = 40 bytes.
	var win [64]byte
	for pos := 0; pos < len(sec); {
		start := pos
		hdr := sec[start:min(len(sec), start+len(win))]
		if peek != nil {
			hdr = win[:peek(win[:], sec, start)]
		}
		b := reader{data: hdr, end: len(hdr), big: d.sec.BigEndian}
		length := uint64(b.u32())
		offSize := 4
		if length == 0xffffffff {
			length = b.u64()
			offSize = 8
		} else if length >= 0xfffffff0 {
			return errorf(name, uint64(start), "reserved unit length 0x%x", length)
		}
		if b.bad {
			return errorf(name, uint64(start), "truncated unit header")
		}
		pos = start + b.pos
		if length == 0 {
			// Padding. Real files have none in .debug_info; read any
			// further from sec rather than one system call a word.
			peek = nil
			continue
		}
		if left := len(sec) - pos; length > uint64(left) {
			return errorf(name, uint64(start), "unit length 0x%x beyond end of section (0x%x bytes left)", length, left)
		}
		end := pos + int(length)
		hb := reader{data: hdr, pos: b.pos, end: min(len(hdr), end-start), big: b.big}
		u := Unit{Index: len(d.units), Section: name, Offset: base + Offset(start), End: base + Offset(end), OffsetSize: offSize}
		u.Version = int(hb.u16())
		if u.Version < 2 || u.Version > 5 {
			return errorf(name, uint64(start), "unsupported DWARF version %d", u.Version)
		}
		if u.Version >= 5 {
			u.Type = UnitType(hb.u8())
			u.AddrSize = int(hb.u8())
			u.AbbrevOffset = hb.uintN(offSize)
		} else {
			u.AbbrevOffset = hb.uintN(offSize)
			u.AddrSize = int(hb.u8())
			u.Type = UTCompile
			if name == ".debug_types" {
				u.Type = UTType
			}
		}
		switch u.Type {
		case UTCompile, UTPartial:
		case UTSkeleton, UTSplitCompile:
			u.DWOID = hb.u64()
		case UTType, UTSplitType:
			u.Signature = hb.u64()
			u.TypeOffset = Offset(hb.uintN(offSize))
		default:
			return errorf(name, uint64(start), "unknown unit type 0x%x", uint8(u.Type))
		}
		if hb.bad {
			return errorf(name, uint64(start), "unit header longer than the unit")
		}
		switch u.AddrSize {
		case 1, 2, 4, 8:
		default:
			return errorf(name, uint64(start), "unsupported address size %d", u.AddrSize)
		}
		if u.Type == UTType || u.Type == UTSplitType {
			if u.TypeOffset >= Offset(end-start) {
				return errorf(name, uint64(start), "type offset 0x%x beyond end of unit", u.TypeOffset)
			}
			u.TypeOffset += u.Offset
		}
		u.First = base + Offset(start+hb.pos)
		d.units = append(d.units, u)
		pos = end
	}
	return nil
}
