package funcvar

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

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
// FUNC, each with the reason, and the variables encode_force left out.
type Report struct {
	Skipped []Skipped // sorted by name, then reason
	Encoded int       // FUNCs encoded
	// LeftOut are the variables left out for what pahole warns of
	// (--verbose): a name BTF cannot hold (with encode_force; without it
	// the first such name is an *InvalidVarError), a size of zero or
	// more than 32 bits, an address past 32 bits; in unit order.
	LeftOut []LeftOutVar

	// Mismatches are the prototypes found to differ between units
	// (consistent_func leaves their functions out), in name order: the
	// first difference of each function, as pahole -V logs it.
	Mismatches []Mismatch

	// Log asks for Units: what pahole -V logs of each unit as its
	// encoder adds the unit's types and variables (Selection.LogTo).
	Log   bool
	Units []UnitLog
}

// UnitLog is one unit's part of pahole's -V log. The IDs are those of
// the table the units were merged into, which are the output's only when
// nothing was deduplicated (encode.Options.NoDedup), as pahole's encoder
// numbers the types it logs.
type UnitLog struct {
	Name string // the unit's DW_AT_name
	// TypesEnd is the ID after the unit's types; End the ID after its
	// variables (VARs and their DECL_TAGs), which start at TypesEnd.
	TypesEnd, End btf.TypeID
	// NoSymbol are its functions that have parameter names but no
	// function symbol in the ELF ("could not find function ... in the
	// ELF functions table"), in the unit's order.
	NoSymbol []string
	Vars     []VarLog // its VARs, in order
	// AddedInt is the "int" the encoder added among the unit's types as
	// the index type of its arrays (its DWARF has none), 0 if none.
	// pahole's encoder adds one for the first unit that needs it and
	// gives it to every later unit's arrays.
	AddedInt btf.TypeID
}

// VarLog is a variable encoded: its name and its address (from the
// section's start).
type VarLog struct {
	Name string
	Addr uint64
}

// LeftOutVar is a variable left out, and why.
type LeftOutVar struct {
	Name string
	Why  VarReason
	Addr uint64 // its address from its section's start (FarAddress)
}

// VarReason is why a variable was left out.
type VarReason uint8

const (
	InvalidName VarReason = iota // not a valid BTF name (encode_force)
	ZeroSize                     // its type's size is 0
	OverSize                     // its type's size does not fit in 32 bits
	FarAddress                   // its address does not fit in 32 bits
)

// Mismatch is the first difference found between two prototypes of the
// function (by ELF symbol name) Name, as pahole's funcs__match finds it.
type Mismatch struct {
	Name string
	What MismatchKind
	// ParamCount: the two parameter counts.
	Counts [2]uint32
	// ParamType: the parameter's index, from 0, and the two parameters'
	// names (string offsets of the output the units were merged into).
	Param      uint32
	ParamNames [2]uint32
}

// MismatchKind says what differs first.
type MismatchKind uint8

const (
	ParamCount MismatchKind = iota // the number of parameters
	ReturnType                     // the return types
	ParamType                      // the type of parameter Param
)

// InvalidVarError is a variable pahole refuses to encode, and so stops,
// unless encode_force leaves it out: its name is not a valid BTF name, or
// it has no type.
type InvalidVarError struct {
	Name string
	Void bool   // it has no type (its name is valid)
	Unit string // the unit's DW_AT_name, for Void
}

func (e *InvalidVarError) Error() string {
	if e.Void {
		return fmt.Sprintf("variable %q has void type (encode_force leaves it out)", e.Name)
	}
	return fmt.Sprintf("invalid BTF name for variable %q (encode_force leaves it out)", e.Name)
}

// Skipped is one function left out, and why (a Reason).
type Skipped struct {
	Name, Reason string
}
