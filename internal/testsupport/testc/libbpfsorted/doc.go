// Package libbpfsorted builds and runs a small C harness around libbpf's
// btf__find_by_name_kind, so tests can tell whether libbpf found a BTF
// sorted by name (it then searches by bisection from the first named type)
// or not (it scans). The harness is linked with -Wl,--wrap=strcmp to count
// the string comparisons a lookup makes, and can give an anonymous type
// the sought name in libbpf's parsed copy, which a scan finds and a
// bisection does not (c/harness.c says how).
//
// Sorted-BTF detection came with libbpf 1.7.0 (btf_check_sorted); Debian
// 12's libbpf-dev is 1.1. The harness links the static libbpf that
// scripts/libbpf-static builds from Debian sid's source into DefaultDir
// (scripts/install-test-deps runs it), or the one under $BTFKIT_LIBBPF: a
// directory with libbpf.a and include/bpf/btf.h. It checks that the
// libbpf it linked says it is 1.7 or newer.
//
// It must not know BTF's format nor btfkit's sort: it only asks libbpf.
package libbpfsorted
