package frombtf

import "github.com/btfkit/btfkit/btf"

// rebuild returns a standalone copy of s (s's own types) without the
// types that alias marks: alias[id-first] is 0 for a kept type, else
// the type that references to id are redirected to (followed until a kept
// type; noType for a type nothing kept refers to). Kept types keep their
// order and get dense IDs from 1. edit, when not nil, may change a kept
// type's record before its references are renumbered: it gets the old
// ID and returns the header words and trailing words to write. The string
// table is shared, not copied.
func rebuild(s *btf.Spec, alias []btf.TypeID, edit func(id btf.TypeID, name, info, sizeType uint32, ext []uint32) (uint32, uint32, uint32, []uint32)) *btf.Spec {
	out, _ := rebuildMap(s, alias, edit)
	return out
}

// rebuildMap is rebuild that also returns each old type's new ID
// (indexed by old ID - first; 0 for a dropped type).
func rebuildMap(s *btf.Spec, alias []btf.TypeID, edit func(id btf.TypeID, name, info, sizeType uint32, ext []uint32) (uint32, uint32, uint32, []uint32)) (*btf.Spec, []uint32) {
	first := s.FirstID()
	n := s.NumTypes()
	newID := make([]uint32, n)
	next := uint32(1)
	for i := 0; i < n; i++ {
		if alias[i] == 0 {
			newID[i] = next
			next++
		}
	}
	var resolve func(id uint32) uint32
	resolve = func(id uint32) uint32 {
		for hops := 0; id != 0; hops++ {
			if id < uint32(first) || id >= uint32(first)+uint32(n) || hops > n {
				return id // outside s (malformed): left for Check to report
			}
			i := id - uint32(first)
			if alias[i] == 0 {
				return newID[i]
			}
			if alias[i] == noType {
				return 0
			}
			id = uint32(alias[i])
		}
		return 0
	}
	out := btf.NewSpec()
	out.SetRawStrings(s.RawStrings())
	words := 0
	for i := 0; i < n; i++ {
		if alias[i] == 0 {
			_, _, _, ext := s.RawType(first + btf.TypeID(i))
			words += len(ext)
		}
	}
	out.Reserve(int(next-1), words)
	var buf []uint32
	fix := func(p *uint32) { *p = resolve(*p) }
	for i := 0; i < n; i++ {
		if alias[i] != 0 {
			continue
		}
		id := first + btf.TypeID(i)
		name, info, st, ext := s.RawType(id)
		buf = append(buf[:0], ext...)
		if edit != nil {
			name, info, st, buf = edit(id, name, info, st, buf)
		}
		btf.ForEachTypeRef(info, &st, buf, fix)
		out.AddRaw(name, info, st, buf...)
	}
	return out, newID
}

// noType in an alias table marks a dropped type that nothing kept
// refers to (a reference to it becomes void).
const noType = ^btf.TypeID(0)
