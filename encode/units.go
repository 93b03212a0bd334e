package encode

import (
	"errors"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
	"github.com/btfkit/btfkit/elfx"
)

// Unit is one compile unit's types as pahole's DWARF loader has them
// while it prints layouts: a standalone Spec numbered from 1 in pahole's
// order (before any merging or deduplication), and the DWARF facts BTF
// cannot hold, keyed by the Spec's IDs.
type Unit struct {
	Index int    // the unit's position in the file, from 0
	Name  string // the unit's DW_AT_name ("" when it has none)
	Spec  *btf.Spec
	Facts *dwarffacts.Facts
}

// ErrNoDWARF is returned by EachUnit for a file that is not ELF (plain
// or compressed) or has no .debug_info.
var ErrNoDWARF = errors.New("no DWARF")

// EachUnit converts the units of the ELF file at path (compressed modules
// too, see elfx.Open), o.Jobs at a time, and calls fn with each in unit
// order, on the calling goroutine (a file whose units refer to each
// other, an LTO link, is one unit without a name, as pahole prints it).
// Nothing is merged or deduplicated, and
// functions and variables are not encoded. An error from fn ends the walk
// and is returned (wrapped).
//
// This is the hook for printers that need what pahole's DWARF loader
// sees: per-unit types and their facts (see package dwarffacts and
// facts.go).
func EachUnit(path string, o Options, fn func(Unit) error) error {
	f, err := elfx.Open(path)
	if errors.Is(err, elfx.ErrNotELF) {
		return ErrNoDWARF
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if f.FindDebug(".debug_info") == nil {
		return ErrNoDWARF
	}
	i := 0
	err = walk(f, walkConfig{Options: o, facts: true}, func(fr *fragment) error {
		u := Unit{Index: i, Name: fr.unitName, Spec: fr.spec(), Facts: fr.facts}
		i++
		return fn(u)
	}, nil)
	return elfx.NamingFile(path, err)
}
