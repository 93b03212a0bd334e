package modcheck

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// fit checks that split's own types fit its base: every string offset
// starts a string of the base's table (baseStarts) or of split's own, and
// every type reference lands on an existing type of a kind that fits its
// use. It returns one problem per type that does not fit (its first
// misfit) and the first of them.
func fit(split *btf.Spec, baseStarts []uint64) (misfits []btf.Problem, first btf.Problem) {
	strStart := split.StringsStart()
	own := split.RawStrings()
	ownStarts := func(off uint32) bool {
		rel := off - strStart
		return int(rel) < len(own) && (rel == 0 || own[rel-1] == 0)
	}
	total := uint64(strStart) + uint64(len(own))
	next := split.NextID()
	for id := split.FirstID(); id < next; id++ {
		nameOff, info, sizeType, ext := split.RawType(id)
		t := split.Type(id)
		miss := func(r btf.Rule, format string, args ...any) {
			name := ""
			if uint64(nameOff) < total {
				name = split.String(nameOff)
			}
			misfits = append(misfits, btf.Problem{ID: id, Kind: t.Kind(), Name: name, Rule: r, Detail: fmt.Sprintf(format, args...)})
		}
		bad := false
		i := 0
		btf.ForEachStringRef(info, &nameOff, ext, func(p *uint32) {
			off := *p
			item := i - 1 // -1: the type's own name
			i++
			where := func() string {
				if item < 0 {
					return "name"
				}
				return fmt.Sprintf("name of item %d", item)
			}
			switch {
			case bad || off == 0:
			case uint64(off) >= total:
				bad = true
				miss(btf.RuleNameOffset, "%s at string offset %d, past the %d bytes of base and module strings", where(), off, total)
			case off < strStart && !hasBit(baseStarts, off):
				bad = true
				miss(btf.RuleNameStart, "%s at string offset %d, inside the base's string that reads %q there", where(), off, split.String(off))
			case off >= strStart && !ownStarts(off):
				bad = true
				miss(btf.RuleNameStart, "%s at string offset %d, inside the module's string that reads %q there", where(), off, split.String(off))
			}
		})
		if bad {
			continue
		}
		if why := refMisfit(split, t, sizeType, ext); why != "" {
			miss(btf.RuleRefKind, "%s", why)
		}
	}
	if len(misfits) > 0 {
		first = misfits[0]
	}
	return misfits, first
}

// refMisfit says why one of t's references does not fit, "" when they
// all do. Messages are made only for a misfit.
func refMisfit(s *btf.Spec, t btf.Type, sizeType uint32, ext []uint32) string {
	next := uint32(s.NextID())
	kindOf := func(id uint32) btf.Kind {
		if id == 0 {
			return btf.KindUnknown
		}
		return s.Type(btf.TypeID(id)).Kind()
	}
	// check returns why reference id of item i (-1: the type's own
	// reference, what) does not fit a use wanting ok.
	check := func(what string, i int, id uint32, ok func(btf.Kind) bool) string {
		if id < next && ok(kindOf(id)) {
			return ""
		}
		if i >= 0 {
			what = fmt.Sprintf("%s %d", what, i)
		}
		if id >= next {
			return fmt.Sprintf("%s refers to type [%d], past the last type [%d]", what, id, next-1)
		}
		return fmt.Sprintf("%s refers to type [%d], a %s", what, id, kindName(kindOf(id)))
	}
	var why string
	switch k := t.Kind(); k {
	case btf.KindPtr, btf.KindTypedef, btf.KindVolatile, btf.KindConst, btf.KindRestrict, btf.KindTypeTag:
		why = check("its type", -1, sizeType, pointee)
	case btf.KindFunc:
		why = check("its prototype", -1, sizeType, func(k btf.Kind) bool { return k == btf.KindFuncProto })
	case btf.KindVar:
		why = check("its type", -1, sizeType, sized)
	case btf.KindArray:
		if why = check("its element", -1, ext[0], sized); why == "" {
			why = check("its index", -1, ext[1], sized)
		}
	case btf.KindStruct, btf.KindUnion:
		for i := 0; i < t.Vlen() && why == ""; i++ {
			why = check("member", i, ext[3*i+1], sized)
		}
	case btf.KindFuncProto:
		why = check("its return type", -1, sizeType, func(k btf.Kind) bool { return k == btf.KindUnknown || sized(k) })
		for i := 0; i < t.Vlen() && why == ""; i++ {
			last := i == t.Vlen()-1
			why = check("parameter", i, ext[2*i+1], func(k btf.Kind) bool { return sized(k) || last && k == btf.KindUnknown })
		}
	case btf.KindDatasec:
		for i := 0; i < t.Vlen() && why == ""; i++ {
			why = check("entry", i, ext[3*i], func(k btf.Kind) bool { return k == btf.KindVar })
		}
	case btf.KindDeclTag:
		why = check("its target", -1, sizeType, func(k btf.Kind) bool {
			switch k {
			case btf.KindFunc, btf.KindStruct, btf.KindUnion, btf.KindVar, btf.KindTypedef:
				return true
			}
			return false
		})
		if why == "" && sizeType != 0 {
			if c := t.ComponentIdx(); c >= 0 {
				target := s.Type(btf.TypeID(sizeType))
				n := target.Vlen()
				if target.Kind() == btf.KindFunc {
					n = -1
					if p := uint32(target.Ref()); p < next && kindOf(p) == btf.KindFuncProto {
						n = s.Type(btf.TypeID(p)).Vlen()
					}
				}
				if int(c) >= n {
					why = fmt.Sprintf("its component %d is past the %d of its target [%d] %s", c, n, sizeType, target.Kind())
				}
			}
		}
	}
	return why
}

// sized kinds can be members, elements, variables and parameters.
func sized(k btf.Kind) bool {
	switch k {
	case btf.KindUnknown, btf.KindFunc, btf.KindFuncProto, btf.KindVar, btf.KindDatasec, btf.KindDeclTag, btf.KindFwd:
		return false
	}
	return true
}

// pointee kinds can be pointed at, qualified or named by a typedef.
func pointee(k btf.Kind) bool {
	switch k {
	case btf.KindVar, btf.KindDatasec, btf.KindDeclTag:
		return false
	}
	return true
}

func kindName(k btf.Kind) string {
	if k == btf.KindUnknown {
		return "void"
	}
	return k.String()
}
