// Package dwarf is btfkit's DWARF 2–5 reader: the foundation of the
// DWARF→BTF encoder and the hot path of every encode.
//
// # Why not debug/dwarf
//
// The Debian 6.1 cloud vmlinux has 164 MB of .debug_info: 2,172 compile
// units, 14,259,548 DIEs (plus 2.5 million null entries) and 62 million
// attributes. Go's debug/dwarf allocates an Entry, a []Field and an
// interface value per attribute for every DIE: walking that vmlinux costs
// it 71,256,279 allocations and 3.28 GB per walk. An abbreviation-driven
// reader with no per-DIE allocation does the same work in a fraction of
// the time: about a tenth of debug/dwarf's wall time with two workers,
// with a handful of allocations per unit instead of about one per
// attribute, and a two-worker walk of that vmlinux peaks under 200 MiB RSS,
// the mapped file included (TestWalkRSS). docs/BENCHMARKS.md has the
// figures and scripts/bench-dwarf, the command that measures them.
//
// debug/dwarf also cannot walk DWARF 4 .debug_types units, leaves
// DW_FORM_loclistx unresolved, reads only one of the .debug_info sections
// of an object file with COMDAT type units, fails on clang's DWARF 5 for
// big-endian targets, and has no way to hand units to several goroutines.
// This package decodes the same values (checked attribute by attribute
// against debug/dwarf on the C corpus, clang cross-target objects, 20
// modules and the vmlinux, and against readelf's tag histograms).
//
// # Design
//
// An ELF file is mapped read-only (elfx); uncompressed sections of linked
// files are used in place, compressed sections are inflated and the
// relocations of ET_REL files (kernel modules, objects) applied to private
// copies. New indexes the unit headers (Data.Units) without reading DIEs.
// For each unit, its abbreviation table is parsed once into a table of
// declarations, each a list of Field templates and fixed-size layouts.
// Declarations are interned process-wide by their bytes and unit format
// (the vmlinux's 2,172 tables hold only 8,484 distinct declarations), so a
// table costs a scan and a lookup per declaration, not fresh memory: see
// declCache. A DIE whose attributes all have
// fixed sizes is decoded by masked 8-byte loads at precomputed offsets,
// others by a switch on the form. UnitReader.Next decodes null entries and
// fixed-size DIEs itself (92% of the vmlinux's DIEs), without a call into
// the general decoder. Values are normalised by class when they
// are decoded (references become global offsets, strx/addrx/loclistx/
// rnglistx are looked up through the unit's bases), so a consumer never
// needs the form. Strings are views of the mapped sections (unsafe.String),
// valid until Data.Close.
//
// A UnitReader fills a caller-owned Entry (Next), can skip subtrees
// (SkipChildren, using DW_AT_sibling when present), Seek within its unit,
// and decode a DIE at any global Offset (EntryAt) to follow DW_AT_type,
// DW_AT_abstract_origin, DW_AT_specification or DW_FORM_ref_addr across
// units. Walk hands units to N goroutines (the caller's among them)
// dynamically and gives their results to the caller in unit order, so
// output never depends on scheduling. A fixed-size DIE with a
// DW_FORM_strp attribute touches the first byte of that string while it is
// decoded, so the cache miss on .debug_str overlaps the decoding that
// follows rather than stalling the caller's read of the name.
//
// Malformed input gives a *DecodeError naming the section and offset,
// never a panic or a hang (FuzzUnit); sizes read from the input are checked
// against the input before anything is allocated for them.
//
// # What it owns, what it must not know
//
// The package owns DWARF decoding: unit headers, abbreviations, forms and
// classes, the string, address, offset, location and range list sections,
// type unit signatures and dwz alternate files (.gnu_debugaltlink). It must
// not know BTF, nor what an encoder makes of the DIEs: no type graphs, no
// names of kernel structures, no policy about which DIEs matter. ELF
// container work (mapping, section lookup, decompression, relocation)
// belongs to package elfx.
package dwarf
