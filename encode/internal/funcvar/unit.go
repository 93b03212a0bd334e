package funcvar

import (
	"sort"
	"strings"

	"github.com/btfkit/btfkit/dwarf"
)

// Functions and variables, per unit.
//
// The walk hands every entry of a unit to Add, which records every
// top-level subprogram (with its direct parameter children) and every
// top-level variable. After the unit's types have their IDs, Finish
// applies pahole's per-unit rules (params.go): names and types of
// out-of-line instances come from their abstract origin, parameter
// locations are checked against the calling convention (optimized-out
// parameters, unexpected registers), and the result is a list of function
// candidates ("states" in pahole) carried to the merge (Candidates).
// Which candidates become FUNCs is decided after the merge (select.go),
// when every unit's candidates and the ELF symbol table are known.
// Variables are decided per unit and carried along too, so that the merge
// can drop duplicates.

// subprogram is one top-level subprogram of the unit.
type subprogram struct {
	off              uint64
	name             string
	typ              uint64
	has              Flags
	lowPC            uint64
	origin           uint64
	spec             uint64
	annotation       uint64
	variadic         bool  // ends with DW_TAG_unspecified_parameters
	params0, nParams int32 // its parameters: Unit.params[params0 : params0+nParams]
	declTags0, nTags int32 // its LLVM decl tags: Unit.declTags[declTags0 : declTags0+nTags]
	reordered        bool  // an instance lists its origin's parameters in another order
	optimized        bool  // pahole's optimized_parms
	unexpected       bool  // pahole's unexpected_reg
	signatureChanged bool  // clang's DW_CC_nocall: the compiler changed the signature
	inOtherUnit      bool  // the abstract origin is in another unit (LTO)
	originFlags      Flags // inOtherUnit: the origin's NoCall and Inline
}

// param is one formal parameter of a subprogram.
type param struct {
	off        uint64
	name       string
	typ        uint64
	has        Flags
	origin     uint64
	annotation uint64
	index      int32 // among its subprogram's parameters
	loc        Location
	reg        int8 // the register it is in on entry, or noReg
	size       uint64
	hasLoc     bool
	hasConst   bool
	inMemory   bool // too large for registers: passed in memory
	optimized  bool
	unexpected bool
	// An aggregate in two registers that its pieces show passed as one
	// member (pahole's true_sig_member): the member's name and type.
	firstPieces, secondPieces uint64 // Location's, aggregates only
	member                    string
	memberHasType             bool
	memberType                uint64
	memberIsUnitType          bool  // the member's type is a type of the unit
	inOtherUnit               bool  // the abstract origin is in another unit: typ is its offset there
	originIndex               int32 // inOtherUnit: the origin's position among its function's parameters
}

// variable is one top-level variable.
type variable struct {
	off              uint64
	name             string
	typ              uint64
	has              Flags
	addr             uint64
	spec             uint64
	annotation       uint64
	declTags0, nTags int32
}

// declTag is an LLVM btf_decl_tag annotation of a function (component
// -1), a parameter (component = its index) or a variable.
type declTag struct {
	value     string
	component int32
}

// Unit is one worker's state of function and variable encoding: it
// records one unit at a time (Begin, Add for every entry, Finish) and
// keeps its memory for the next.
type Unit struct {
	elf  *ELF
	o    Options
	name string // the unit's DW_AT_name, when Begin had its reader

	clang    bool
	curFunc  int32 // the open top-level subprogram, -1 if none
	curParam int32 // the open parameter of curFunc, -1 if none
	curVar   int32 // the open top-level variable, -1 if none
	funcs    []subprogram
	params   []param
	vars     []variable
	declTags []declTag
	// Entries of other units that abstract origins point to (LTO's
	// DW_FORM_ref_addr); nil when the reader offers none. The unit's
	// own entries lie in [unitLo, unitHi).
	others         otherUnits
	unitLo, unitHi uint64
	origin         originFunc // scratch
	// unsorted: entries were added out of offset order (a merged walk
	// reading an imported unit or a dwz alternate file first); byOff
	// then finds them (built on the first look-up after an Add).
	unsorted bool
	lastOff  uint64
	byOff    *offIndex
}

