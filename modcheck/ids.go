package modcheck

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/finalize"
)

// checkIDs checks ids, a module's .BTF_ids (nil: none), against built,
// its BTF as the build left it: split against the base, or against its
// .BTF.base. resolve_btfids resolves a module with .BTF.base against that
// section, not against vmlinux (tools/bpf/resolve_btfids/main.c, 6.11
// on: "do not resolve BTF ids relative to vmlinux; resolve relative to
// the .BTF.base section instead"), and the kernel maps the IDs onto its
// vmlinux when it relocates the BTF (btf_relocate_id): names are looked
// up in built and its base, and the IDs written number built's types.
func checkIDs(base *Base, built *btf.Spec, ids *finalize.IDs) []btf.Problem {
	if ids == nil {
		return nil
	}
	var probs []btf.Problem
	own := kindNames(built)
	baseNames := base.baseNames()
	if b := built.Base(); b != base.Spec {
		baseNames = kindNames(b)
	}

	// The words of sets: resolve_btfids sorts each set's IDs, so a word
	// inside a set is checked against the names of every entry in it.
	type span struct {
		set       *finalize.IDEntry
		lo, hi    uint64 // the words of IDs: [lo, hi)
		step      uint64
		names     map[string]uint8
		malformed bool
	}
	var spans []*span
	for _, e := range ids.Entries {
		if (e.Kind != finalize.IDSet && e.Kind != finalize.IDSet8) || len(e.Addrs) != 1 {
			continue
		}
		sp := &span{set: e, step: 4, lo: e.Addrs[0] + 4, names: map[string]uint8{}}
		if e.Kind == finalize.IDSet8 {
			sp.step, sp.lo = 8, e.Addrs[0]+8
		}
		sp.hi = sp.lo + uint64(e.Count)*sp.step
		if end := ids.Addr + uint64(len(ids.Data)); ids.Data != nil && (sp.hi > end || sp.hi < sp.lo) {
			// A symbol size past the section (a hostile file): its
			// words are checked up to the section's end.
			probs = append(probs, btf.Problem{Rule: RuleBTFIDs, Name: e.Name,
				Detail: fmt.Sprintf(".BTF_ids set '%s' of %d entries runs past the section's %d bytes", e.Name, e.Count, len(ids.Data))})
			sp.hi = max(sp.lo, end)
		}
		spans = append(spans, sp)
		// resolve_btfids writes each set's count (the BTF_SET macros
		// leave it zero); the kernel reads that many IDs.
		if ids.Data != nil && e.Addrs[0] >= ids.Addr {
			if w, in := word(ids, e.Addrs[0]-ids.Addr); in && w != e.Count {
				probs = append(probs, btf.Problem{Rule: RuleBTFIDs, Name: e.Name,
					Detail: fmt.Sprintf(".BTF_ids set '%s' holds a count of %d, its symbol's size %d entries", e.Name, w, e.Count)})
			}
		}
	}
	inSet := func(a uint64) *span {
		for _, sp := range spans {
			if sp.lo <= a && a < sp.hi && (a-sp.lo)%sp.step == 0 {
				return sp
			}
		}
		return nil
	}

	for _, e := range ids.Entries {
		k, ok := e.Kind.BTFKind()
		if !ok {
			continue
		}
		bit := kindBit(k)
		if own[e.Name]&bit == 0 && baseNames[e.Name]&bit == 0 {
			probs = append(probs, btf.Problem{Kind: k, Name: e.Name, Rule: RuleBTFIDs,
				Detail: fmt.Sprintf(".BTF_ids entry %s '%s' names no %s in the module's BTF or the base (resolve_btfids: unresolved symbol)", e.Kind, e.Name, k)})
			continue
		}
		for _, a := range e.Addrs {
			if sp := inSet(a); sp != nil {
				sp.names[e.Name] |= bit
				continue
			}
			if p, bad := idWord(built, ids, a, e.Name, func(t btf.Type) bool { return t.Kind() == k && t.Name() == e.Name }); bad {
				p.Detail = fmt.Sprintf(".BTF_ids entry %s '%s' at offset %#x %s", e.Kind, e.Name, a-ids.Addr, p.Detail)
				probs = append(probs, p)
			}
		}
	}
	for _, sp := range spans {
		if ids.Data == nil {
			break // SHT_NOBITS: nothing was written
		}
		for a := sp.lo; a < sp.hi; a += sp.step {
			p, bad := idWord(built, ids, a, "", func(t btf.Type) bool {
				return sp.names[t.Name()]&kindBit(t.Kind()) != 0
			})
			if bad {
				p.Detail = fmt.Sprintf(".BTF_ids set '%s' word at offset %#x %s, none of the set's entries", sp.set.Name, a-ids.Addr, p.Detail)
				probs = append(probs, p)
			}
		}
	}
	return probs
}

