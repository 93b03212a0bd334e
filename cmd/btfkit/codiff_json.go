package main

// btfkit codiff --format json: codiff's changes as one JSON document
// (pfunct.CodiffResult), for CI.

import (
	"encoding/json"
	"io"

	"github.com/btfkit/btfkit/pfunct"
)

func init() {
	codiffJSON = func(w io.Writer, oldPath, newPath string, o pfunct.CodiffOptions) (bool, error) {
		r, err := pfunct.CodiffReport(oldPath, newPath, o)
		if err != nil {
			return false, err
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return r.Changed, enc.Encode(r)
	}
}
