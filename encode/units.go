package encode

import (
	"errors"
	"fmt"
	"sync"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
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
	return MapUnits(path, o, func(u Unit) (Unit, error) { return u, nil }, fn)
}

// MapUnits is EachUnit with a share of the per-unit work in the
// workers: prepare runs on the goroutine that converted the unit, right
// after it did, for many units at once and in no particular order; emit
// gets prepare's results one at a time, in unit order, on the calling
// goroutine. Every unit of the file is prepared and emitted, in order,
// until an error: the first (in unit order) of prepare's or emit's ends
// the walk and is returned (wrapped). A printer puts what does not
// depend on other units in prepare, and what does (which types were
// printed before) in emit.
//
// How many units are prepared ahead of emit is bounded (dwarf.Walk), so
// a slow emit (a blocked output) holds a few units in memory, not all.
func MapUnits[R any](path string, o Options, prepare func(Unit) (R, error), emit func(R) error) error {
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
	// Results wait here, by unit index, from prepare until their emit.
	var (
		mu      sync.Mutex
		results = make(map[int]R)
	)
	cfg := walkConfig{Options: o, facts: true}
	cfg.unitDone = func(du *dwarf.Unit, fr *fragment) error {
		spec, err := unitSpec(fr)
		if err != nil {
			return err
		}
		r, err := prepare(Unit{Index: du.Index, Name: fr.unitName, Spec: spec, Facts: fr.facts})
		if err != nil {
			return err
		}
		mu.Lock()
		results[du.Index] = r
		mu.Unlock()
		return nil
	}
	i := 0
	err = walk(f, cfg, func(*fragment) error {
		mu.Lock()
		r, ok := results[i]
		delete(results, i)
		mu.Unlock()
		if !ok {
			return fmt.Errorf("unit %d was not prepared", i)
		}
		i++
		return emit(r)
	}, nil)
	return elfx.NamingFile(path, err)
}

// unitSpec is fragment.spec with the output sized beforehand: one
// fragment's names are nearly all distinct, so their index never grows.
func unitSpec(f *fragment) (*btf.Spec, error) {
	m := newMerger()
	m.reserve(len(f.hdrs), len(f.words), len(f.strs))
	n := 1
	for _, s := range f.strs {
		n += len(s) + 1
	}
	m.strBuf = make([]byte, 1, n)
	if err := m.add(f); err != nil {
		return nil, err
	}
	return m.finish(), nil
}
