// Package atomicfile is btfkit's one way of writing an output file: the new
// contents go to a temporary file in the target's directory, which is
// synced and then renamed over the target, so a reader (or a crash) sees
// either the old file or the complete new one, never a half-written file,
// and a failure leaves the old file as it was and no temporary file behind.
//
// Write is what commands and libraries call for bytes they hold: `btfkit
// encode -o` and its --out-dir batch, `btfkit dedup -o`, `pahole
// --btf_encode_detached`, and cdump.UpdateFile (with IfChanged, so that a
// vmlinux.h whose bytes did not change keeps its mtime and build rules do
// not fire). A target that is not a regular file, such as /dev/stdout, a
// pipe or a terminal, is written straight through instead, since renaming
// over it would replace the device node or the /proc link rather than
// write to what it stands for. Create and Temp.Commit are the core that
// Write builds on, for writers that make the new file themselves
// (elfx.WriteSections writes the edited ELF file into the temporary file).
//
// The package lives under internal/ rather than in elfx because its users
// are not all ELF writers: cdump writes C headers and must not depend on the
// ELF package, and the commands write raw BTF. It knows nothing about what
// the bytes are.
package atomicfile
