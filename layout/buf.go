package layout

import "github.com/btfkit/btfkit/internal/cfmt"

// buf collects output with the printf forms pahole uses (internal/cfmt,
// shared with pfunct).
type buf = cfmt.Buf

func numStr(v uint64, hex bool) string { return cfmt.NumStr(v, hex) }

// plural is pahole's "%s" of n != 1 ? "s" : "".
func plural(n int64) string {
	if n != 1 {
		return "s"
	}
	return ""
}
