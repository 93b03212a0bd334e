//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package dwarf

// hostBigEndian is a constant so that the byte-order tests on the hot
// paths (strlen, the fixed-size decoder) compile away.
const hostBigEndian = false