// offIndex maps offsets to the records of a Unit added out of order.
type offIndex struct {
	funcs, params, vars map[uint64]int
}

// NewUnit returns a worker's state for the file whose ELF side is elf.
func NewUnit(elf *ELF, o Options) *Unit {
	return &Unit{elf: elf, o: o}
}

// SetName names the unit (its DW_AT_name, for Report's log) when Begin had
// no reader to take it from.
func (u *Unit) SetName(name string) { u.name = name }

// Begin starts a unit. producer is its DW_AT_producer (pahole reads
// clang's parameter locations differently); r, when not nil, is the dwarf
// package's reader of the unit, through which abstract origins in other
// units are followed (LTO).
func (u *Unit) Begin(producer string, r *dwarf.UnitReader) {
	u.clang = strings.Contains(producer, "clang")
	u.name = ""
	if r != nil {
		u.name = r.Name()
	}
	u.curFunc, u.curParam, u.curVar = -1, -1, -1
	u.funcs = u.funcs[:0]
	u.params = u.params[:0]
	u.vars = u.vars[:0]
	u.unsorted, u.lastOff, u.byOff = false, 0, nil
	clear(u.declTags)
	u.declTags = u.declTags[:0]
	if r == nil {
		u.others = nil
		return
	}
	unit := r.Unit()
	u.unitLo, u.unitHi = uint64(unit.Offset), uint64(unit.End)
	if d, ok := u.others.(*dwarfOrigins); !ok || d.data != r.Data() {
		u.others = &dwarfOrigins{data: r.Data()}
	}
}

// Add records e if it is a top-level subprogram or variable, a parameter
// of one, or an annotation of those. Every entry of the unit after its
// root must be added, in order.
func (u *Unit) Add(e *Entry) {
	if e.Off < u.lastOff {
		u.unsorted = true
	}
	u.lastOff = max(u.lastOff, e.Off)
	u.byOff = nil
	switch e.Depth {
	case 1:
		u.curFunc, u.curParam, u.curVar = -1, -1, -1
		switch e.Tag {
		case dwarf.TagSubprogram:
			u.funcs = append(u.funcs, subprogram{
				off: e.Off, name: e.Name, typ: e.Type, has: e.Has,
				lowPC: e.LowPC, origin: e.Origin, spec: e.Spec, annotation: e.Annotation,
				params0: int32(len(u.params)), declTags0: -1,
			})
			if e.Children {
				u.curFunc = int32(len(u.funcs) - 1)
			}
		case dwarf.TagVariable:
			u.vars = append(u.vars, variable{
				off: e.Off, name: e.Name, typ: e.Type, has: e.Has,
				addr: e.Addr, spec: e.Spec, annotation: e.Annotation, declTags0: -1,
			})
			if e.Children {
				u.curVar = int32(len(u.vars) - 1)
			}
		}
	case 2:
		u.curParam = -1
		if u.curVar >= 0 && isDeclTag(e) {
			v := &u.vars[u.curVar]
			u.addDeclTag(&v.declTags0, &v.nTags, declTag{e.ConstString, -1})
			return
		}
		if u.curFunc < 0 {
			return
		}
		fn := &u.funcs[u.curFunc]
		switch e.Tag {
		case dwarf.TagFormalParameter:
			p := param{
				off: e.Off, name: e.Name, typ: e.Type, has: e.Has,
				origin: e.Origin, annotation: e.Annotation, index: fn.nParams,
			}
			if e.Has&HasLocation != 0 {
				p.loc = e.Loc
			}
			u.params = append(u.params, p)
			fn.nParams++
			if e.Children {
				u.curParam = int32(len(u.params) - 1)
			}
		case dwarf.TagUnspecifiedParameters:
			fn.variadic = true
		case dwarf.TagLLVMAnnotation:
			if isDeclTag(e) {
				u.addDeclTag(&fn.declTags0, &fn.nTags, declTag{e.ConstString, -1})
			}
		}
	case 3:
		if u.curFunc >= 0 && u.curParam >= 0 && isDeclTag(e) {
			fn := &u.funcs[u.curFunc]
			u.addDeclTag(&fn.declTags0, &fn.nTags, declTag{e.ConstString, u.params[u.curParam].index})
		}
	}
}

