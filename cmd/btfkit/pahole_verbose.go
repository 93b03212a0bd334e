package main

import (
	"bufio"
	"io"

	"github.com/btfkit/btfkit/encode/funcvar"
)

// paholeSkipWords are pahole 1.31's words, in its --verbose line
// "NAME : skipping BTF encoding of function due to REASON", for the
// reasons both encoders give (pahole misspells one; scripts grep these
// lines, so they are printed as pahole prints them). btfkit's other
// reasons (no symbol, unnamed parameters) have no such line in pahole.
var paholeSkipWords = map[string]string{
	funcvar.ReasonUnexpectedReg: "unexpected register usage for parameter",
	funcvar.ReasonInconsistent:  "inconsistet prototype",
	funcvar.ReasonUncertainLoc:  "uncertain parameter location",
	funcvar.ReasonReordered:     "reordered parameters",
	funcvar.ReasonOptimized:     "optimized parameters",
	funcvar.ReasonAmbiguous:     "ambiguous address",
}

// writePaholeSkips prints pahole -J --verbose's lines for the functions
// left out of the BTF (in name order, as pahole logs them).
func writePaholeSkips(w io.Writer, rep *funcvar.Report) error {
	bw := bufio.NewWriter(w)
	for _, s := range rep.Skipped {
		words, ok := paholeSkipWords[s.Reason]
		if !ok {
			continue
		}
		bw.WriteString(s.Name)
		bw.WriteString(" : skipping BTF encoding of function due to ")
		bw.WriteString(words)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
