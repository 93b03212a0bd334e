package minimize

// CO-RE relocation as libbpf computes it (src/relo_core.c): an access
// string parsed into a spec against the object's BTF, matched against a
// candidate's BTF, and the relocated value, which is only needed here to
// find the ambiguities libbpf refuses.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// maxSpecLen is BPF_CORE_SPEC_MAX_LEN: the longest access path.
const maxSpecLen = 64

// maxResolveDepth is libbpf's MAX_RESOLVE_DEPTH, the longest chain
// the modifier skips follow (btf.ResolveSize's too).
const maxResolveDepth = btf.ResolveSizeDepth

// badBTF is raised (as a panic, recovered by Minimize) when a BTF refers
// to a type it does not have or a chain of references loops: the BTF is
// malformed, and the error says where.
type badBTF struct{ msg string }

// typeOf returns the type id of s, raising badBTF when s has no such type.
func typeOf(s *btf.Spec, id btf.TypeID) btf.Type {
	if id != 0 && !s.Has(id) {
		panic(badBTF{fmt.Sprintf("reference to type [%d], which is not in the BTF (last [%d])", id, s.NextID()-1)})
	}
	return s.Type(id)
}

// isMod is libbpf's btf_is_mod: const, volatile, restrict, type tag.
func isMod(k btf.Kind) bool {
	switch k {
	case btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindTypeTag:
		return true
	}
	return false
}

// skipModsTypedefs follows modifiers and typedefs from id to the first
// other type, returning it and its ID.
func skipModsTypedefs(s *btf.Spec, id btf.TypeID) (btf.Type, btf.TypeID) {
	for range 1 << 16 {
		t := typeOf(s, id)
		if !isMod(t.Kind()) && t.Kind() != btf.KindTypedef {
			return t, id
		}
		id = t.Ref()
	}
	panic(badBTF{fmt.Sprintf("type [%d]: a loop of modifiers and typedefs", id)})
}

func isComposite(t btf.Type) bool {
	return t.Kind() == btf.KindStruct || t.Kind() == btf.KindUnion
}

// kindCompat is btf_kind_core_compat: the same kind, or two enums.
func kindCompat(a, b btf.Type) bool {
	return a.Kind() == b.Kind() || (a.IsEnum() && b.IsEnum())
}

// essentialLen is the length of name without its ___flavor suffix: the
// name up to the last "___" that has a character other than '_' on each
// side (bpf_core_essential_name_len).
func essentialLen[S string | []byte](name S) int {
	n := len(name)
	for i := n - 5; i >= 0; i-- {
		if name[i] != '_' && name[i+1] == '_' && name[i+2] == '_' && name[i+3] == '_' && name[i+4] != '_' {
			return i + 1
		}
	}
	return n
}

// sameEssential reports whether two names agree in their essential parts.
func sameEssential(a, b string) bool {
	la, lb := essentialLen(a), essentialLen(b)
	return la == lb && a[:la] == b[:lb]
}

// resolveSize is btf__resolve_size (btf.ResolveSize) with the pointer
// size of s.
func (m *minimizer) resolveSize(s *btf.Spec, id btf.TypeID) (int64, bool) {
	return btf.ResolveSize(s, id, m.ptrSize(s))
}

// accessor is one high-level step of a spec: a named member (name set)
// or an array index.
type accessor struct {
	typeID btf.TypeID // the struct, union or enum; or the array's element
	idx    uint32
	name   string
}

// coreSpec is libbpf's bpf_core_spec: the access path of a relocation in
// one BTF, high-level (acc) and low-level (raw, every member index
// walked through, anonymous ones included), with the bit offset it
// reaches.
type coreSpec struct {
	s      *btf.Spec
	root   btf.TypeID
	kind   btf.COREKind
	acc    []accessor
	raw    []uint32
	bitOff uint32
}

// specError is a relocation that libbpf refuses: bpftool then fails.
type specError struct{ msg string }

func (e *specError) Error() string { return e.msg }