// declTagName is the name of LLVM's annotations that are BTF decl tags.
const declTagName = "btf_decl_tag"

// isDeclTag reports whether e is an LLVM btf_decl_tag annotation.
func isDeclTag(e *Entry) bool {
	return e.Tag == dwarf.TagLLVMAnnotation && e.Name == declTagName
}

// addDeclTag appends a decl tag to a record's run. Runs are contiguous
// because a record's annotations come before the next record's.
func (u *Unit) addDeclTag(first, n *int32, t declTag) {
	if *n == 0 {
		*first = int32(len(u.declTags))
	}
	u.declTags = append(u.declTags, t)
	*n++
}

// searchOff returns the index of the record at offset off among n
// records sorted by offset (offAt), or -1.
func searchOff(n int, off uint64, offAt func(i int) uint64) int {
	i := sort.Search(n, func(i int) bool { return offAt(i) >= off })
	if i < n && offAt(i) == off {
		return i
	}
	return -1
}

// findFunc returns the index of the subprogram at off, or -1.
func (u *Unit) findFunc(off uint64) int {
	if u.unsorted {
		return u.index().find(u.byOff.funcs, off)
	}
	return searchOff(len(u.funcs), off, func(i int) uint64 { return u.funcs[i].off })
}

// findParam returns the index of the parameter at off, or -1.
func (u *Unit) findParam(off uint64) int {
	if u.unsorted {
		return u.index().find(u.byOff.params, off)
	}
	return searchOff(len(u.params), off, func(i int) uint64 { return u.params[i].off })
}

// findVar returns the index of the variable at off, or -1.
func (u *Unit) findVar(off uint64) int {
	if u.unsorted {
		return u.index().find(u.byOff.vars, off)
	}
	return searchOff(len(u.vars), off, func(i int) uint64 { return u.vars[i].off })
}

// index returns byOff, built from the records when an Add came after
// the last build. The first record at an offset is the one found.
func (u *Unit) index() *offIndex {
	if u.byOff != nil {
		return u.byOff
	}
	x := &offIndex{funcs: make(map[uint64]int, len(u.funcs)), params: make(map[uint64]int, len(u.params)), vars: make(map[uint64]int, len(u.vars))}
	for i := len(u.funcs) - 1; i >= 0; i-- {
		x.funcs[u.funcs[i].off] = i
	}
	for i := len(u.params) - 1; i >= 0; i-- {
		x.params[u.params[i].off] = i
	}
	for i := len(u.vars) - 1; i >= 0; i-- {
		x.vars[u.vars[i].off] = i
	}
	u.byOff = x
	return x
}

func (x *offIndex) find(m map[uint64]int, off uint64) int {
	if i, ok := m[off]; ok {
		return i
	}
	return -1
}

// inOtherUnit reports whether off lies outside the unit and can be read.
func (u *Unit) inOtherUnit(off uint64) bool {
	return u.others != nil && (off < u.unitLo || off >= u.unitHi)
}

// typesOf returns where p's type entries are: the unit's, or another
// unit's for a parameter whose abstract origin is there.
func (u *Unit) typesOf(types Types, p *param) typeLookup {
	if p.inOtherUnit {
		return u.others
	}
	return types
}
