// Package dwarf is btfkit's DWARF 2–5 reader: the foundation of the
// DWARF→BTF encoder and the hot path of every encode.
//
// # Why not debug/dwarf
//
// The Debian 6.1 cloud vmlinux has 164 MB of .debug_info: 2,172 compile
// units and 14,259,548 DIEs with 62 million attributes. Go's debug/dwarf
// allocates an Entry, a []Field and an interface value per attribute for
// each DIE; walking that vmlinux with it takes about 2.3 s on an idle
// machine of the project's kind and allocates 3.3 GB in 71 million
// allocations (BenchmarkWalk). It also cannot walk DWARF 4 .debug_types
// units, leaves DW_FORM_loclistx unresolved, reads only one .debug_info of
// an object file with COMDAT type units, and has no way to hand units to
// several goroutines. This package decodes the same attributes (checked
// value for value against debug/dwarf on the C corpus, 20 modules and the
// vmlinux, and against readelf's tag histogram) with no allocation per DIE:
// about 15,000 allocations per full walk of the vmlinux, 7 per unit, and a
// peak RSS of about 230 MiB including the mapped file. See BenchmarkWalk and
// scripts/bench-dwarf for the time ratio on the machine at hand.
//
// # Design
//
// An ELF file is mapped read-only (elfx); uncompressed sections of linked
// files are used in place, compressed sections are inflated and the
// relocations of ET_REL files (kernel modules, objects) applied to private
// copies. New indexes the unit headers (Data.Units) without reading DIEs.
// For each unit, its abbreviation table is parsed once into a flat table of
// Field templates and fixed-size layouts; a DIE whose attributes all have
// fixed sizes is decoded by masked 8-byte loads at precomputed offsets,
// others by a switch on the form. Values are normalised by class when they
// are decoded (references become global offsets, strx/addrx/loclistx/
// rnglistx are looked up through the unit's bases), so a consumer never
// needs the form. Strings are views of the mapped sections (unsafe.String),
// valid until Data.Close.
//
// A UnitReader fills a caller-owned Entry (Next), can skip subtrees
// (SkipChildren, using DW_AT_sibling when present), Seek within its unit,
// and decode a DIE at any global Offset (EntryAt) to follow DW_AT_type,
// DW_AT_abstract_origin, DW_AT_specification or DW_FORM_ref_addr across
// units. Walk hands units to N goroutines dynamically and gives their
// results to the caller in unit order, so output never depends on
// scheduling.
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
