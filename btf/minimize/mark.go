package minimize

// What a relocation's target spec keeps (bpftool's btfgen_record_*,
// btfgen_mark_*) and the BTF made of what was kept (btfgen_get_btf).

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// maxMarkDepth bounds the references followed from one kept type: BTF
// whose references loop without a struct or union on the way (which
// stops the walk) is malformed.
const maxMarkDepth = 4096

// The bits of marks.types: kept, and which walks have started from the
// type (a walk's effect depends only on the type and its flag, so it is
// taken once: that bounds the work on any type graph).
const (
	kept uint8 = 1 << iota
	walkedType
	walkedTypeFollow
	walkedMatch
	walkedMatchBehindPtr
)

// walk records that a walk with bit w starts from id, reporting whether
// one had before.
func (mk *marks) walk(id btf.TypeID, w uint8) bool {
	done := mk.types[id-mk.first]&w != 0
	mk.types[id-mk.first] |= w | kept
	return done
}

func (mk *marks) setMember(t btf.Type, idx int) {
	ms := mk.members[t.ID]
	if ms == nil {
		ms = make([]bool, t.Vlen())
		mk.members[t.ID] = ms
	}
	ms[idx] = true
}

// record keeps what the target spec of one relocation needs.
func (m *minimizer) record(sp space, targ *coreSpec) error {
	switch {
	case targ.kind.IsField():
		return m.recordField(sp, targ)
	case targ.kind == btf.CORETypeIDLocal:
		return nil
	case targ.kind == btf.CORETypeMatches:
		return m.markMatch(sp, targ.root, false, 0)
	case targ.kind.IsType():
		return m.markType(sp, targ.root, true, 0)
	default: // enumerator relocations
		return m.markType(sp, targ.root, false, 0)
	}
}

// recordField keeps the root type and, along the target's low-level
// path, every member walked through and its type.
func (m *minimizer) recordField(sp space, targ *coreSpec) error {
	id := targ.root
	t := typeOf(sp.s, id)
	if err := m.markType(sp, id, false, 0); err != nil {
		return err
	}
	for _, idx := range targ.raw[1:] {
		for n := 0; isMod(t.Kind()) || t.Kind() == btf.KindTypedef; n++ {
			if n > maxMarkDepth {
				panic(badBTF{fmt.Sprintf("type [%d]: a loop of modifiers and typedefs", id)})
			}
			id = t.Ref()
			t = typeOf(sp.s, id)
		}
		switch t.Kind() {
		case btf.KindStruct, btf.KindUnion:
			m.marksOf(sp, id).setMember(t, int(idx))
			id = t.Member(int(idx)).Type
			t = typeOf(sp.s, id)
			if err := m.markType(sp, id, false, 0); err != nil {
				return err
			}
		case btf.KindArray:
			id = t.Array().Elem
			t = typeOf(sp.s, id)
		default:
			return fmt.Errorf("unsupported kind %s of type [%d] on the target's access path", t.Kind(), id)
		}
	}
	return nil
}

