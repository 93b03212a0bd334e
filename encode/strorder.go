package encode

import "github.com/btfkit/btfkit/btf"

// keepStringOrder gives out (the deduplicated types) the string table
// of merged (the types before deduplication), as libbpf does: BTF built
// with btf__add_* has its strings deduplicated as they are added, so
// btf__dedup keeps that table, in the order the encoder added the
// strings, unreferenced ones included. Every string out refers to is in
// merged's table.
func keepStringOrder(out, merged *btf.Spec) {
	if merged.Base() != nil {
		return
	}
	if out.Base() != nil {
		keepSplitStringOrder(out, merged)
		return
	}
	table := merged.RawStrings()
	offs := make(map[string]uint32, 1<<16)
	for i := 0; i < len(table); {
		s := btf.CString(table[i:])
		if _, ok := offs[s]; !ok {
			offs[s] = uint32(i)
		}
		i += len(s) + 1
	}
	// First check that every string has its place, then rewrite.
	for id := out.FirstID(); id < out.NextID(); id++ {
		name, info, _, ext := out.RawType(id)
		missing := false
		btf.ForEachStringRef(info, &name, ext, func(p *uint32) {
			if *p != 0 {
				if _, found := offs[out.String(*p)]; !found {
					missing = true
				}
			}
		})
		if missing {
			return // a string we cannot place: keep dedup's table
		}
	}
	var e []uint32
	for id := out.FirstID(); id < out.NextID(); id++ {
		name, info, st, ext := out.RawType(id)
		e = append(e[:0], ext...)
		btf.ForEachStringRef(info, &name, e, func(p *uint32) {
			if *p != 0 {
				*p = offs[out.String(*p)]
			}
		})
		out.SetRaw(id, name, info, st, e...)
	}
	out.SetRawStrings(append([]byte(nil), table...))
	// pahole 1.32 as distributions ship it (linked with libbpf 1.7) writes
	// the 24-byte header; the 32-byte one comes with the kind layout
	// section only (addKindLayouts).
}

// addKindLayouts gives base BTF the kind layout section with the layout
// feature, as pahole does: btf_encoder__new asks libbpf v1.8's
// btf__new_empty_opts for it (add_layout) only when there is no base BTF,
// and libbpf writes its table of every kind it knows between the types
// and the strings, the header's layout_off and layout_len pointing at it.
// Split BTF never gets one; nor does anything without the feature.
func addKindLayouts(out *btf.Spec, f Features) {
	if f.Has(FeatLayout) && out.Base() == nil {
		out.SetKindLayouts(btf.StandardKindLayouts())
	}
}

// keepSplitStringOrder is keepStringOrder for split BTF (a module against
// its vmlinux): libbpf's btf__add_str on split BTF returns the base's
// offset for a string the base has, so the module's own table holds the
// other strings of merged (standalone, made before the base was known),
// in the order the encoder added them, unreferenced ones included, and
// starts without the empty string. pahole 1.32 with libbpf 1.7 keeps that
// table through btf__dedup, as it does for vmlinux.
func keepSplitStringOrder(out, merged *btf.Spec) {
	base := out.Base()
	start := out.StringsStart()
	table := merged.RawStrings()
	offs := make(map[string]uint32, 1<<10)
	var own []byte
	for i := 0; i < len(table); {
		s := btf.CString(table[i:])
		i += len(s) + 1
		if s == "" {
			continue
		}
		if _, ok := offs[s]; ok {
			continue
		}
		if _, ok := base.FindString(s); ok {
			continue
		}
		offs[s] = start + uint32(len(own))
		own = append(append(own, s...), 0)
	}
	for id := out.FirstID(); id < out.NextID(); id++ {
		name, info, _, ext := out.RawType(id)
		missing := false
		btf.ForEachStringRef(info, &name, ext, func(p *uint32) {
			if *p >= start {
				if _, found := offs[out.String(*p)]; !found {
					missing = true
				}
			}
		})
		if missing {
			return // a string we cannot place: keep dedup's table
		}
	}
	var e []uint32
	for id := out.FirstID(); id < out.NextID(); id++ {
		name, info, st, ext := out.RawType(id)
		e = append(e[:0], ext...)
		btf.ForEachStringRef(info, &name, e, func(p *uint32) {
			if *p >= start {
				*p = offs[out.String(*p)]
			}
		})
		out.SetRaw(id, name, info, st, e...)
	}
	out.SetRawStrings(own)
}
