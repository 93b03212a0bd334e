package distill

// Rebase: a module's split BTF moved onto a new vmlinux's BTF.

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// IsDistilledBase reports whether base looks like a distilled base (what
// Distill makes, a module's .BTF.base): only named INT, FLOAT, FWD and
// empty STRUCT, UNION and ENUM types. A vmlinux's BTF never does (it has
// pointers, functions and members).
func IsDistilledBase(base *btf.Spec) bool {
	if base == nil || base.Base() != nil {
		return false
	}
	for id := btf.TypeID(1); id < base.NextID(); id++ {
		t := base.Type(id)
		if t.NameOff() == 0 {
			return false
		}
		switch t.Kind() {
		case btf.KindInt, btf.KindFloat, btf.KindFwd:
		case btf.KindStruct, btf.KindUnion, btf.KindEnum:
			if t.Vlen() != 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Rebase moves split, BTF split against the base it was made against,
// onto newBase, a complete BTF (a new vmlinux's), so that the result is
// split against newBase and refers to its types: what `btfkit rebase`
// does to a module moved to a new kernel.
//
// split's base is either a distilled base (a module's .BTF.base, see
// IsDistilledBase) or the complete BTF it was encoded against (the old
// vmlinux's). A complete one is distilled first (Distill); then the
// distilled base is relocated onto newBase (Relocate, libbpf's
// btf__relocate), which refuses, with an *UnmatchedError naming the type
// and why, a type split uses that newBase lacks or has with another kind,
// int encoding, or size where the size matters (a struct or union split
// holds by value, an int, an enum). With the complete old base the
// members are known too: a struct or union split holds by value must
// also have the same members (names, bit offsets, bitfield sizes) in
// newBase, else a *LayoutError. split is not modified.
//
// The result carries, as the kernel's own relocation leaves them, the
// copies of base types Distill moved into the split BTF (pointers,
// typedefs, prototypes, anonymous types); deduplicating it against
// newBase (package dedup) folds them back into newBase's.
func Rebase(split, newBase *btf.Spec) (*btf.Spec, error) {
	return NewTarget(newBase).Rebase(split)
}

// Rebase is the package's Rebase onto the target's base (a kernel's
// modules moved onto one new vmlinux: the base indexed once).
func (tg *Target) Rebase(split *btf.Spec) (*btf.Spec, error) {
	newBase := tg.base
	old := split.Base()
	if old == nil {
		return nil, fmt.Errorf("rebase: the BTF is not split (a module's BTF is split against its vmlinux's)")
	}
	if newBase.Base() != nil {
		return nil, fmt.Errorf("rebase: the new base is itself split")
	}
	dsplit := split
	if !IsDistilledBase(old) {
		if err := tg.checkLayouts(split); err != nil {
			return nil, err
		}
		var err error
		if _, dsplit, err = Distill(split); err != nil {
			return nil, err
		}
	}
	return tg.Relocate(dsplit)
}

// LayoutError is Rebase's error for a struct or union the module holds by
// value whose members differ between the old base and the new one.
type LayoutError struct {
	Kind   btf.Kind // KindStruct or KindUnion
	Name   string
	Holder string // the module's type that holds it by value (its C name)
	Why    string
}

func (e *LayoutError) Error() string {
	return fmt.Sprintf("rebase: %s %q, held by value in the module's %s, changed its layout in the new base: %s", kindWord(e.Kind), e.Name, e.Holder, e.Why)
}

// checkLayouts compares, member by member, each named struct or union of
// split's base that split's own types hold by value (through typedefs,
// qualifiers, arrays and anonymous base types) with newBase's struct or
// union of that name and size; one that has none is left to Relocate.
func (tg *Target) checkLayouts(split *btf.Spec) error {
	newBase := tg.base
	old := split.Base()
	oldNext := old.NextID()
	type held struct {
		id     btf.TypeID
		holder btf.TypeID
	}
	var found []held
	seen := map[btf.TypeID]bool{}
	var walk func(id, holder btf.TypeID, depth int)
	walk = func(id, holder btf.TypeID, depth int) {
		t := split.Type(id)
		for i := 0; i < t.Vlen(); i++ {
			next := t.Member(i).Type
			for hops := 0; next != 0 && hops < 64 && split.Has(next); hops++ {
				mt := split.Type(next)
				switch mt.Kind() {
				case btf.KindConst, btf.KindRestrict, btf.KindVolatile, btf.KindTypedef, btf.KindTypeTag:
					next = mt.Ref()
					continue
				case btf.KindArray:
					next = mt.Array().Elem
					continue
				case btf.KindStruct, btf.KindUnion:
					if next < oldNext && !seen[next] {
						seen[next] = true
						if mt.NameOff() != 0 {
							found = append(found, held{next, holder})
						} else if depth < 64 {
							walk(next, holder, depth+1)
						}
					}
				}
				break
			}
		}
	}
	for id := oldNext; id < split.NextID(); id++ {
		if k := split.Type(id).Kind(); k == btf.KindStruct || k == btf.KindUnion {
			walk(id, id, 0)
		}
	}
	for _, h := range found {
		ot := split.Type(h.id)
		var nt btf.Type
		n := 0
		for _, id := range tg.byName[ot.Name()] {
			if t := newBase.Type(id); t.Size() == ot.Size() && t.Kind() == ot.Kind() {
				nt, n = t, n+1
			}
		}
		if n != 1 {
			continue // Relocate says what is wrong
		}
		if why := sameMembers(ot, nt); why != "" {
			holder := split.Type(h.holder)
			name := holder.Name()
			if name == "" {
				name = fmt.Sprintf("anonymous type [%d]", h.holder)
			}
			return &LayoutError{Kind: ot.Kind(), Name: ot.Name(), Holder: kindWord(holder.Kind()) + " " + name, Why: why}
		}
	}
	return nil
}

// sameMembers says how the members of two structs or unions differ
// (names, bit offsets, bitfield sizes), or "" when they do not.
func sameMembers(a, b btf.Type) string {
	if a.Vlen() != b.Vlen() {
		return fmt.Sprintf("%d members in the old base, %d in the new", a.Vlen(), b.Vlen())
	}
	for i := 0; i < a.Vlen(); i++ {
		an, bn := a.Spec().String(a.Member(i).NameOff), b.Spec().String(b.Member(i).NameOff)
		ao, as := a.MemberBits(i)
		bo, bs := b.MemberBits(i)
		switch {
		case an != bn:
			return fmt.Sprintf("member %d is %q in the old base, %q in the new", i, an, bn)
		case ao != bo:
			return fmt.Sprintf("member %q is at bit %d in the old base, bit %d in the new", an, ao, bo)
		case as != bs:
			return fmt.Sprintf("member %q is a bitfield of %d bits in the old base, %d in the new", an, as, bs)
		}
	}
	return ""
}
