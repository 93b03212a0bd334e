package layout

// fixupSillyBitfield is what pahole's DWARF loader does with
// --fixup_silly_bitfields once it has placed a bitfield: a bitfield whose
// storage unit's size in bytes is eight times its width in bits becomes a
// plain member. (pahole means "int a:32", a bitfield as wide as its type,
// but compares bytes with bits: what it turns into a plain member is a
// one-bit bitfield of an eight-byte type, "long a:1", and that is what
// pahole 1.31 prints; BTF input is not touched.)
func fixupSillyBitfield(m *member) {
	if m.byteSize == 8*uint64(m.bitfieldSize) {
		m.bitfieldSize = 0
		m.bitfieldOffset = 0
	}
}
