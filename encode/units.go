package encode

import (
	"debug/elf"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
)

// Unit is one compile unit's types as pahole's DWARF loader has them
// while it prints layouts: a standalone Spec numbered from 1 in pahole's
// order (before any merging or deduplication), and the DWARF facts BTF
// cannot hold, keyed by the Spec's IDs.
type Unit struct {
	Index int // the unit's position in the file, from 0
	Spec  *btf.Spec
	Facts *dwarffacts.Facts
}

// EachUnit converts the units of the ELF file at path, o.Jobs at a time,
// and calls fn with each in unit order, on the calling goroutine. Nothing
// is merged or deduplicated, and functions and variables are not encoded.
// An error from fn ends the walk and is returned.
//
// This is the hook for printers that need what pahole's DWARF loader
// sees: per-unit types and their facts (see package dwarffacts and
// facts.go).
func EachUnit(path string, o Options, fn func(Unit) error) error {
	o.elf = nil
	o.facts = true
	i := 0
	return walkFile(path, o, func(f *fragment) error {
		u := Unit{Index: i, Spec: f.spec(), Facts: f.facts}
		i++
		return fn(u)
	}, nil)
}

// HasDWARF reports whether the file at path is an ELF file with a
// .debug_info section (compressed or not).
func HasDWARF(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return f.Section(".debug_info") != nil || f.Section(".zdebug_info") != nil
}

// Decompressed returns a path to the uncompressed contents of a
// compressed module (.ko.xz, .ko.zst, .ko.gz): a temporary file in tempDir
// ("" for os.TempDir()) that cleanup removes; path itself for any other
// file.
func Decompressed(path, tempDir string) (local string, cleanup func(), err error) {
	return decompressModule(path, tempDir)
}
