package pfunct

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
	"github.com/btfkit/btfkit/internal/ctype"
)

// DW_AT_inline values (pahole's function->inlined).
const (
	inlNotInlined         = 0
	inlInlined            = 1 // not declared inline, inlined by the compiler
	inlDeclaredNotInlined = 2
	inlDeclaredInlined    = 3
)

// DW_AT_virtuality values.
const (
	virtualityVirtual     = 1
	virtualityPureVirtual = 2
)

// unit is pahole's cu as pfunct uses it: one DWARF compile unit, or a
// whole BTF. Its functions are in the order of pahole's functions table
// (for DWARF, the order in which the loader finishes reading each
// subprogram: nested ones before their enclosing one; for BTF, by ID).
// Types are named through spec: for DWARF, the unit's types converted by
// package encode, with facts mapping the DWARF entries to their IDs.
type unit struct {
	name  string // DW_AT_name of the compile unit; the file name for BTF
	btf   bool   // loaded from BTF
	spec  *btf.Spec
	facts *dwarffacts.Facts
	funcs []*function
	vars  []*item     // pglobal: every variable, in the order of pahole's tags table (loadFlags.globals)
	types []typeEntry // pdwtags: the type entries, in the order of pahole's types table (loadFlags.types)
	// pdwtags: the unit's top-level C++ namespaces (loadFlags.types).
	namespaces []*namespace

	// BTF decl tags: on functions (by index in funcs) and on the
	// parameters of FUNC_PROTOs (shared by every FUNC of that proto, as
	// pahole attaches them to the proto's parameter).
	parmAttrs map[parmKey][]string

	emitted *ctype.Emitter // -b/--compile: what this unit has emitted (emit.go)
	nm      *namer         // how its types are spelled (printer.namer)
}

type parmKey struct {
	proto btf.TypeID
	idx   int
}

// function is pahole's struct function, with what pfunct prints of it.
type function struct {
	name        string
	linkage     string // DW_AT_MIPS_linkage_name
	hasName     bool
	inlined     uint8 // DW_AT_inline
	declaration bool
	external    bool
	origin      bool // has DW_AT_abstract_origin
	topLevel    bool
	virtuality  uint8
	btf         bool
	proto       btf.TypeID // BTF: the FUNC_PROTO
	ret         btf.TypeID // DWARF: the return type
	params      []*param   // DWARF
	unspec      bool       // DWARF: "..."
	attrs       []string   // BTF decl tags

	block block // the function's own lexical block

	// Accumulated over the unit by account (cu__account_inline_expansions):
	// how often and with how many bytes this function was inlined.
	cuNrInline   uint16
	cuSizeInline uint32

	declFile string
	hasFile  bool
	declLine uint32
	off      uint64 // DIE offset, pahole's orig_id

	retOff, originOff, specOff uint64 // before recoding
}

// param is one parameter of a DWARF function, or a formal parameter
// found in a lexical block.
type param struct {
	name      string
	typ       btf.TypeID
	typeOff   uint64 // DW_AT_type
	originOff uint64 // DW_AT_abstract_origin
	line      uint32
	off       uint64
}

// block is pahole's lexblock: a function's body or a lexical block in it.
type block struct {
	addr        uint64
	size        uint32
	items       []*item
	nrInline    uint16
	nrLabels    uint16
	nrVariables uint16
	nrBlocks    uint16
	sizeInline  uint32
}

// Kinds of item.
const (
	itemBlock = iota
	itemVariable
	itemLabel
	itemInline
	itemParam // a formal parameter found in a lexical block
)

// item is one entry of a lexical block's list, in the order pahole adds
// them.
type item struct {
	kind   uint8
	scope  uint8 // variables: vscope*
	name   string
	typ    btf.TypeID
	line   uint32
	off    uint64
	addr   uint64
	size   uint64
	origin int // inline expansions: index of the inlined function in unit.funcs, -1 if not found
	block  *block
	parm   *param // itemParam

	external, declaration bool // variables: DW_AT_external, DW_AT_declaration
	// noRecode: a variable at the unit's top level or in an inline
	// expansion (pahole's tags table only), which takes neither name nor
	// type from its abstract origin.
	noRecode bool

	typeOff, originOff uint64 // variables and labels, before recoding
}

// Variable scopes (pahole's enum vscope).
const (
	vscopeUnknown = iota
	vscopeLocal
	vscopeGlobal
	vscopeRegister
	vscopeOptimized
)

func scopeString(s uint8) string {
	switch s {
	case vscopeLocal:
		return "local"
	case vscopeGlobal:
		return "global"
	case vscopeRegister:
		return "register"
	case vscopeOptimized:
		return "optimized"
	}
	return "unknown"
}

// declaredInline is pahole's function__declared_inline.
func (f *function) declaredInline() bool {
	return f.inlined == inlDeclaredInlined || f.inlined == inlDeclaredNotInlined
}

// nrParms is pahole's function->proto.nr_parms: for a function read
// from BTF, whose parameters live in its FUNC_PROTO, zero.
func (f *function) nrParms() int {
	return len(f.params)
}
