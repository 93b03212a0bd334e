package main

// encode's steps after the encoder: --sort and --target-kernel, the same
// rewrites as 'btfkit sort' and 'btfkit downgrade'.

import (
	"fmt"
	"io"

	"github.com/btfkit/btfkit/btf"
	"github.com/spf13/pflag"
)

func addEncodePostFlags(f *pflag.FlagSet) {
	f.BoolVar(&encodeOpts.sort, "sort", false, "order the types by name, as Linux 7.0's resolve_btfids does (see btfkit sort)")
	f.StringVar(&encodeOpts.target, "target-kernel", "", "write BTF that Linux `VERSION` accepts (see btfkit downgrade)")
}

// encodePost applies --target-kernel, then --sort, to an encoded Spec.
func encodePost(s *btf.Spec, w io.Writer) (*btf.Spec, error) {
	if encodeOpts.target != "" {
		var err error
		if s, err = downgradeSpec(s, encodeOpts.target, w); err != nil {
			return nil, err
		}
	}
	if encodeOpts.sort {
		s, _ = btf.SortByName(s)
	}
	return s, nil
}

// checkEncodePostModules refuses --sort and --target-kernel where encode
// writes modules (--base, --out-dir, --in-place): not supported there yet.
func checkEncodePostModules() error {
	if encodeOpts.sort || encodeOpts.target != "" {
		return fmt.Errorf("--sort and --target-kernel apply to one FILE without --base, --out-dir or --in-place; sort modules with 'btfkit sort --base'")
	}
	return nil
}
