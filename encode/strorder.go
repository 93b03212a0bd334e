package encode

import (
	"unsafe"

	"github.com/btfkit/btfkit/btf"
)

// keepStringOrder gives out (the deduplicated types) the string table
// of merged (the types before deduplication), as libbpf does: BTF built
// with btf__add_* has its strings deduplicated as they are added, so
// btf__dedup keeps that table, in the order the encoder added the
// strings, unreferenced ones included. Every string out refers to is in
// merged's table.
func keepStringOrder(out, merged *btf.Spec) {
	if out.Base() != nil || merged.Base() != nil {
		return
	}
	table := merged.RawStrings()
	offs := make(map[string]uint32, 1<<16)
	for i := 0; i < len(table); {
		j := i
		for j < len(table) && table[j] != 0 {
			j++
		}
		s := unsafe.String(unsafe.SliceData(table[i:]), j-i)
		if _, ok := offs[s]; !ok {
			offs[s] = uint32(i)
		}
		i = j + 1
	}
	ok := true
	remap := func(p *uint32) {
		if *p == 0 {
			return
		}
		n, found := offs[out.String(*p)]
		if !found {
			ok = false
			return
		}
		*p = n
	}
	type fix struct {
		id   btf.TypeID
		name uint32
		info uint32
		st   uint32
		ext  []uint32
	}
	var fixes []fix
	for id := out.FirstID(); id < out.NextID(); id++ {
		name, info, st, ext := out.RawType(id)
		e := append([]uint32(nil), ext...)
		btf.ForEachStringRef(info, &name, e, remap)
		fixes = append(fixes, fix{id, name, info, st, e})
	}
	if !ok {
		return // a string we cannot place: keep dedup's table
	}
	for _, f := range fixes {
		out.SetRaw(f.id, f.name, f.info, f.st, f.ext...)
	}
	out.SetRawStrings(append([]byte(nil), table...))
	// libbpf v1.8 (pahole 1.31) writes the 32-byte header whose last two
	// words (the kind layout section) are zero without the layout feature.
	out.SetHeaderLen(32)
}
