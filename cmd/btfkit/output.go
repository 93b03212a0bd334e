package main

import (
	"fmt"
	"os"

	"github.com/btfkit/btfkit/internal/atomicfile"
)

// writeOutput writes a command's output file: `encode -o` and --out-dir,
// `dedup -o`, `sort -o`, `downgrade -o`, `pahole --btf_encode_detached`.
// "-" is standard output (-o -, as everywhere). All others go through
// internal/atomicfile, so they behave the same: a regular file is replaced
// atomically (temporary file beside it, sync, rename; its mode kept, 0644
// for a new one), a symbolic link is followed, and /dev/stdout, a pipe or a
// device is written through. On error the earlier file is left as it was
// and the error names path. An -o naming one of the inputs is refused
// before the command runs (cmdline.go).
func writeOutput(path string, data []byte) error {
	if path == "-" {
		if _, err := os.Stdout.Write(data); err != nil {
			return fmt.Errorf("standard output: %w", err)
		}
		return nil
	}
	_, err := atomicfile.Write(path, data, atomicfile.Options{})
	return err
}
