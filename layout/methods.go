package layout

import (
	"io"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
)

// pahole's -m/--nr_methods: instead of layouts, each struct that a
// function takes a pointer to (as a parameter's own type, not through a
// typedef or qualifier), and how many such parameters there are
// (cu__account_nr_methods), listed once every input was read
// (printDefinitions: pahole counts a struct's methods as it counts its
// definitions, one more each time structures__add meets it).

// NamedUnitFunctions is NamedUnit for an input whose functions are known
// apart from its types: params holds, for each function of the input,
// the types of its parameters (IDs of spec). With NrMethods it counts
// them instead of printing anything; otherwise it is NamedUnit. For BTF
// (facts nil and params nil) the functions are the spec's FUNCs.
func (l *Listing) NamedUnitFunctions(w io.Writer, name string, spec *btf.Spec, facts *dwarffacts.Facts, params [][]btf.TypeID) (stop bool, err error) {
	if !l.opts.NrMethods || len(l.opts.ClassNames) > 0 {
		return l.NamedUnit(w, name, spec, facts)
	}
	if l.unitExcluded(name) {
		return false, nil
	}
	u := newUnit(spec, facts, l.cacheline)
	l.prepare(u, name) // print_options.go
	if facts == nil && params == nil {
		params = funcParams(spec)
	}
	for _, ps := range params {
		for _, p := range ps {
			pt, ok := u.typ(p)
			if !ok || pt.Kind() != btf.KindPtr {
				continue
			}
			id := pt.Ref()
			t, ok := u.typ(id)
			if !ok || !t.IsStruct() || t.NameOff() == 0 || !l.filterWith(u, id, t, false) {
				continue
			}
			l.add(u, id, t) // counted (structures.go's definitions)
		}
	}
	return l.opts.FirstObjOnly, nil
}

// funcParams are the parameter types of a BTF's FUNCs, in ID order.
func funcParams(spec *btf.Spec) [][]btf.TypeID {
	var out [][]btf.TypeID
	for id := spec.FirstID(); id < spec.NextID(); id++ {
		t := spec.Type(id)
		if t.Kind() != btf.KindFunc {
			continue
		}
		proto := spec.Type(t.Ref())
		if proto.Kind() != btf.KindFuncProto {
			continue
		}
		var ps []btf.TypeID
		for i := 0; i < proto.Vlen(); i++ {
			ps = append(ps, proto.Param(i).Type)
		}
		out = append(out, ps)
	}
	return out
}
