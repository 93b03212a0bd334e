package pfunct

import (
	"fmt"
	"io"

	"github.com/btfkit/btfkit/btf"
)

// btfUnit makes pahole's cu of a BTF: every FUNC is a function (in ID
// order; split BTF's base's too, as pahole 1.32's pfunct loads a split
// BTF and its base as one unit), its prototype the FUNC_PROTO it refers to; DECL_TAGs become
// attributes of the function (component -1) or of the prototype's
// parameter (component i), in ID order, as pahole's BTF loader attaches
// them. A tag on a variable is kept nowhere pfunct prints; on anything
// else pahole warns, and so does this, on warn.
func btfUnit(name string, spec *btf.Spec, warn io.Writer) *unit {
	u := &unit{name: name, btf: true, spec: spec}
	n, tags := 0, 0
	for id := btf.TypeID(1); id < spec.NextID(); id++ {
		switch spec.Type(id).Kind() {
		case btf.KindFunc:
			n++
		case btf.KindDeclTag:
			tags++
		}
	}
	slab := make([]function, n)
	u.funcs = make([]*function, 0, n)
	var byID map[btf.TypeID]int
	if tags > 0 {
		byID = make(map[btf.TypeID]int, n)
	}
	for id := btf.TypeID(1); id < spec.NextID(); id++ {
		t := spec.Type(id)
		if t.Kind() != btf.KindFunc {
			continue
		}
		f := &slab[len(u.funcs)]
		*f = function{
			name:     t.Name(),
			hasName:  t.NameOff() != 0,
			btf:      true,
			proto:    t.Ref(),
			topLevel: true,
		}
		if byID != nil {
			byID[id] = len(u.funcs)
		}
		u.funcs = append(u.funcs, f)
	}
	if tags == 0 {
		return u
	}
	for id := btf.TypeID(1); id < spec.NextID(); id++ {
		t := spec.Type(id)
		if t.Kind() != btf.KindDeclTag {
			continue
		}
		target := t.Ref()
		comp := int(t.ComponentIdx())
		value := t.Name()
		fi, isFunc := byID[target]
		if !isFunc {
			if warn != nil && !isVar(spec, target) {
				fmt.Fprintf(warn, "WARNING: BTF_KIND_DECL_TAG for unknown BTF id %d\n", target)
			}
			continue
		}
		f := u.funcs[fi]
		if comp < 0 {
			f.attrs = append(f.attrs, value)
			continue
		}
		pt, ok := protoOf(spec, f.proto)
		if !ok || comp >= nrProtoParams(pt) {
			if warn != nil {
				fmt.Fprintf(warn, "WARNING: BTF_KIND_DECL_TAG for unknown parameter %d in BTF id %d\n", comp, target)
			}
			continue
		}
		if u.parmAttrs == nil {
			u.parmAttrs = map[parmKey][]string{}
		}
		k := parmKey{f.proto, comp}
		u.parmAttrs[k] = append(u.parmAttrs[k], value)
	}
	return u
}

// isVar reports whether id is a VAR: pahole's BTF loader attaches a decl
// tag to a function or a variable; for any other target it warns.
func isVar(spec *btf.Spec, id btf.TypeID) bool {
	return spec.Has(id) && spec.Type(id).Kind() == btf.KindVar
}

// protoOf returns the FUNC_PROTO id refers to.
func protoOf(spec *btf.Spec, id btf.TypeID) (btf.Type, bool) {
	if !spec.Has(id) {
		return btf.Type{}, false
	}
	t := spec.Type(id)
	return t, t.Kind() == btf.KindFuncProto
}

// nrProtoParams counts a FUNC_PROTO's parameters as pahole's BTF loader
// does: a parameter of type 0 is the "..." and no parameter.
func nrProtoParams(t btf.Type) int {
	n := 0
	for i := 0; i < t.Vlen(); i++ {
		if t.Param(i).Type != 0 {
			n++
		}
	}
	return n
}
