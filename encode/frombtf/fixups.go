package frombtf

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
)

// fixMember applies the per-member rules (doc.go) to m, one archive
// member as parsed, and returns the fixed member (m itself, edited in
// place, unless a rule changes the number of types or words).
func fixMember(m *btf.Spec, f encode.Features) *btf.Spec {
	first, next := m.FirstID(), m.NextID()
	var alias []btf.TypeID // set when a type must go
	reshape := false       // a record changes its length
	intID := btf.TypeID(0)
	arrays := false
	for id := first; id < next; id++ {
		name, info, st, ext := m.RawType(id)
		switch btf.KindOf(info) {
		case btf.KindInt:
			if ext[0]&(btf.IntChar<<24) != 0 {
				ext[0] &^= btf.IntChar << 24
			}
			if intID == 0 && st == 4 && ext[0] == btf.IntSigned<<24|32 && m.String(name) == "int" {
				intID = id
			}
		case btf.KindFwd:
			if st != 0 {
				m.SetRaw(id, name, info, 0)
			}
		case btf.KindArray:
			arrays = true
		case btf.KindFloat:
			reshape = reshape || !f.Has(encode.FeatFloat)
		case btf.KindEnum64:
			reshape = reshape || !f.Has(encode.FeatEnum64)
		case btf.KindTypeTag:
			if !f.Has(encode.FeatTypeTag) {
				to := btf.TypeID(st)
				if to == 0 {
					to = noType
				}
				alias = setAlias(alias, m, id, to)
			}
		case btf.KindDeclTag:
			if !f.Has(encode.FeatDeclTag) {
				alias = setAlias(alias, m, id, noType)
			}
		}
	}
	if arrays && intID == 0 {
		intID = m.AddRaw(m.AddString("int"), btf.Info(btf.KindInt, 0, false), 4, btf.IntSigned<<24|32)
		next++
		if alias != nil {
			alias = append(alias, 0)
		}
	}
	if arrays {
		for id := first; id < next; id++ {
			name, info, st, ext := m.RawType(id)
			if btf.KindOf(info) == btf.KindArray && ext[1] != uint32(intID) {
				ext[1] = uint32(intID)
				m.SetRaw(id, name, info, st, ext...)
			}
		}
	}
	if alias == nil && !reshape {
		return m
	}
	if alias == nil {
		alias = make([]btf.TypeID, m.NumTypes())
	}
	return rebuild(m, alias, func(id btf.TypeID, name, info, st uint32, ext []uint32) (uint32, uint32, uint32, []uint32) {
		switch btf.KindOf(info) {
		case btf.KindFloat:
			if !f.Has(encode.FeatFloat) {
				return name, btf.Info(btf.KindInt, 0, false), st, append(ext[:0], st*8)
			}
		case btf.KindEnum64:
			if !f.Has(encode.FeatEnum64) {
				// pahole without enum64: an ENUM of the enum's size,
				// each value's low 32 bits.
				vlen := btf.VlenOf(info)
				w := make([]uint32, 0, 2*vlen)
				for i := 0; i < vlen; i++ {
					w = append(w, ext[3*i], ext[3*i+1])
				}
				return name, btf.Info(btf.KindEnum, vlen, false), st, w
			}
		}
		return name, info, st, ext
	})
}

// setAlias marks id in alias (made on first use for m's types) as
// dropped in favour of to.
func setAlias(alias []btf.TypeID, m *btf.Spec, id, to btf.TypeID) []btf.TypeID {
	if alias == nil {
		alias = make([]btf.TypeID, m.NumTypes())
	}
	alias[id-m.FirstID()] = to
	return alias
}
