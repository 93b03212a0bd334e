// Package cdump turns BTF into a C header: the vmlinux.h that CO-RE BPF
// programs include.
//
// The output is byte-for-byte what `bpftool btf dump file X format c`
// prints with bpftool 7.1 / libbpf 1.1: the same type order (a topological
// walk that emits forward declarations only where a pointer allows it), the
// same inlining of anonymous structs, unions and enums, the same padding,
// bitfield, packed and enum-size attributes, the same `___N` suffixes for
// names that occur more than once, and the same
// `#pragma clang attribute push(__attribute__((preserve_access_index)), ...)`
// wrapper. Being identical to that oracle is the contract; every rule in
// this package exists to reproduce it, and the tests compare against the
// installed bpftool at test time.
//
// What the package owns:
//   - ordering and emitting C declarations for the types of a btf.Spec
//     (Write, WriteTypes);
//   - writing a header file only when its bytes change (WriteFile), so that
//     build systems depending on it do not rebuild;
//   - combining a base BTF and several split BTFs (vmlinux and modules)
//     into one header (Combine).
//
// What it must not know: how BTF is read or where it came from (raw file,
// ELF, sysfs: that is package btf), DWARF, deduplication (a combined Spec is
// only concatenated here; dedup belongs to btf/dedup), and command-line
// flags (cmd/btfkit). It prints only what a btf.Spec says.
package cdump
