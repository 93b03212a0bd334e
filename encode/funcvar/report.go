package funcvar

// Reasons a function is left out, as pahole words them.
const (
	ReasonUnexpectedReg = "unexpected register usage for parameter"
	ReasonInconsistent  = "inconsistent prototype"
	ReasonUncertainLoc  = "uncertain parameter location"
	ReasonReordered     = "reordered parameters"
	ReasonOptimized     = "optimized parameters"
	ReasonAmbiguous     = "ambiguous address"
	ReasonNoArgNames    = "unnamed parameters"
	ReasonNoSymbol      = "no ELF function symbol"
	ReasonPartOnly      = "only .part/.cold symbols (partly inlined)"
)

// Report lists the functions that have DWARF and an address but got no
// FUNC, each with the reason.
type Report struct {
	Skipped []Skipped // sorted by name, then reason
	Encoded int       // FUNCs encoded
}

// Skipped is one function left out, and why (a Reason).
type Skipped struct {
	Name, Reason string
}
