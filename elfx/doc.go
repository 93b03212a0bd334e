// Package elfx is btfkit's one way into ELF files: every package that reads
// an ELF file (vmlinux, a kernel module, an object file) opens it here, and
// no other package opens, maps or parses one, decodes its symbol tables, or
// checks the ELF magic itself (only_test.go holds the repository to that).
//
// It owns:
//   - opening (Open): a plain file is mapped read-only once, and its
//     headers are parsed by the standard library's debug/elf over the
//     mapped bytes; a compressed file (.ko.xz, .ko.zst, .ko.gz, recognised by
//     content) is decompressed in memory; a file that is not ELF is an
//     error whose cause is ErrNotELF. Map maps other files (raw BTF) the
//     same way;
//   - sections: by name (SectionData, ReadSection for one section's private
//     copy), debug sections with SHF_COMPRESSED (zlib, zstd) and legacy
//     .zdebug_* compression undone (Contents, DebugSection, Merged), and
//     the relocations of ET_REL inputs (kernel modules, object files)
//     applied to debug sections (reloc.go). Contents are views of the
//     mapping whenever no transformation is needed, private heap copies
//     otherwise (outside the Go heap until Close, after CopiesUntilClose); Release drops the resident pages of a view a reader is
//     done with (madvise; they read back unchanged from the file);
//   - symbol tables: .symtab as debug/elf reads it (Symbols), any symbol
//     table by name entry by entry, indexed as the file numbers its
//     symbols (SymbolTable, symtab.go, for pfunct --symtab; relocations
//     read their symbols' values with the same decoder);
//   - the kernel's .BTF_ids section, read as
//     its BTF_ID macros lay it out (Set8Funcs: the functions of BTF_SET8
//     sets, such as kfunc sets, with their flags);
//   - writing sections into a file, in place or to another file
//     (WriteSections, WriteSectionsTo, write.go): replaced, added or
//     removed, the sections after the first change laid out again so
//     that no replaced bytes stay behind, on the atomic writer of
//     internal/atomicfile.
//
// Errors about a file are *Error: the path, the section and the offset in
// it where known, and the cause, for errors.As and errors.Is; NamingFile
// adds the path to a caller's own errors once. The ELF header and the
// header tables are checked to lie in the file before debug/elf reads
// them. What a compressed input may cost is bounded by its size: a
// compressed section declaring more than its format expands to is refused
// before anything is allocated, decompression stops at the declared size,
// and a compressed file stops at max(64 MiB, 1032 times its size) (an xz
// dictionary too).
//
// elfx must not know DWARF or BTF: callers ask for sections by name and get
// bytes back; the IDs in .BTF_ids are numbers it does not interpret.
package elfx
