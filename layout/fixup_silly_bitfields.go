package layout

// fixupSillyBitfield is what pahole's DWARF loader does with
// --fixup_silly_bitfields once it has placed a bitfield: a bitfield as
// wide as its storage unit ("int a:32") becomes a plain member. (pahole
// 1.31 compared the unit's bytes with the width's bits and so turned a
// one-bit bitfield of an eight-byte type, "long a:1", into a plain member
// instead; 1.32 fixed the condition.) BTF input is not touched.
func fixupSillyBitfield(m *member) {
	if 8*m.byteSize == uint64(m.bitfieldSize) {
		m.bitfieldSize = 0
		m.bitfieldOffset = 0
	}
}
