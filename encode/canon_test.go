package encode

import (
	"fmt"
	"sort"
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// canon computes, for every type of a Spec, a structural signature that
// does not depend on IDs: named aggregates, enums, typedefs and base types
// are referred to by kind and name, everything else by its full structure.
// FWD and the STRUCT/UNION of the same name are referred to alike, so a
// deduplicated Spec (FWDs resolved) and an undeduplicated one (each unit
// with its own FWDs) compare equal when they describe the same types.
type canon struct {
	s    *btf.Spec
	full map[btf.TypeID]string
}

func newCanon(s *btf.Spec) *canon { return &canon{s: s, full: map[btf.TypeID]string{}} }

func (c *canon) shallow(id btf.TypeID) string {
	if id == 0 {
		return "void"
	}
	t := c.s.Type(id)
	switch t.Kind() {
	case btf.KindStruct, btf.KindUnion:
		if t.Name() != "" {
			return strings.ToLower(t.Kind().String()) + " " + t.Name()
		}
	case btf.KindFwd:
		if t.KindFlag() {
			return "union " + t.Name()
		}
		return "struct " + t.Name()
	case btf.KindEnum, btf.KindEnum64:
		if t.Name() != "" {
			return "enum " + t.Name()
		}
	case btf.KindTypedef, btf.KindInt, btf.KindFloat:
		return strings.ToLower(t.Kind().String()) + " " + t.Name()
	}
	return c.sig(id)
}

func (c *canon) sig(id btf.TypeID) string {
	if s, ok := c.full[id]; ok {
		return s
	}
	t := c.s.Type(id)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %q", t.Kind(), t.Name())
	switch t.Kind() {
	case btf.KindInt:
		e, o, n := t.IntEncoding()
		fmt.Fprintf(&b, " size=%d enc=%d off=%d bits=%d", t.Size(), e, o, n)
	case btf.KindFloat:
		fmt.Fprintf(&b, " size=%d", t.Size())
	case btf.KindPtr, btf.KindTypedef, btf.KindVolatile, btf.KindConst, btf.KindRestrict, btf.KindTypeTag:
		fmt.Fprintf(&b, " -> (%s)", c.shallow(t.Ref()))
	case btf.KindArray:
		a := t.Array()
		fmt.Fprintf(&b, " [%d] of (%s) idx (%s)", a.Nelems, c.shallow(a.Elem), c.shallow(a.Index))
	case btf.KindStruct, btf.KindUnion:
		fmt.Fprintf(&b, " size=%d kflag=%v {", t.Size(), t.KindFlag())
		for i := 0; i < t.Vlen(); i++ {
			m := t.Member(i)
			fmt.Fprintf(&b, " %q (%s) @%#x;", c.s.String(m.NameOff), c.shallow(m.Type), m.Offset)
		}
		b.WriteString(" }")
	case btf.KindEnum, btf.KindEnum64:
		fmt.Fprintf(&b, " size=%d kflag=%v {", t.Size(), t.KindFlag())
		for i := 0; i < t.Vlen(); i++ {
			e := t.Enum(i)
			fmt.Fprintf(&b, " %q=%d", c.s.String(e.NameOff), e.Val)
		}
		b.WriteString(" }")
	case btf.KindFwd:
		fmt.Fprintf(&b, " union=%v", t.KindFlag())
	case btf.KindFuncProto:
		fmt.Fprintf(&b, " ret (%s) (", c.shallow(t.Ref()))
		for i := 0; i < t.Vlen(); i++ {
			p := t.Param(i)
			fmt.Fprintf(&b, " %q (%s),", c.s.String(p.NameOff), c.shallow(p.Type))
		}
		b.WriteString(" )")
	case btf.KindDeclTag:
		fmt.Fprintf(&b, " on (%s) comp=%d", c.shallow(t.Ref()), t.ComponentIdx())
	case btf.KindFunc, btf.KindVar:
		fmt.Fprintf(&b, " -> (%s) linkage=%d", c.sig(t.Ref()), t.Linkage())
	}
	s := b.String()
	c.full[id] = s
	return s
}

// typeSet returns the sorted distinct signatures of the Spec's types,
// leaving out the kinds in skip and FWDs that have a definition.
func typeSet(s *btf.Spec, skip func(btf.Kind) bool) []string {
	c := newCanon(s)
	defined := map[string]bool{}
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		t := s.Type(id)
		if (t.Kind() == btf.KindStruct || t.Kind() == btf.KindUnion) && t.Name() != "" {
			defined[c.shallow(id)] = true
		}
	}
	set := map[string]bool{}
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		t := s.Type(id)
		if skip != nil && skip(t.Kind()) {
			continue
		}
		if t.Kind() == btf.KindFwd && defined[c.shallow(id)] {
			continue
		}
		set[c.sig(id)] = true
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// setDiff returns the elements only in a and only in b.
func setDiff(a, b []string) (onlyA, onlyB []string) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || (i < len(a) && a[i] < b[j]):
			onlyA = append(onlyA, a[i])
			i++
		case i >= len(a) || b[j] < a[i]:
			onlyB = append(onlyB, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return
}
