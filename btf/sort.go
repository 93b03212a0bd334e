package btf

import (
	"fmt"
	"sort"
)

// Name-sorted BTF. Since Linux 7.0 the kernel's build sorts vmlinux and
// module BTF by name (tools/bpf/resolve_btfids, sort_btf_by_name with
// libbpf's btf__permute), so that lookups by name can binary-search: the
// kernel assumes vmlinux BTF is sorted and checks module BTF
// (btf_check_sorted); libbpf checks any BTF it reads and searches sorted
// BTF by bisection (btf__find_by_name_kind).
//
// The order: a Spec's own types by name, compared byte by byte as strcmp
// does, so that the anonymous ones (empty name) come first; types of equal
// name keep their relative order (resolve_btfids breaks ties by the old
// ID). Only a Spec's own types move: a split Spec's base stays as it is.
// The string table stays as it is, byte for byte.

// SortByName returns a copy of s whose own types are in name order, every
// reference to them rewritten, and newID, which maps each of s's own type
// IDs to its ID in the copy (newID[id-s.FirstID()]). References into the
// base and the string table are unchanged; the header length and the kind
// layout section are kept.
func SortByName(s *Spec) (sorted *Spec, newID []TypeID) {
	n := len(s.hdrs)
	order := make([]int, n) // order[new index] = old index
	for i := range order {
		order[i] = i
	}
	names := make([]string, n)
	for i, h := range s.hdrs {
		names[i] = s.String(h.NameOff)
	}
	sort.SliceStable(order, func(a, b int) bool { return names[order[a]] < names[order[b]] })
	newID = make([]TypeID, n)
	for ni, oi := range order {
		newID[oi] = s.startID + TypeID(ni)
	}
	return s.permute(order, newID), newID
}

// permute returns a copy of s with its own types in the given order
// (order[new index] = old index) and every reference to one of them
// mapped through newID.
func (s *Spec) permute(order []int, newID []TypeID) *Spec {
	out := &Spec{
		base:     s.base,
		startID:  s.startID,
		startStr: s.startStr,
		hdrs:     make([]header, 0, len(s.hdrs)),
		extStart: make([]uint32, 0, len(s.hdrs)+1),
		words:    make([]uint32, 0, len(s.words)),
		strs:     append([]byte(nil), s.strs...),
		order:    s.order,
		hdrLen:   s.hdrLen,
		layout:   append([]KindLayout(nil), s.layout...),
	}
	remap := func(p *uint32) {
		if id := TypeID(*p); id >= s.startID && int(id-s.startID) < len(newID) {
			*p = uint32(newID[id-s.startID])
		}
	}
	for _, oi := range order {
		h := s.hdrs[oi]
		out.extStart = append(out.extStart, uint32(len(out.words)))
		start := len(out.words)
		out.words = append(out.words, s.words[s.extStart[oi]:s.extStart[oi+1]]...)
		ForEachTypeRef(h.Info, &h.SizeType, out.words[start:], remap)
		out.hdrs = append(out.hdrs, h)
	}
	out.extStart = append(out.extStart, uint32(len(out.words)))
	return out
}

// SortedByName reports whether s's own types are in name order, as
// libbpf's btf_check_sorted (and the kernel's, for module BTF) decides it:
// no name is greater than the next one's, and at least one type is named.
// It returns the ID of the first named type, where a by-name search
// starts, or 0 when s is not sorted.
func SortedByName(s *Spec) (firstNamed TypeID, sorted bool) {
	prev := ""
	for i, h := range s.hdrs {
		name := s.String(h.NameOff)
		if i > 0 && prev > name {
			return 0, false
		}
		if firstNamed == 0 && name != "" {
			firstNamed = s.startID + TypeID(i)
		}
		prev = name
	}
	return firstNamed, firstNamed != 0
}

// FindSorted returns the IDs of s's own types named name, by bisection
// over a Spec sorted by name (SortByName); an error if s is not sorted.
// It is the lookup the kernel and libbpf make in sorted BTF.
func FindSorted(s *Spec, name string) ([]TypeID, error) {
	first, ok := SortedByName(s)
	if !ok {
		return nil, fmt.Errorf("btf: FindSorted: types are not sorted by name")
	}
	lo := int(first - s.startID)
	i := lo + sort.Search(len(s.hdrs)-lo, func(i int) bool { return s.String(s.hdrs[lo+i].NameOff) >= name })
	var ids []TypeID
	for ; i < len(s.hdrs) && s.String(s.hdrs[i].NameOff) == name; i++ {
		ids = append(ids, s.startID+TypeID(i))
	}
	return ids, nil
}
