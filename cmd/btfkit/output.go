package main

import "github.com/btfkit/btfkit/internal/atomicfile"

// writeOutput writes a command's output file: `encode -o` and --out-dir,
// `dedup -o`, `pahole --btf_encode_detached`. All go through
// internal/atomicfile, so they behave the same: a regular file is replaced
// atomically (temporary file beside it, sync, rename; its mode kept, 0644
// for a new one), a symbolic link is followed, and /dev/stdout, a pipe or a
// device is written through. On error the earlier file is left as it was
// and the error names path.
func writeOutput(path string, data []byte) error {
	_, err := atomicfile.Write(path, data, atomicfile.Options{})
	return err
}
