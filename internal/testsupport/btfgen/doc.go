// Package btfgen makes BTF for tests: random valid BTF from a fuzzer's
// bytes (Random: every kind, references only to earlier or later types
// where C allows, sizes and offsets consistent, so that Check accepts it),
// and the hostile shapes robustness tests feed every command (PtrChain,
// StructNest, Cycles).
//
// It must not know how btfkit reads, deduplicates or prints BTF: it only
// builds Specs through the btf package's API.
package btfgen
