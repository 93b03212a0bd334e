package layout

import "github.com/btfkit/btfkit/btf"

// StructMember is one data member of a struct as pahole's class_member
// holds it after its loader read it (codiff compares them).
type StructMember struct {
	Name           string // "" for an anonymous member
	Type           btf.TypeID
	ByteOffset     uint32
	BitfieldOffset int8
	ByteSize       uint64
	BitfieldSize   uint8
}

// StructInfo is what pahole's class__find_holes leaves in a struct:
// its size, members, padding and holes.
type StructInfo struct {
	Size       uint32
	Members    []StructMember
	Padding    uint16
	NrHoles    uint8
	NrBitHoles uint8
}

// Struct returns the struct or union id's members with its holes found,
// as codiff reads them.
func (p *TypePrinter) Struct(id btf.TypeID) StructInfo {
	c := p.u.class(id)
	c.findHoles()
	si := StructInfo{Size: c.size, Padding: c.padding, NrHoles: c.nrHoles, NrBitHoles: c.nrBitHoles}
	for _, m := range c.members {
		si.Members = append(si.Members, StructMember{
			Name: m.name, Type: m.typ, ByteOffset: m.byteOffset, BitfieldOffset: m.bitfieldOffset,
			ByteSize: m.byteSize, BitfieldSize: m.bitfieldSize,
		})
	}
	return si
}
