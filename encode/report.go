package encode

import "github.com/btfkit/btfkit/encode/internal/funcvar"

// What an encoding says about the functions and variables it decided
// (Options.Report). The rules that decide them are pahole 1.32's and stay
// inside the encoder (encode/internal/funcvar); these are the names a
// caller needs to read a Report.

// Report lists what the encoder decided about functions and variables:
// Skipped, the functions that have DWARF and an address but got no FUNC,
// each with its reason (one of the Reason constants), sorted by name,
// then reason; Encoded, the number of FUNCs encoded; LeftOut, the
// variables left out for what pahole warns of with --verbose, in unit
// order; Mismatches, the first difference between two prototypes of each
// function consistent_func left out, in name order. With Log set before
// the encoding, Units gets what pahole -V logs of each unit (UnitLog).
type Report = funcvar.Report

// Skipped is one function left out: Name, and Reason (a Reason constant).
type Skipped = funcvar.Skipped

// Reasons a function is left out (Skipped.Reason), as pahole words them.
const (
	ReasonUnexpectedReg = funcvar.ReasonUnexpectedReg // a parameter not where the calling convention puts it
	ReasonInconsistent  = funcvar.ReasonInconsistent  // units disagree on its prototype (consistent_func)
	ReasonUncertainLoc  = funcvar.ReasonUncertainLoc  // a parameter's location cannot be checked
	ReasonReordered     = funcvar.ReasonReordered     // its parameters were reordered
	ReasonOptimized     = funcvar.ReasonOptimized     // an optimized clone with parameters optimized out
	ReasonAmbiguous     = funcvar.ReasonAmbiguous     // its name has more than one address
	ReasonNoArgNames    = funcvar.ReasonNoArgNames    // its parameters have no names
	ReasonNoSymbol      = funcvar.ReasonNoSymbol      // no function symbol in the ELF symbol table
	ReasonPartOnly      = funcvar.ReasonPartOnly      // only .part/.cold symbols
	ReasonClonesOnly    = funcvar.ReasonClonesOnly    // only optimized clones, from BTF (encode/frombtf)
)

// LeftOutVar is a variable left out (Report.LeftOut): Name, Why (a
// VarReason) and, for VarFarAddress, Addr, its address from its
// section's start.
type LeftOutVar = funcvar.LeftOutVar

// VarReason is why a variable was left out.
type VarReason = funcvar.VarReason

// Why a variable was left out (LeftOutVar.Why).
const (
	VarInvalidName = funcvar.InvalidName // not a valid BTF name (encode_force)
	VarZeroSize    = funcvar.ZeroSize    // its type's size is 0
	VarOverSize    = funcvar.OverSize    // its type's size does not fit in 32 bits
	VarFarAddress  = funcvar.FarAddress  // its address does not fit in 32 bits
)

// Mismatch is the first difference found between two prototypes of the
// function (by ELF symbol name) Name, as pahole's funcs__match finds it:
// What differs; for MismatchParamCount the two counts (Counts); for
// MismatchParamType the parameter's index from 0 (Param) and the two
// parameters' names (ParamNames, string offsets of the BTF returned).
type Mismatch = funcvar.Mismatch

// MismatchKind says what differs first between two prototypes.
type MismatchKind = funcvar.MismatchKind

// What differs first (Mismatch.What).
const (
	MismatchParamCount = funcvar.ParamCount // the number of parameters
	MismatchReturnType = funcvar.ReturnType // the return types
	MismatchParamType  = funcvar.ParamType  // the type of parameter Param
)

// UnitLog is one unit's part of pahole's -V log (Report.Units, with
// Report.Log): the unit's DW_AT_name (Name); TypesEnd, the ID after the
// unit's types, and End, the ID after its variables (VARs and their
// DECL_TAGs, which start at TypesEnd); NoSymbol, its functions with
// parameter names but no function symbol; Vars, its VARs in order;
// AddedInt, the "int" the encoder added as its arrays' index type (0 if
// none). The IDs are the output's when Options.NoDedup is set.
type UnitLog = funcvar.UnitLog

// VarLog is a variable encoded (UnitLog.Vars): its name and its address
// from its section's start.
type VarLog = funcvar.VarLog

// InvalidVarError is the error for a variable pahole refuses to encode,
// and so stops, unless encode_force leaves it out: its Name is not a
// valid BTF name, or it has no type (Void; Unit names the unit).
type InvalidVarError = funcvar.InvalidVarError
