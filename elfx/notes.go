package elfx

import (
	"debug/elf"
	"fmt"
)

// Note returns the descriptor of the first ELF note with the given owner
// name and type, looking through the SHT_NOTE sections in section order
// (in a note section aligned to 8 the descriptor and the next note start
// at multiples of 8, in others of 4). found is false when there is none. A truncated note is an
// error naming its section and offset.
func (f *File) Note(owner string, typ uint32) (desc []byte, found bool, err error) {
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE {
			continue
		}
		data, err := f.Contents(s, false)
		if err != nil {
			return nil, false, err
		}
		align := uint64(4)
		if s.Addralign == 8 {
			align = 8
		}
		pad := func(n uint64) uint64 { return (n + align - 1) &^ (align - 1) }
		for off := uint64(0); off < uint64(len(data)); {
			if uint64(len(data))-off < 12 {
				return nil, false, sectionErr(s.Name, off, fmt.Errorf("%w: note header needs 12 bytes, 0x%x left", ErrTruncated, uint64(len(data))-off))
			}
			namesz := uint64(f.ByteOrder.Uint32(data[off:]))
			descsz := uint64(f.ByteOrder.Uint32(data[off+4:]))
			ntype := f.ByteOrder.Uint32(data[off+8:])
			nameAt := off + 12
			if namesz > uint64(len(data)) || descsz > uint64(len(data)) {
				return nil, false, sectionErr(s.Name, off, fmt.Errorf("%w: note of 0x%x+0x%x bytes runs past the section's end (0x%x)", ErrTruncated, namesz, descsz, len(data)))
			}
			descAt := pad(nameAt + namesz)
			next := pad(descAt + descsz)
			if descAt+descsz > uint64(len(data)) {
				return nil, false, sectionErr(s.Name, off, fmt.Errorf("%w: note of 0x%x+0x%x bytes runs past the section's end (0x%x)", ErrTruncated, namesz, descsz, len(data)))
			}
			name := data[nameAt : nameAt+namesz]
			if n := len(name); n > 0 && name[n-1] == 0 {
				name = name[:n-1]
			}
			if ntype == typ && string(name) == owner {
				return data[descAt : descAt+descsz : descAt+descsz], true, nil
			}
			off = next
		}
	}
	return nil, false, nil
}
