// Package elfx holds the ELF plumbing btfkit needs around debug/elf: opening
// a file by mmap, finding sections by name, returning section contents with
// SHF_COMPRESSED (zlib, zstd) and legacy .zdebug_* compression undone, and
// applying the relocations of ET_REL inputs (kernel modules, object files)
// to debug sections.
//
// Header parsing is delegated to the standard library's debug/elf, which is
// given a reader over the mapped bytes, so headers are parsed without
// reading the file twice. Section contents are returned as views of the
// mapping whenever no transformation is needed; decompressed or relocated
// sections are private heap copies.
//
// elfx owns the ELF container. It must not know DWARF or BTF: callers ask
// for sections by name and get bytes back, and WriteSections adds or
// replaces sections of a file atomically (write.go).
package elfx
