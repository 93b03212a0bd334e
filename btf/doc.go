// Package btf is btfkit's model of the BPF Type Format: an ID-indexed table
// of types with an interned string table, read from and written to raw BTF,
// ELF .BTF sections, BTF archives and /sys/kernel/btf.
//
// A caller loads BTF with LoadFile (a raw file, an ELF file's .BTF,
// /sys/kernel/btf/vmlinux; a module's with its base) or Parse, walks its
// types by ID from FirstID to NextID through Type views (Kind, Name, Size,
// Member, ...), and writes it back with Marshal; NewSpec and Add build
// BTF, Check validates it by the kernel's rules.
//
// The model is flat on purpose. A Spec holds one fixed 12-byte header per
// type and one shared slice of trailing 32-bit words (members, parameters,
// enumerators, ...), exactly the information of the on-disk format and
// nothing derived, so a vmlinux BTF of 100,000+ types costs a handful of
// allocations, reading is a bounds-checked copy, and writing is its mirror.
// Type is a by-value view onto one entry; its accessors decode fields on
// demand. A split Spec (module BTF) extends a base Spec: IDs and string
// offsets continue after the base's.
//
// The format's packed words are taken apart here and nowhere else: a
// type's info word by KindOf, VlenOf and KindFlagOf (built by Info), a
// member's offset word by MemberOffset, a string out of a string table
// by CString; ExtraWords is the size of each kind's record. Readers may
// share a Spec across goroutines (see Spec).
//
// Everything downstream (dedup, C dump, layouts, the encoder's output) works
// on this model and never on DWARF. This package must not know about DWARF,
// ELF writing, or any output format other than raw BTF.
package btf