func specErr(format string, args ...any) error {
	return &specError{fmt.Sprintf(format, args...)}
}

// parseSpec is bpf_core_parse_spec: the relocation's access string read
// against the object's BTF.
func (m *minimizer) parseSpec(local *btf.Spec, r btf.CORERelo) (*coreSpec, error) {
	str := local.String(r.AccessStrOff)
	if str == "" || str[0] == ':' {
		return nil, specErr("access string %q is empty or starts with ':'", str)
	}
	sp := &coreSpec{s: local, root: r.TypeID, kind: r.Kind}
	if r.Kind.IsType() {
		if str != "0" {
			return nil, specErr("access string %q of a type relocation: want \"0\"", str)
		}
		return sp, nil
	}
	for _, f := range strings.Split(str, ":") {
		v, err := strconv.ParseUint(f, 10, 31)
		if err != nil {
			return nil, specErr("access string %q: %q is not an index", str, f)
		}
		if len(sp.raw) == maxSpecLen {
			return nil, specErr("access string %q: longer than %d steps", str, maxSpecLen)
		}
		sp.raw = append(sp.raw, uint32(v))
	}
	t, id := skipModsTypedefs(local, r.TypeID)
	idx := sp.raw[0]
	sp.acc = append(sp.acc, accessor{typeID: id, idx: idx})
	if r.Kind.IsEnumval() {
		if !t.IsEnum() || len(sp.raw) > 1 || int(idx) >= t.Vlen() {
			return nil, specErr("access string %q does not name an enumerator of [%d]", str, id)
		}
		sp.acc[0].name = local.String(t.Enum(int(idx)).NameOff)
		return sp, nil
	}
	sz, ok := m.resolveSize(local, id)
	if !ok {
		return nil, specErr("type [%d] has no size", id)
	}
	sp.bitOff = uint32(int64(idx) * sz * 8)
	for i := 1; i < len(sp.raw); i++ {
		t, id = skipModsTypedefs(local, id)
		idx = sp.raw[i]
		switch {
		case isComposite(t):
			if int(idx) >= t.Vlen() {
				return nil, specErr("access string %q: [%d] has no member %d", str, id, idx)
			}
			off, _ := t.MemberBits(int(idx))
			sp.bitOff += off
			mem := t.Member(int(idx))
			if mem.NameOff != 0 {
				name := local.String(mem.NameOff)
				if name == "" {
					return nil, specErr("access string %q: member %d of [%d] has an empty name", str, idx, id)
				}
				sp.acc = append(sp.acc, accessor{typeID: id, idx: idx, name: name})
			}
			id = mem.Type
		case t.Kind() == btf.KindArray:
			a := t.Array()
			_, id = skipModsTypedefs(local, a.Elem)
			flex := m.isFlexArray(local, sp.acc[len(sp.acc)-1], a)
			if !flex && idx >= a.Nelems {
				return nil, specErr("access string %q: index %d past the %d elements of array [%d]", str, idx, a.Nelems, t.ID)
			}
			sp.acc = append(sp.acc, accessor{typeID: id, idx: idx})
			sz, ok := m.resolveSize(local, id)
			if !ok {
				return nil, specErr("type [%d] has no size", id)
			}
			sp.bitOff += uint32(int64(idx) * sz * 8)
		default:
			return nil, specErr("access string %q (step %d) reaches type [%d] of kind %s", str, i, id, t.Kind())
		}
	}
	return sp, nil
}

// isFlexArray reports whether array a, reached through accessor prev, is
// a flexible array: no elements, and the last member of its struct.
func (m *minimizer) isFlexArray(s *btf.Spec, prev accessor, a btf.Array) bool {
	if prev.name == "" || a.Nelems > 0 {
		return false
	}
	return int(prev.idx) == typeOf(s, prev.typeID).Vlen()-1
}

