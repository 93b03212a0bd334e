// Package routediff explains the differences between the BTF of the
// DWARF route (package encode) and of the BTF-archive route (package
// encode/frombtf) for the same file: it sorts the lines `btfkit diff`
// (package btf/diff) prints into known causes, each checked against the
// two BTFs, the file's DWARF and its symbols, and leaves the rest
// unexplained. kernel-e2e's archive mode (e2etool route-causes) and the
// frombtf tests use it.
//
// The causes are what gcc's -gbtf cannot say (gcc 12's enums, which gcc
// 14 and 15 write right; no gcc's types defined in function bodies:
// scripts/gcc-btf-causes shows both) and what BTF does not carry (see
// encode/frombtf's doc); a line is put under one only when the
// inputs show it: the enum of an enum line is lossy in the DWARF route's
// BTF, a type left out is one the DWARF defines inside a function body, a
// function left out by one route has that route's reason in its report.
//
// This package must not know how either route works; it reads their
// results.
package routediff
