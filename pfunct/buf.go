package pfunct

import "github.com/btfkit/btfkit/internal/cfmt"

// buf collects output with the printf forms pfunct uses (internal/cfmt,
// shared with layout).
type buf = cfmt.Buf
