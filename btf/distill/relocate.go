package distill

import (
	"fmt"
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// embedded marks, during Relocate, a distilled STRUCT/UNION that a split
// struct or union contains by value: its size must match the base's.
const embedded = ^uint32(0)

// Relocate renumbers split, BTF split against a distilled base (see
// Distill), onto base, a complete BTF, with the semantics of libbpf's
// btf__relocate: each distilled type maps onto the base type of the same
// name and kind (INT by encoding and size, ENUM by size, onto an ENUM or
// ENUM64; STRUCT and UNION by size when the base has several of the name
// or split embeds it; FWD onto a STRUCT or UNION of its kind), split's own
// types follow base's last type and its strings base's string table. It
// is an error when a distilled type matches no base type, or two of the
// same size. split is not modified; the result is split against base.
func Relocate(split, base *btf.Spec) (*btf.Spec, error) {
	return NewTarget(base).Relocate(split)
}

// Target is a base BTF prepared for relocating many split BTFs onto it
// (the modules of one kernel): its types indexed by name once, instead of
// a walk over all of them for each module. Its methods may be called
// concurrently; base must not change afterwards.
type Target struct {
	base *btf.Spec
	// byName holds the named INT, FLOAT, ENUM, ENUM64, FWD, STRUCT and
	// UNION types of each name, in ID order: what a distilled type can
	// map onto.
	byName map[string][]btf.TypeID
	// composites counts the named structs and unions of each name.
	composites map[uint32]int
}

// NewTarget prepares base (a complete BTF) for Relocate and Rebase.
func NewTarget(base *btf.Spec) *Target {
	t := &Target{base: base, byName: map[string][]btf.TypeID{}, composites: map[uint32]int{}}
	for id := btf.TypeID(1); id < base.NextID(); id++ {
		bt := base.Type(id)
		if bt.NameOff() == 0 {
			continue
		}
		switch bt.Kind() {
		case btf.KindStruct, btf.KindUnion:
			t.composites[bt.NameOff()]++
		case btf.KindInt, btf.KindFloat, btf.KindEnum, btf.KindEnum64, btf.KindFwd:
		default:
			continue
		}
		t.byName[bt.Name()] = append(t.byName[bt.Name()], id)
	}
	return t
}

// Base returns the base the target was prepared from.
func (tg *Target) Base() *btf.Spec { return tg.base }

// Relocate is the package's Relocate onto the target's base.
func (tg *Target) Relocate(split *btf.Spec) (*btf.Spec, error) {
	base := tg.base
	dist := split.Base()
	if dist == nil {
		return nil, fmt.Errorf("relocate: the BTF is not split")
	}
	if dist == base {
		return nil, fmt.Errorf("relocate: the BTF is already split against that base")
	}
	if base.Base() != nil {
		return nil, fmt.Errorf("relocate: the new base is itself split")
	}
	nDist := uint32(dist.NextID())
	nBase := uint32(base.NextID())
	n := uint32(split.NextID())
	distStrLen := dist.StringsStart() + uint32(dist.StringsLen())
	baseStrLen := base.StringsStart() + uint32(base.StringsLen())

	for id := btf.TypeID(1); id < btf.TypeID(nDist); id++ {
		t := dist.Type(id)
		switch t.Kind() {
		case btf.KindInt, btf.KindFloat, btf.KindEnum, btf.KindStruct, btf.KindUnion, btf.KindFwd:
			if t.NameOff() == 0 {
				return nil, fmt.Errorf("relocate: distilled base type [%d] %s is anonymous", id, t.Kind())
			}
		default:
			return nil, fmt.Errorf("relocate: distilled base type [%d] has kind %s, which a distilled base does not have", id, t.Kind())
		}
	}

	idMap := make([]uint32, n)
	for id := nDist; id < n; id++ {
		idMap[id] = id + nBase - nDist
	}
	strMap := map[uint32]uint32{}
	if err := tg.mapDistilled(split, dist, idMap, strMap); err != nil {
		return nil, err
	}

	out := btf.NewSplitSpec(base)
	out.SetHeaderLen(split.HeaderLen())
	out.SetRawStrings(split.RawStrings())
	for id := nDist; id < n; id++ {
		name, info, size, ext := split.RawType(btf.TypeID(id))
		ext = append([]uint32(nil), ext...)
		btf.ForEachTypeRef(info, &size, ext, func(p *uint32) {
			if *p < n {
				*p = idMap[*p]
			}
		})
		var bad error
		btf.ForEachStringRef(info, &name, ext, func(p *uint32) {
			switch {
			case *p == 0 || bad != nil:
			case *p >= distStrLen:
				*p += baseStrLen - distStrLen
			default:
				m, ok := strMap[*p]
				if !ok {
					bad = fmt.Errorf("relocate: type [%d]: string %q (offset %d) is not the name of a distilled type", id, split.String(*p), *p)
				}
				*p = m
			}
		})
		if bad != nil {
			return nil, bad
		}
		out.AddRaw(name, info, size, ext...)
	}
	return out, nil
}

// mapDistilled maps each distilled base type onto a base type (idMap) and
// its name onto the base's (strMap), as libbpf's
// btf_relocate_map_distilled_base does: each distilled type against the
// base types of its name, in ID order, by libbpf's rules.
func (tg *Target) mapDistilled(split, dist *btf.Spec, idMap []uint32, strMap map[uint32]uint32) error {
	base := tg.base
	nDist := uint32(dist.NextID())
	// Distilled structs and unions that split embeds by value.
	for id := nDist; id < uint32(split.NextID()); id++ {
		t := split.Type(btf.TypeID(id))
		if t.Kind() != btf.KindStruct && t.Kind() != btf.KindUnion {
			continue
		}
		for i := 0; i < t.Vlen(); i++ {
			next := uint32(t.Member(i).Type)
			for next != 0 {
				mt := split.Type(btf.TypeID(next))
				switch mt.Kind() {
				case btf.KindConst, btf.KindRestrict, btf.KindVolatile, btf.KindTypedef, btf.KindTypeTag:
					next = uint32(mt.Ref())
				case btf.KindArray:
					next = uint32(mt.Array().Elem)
				case btf.KindStruct, btf.KindUnion:
					if next < nDist {
						idMap[next] = embedded
					}
					next = 0
				default:
					next = 0
				}
			}
		}
	}

	for did := uint32(1); did < nDist; did++ {
		dt := dist.Type(btf.TypeID(did))
		for _, id := range tg.byName[dt.Name()] {
			bt := base.Type(id)
			bk := bt.Kind()
			needSize := false
			switch bk {
			case btf.KindInt, btf.KindFloat, btf.KindEnum, btf.KindEnum64:
				needSize = true
			case btf.KindStruct, btf.KindUnion:
				needSize = tg.composites[bt.NameOff()] > 1
			}
			if needSize && dt.Size() != bt.Size() {
				continue
			}
			switch dk := dt.Kind(); dk {
			case btf.KindFwd:
				switch bk {
				case btf.KindFwd:
					if dt.KindFlag() != bt.KindFlag() {
						continue
					}
				case btf.KindStruct:
					if dt.KindFlag() {
						continue
					}
				case btf.KindUnion:
					if !dt.KindFlag() {
						continue
					}
				default:
					continue
				}
			case btf.KindInt:
				if bk != dk {
					continue
				}
				de, _, _ := dt.IntEncoding()
				be, _, _ := bt.IntEncoding()
				if de != be {
					continue
				}
			case btf.KindFloat:
				if bk != dk {
					continue
				}
			case btf.KindEnum:
				if bk != btf.KindEnum && bk != btf.KindEnum64 {
					continue
				}
			case btf.KindStruct, btf.KindUnion:
				// libbpf compares sizes here only; the kind is left to
				// the name (a struct and a union of one name are rare).
				if idMap[did] == embedded && bt.Size() != dt.Size() {
					continue
				}
			default:
				continue
			}
			if idMap[did] != 0 && idMap[did] != embedded {
				return fmt.Errorf("relocate: distilled base type %q [%d], size %d, has several candidates of that size in the base ([%d] and [%d])",
					bt.Name(), did, bt.Size(), idMap[did], id)
			}
			idMap[did] = uint32(id)
			strMap[dt.NameOff()] = bt.NameOff()
		}
	}
	for id := uint32(1); id < nDist; id++ {
		if idMap[id] == 0 || idMap[id] == embedded {
			t := dist.Type(btf.TypeID(id))
			return &UnmatchedError{Name: t.Name(), Kind: t.Kind(), Size: t.Size(), ID: btf.TypeID(id),
				Why: unmatched(t, idMap[id] == embedded, base)}
		}
	}
	return nil
}

// UnmatchedError is Relocate's error for a type of the distilled base
// that no type of the new base matches (libbpf's "distilled base BTF type
// is not mapped to base BTF id"), with the reason.
type UnmatchedError struct {
	Name string
	Kind btf.Kind // the distilled base's kind (ENUM for an ENUM64 too)
	Size uint32
	ID   btf.TypeID // in the distilled base
	Why  string     // what the new base has instead and what would match
}

func (e *UnmatchedError) Error() string {
	what := fmt.Sprintf("%s %q", kindWord(e.Kind), e.Name)
	if e.Kind != btf.KindFwd {
		what += fmt.Sprintf(" (%d bytes)", e.Size)
	}
	return fmt.Sprintf("relocate: %s, type [%d] of the distilled base, matches no type of the new base: %s", what, e.ID, e.Why)
}

// kindWord names a kind as C does where it can.
func kindWord(k btf.Kind) string {
	switch k {
	case btf.KindStruct:
		return "struct"
	case btf.KindUnion:
		return "union"
	case btf.KindEnum, btf.KindEnum64:
		return "enum"
	case btf.KindInt:
		return "int"
	case btf.KindFloat:
		return "float"
	case btf.KindFwd:
		return "forward declaration"
	}
	return k.String()
}

// unmatched says why the distilled type t matched nothing in base: what
// base has of that name, and what a match needs.
func unmatched(t btf.Type, embeddedByValue bool, base *btf.Spec) string {
	var have []string
	for id := btf.TypeID(1); id < base.NextID(); id++ {
		bt := base.Type(id)
		if bt.NameOff() == 0 || bt.Name() != t.Name() {
			continue
		}
		d := fmt.Sprintf("%s [%d]", kindWord(bt.Kind()), id)
		switch bt.Kind() {
		case btf.KindStruct, btf.KindUnion, btf.KindEnum, btf.KindEnum64, btf.KindInt, btf.KindFloat:
			d += fmt.Sprintf(" of %d bytes", bt.Size())
		}
		have = append(have, d)
	}
	if len(have) == 0 {
		return "the new base has no type of that name"
	}
	var need string
	switch t.Kind() {
	case btf.KindStruct, btf.KindUnion:
		if embeddedByValue {
			need = fmt.Sprintf("a struct or union of %d bytes: the module holds it by value, so its size must not change", t.Size())
		} else {
			need = fmt.Sprintf("one struct or union of that name, or, where the new base has several, the one of %d bytes", t.Size())
		}
	case btf.KindInt:
		enc, _, _ := t.IntEncoding()
		need = fmt.Sprintf("an int of %d bytes with the same encoding (0x%x)", t.Size(), enc)
	case btf.KindFloat:
		need = fmt.Sprintf("a float of %d bytes", t.Size())
	case btf.KindEnum:
		need = fmt.Sprintf("an enum of %d bytes", t.Size())
	case btf.KindFwd:
		need = "a forward declaration, struct or union of the same kind (struct or union)"
	}
	return fmt.Sprintf("the new base has %s; a match needs %s", strings.Join(have, ", "), need)
}
