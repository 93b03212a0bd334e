package pfunct

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/ctype"
)

// Types are spelled by internal/ctype (pahole's tag__name and
// ftype__fprintf), shared with layout.

// varNameBuf is function__tag_fprintf's buffer for a variable's type.
const varNameBuf = 512

// maxDepth bounds the chains of pointers and qualifiers followed from a
// function's types (functionTypes), so that a malformed input whose
// types refer to themselves ends there.
const maxDepth = 512

// namer spells the types of one unit with pfunct's conf
// (--no_parm_names); the unit's decl tags go before parameters.
type namer struct {
	*ctype.Namer
	u    *unit
	spec *btf.Spec // the Spec the Namer was made for
	dflt *ctype.Namer
}

// defaults is the unit's Namer with pahole's default conf (parameter
// names kept), which function__tag_fprintf names a variable's type with.
func (n *namer) defaults() *ctype.Namer {
	if n.dflt == nil {
		o := n.Options()
		o.NoParmNames = false
		n.dflt = n.WithOptions(o)
	}
	return n.dflt
}

// newNamer returns a namer for u's types.
func newNamer(u *unit, noParmNames bool) *namer {
	n := &namer{u: u, spec: u.spec}
	n.Namer = ctype.NewNamer(u.spec, u.facts, ctype.Options{NoParmNames: noParmNames, ParamAttrs: u.paramAttrs})
	return n
}

// paramAttrs are the decl tags of a FUNC_PROTO's i'th parameter.
func (u *unit) paramAttrs(proto btf.TypeID, i int) []string {
	return u.parmAttrs[parmKey{proto, i}]
}

// typ is pahole's cu__type.
func (n *namer) typ(id btf.TypeID) (btf.Type, bool) { return n.Type(id) }

// NumParams and Param give a DWARF function's own parameters to
// ctype.Namer (ctype.ParamList).
func (f *function) NumParams() int { return len(f.params) }

// Param is the i'th parameter's name and type.
func (f *function) Param(i int) (string, btf.TypeID) { return f.params[i].name, f.params[i].typ }