// markType is btfgen_mark_type: keep id and what it refers to, through
// pointers only with follow; a struct's or union's members are not kept
// by this.
func (m *minimizer) markType(sp space, id btf.TypeID, follow bool, depth int) error {
	if id == 0 {
		return nil
	}
	if depth > maxMarkDepth {
		panic(badBTF{fmt.Sprintf("type [%d]: references nested deeper than %d", id, maxMarkDepth)})
	}
	t := typeOf(sp.s, id)
	w := walkedType
	if follow {
		w = walkedTypeFollow
	}
	mk := m.marksOf(sp, id)
	if mk.walk(id, w) || (!follow && mk.types[id-mk.first]&walkedTypeFollow != 0) {
		return nil
	}
	switch t.Kind() {
	case btf.KindInt, btf.KindFloat, btf.KindEnum, btf.KindEnum64, btf.KindStruct, btf.KindUnion:
	case btf.KindPtr:
		if follow {
			return m.markType(sp, t.Ref(), follow, depth+1)
		}
	case btf.KindConst, btf.KindRestrict, btf.KindVolatile, btf.KindTypedef:
		return m.markType(sp, t.Ref(), follow, depth+1)
	case btf.KindArray:
		a := t.Array()
		if err := m.markType(sp, a.Elem, follow, depth+1); err != nil {
			return err
		}
		return m.markType(sp, a.Index, follow, depth+1)
	case btf.KindFuncProto:
		if err := m.markType(sp, t.Ref(), follow, depth+1); err != nil {
			return err
		}
		for i := range t.Vlen() {
			if err := m.markType(sp, t.Param(i).Type, follow, depth+1); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unsupported kind %s of type [%d] (bpftool refuses it too)", t.Kind(), id)
	}
	return nil
}

// markMatch is btfgen_mark_type_match: keep id, and of structs and unions
// not behind a pointer every member and its type.
func (m *minimizer) markMatch(sp space, id btf.TypeID, behindPtr bool, depth int) error {
	if id == 0 {
		return nil
	}
	if depth > maxMarkDepth {
		panic(badBTF{fmt.Sprintf("type [%d]: references nested deeper than %d", id, maxMarkDepth)})
	}
	t := typeOf(sp.s, id)
	mk := m.marksOf(sp, id)
	w := walkedMatch
	if behindPtr {
		w = walkedMatchBehindPtr
	}
	if mk.walk(id, w) || (behindPtr && mk.types[id-mk.first]&walkedMatch != 0) {
		return nil
	}
	switch t.Kind() {
	case btf.KindInt, btf.KindFloat, btf.KindEnum, btf.KindEnum64:
	case btf.KindStruct, btf.KindUnion:
		if behindPtr {
			return nil
		}
		for i := range t.Vlen() {
			mk.setMember(t, i)
			if err := m.markMatch(sp, t.Member(i).Type, false, depth+1); err != nil {
				return err
			}
		}
	case btf.KindConst, btf.KindFwd, btf.KindRestrict, btf.KindTypedef, btf.KindVolatile:
		if t.Kind() == btf.KindFwd {
			return nil // a FWD refers to nothing
		}
		return m.markMatch(sp, t.Ref(), behindPtr, depth+1)
	case btf.KindPtr:
		return m.markMatch(sp, t.Ref(), true, depth+1)
	case btf.KindArray:
		a := t.Array()
		if err := m.markMatch(sp, a.Elem, false, depth+1); err != nil {
			return err
		}
		return m.markMatch(sp, a.Index, false, depth+1)
	case btf.KindFuncProto:
		if err := m.markMatch(sp, t.Ref(), false, depth+1); err != nil {
			return err
		}
		for i := range t.Vlen() {
			if err := m.markMatch(sp, t.Param(i).Type, false, depth+1); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unsupported kind %s of type [%d] (bpftool refuses it too)", t.Kind(), id)
	}
	return nil
}

// ids numbers the kept types of mk from next on, in their order; a type
// of the base (below mk.first, when mk is a module's) takes its number
// from baseIDs. Types not kept map to 0 (void).
func (m *minimizer) ids(mk *marks, baseIDs []btf.TypeID, next btf.TypeID) []btf.TypeID {
	ids := make([]btf.TypeID, int(mk.first)+len(mk.types))
	copy(ids, baseIDs)
	for i, f := range mk.types {
		if f&kept != 0 {
			ids[int(mk.first)+i] = next
			next++
		}
	}
	return ids
}

// build appends to out the kept types of src's own types, renumbered by
// ids, in the way bpftool's btfgen_get_btf adds them with libbpf: a
// struct or union with its kept members (btf__add_struct, btf__add_field:
// kind_flag set by a bitfield member), any other type as it is
// (btf__add_type), strings interned as they come.
func (m *minimizer) build(out, src *btf.Spec, mk *marks, ids []btf.TypeID) error {
	remap := func(p *uint32) {
		if int(*p) < len(ids) {
			*p = uint32(ids[*p])
		} else {
			*p = 0
		}
	}
	for i, f := range mk.types {
		if f&kept == 0 {
			continue
		}
		id := mk.first + btf.TypeID(i)
		nameOff, info, sizeType, ext := src.RawType(id)
		k := btf.KindOf(info)
		if k == btf.KindStruct || k == btf.KindUnion {
			t := src.Type(id)
			name := out.AddString(src.String(nameOff))
			var words []uint32
			kflag := false
			ms := mk.members[id]
			for j := range t.Vlen() {
				if ms == nil || !ms[j] {
					continue
				}
				mem := t.Member(j)
				off, bits := t.MemberBits(j)
				isBitfield := bits != 0 || off%8 != 0
				if isBitfield && (bits == 0 || bits > 255 || off > 0xffffff) {
					return fmt.Errorf("type [%d] %s: member %d at bit %d cannot be written (libbpf's btf__add_field refuses it)", id, t.Name(), j, off)
				}
				if k == btf.KindUnion && off != 0 {
					return fmt.Errorf("union [%d] %s: member %d at bit offset %d", id, t.Name(), j, off)
				}
				kflag = kflag || isBitfield
				mname := out.AddString(src.String(mem.NameOff))
				words = append(words, mname, uint32(mem.Type), off|bits<<24)
			}
			n := len(words) / 3
			for j := range n {
				remap(&words[3*j+1])
			}
			out.AddRaw(name, btf.Info(k, n, kflag), sizeType, words...)
			continue
		}
		words := append([]uint32(nil), ext...)
		btf.ForEachStringRef(info, &nameOff, words, func(p *uint32) {
			*p = out.AddString(src.String(*p))
		})
		btf.ForEachTypeRef(info, &sizeType, words, remap)
		out.AddRaw(nameOff, info, sizeType, words...)
	}
	return nil
}
