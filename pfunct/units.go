package pfunct

import (
	"errors"
	"io"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/layout"
)

// UnitFunctions is one DWARF compile unit as pahole's loader hands it to a
// printer that counts functions (pahole -m): its name, its types as
// package encode converts them with their facts, and the types of the
// parameters of each of its functions, IDs of Spec, in the order of
// pahole's functions table. It is layout's, so that EachUnitFunctions is
// a layout.Inputs.UnitFunctions.
type UnitFunctions = layout.UnitFunctions

// EachUnitFunctions calls fn with each compile unit of the ELF file at
// path that has DWARF, in order; jobs units are converted at a time (0:
// one per CPU). A file without DWARF gives encode.ErrNoDWARF; an error
// from fn ends the walk and is returned.
func EachUnitFunctions(path string, jobs int, fn func(UnitFunctions) error) error {
	ef, d, err := openDWARF(path)
	if errors.Is(err, errNoDWARF) || errors.Is(err, elfx.ErrNotELF) {
		return encode.ErrNoDWARF
	}
	if err != nil {
		return err
	}
	defer ef.Close()
	defer d.Close()
	l := &dwarfLoader{d: d, r: d.NewReader(), warn: io.Discard}
	units := d.Units()
	return encode.EachUnit(path, encode.Options{Features: encode.DefaultFeatures, Jobs: jobs}, func(eu encode.Unit) error {
		if eu.Index >= len(units) {
			return nil
		}
		u, err := l.loadUnit(&units[eu.Index])
		if err != nil {
			return decodeErr(path, err)
		}
		l.setTypes(eu.Facts)
		params := make([][]btf.TypeID, len(u.funcs))
		for i, f := range u.funcs {
			for _, p := range f.params {
				params[i] = append(params[i], p.typ)
			}
		}
		return fn(UnitFunctions{Index: eu.Index, Name: u.name, Spec: eu.Spec, Facts: eu.Facts, Params: params})
	})
}
