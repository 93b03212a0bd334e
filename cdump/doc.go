// Package cdump turns BTF into the text bpftool prints for it: a C header,
// the vmlinux.h that CO-RE BPF programs include, and the raw listing of
// `bpftool btf dump file X` (WriteRaw, AppendRaw: one line per type and
// per member, byte-identical to bpftool 7.1's).
//
// The header is byte-for-byte what Debian's bpftool 7.1 prints for
// `bpftool btf dump file X format c`: the same type order (libbpf's
// topological walk, which emits a forward declaration only where a pointer
// allows it), the same inlining of anonymous structs, unions and enums, the
// same padding (`long: 64;`, `int: 0;`), bitfields and packed attribute,
// the same `___N` suffixes for names that occur more than once, the same
// function-pointer and array declarators, and the same wrapper (include
// guard and `#pragma clang attribute push(__attribute__((preserve_access_index)), ...)`).
// Being identical to that oracle is the contract; the tests compare with
// the installed bpftool at test time.
//
// That bpftool is built from the kernel 6.1 stable tree, whose libbpf sits
// between upstream releases: it has libbpf 1.1's padding and packed-struct
// rules and prints "(void)" for prototypes without parameters (a later fix,
// backported), but it does not give 1- and 8-byte enums a mode(byte) or
// mode(word) attribute. Where that makes the header disagree with the BTF
// (odd-sized enums, "complex double", over-aligned union members),
// Options.FixLayout prints correct C instead, at the price of no longer
// matching bpftool there.
//
// What the package owns:
//   - the raw listing of a btf.Spec's types (WriteRaw, AppendRaw);
//   - ordering and printing C declarations for the types of a btf.Spec
//     (Bytes, Write); the topological ordering runs on its own goroutine
//     ahead of the printing, and the output does not depend on scheduling;
//   - writing a header file only when its bytes change (WriteFile,
//     UpdateFile), so build rules depending on it do not fire;
//   - concatenating a base's split Specs (vmlinux's modules) into one Spec
//     to print as one header (Combine);
//   - bounds on work and output, so malformed BTF gives an error rather
//     than an exponential walk.
//
// What it must not know: how BTF is read or where it came from (raw file,
// ELF, sysfs: package btf), DWARF, deduplication (Combine only concatenates;
// merging types several modules share is btf/dedup's, wired by the
// command), and command-line flags (cmd/btfkit). It prints only what a
// btf.Spec says.
package cdump