// idWord checks the ID written at address a: a type of s that ok
// accepts. It returns a problem whose Detail continues a sentence.
func idWord(s *btf.Spec, ids *finalize.IDs, a uint64, name string, ok func(btf.Type) bool) (btf.Problem, bool) {
	p := btf.Problem{Rule: RuleBTFIDs, Name: name}
	if a < ids.Addr || ids.Data == nil {
		return p, false // SHT_NOBITS or outside: nothing was written
	}
	w, in := word(ids, a-ids.Addr)
	switch {
	case !in:
		p.Detail = "lies outside the section"
	case w == 0:
		p.Detail = "holds ID 0: the build left it unresolved"
	case !s.Has(btf.TypeID(w)):
		p.Detail = fmt.Sprintf("holds ID %d, past the last type [%d]", w, s.NextID()-1)
	default:
		t := s.Type(btf.TypeID(w))
		if ok(t) {
			return p, false
		}
		p.ID, p.Kind, p.Name = t.ID, t.Kind(), t.Name()
		p.Detail = fmt.Sprintf("holds the ID of this type")
	}
	return p, true
}

func word(ids *finalize.IDs, off uint64) (uint32, bool) {
	if off+4 > uint64(len(ids.Data)) || off+4 < off {
		return 0, false
	}
	return ids.Order.Uint32(ids.Data[off:]), true
}

// btfSet8Kfuncs is BTF_SET8_KFUNCS, the flag of a BTF_SET8 of kfuncs
// (include/linux/btf_ids.h, Linux 6.9).
const btfSet8Kfuncs = 1 << 0

// checkKfuncTags reports each own FUNC named by a BTF_SET8 of kfuncs
// without its "bpf_kfunc" DECL_TAG, which pahole's decl_tag_kfuncs adds.
func checkKfuncTags(s *btf.Spec, ids *finalize.IDs) []btf.Problem {
	if ids == nil || ids.Data == nil {
		return nil
	}
	kfuncs := map[string]bool{}
	for _, set := range ids.Entries {
		if set.Kind != finalize.IDSet8 || len(set.Addrs) != 1 || set.Addrs[0] < ids.Addr {
			continue
		}
		if fl, ok := word(ids, set.Addrs[0]-ids.Addr+4); !ok || fl&btfSet8Kfuncs == 0 {
			continue
		}
		lo, hi := set.Addrs[0]+8, set.Addrs[0]+8+uint64(set.Count)*8
		for _, e := range ids.Entries {
			if e.Kind != finalize.IDFunc {
				continue
			}
			for _, a := range e.Addrs {
				if lo <= a && a < hi {
					kfuncs[e.Name] = true
				}
			}
		}
	}
	if len(kfuncs) == 0 {
		return nil
	}
	tagged := map[btf.TypeID]bool{}
	for id := s.FirstID(); id < s.NextID(); id++ {
		t := s.Type(id)
		if t.Kind() == btf.KindDeclTag && !t.KindFlag() && t.ComponentIdx() == -1 && t.Name() == "bpf_kfunc" {
			tagged[t.Ref()] = true
		}
	}
	var probs []btf.Problem
	for id := s.FirstID(); id < s.NextID(); id++ {
		t := s.Type(id)
		if t.Kind() == btf.KindFunc && kfuncs[t.Name()] && !tagged[id] {
			probs = append(probs, btf.Problem{ID: id, Kind: t.Kind(), Name: t.Name(), Rule: RuleKfuncTag,
				Detail: "a kfunc (in a BTF_SET8 with BTF_SET8_KFUNCS) without the DECL_TAG \"bpf_kfunc\" pahole's decl_tag_kfuncs adds"})
		}
	}
	return probs
}