// fieldsCompat is bpf_core_fields_are_compat: whether a local field's
// type may be relocated to a target field's.
func fieldsCompat(ls *btf.Spec, lid btf.TypeID, ts *btf.Spec, tid btf.TypeID) bool {
	for range 1 << 16 {
		lt, _ := skipModsTypedefs(ls, lid)
		tt, _ := skipModsTypedefs(ts, tid)
		if isComposite(lt) && isComposite(tt) {
			return true
		}
		if !kindCompat(lt, tt) {
			return false
		}
		switch lt.Kind() {
		case btf.KindPtr, btf.KindFloat:
			return true
		case btf.KindFwd, btf.KindEnum, btf.KindEnum64:
			ln, tn := lt.Name(), tt.Name()
			return essentialLen(ln) == 0 || essentialLen(tn) == 0 || sameEssential(ln, tn)
		case btf.KindInt:
			_, lo, _ := lt.IntEncoding()
			_, to, _ := tt.IntEncoding()
			return lo == 0 && to == 0
		case btf.KindArray:
			lid, tid = lt.Array().Elem, tt.Array().Elem
		default:
			return false
		}
	}
	panic(badBTF{fmt.Sprintf("types [%d] and [%d]: arrays nested without end", lid, tid)})
}

// errDepth is libbpf's -EINVAL for a comparison nested too deep.
var errDepth = errors.New("types nested too deep to compare")

// typesCompat is __bpf_core_types_are_compat with its depth and level
// limits: whether a type relocation may go from the local type to the
// target type.
func typesCompat(ls *btf.Spec, lid btf.TypeID, ts *btf.Spec, tid btf.TypeID, level int) (bool, error) {
	if !kindCompat(typeOf(ls, lid), typeOf(ts, tid)) {
		return false, nil
	}
	for depth := 32; ; {
		depth--
		if depth < 0 {
			return false, errDepth
		}
		var lt, tt btf.Type
		lt, lid = skipModsTypedefs(ls, lid)
		tt, tid = skipModsTypedefs(ts, tid)
		if !kindCompat(lt, tt) {
			return false, nil
		}
		switch lt.Kind() {
		case btf.KindUnknown, btf.KindStruct, btf.KindUnion, btf.KindEnum, btf.KindFwd, btf.KindEnum64:
			return true, nil
		case btf.KindInt:
			_, lo, _ := lt.IntEncoding()
			_, to, _ := tt.IntEncoding()
			return lo == 0 && to == 0, nil
		case btf.KindPtr:
			lid, tid = lt.Ref(), tt.Ref()
		case btf.KindArray:
			lid, tid = lt.Array().Elem, tt.Array().Elem
		case btf.KindFuncProto:
			if lt.Vlen() != tt.Vlen() {
				return false, nil
			}
			for i := range lt.Vlen() {
				if level <= 0 {
					return false, errDepth
				}
				_, lp := skipModsTypedefs(ls, lt.Param(i).Type)
				_, tp := skipModsTypedefs(ts, tt.Param(i).Type)
				ok, err := typesCompat(ls, lp, ts, tp, level-1)
				if err != nil || !ok {
					return ok, err
				}
			}
			_, lid = skipModsTypedefs(ls, lt.Ref())
			_, tid = skipModsTypedefs(ts, tt.Ref())
		default:
			return false, nil
		}
	}
}

// namesMatch is bpf_core_names_match: an anonymous target matches an
// anonymous local only; named ones by their essential names.
func namesMatch(ln, tn string) bool {
	if tn == "" {
		return ln == ""
	}
	return sameEssential(ln, tn)
}

