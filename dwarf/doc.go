// Package dwarf is btfkit's DWARF 2–5 reader: the foundation of the
// DWARF→BTF encoder and the hot path of every encode.
//
// # Why not debug/dwarf
//
// The Debian 6.1 cloud vmlinux has 164 MB of .debug_info: 2,172 compile
// units, 14,259,548 DIEs (plus 2.5 million null entries) and 62 million
// attributes. Go's debug/dwarf allocates an Entry, a []Field and an
// interface value per attribute for every DIE: walking that vmlinux costs
// it 71,256,279 allocations and 3.28 GB per walk. On an idle machine of the
// project's kind it takes about 2.3 s; an abbreviation-driven reader with
// no per-DIE allocation takes about 0.30 s on one core. Measured here with
// scripts/bench-dwarf (BenchmarkWalk, best of 3; every attribute decoded
// and every string resolved; on a shared 2-vCPU machine with a load average
// near 12):
//
//	debug/dwarf        9.88 s wall   5.48 s CPU   71,256,279 allocs   3,284 MB
//	this package -j1   1.26 s wall   1.13 s CPU       15,258 allocs      63 MB
//	this package -j2   2.41 s wall   1.14 s CPU       15,262 allocs      63 MB
//
// that is 7.8 times less wall time and 4.8 times less CPU time on one
// core, and 7 allocations per unit instead of about one per attribute. A
// two-worker full walk peaks at 231 MiB RSS, the mapped file included
// (TestWalkRSS). On that machine two workers were slower than one, as was
// a plain two-goroutine CPU loop: the machine did not give one process two
// CPUs' worth; Walk itself does no per-DIE synchronisation.
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
