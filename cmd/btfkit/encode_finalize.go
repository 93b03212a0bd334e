package main

// encode --finalize: the encoded BTF through resolve_btfids' BTF stage
// (finalize.go), as a Linux 7.x build's gen-btf.sh does after pahole.

import (
	"fmt"
	"io"

	"github.com/btfkit/btfkit/btf"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

var encodeFinalizeOpts struct {
	on bool
	finalizeFlags
}

func addEncodeFinalizeFlags(f *pflag.FlagSet) {
	f.BoolVar(&encodeFinalizeOpts.on, "finalize", false, "then do what Linux 7.x's resolve_btfids --btf does with FILE's .BTF_ids (see btfkit finalize)")
	encodeFinalizeOpts.finalizeFlags.add(f, "finalize-distill-base", "finalize-ids-out", "finalize-base-out")
	encodeCmd.PreRunE = func(*cobra.Command, []string) error {
		if encodeFinalizeOpts.on && (encodeOpts.out == "" || encodeOpts.from != "dwarf") {
			return fmt.Errorf("--finalize takes one FILE, its DWARF, and -o (not --out-dir, --in-place or --from btf)")
		}
		return nil
	}
}

// encodeFinalize applies --finalize to the BTF encoded from path.
func encodeFinalize(s *btf.Spec, path string, stderr io.Writer) (*btf.Spec, error) {
	o := &encodeFinalizeOpts
	if !o.on {
		if o.distill || o.idsOut != "" || o.baseOut != "" {
			return nil, fmt.Errorf("--finalize-distill-base, --finalize-ids-out and --finalize-base-out go with --finalize")
		}
		return s, nil
	}
	if encodeOpts.sort {
		return nil, fmt.Errorf("--finalize sorts already; --sort is not needed")
	}
	return o.finalizeFlags.run(s, path, stderr)
}
