// Package kmod finds Linux kernel module files: what a module file is
// called (.ko, and .ko.xz, .ko.zst, .ko.gz compressed), a module's name
// (its file name without those suffixes), and the modules of a directory
// tree such as /lib/modules/VERSION or a distribution's debug package, in
// a deterministic order. A BTF encoder for a whole kernel (btfkit encode,
// a BTFHub-style tool) starts here.
//
// It looks only at names and directories: opening and decompressing a
// module is elfx's, and it knows nothing of ELF, DWARF or BTF.
package kmod