func enumsMatch(lt, tt btf.Type) bool {
	if lt.Size() != tt.Size() || lt.Vlen() > tt.Vlen() {
		return false
	}
	ls, ts := lt.Spec(), tt.Spec()
	for i := range lt.Vlen() {
		ln := ls.String(lt.Enum(i).NameOff)
		found := false
		for j := range tt.Vlen() {
			if namesMatch(ln, ts.String(tt.Enum(j).NameOff)) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func compositesMatch(lt, tt btf.Type, behindPtr bool, level int) (bool, error) {
	if lt.Vlen() > tt.Vlen() {
		return false, nil
	}
	ls, ts := lt.Spec(), tt.Spec()
	for i := range lt.Vlen() {
		lm := lt.Member(i)
		ln := ls.String(lm.NameOff)
		found := false
		for j := range tt.Vlen() {
			tm := tt.Member(j)
			if !namesMatch(ln, ts.String(tm.NameOff)) {
				continue
			}
			ok, err := typesMatch(ls, lm.Type, ts, tm.Type, behindPtr, level-1)
			if err != nil {
				return false, err
			}
			if ok {
				found = true
				break
			}
		}
		if !found {
			return false, nil
		}
	}
	return true, nil
}

// typesMatch is __bpf_core_types_match, TYPE_MATCHES' relation.
func typesMatch(ls *btf.Spec, lid btf.TypeID, ts *btf.Spec, tid btf.TypeID, behindPtr bool, level int) (bool, error) {
	if level <= 0 {
		return false, errDepth
	}
	for depth := 32; ; {
		depth--
		if depth < 0 {
			return false, errDepth
		}
		var lt, tt btf.Type
		lt, lid = skipModsTypedefs(ls, lid)
		tt, tid = skipModsTypedefs(ts, tid)
		if !namesMatch(lt.Name(), tt.Name()) {
			return false, nil
		}
		lk, tk := lt.Kind(), tt.Kind()
		switch lk {
		case btf.KindUnknown:
			return lk == tk, nil
		case btf.KindFwd:
			lf := lt.KindFlag()
			if behindPtr {
				if lk == tk {
					return lf == tt.KindFlag(), nil
				}
				return (tk == btf.KindStruct && !lf) || (tk == btf.KindUnion && lf), nil
			}
			if lk != tk {
				return false, nil
			}
			return lf == tt.KindFlag(), nil
		case btf.KindEnum, btf.KindEnum64:
			if !tt.IsEnum() {
				return false, nil
			}
			return enumsMatch(lt, tt), nil
		case btf.KindStruct, btf.KindUnion:
			if behindPtr {
				if lk == tk {
					return true, nil
				}
				if tk != btf.KindFwd {
					return false, nil
				}
				return (lk == btf.KindUnion) == tt.KindFlag(), nil
			}
			if lk != tk {
				return false, nil
			}
			return compositesMatch(lt, tt, behindPtr, level)
		case btf.KindInt:
			if lk != tk {
				return false, nil
			}
			le, _, _ := lt.IntEncoding()
			te, _, _ := tt.IntEncoding()
			return lt.Size() == tt.Size() && le&btf.IntSigned == te&btf.IntSigned, nil
		case btf.KindPtr:
			if lk != tk {
				return false, nil
			}
			behindPtr = true
			lid, tid = lt.Ref(), tt.Ref()
		case btf.KindArray:
			if lk != tk {
				return false, nil
			}
			la, ta := lt.Array(), tt.Array()
			if la.Nelems != ta.Nelems {
				return false, nil
			}
			lid, tid = la.Elem, ta.Elem
		case btf.KindFuncProto:
			if lk != tk || lt.Vlen() != tt.Vlen() {
				return false, nil
			}
			for i := range lt.Vlen() {
				ok, err := typesMatch(ls, lt.Param(i).Type, ts, tt.Param(i).Type, behindPtr, level-1)
				if err != nil || !ok {
					return ok, err
				}
			}
			lid, tid = lt.Ref(), tt.Ref()
		default:
			return false, nil
		}
	}
}

// matchMember is bpf_core_match_member: the target member of the local
// named accessor's name inside the composite targID, searching anonymous
// members depth first; the target spec grows by the members walked
// through. It returns the member's type.
func (m *minimizer) matchMember(local *coreSpec, la accessor, ts *btf.Spec, targID btf.TypeID, sp *coreSpec) (bool, btf.TypeID, error) {
	tt, targID := skipModsTypedefs(ts, targID)
	if !isComposite(tt) {
		return false, 0, nil
	}
	lm := typeOf(local.s, la.typeID).Member(int(la.idx))
	for i := range tt.Vlen() {
		off, _ := tt.MemberBits(i)
		if len(sp.raw) == maxSpecLen {
			return false, 0, specErr("target access path longer than %d steps", maxSpecLen)
		}
		sp.bitOff += off
		sp.raw = append(sp.raw, uint32(i))
		mem := tt.Member(i)
		name := ts.String(mem.NameOff)
		if name == "" {
			ok, next, err := m.matchMember(local, la, ts, mem.Type, sp)
			if ok || err != nil {
				return ok, next, err
			}
		} else if name == la.name {
			sp.acc = append(sp.acc, accessor{typeID: targID, idx: uint32(i), name: name})
			if !fieldsCompat(local.s, lm.Type, ts, mem.Type) {
				sp.acc = sp.acc[:len(sp.acc)-1]
				return false, 0, nil
			}
			return true, mem.Type, nil
		}
		sp.bitOff -= off
		sp.raw = sp.raw[:len(sp.raw)-1]
	}
	return false, 0, nil
}

// specMatch is bpf_core_spec_match: the local spec matched against the
// candidate targID of ts; the target spec when it matches.
func (m *minimizer) specMatch(local *coreSpec, ts *btf.Spec, targID btf.TypeID) (*coreSpec, bool, error) {
	sp := &coreSpec{s: ts, root: targID, kind: local.kind}
	if local.kind.IsType() {
		var ok bool
		var err error
		if local.kind == btf.CORETypeMatches {
			ok, err = typesMatch(local.s, local.root, ts, targID, false, 32)
		} else {
			ok, err = typesCompat(local.s, local.root, ts, targID, 32)
		}
		return sp, ok, err
	}
	if local.kind.IsEnumval() {
		tt, tid := skipModsTypedefs(ts, targID)
		if !tt.IsEnum() {
			return sp, false, nil
		}
		for i := range tt.Vlen() {
			name := ts.String(tt.Enum(i).NameOff)
			if sameEssential(local.acc[0].name, name) {
				sp.acc = append(sp.acc, accessor{typeID: tid, idx: uint32(i), name: name})
				sp.raw = append(sp.raw, uint32(i))
				return sp, true, nil
			}
		}
		return sp, false, nil
	}
	for i, la := range local.acc {
		tt, tid := skipModsTypedefs(ts, targID)
		targID = tid
		if la.name != "" {
			ok, next, err := m.matchMember(local, la, ts, targID, sp)
			if !ok || err != nil {
				return sp, ok, err
			}
			targID = next
			continue
		}
		if i > 0 {
			if tt.Kind() != btf.KindArray {
				return sp, false, nil
			}
			a := tt.Array()
			if !m.isFlexArray(ts, sp.acc[i-1], a) && la.idx >= a.Nelems {
				return sp, false, nil
			}
			_, targID = skipModsTypedefs(ts, a.Elem)
		}
		if len(sp.raw) == maxSpecLen {
			return sp, false, specErr("target access path longer than %d steps", maxSpecLen)
		}
		sp.acc = append(sp.acc, accessor{typeID: targID, idx: la.idx})
		sp.raw = append(sp.raw, la.idx)
		sz, ok := m.resolveSize(ts, targID)
		if !ok {
			return sp, false, specErr("target type [%d] has no size", targID)
		}
		sp.bitOff += uint32(int64(la.idx) * sz * 8)
	}
	return sp, true, nil
}

// errPoison is libbpf's -EUCLEAN: the relocated instruction is poisoned
// (the field or enumerator is not in the target).
var errPoison = errors.New("poison")

// fieldValue is bpf_core_calc_field_relo's value for spec (nil: no
// target).
func (m *minimizer) fieldValue(kind btf.COREKind, sp *coreSpec) (uint64, error) {
	if kind == btf.COREFieldExists {
		if sp == nil {
			return 0, nil
		}
		return 1, nil
	}
	if sp == nil {
		return 0, errPoison
	}
	acc := sp.acc[len(sp.acc)-1]
	if acc.name == "" {
		switch kind {
		case btf.COREFieldByteOffset:
			return uint64(sp.bitOff / 8), nil
		case btf.COREFieldByteSize:
			sz, ok := m.resolveSize(sp.s, acc.typeID)
			if !ok {
				return 0, specErr("type [%d] has no size", acc.typeID)
			}
			return uint64(sz), nil
		}
		return 0, specErr("relocation %s cannot be applied to an array element", kind)
	}
	t := typeOf(sp.s, acc.typeID)
	mem := t.Member(int(acc.idx))
	mt, fid := skipModsTypedefs(sp.s, mem.Type)
	bitOff := sp.bitOff
	_, bitSz := t.MemberBits(int(acc.idx))
	var byteOff, byteSz uint32
	bitfield := bitSz > 0
	if bitfield {
		byteSz = mt.Size()
		if byteSz == 0 {
			return 0, specErr("bitfield of [%d] has a type of size 0", acc.typeID)
		}
		byteOff = bitOff / 8 / byteSz * byteSz
		for bitOff+bitSz-byteOff*8 > byteSz*8 {
			if byteSz >= 8 {
				return 0, specErr("bitfield of [%d] cannot be read with a 64-bit load", acc.typeID)
			}
			byteSz *= 2
			byteOff = bitOff / 8 / byteSz * byteSz
		}
	} else {
		sz, ok := m.resolveSize(sp.s, fid)
		if !ok {
			return 0, specErr("field type [%d] has no size", fid)
		}
		byteSz = uint32(sz)
		byteOff = sp.bitOff / 8
		bitSz = byteSz * 8
	}
	switch kind {
	case btf.COREFieldByteOffset:
		return uint64(byteOff), nil
	case btf.COREFieldByteSize:
		return uint64(byteSz), nil
	case btf.COREFieldSigned:
		if mt.IsEnum() && mt.KindFlag() {
			return 1, nil
		}
		if mt.Kind() == btf.KindInt {
			if enc, _, _ := mt.IntEncoding(); enc&btf.IntSigned != 0 {
				return 1, nil
			}
		}
		return 0, nil
	case btf.COREFieldLShiftU64:
		return uint64(uint32(64) - (bitOff + bitSz - byteOff*8)), nil
	case btf.COREFieldRShiftU64:
		return uint64(uint32(64) - bitSz), nil
	}
	return 0, specErr("unknown field relocation %s", kind)
}

// value is the relocated value for spec (nil: no target): libbpf's
// bpf_core_calc_relo for one side. poison reports errPoison.
func (m *minimizer) value(kind btf.COREKind, sp *coreSpec) (val uint64, poison bool, err error) {
	switch {
	case kind.IsField():
		val, err = m.fieldValue(kind, sp)
	case kind.IsType():
		switch {
		case sp == nil:
		case kind == btf.CORETypeIDTarget:
			val = uint64(sp.root)
		case kind == btf.CORETypeExists, kind == btf.CORETypeMatches:
			val = 1
		case kind == btf.CORETypeSize:
			sz, ok := m.resolveSize(sp.s, sp.root)
			if !ok {
				return 0, false, specErr("type [%d] has no size", sp.root)
			}
			val = uint64(sz)
		default:
			err = specErr("relocation %s has no value", kind)
		}
	default:
		switch {
		case kind == btf.COREEnumvalExists:
			if sp != nil {
				val = 1
			}
		case sp == nil:
			err = errPoison
		default:
			t := typeOf(sp.s, sp.acc[0].typeID)
			v := t.Enum(int(sp.acc[0].idx)).Val
			if t.Kind() == btf.KindEnum {
				v = uint64(int64(int32(uint32(v)))) // btf_enum.val is an __s32
			}
			val = v
		}
	}
	if err == errPoison {
		return 0, true, nil
	}
	return val, false, err
}
