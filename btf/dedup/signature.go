package dedup

import (
	"slices"

	"github.com/btfkit/btfkit/btf"
)

// What the phases compare types by: libbpf's signature hashes (which
// decide the order candidates are tried in) and the shallow equality and
// compatibility of two types' own fields.

// Signature hashes, computed as libbpf computes them (h*31 + v on 64 bits)
// so that candidate chains come out in libbpf's order.

func hashCombine(h, v uint64) uint64 { return h*31 + v }

func (d *deduper) hashCommon(id uint32) uint64 {
	h := &d.hdr[id]
	return hashCombine(hashCombine(hashCombine(0, uint64(h.name)), uint64(h.info)), uint64(h.sizeType))
}

func (d *deduper) hashTypedef(id uint32) uint64 {
	h := &d.hdr[id]
	return hashCombine(hashCombine(0, uint64(h.name)), uint64(h.info))
}

func (d *deduper) hashIntTag(id uint32) uint64 {
	return hashCombine(d.hashCommon(id), uint64(d.words[d.extStart[id]]))
}

func (d *deduper) hashEnum(id uint32) uint64 {
	return hashCombine(0, uint64(d.hdr[id].name))
}

func (d *deduper) hashStruct(id uint32) uint64 {
	h := d.hashCommon(id)
	e := d.ext(id)
	for i := 0; i+2 < len(e); i += 3 {
		h = hashCombine(h, uint64(e[i]))
		h = hashCombine(h, uint64(e[i+2]))
	}
	return h
}

func (d *deduper) hashArray(id uint32) uint64 {
	h := d.hashCommon(id)
	e := d.ext(id)
	return hashCombine(hashCombine(hashCombine(h, uint64(e[0])), uint64(e[1])), uint64(e[2]))
}

func (d *deduper) hashFnProto(id uint32) uint64 {
	h := d.hashCommon(id)
	e := d.ext(id)
	for i := 0; i+1 < len(e); i += 2 {
		h = hashCombine(h, uint64(e[i]))
		h = hashCombine(h, uint64(e[i+1]))
	}
	return h
}

// Equality and compatibility of single types (referenced IDs compared only
// where they are already canonical).

func (d *deduper) equalCommon(a, b uint32) bool { return d.hdr[a] == d.hdr[b] }

func (d *deduper) equalIntTag(a, b uint32) bool {
	return d.equalCommon(a, b) && d.words[d.extStart[a]] == d.words[d.extStart[b]]
}

func (d *deduper) equalEnum(a, b uint32) bool {
	if !d.equalCommon(a, b) {
		return false
	}
	return slices.Equal(d.ext(a), d.ext(b))
}

func isAnyEnum(k btf.Kind) bool { return k == btf.KindEnum || k == btf.KindEnum64 }

func (d *deduper) isEnumFwd(id uint32) bool {
	return isAnyEnum(d.kind(id)) && btf.VlenOf(d.hdr[id].info) == 0
}

// compatEnum: equal enums, or a forward-declared enum (vlen 0) and any enum
// or enum64 of the same name.
func (d *deduper) compatEnum(a, b uint32) bool {
	if !d.isEnumFwd(a) && !d.isEnumFwd(b) {
		return d.equalEnum(a, b)
	}
	return d.hdr[a].name == d.hdr[b].name && isAnyEnum(d.kind(a)) && isAnyEnum(d.kind(b))
}

func (d *deduper) shallowEqualStruct(a, b uint32) bool {
	if !d.equalCommon(a, b) {
		return false
	}
	ea, eb := d.ext(a), d.ext(b)
	for i := 0; i+2 < len(ea); i += 3 {
		if ea[i] != eb[i] || ea[i+2] != eb[i+2] {
			return false
		}
	}
	return true
}

func (d *deduper) equalTypedef(a, b uint32) bool {
	return d.hdr[a].name == d.hdr[b].name && d.hdr[a].info == d.hdr[b].info
}

func (d *deduper) compatArray(a, b uint32) bool {
	return d.equalCommon(a, b) && d.words[d.extStart[a]+2] == d.words[d.extStart[b]+2]
}

func (d *deduper) compatFnProto(a, b uint32) bool {
	if d.hdr[a].name != d.hdr[b].name || d.hdr[a].info != d.hdr[b].info {
		return false
	}
	ea, eb := d.ext(a), d.ext(b)
	for i := 0; i+1 < len(ea); i += 2 {
		if ea[i] != eb[i] {
			return false
		}
	}
	return true
}

func fwdKind(info uint32) btf.Kind {
	if btf.KindFlagOf(info) {
		return btf.KindUnion
	}
	return btf.KindStruct
}
