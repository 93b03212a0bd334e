// Package testenv is what tests know about the machine they run on, in one
// place: the repository's reference outputs (testdata/reference, stored
// compressed and unpacked at test time), the Debian kernel inputs the large
// tests read (scripts/kernel-inputs, or $VMLINUX and $MODULES), the btfkit
// binary the command tests run, and the one policy for a missing
// prerequisite: SkipOrFail skips visibly, and fails when CI=true, because CI
// installs everything scripts/install-test-deps names.
//
// It must not know what the files contain (BTF, DWARF) nor how btfkit
// works; it only finds, unpacks and builds things. Only tests and their
// helpers (internal/testsupport/testc) import it.
package testenv
