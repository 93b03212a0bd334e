package pfunct

import (
	"debug/elf"
	"fmt"
	"io"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/dwarffacts"
	"github.com/btfkit/btfkit/elfx"
)

// What reading functions from DWARF needs to know, pahole's conf_load
// fields of the same names: addrInfo (get_addr_info) reads addresses,
// sizes and variable locations; extraDbg (extra_dbg_info) reads
// declaration files and lines.
type loadFlags struct {
	addrInfo bool
	extraDbg bool
	globals  bool // pglobal: the unit's variables (unit.vars), at its top level too
	types    bool // pdwtags: the unit's type entries (unit.types, pdwtags.go)
}

// offlineBase is where libdwfl starts laying out the sections of a
// relocatable file it reads (OFFLINE_REDZONE): pahole reads objects and
// modules through libdwfl, so the addresses it prints are these.
const offlineBase = 0x10000

// openDWARF opens path's DWARF with the addresses pahole sees: for a
// relocatable file, its allocated sections are laid out one after the
// other from offlineBase, each at its alignment, as libdwfl does before
// applying the relocations of the debug sections.
func openDWARF(path string) (*elfx.File, *dwarf.Data, error) {
	f, err := elfx.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if f.Type == elf.ET_REL {
		end := uint64(offlineBase)
		for _, s := range f.Sections {
			if s.Flags&elf.SHF_ALLOC == 0 {
				continue
			}
			align := s.Addralign
			if align == 0 {
				align = 1
			}
			next := (end + align - 1) &^ (align - 1)
			if s.Addr == 0 {
				s.Addr = next
			}
			end = next + s.Size
		}
	}
	if f.FindDebug(".debug_info") == nil {
		f.Close()
		return nil, nil, errNoDWARF
	}
	d, err := dwarf.FromELF(f)
	if err != nil {
		f.Close()
		return nil, nil, elfx.NamingFile(path, err)
	}
	return f, d, nil
}

// dwarfLoader reads the functions of one unit the way pahole's DWARF
// loader builds them (die__process_function and friends), then resolves
// names and types through abstract origins as pahole's recoding does.
type dwarfLoader struct {
	d     *dwarf.Data
	r     *dwarf.UnitReader
	flags loadFlags
	warn  io.Writer

	langExclude []uint16 // units in these languages have no functions

	e, scratch dwarf.Entry
	files      []string
	filesRead  bool

	u       *unit
	funcOff map[uint64]int
	parmOff map[uint64]*param
	varOff  map[uint64]*item
	lblOff  map[uint64]*item
	inlines []*item
	lexVars []*item // variables, labels and block parameters, for recoding
}

// loadUnit reads the functions of unit du. A unit that is not a compile
// unit (a type unit, a partial or skeleton unit) has none.
func (l *dwarfLoader) loadUnit(du *dwarf.Unit) (*unit, error) {
	r := l.r
	if err := r.Reset(du); err != nil {
		return nil, err
	}
	u := &unit{name: r.Name()}
	l.u = u
	l.funcOff = map[uint64]int{}
	l.parmOff = map[uint64]*param{}
	l.varOff = map[uint64]*item{}
	l.lblOff = map[uint64]*item{}
	l.inlines, l.lexVars = nil, nil
	l.files, l.filesRead = nil, false
	e := &l.e
	ok, err := r.Next(e)
	if err != nil || !ok {
		return u, err
	}
	if e.Tag != dwarf.TagCompileUnit {
		return u, nil
	}
	for _, l := range l.langExclude {
		if uint64(l) == r.Language() {
			return u, nil
		}
	}
	if !e.Children {
		return u, nil
	}
	for {
		ok, err := r.Next(e)
		if err != nil {
			return nil, err
		}
		if !ok || e.Tag == 0 {
			break
		}
		if e.Tag == dwarf.TagSubprogram {
			if err := l.function(true); err != nil {
				return nil, err
			}
			continue
		}
		if l.flags.types && isTypeTag(e.Tag) {
			if err := l.typeTag(); err != nil {
				return nil, err
			}
			continue
		}
		if l.flags.types && e.Tag == dwarf.TagNamespace {
			ns, err := l.namespace()
			if err != nil {
				return nil, err
			}
			u.namespaces = append(u.namespaces, ns)
			continue
		}
		if e.Tag == dwarf.TagVariable && l.flags.globals {
			it, err := l.variable()
			if err != nil {
				return nil, err
			}
			it.noRecode = true
		}
		if err := r.SkipChildren(); err != nil {
			return nil, err
		}
	}
	l.recode()
	return u, nil
}

// decl returns the declaration file and line of the current entry as
// libdw's dwarf_decl_file and dwarf_decl_line find them (following
// abstract origins and specifications).
func (l *dwarfLoader) decl() (file string, hasFile bool, line uint32, err error) {
	e := &l.e
	var f dwarf.Field
	if ok, err := l.d.Lookup(e, dwarf.AttrDeclLine, &l.scratch, &f); err != nil {
		return "", false, 0, err
	} else if ok {
		line = uint32(f.Val)
	}
	ok, err := l.d.Lookup(e, dwarf.AttrDeclFile, &l.scratch, &f)
	if err != nil || !ok {
		return "", false, line, err
	}
	files, err := l.fileNames()
	if err != nil {
		return "", false, line, err
	}
	// Index 0 is no file before DWARF 5 ("" in files) and the unit's
	// primary file from DWARF 5 on, which elfutils 0.196's libdw (pfunct
	// 1.32's in Debian sid) names; 0.188's named none.
	if f.Val < uint64(len(files)) && files[f.Val] != "" {
		return files[f.Val], true, line, nil
	}
	return "", false, line, nil
}

// line returns the current entry's declaration line (0 without
// extraDbg).
func (l *dwarfLoader) line() (uint32, error) {
	if !l.flags.extraDbg {
		return 0, nil
	}
	var f dwarf.Field
	ok, err := l.d.Lookup(&l.e, dwarf.AttrDeclLine, &l.scratch, &f)
	if err != nil || !ok {
		return 0, err
	}
	return uint32(f.Val), nil
}

func (l *dwarfLoader) fileNames() ([]string, error) {
	if !l.filesRead {
		l.filesRead = true
		files, err := l.r.LineFiles()
		if err != nil {
			return nil, err
		}
		l.files = files
	}
	return l.files, nil
}

func ref(e *dwarf.Entry, a dwarf.Attr) uint64 {
	f := e.Field(a)
	switch {
	case f == nil:
	case f.Class == dwarf.ClassReference:
		return f.Val
	case f.Class == dwarf.ClassReferenceAlt: // into the dwz alternate file
		return dwarffacts.AltOffset + f.Val
	}
	return 0
}

func (l *dwarfLoader) str(a dwarf.Attr) (string, bool) {
	f := l.e.Field(a)
	if f == nil {
		return "", false
	}
	s, err := l.d.String(f)
	if err != nil {
		return "", false
	}
	return s, true
}

func (l *dwarfLoader) num(a dwarf.Attr) uint64 {
	f := l.e.Field(a)
	if f == nil || f.HasBytes() {
		return 0
	}
	return f.Val
}

// pcRange is libdw's dwarf_lowpc and dwarf_highpc of the current entry:
// low, and whether each was found.
func (l *dwarfLoader) pcRange() (low, high uint64, hasLow, hasHigh bool, err error) {
	e := &l.e
	var lo, hi dwarf.Field
	if ok, err := l.d.Lookup(e, dwarf.AttrLowPC, &l.scratch, &lo); err != nil || !ok || lo.Class != dwarf.ClassAddress {
		return 0, 0, false, false, err
	}
	low = lo.Val
	ok, err := l.d.Lookup(e, dwarf.AttrHighPC, &l.scratch, &hi)
	if err != nil || !ok {
		return low, 0, true, false, err
	}
	switch {
	case hi.Class == dwarf.ClassAddress:
		return low, hi.Val, true, true, nil
	case hi.Class == dwarf.ClassConstant && !hi.HasBytes():
		return low, low + hi.Val, true, true, nil
	}
	return low, 0, true, false, nil
}

// initBlock is pahole's lexblock__init: the address and size of the
// current entry, when addresses are read.
func (l *dwarfLoader) initBlock(b *block) error {
	if !l.flags.addrInfo {
		return nil
	}
	low, high, hasLow, hasHigh, err := l.pcRange()
	if err != nil || !hasLow {
		return err
	}
	b.addr = low
	if hasHigh {
		b.size = uint32(high - low)
	}
	return nil
}

func (l *dwarfLoader) skip() error { return l.r.SkipChildren() }

// function reads the subprogram entry just returned, and its children; it
// joins the unit's function table once its children are read.
func (l *dwarfLoader) function(topLevel bool) error {
	e := &l.e
	f := &function{
		topLevel:    topLevel,
		inlined:     uint8(l.num(dwarf.AttrInline)) & 3,
		declaration: e.Has(dwarf.AttrDeclaration),
		external:    e.Has(dwarf.AttrExternal),
		origin:      e.Has(dwarf.AttrAbstractOrigin),
		virtuality:  uint8(l.num(dwarf.AttrVirtuality)) & 3,
		off:         uint64(e.Offset),
		retOff:      ref(e, dwarf.AttrType),
		originOff:   ref(e, dwarf.AttrAbstractOrigin),
		specOff:     ref(e, dwarf.AttrSpecification),
	}
	f.name, f.hasName = l.str(dwarf.AttrName)
	f.linkage, _ = l.str(dwarf.AttrMIPSLinkageName)
	if err := l.initBlock(&f.block); err != nil {
		return err
	}
	if l.flags.extraDbg {
		var err error
		if f.declFile, f.hasFile, f.declLine, err = l.decl(); err != nil {
			return err
		}
	}
	if e.Children {
		if err := l.body(f, &f.block); err != nil {
			return err
		}
	}
	l.funcOff[f.off] = len(l.u.funcs)
	l.u.funcs = append(l.u.funcs, f)
	return nil
}

// body is pahole's die__process_function: the children of a subprogram
// (fn set) or of a lexical block (fn nil), into blk.
func (l *dwarfLoader) body(fn *function, blk *block) error {
	r, e := l.r, &l.e
	for {
		ok, err := r.Next(e)
		if err != nil {
			return err
		}
		if !ok || e.Tag == 0 {
			return nil
		}
		switch e.Tag {
		case dwarf.TagFormalParameter:
			p, err := l.param()
			if err != nil {
				return err
			}
			if fn != nil {
				fn.params = append(fn.params, p)
			} else {
				blk.items = append(blk.items, &item{kind: itemParam, parm: p, off: p.off, line: p.line})
			}
		case dwarf.TagVariable:
			it, err := l.variable()
			if err != nil {
				return err
			}
			blk.items = append(blk.items, it)
			blk.nrVariables++
		case dwarf.TagUnspecifiedParameters:
			if fn != nil {
				fn.unspec = true
			}
		case dwarf.TagLabel:
			if err := l.label(blk); err != nil {
				return err
			}
		case dwarf.TagInlinedSubroutine:
			if err := l.inline(blk); err != nil {
				return err
			}
			continue
		case dwarf.TagLexicalBlock:
			if err := l.lexblock(blk); err != nil {
				return err
			}
			continue
		case dwarf.TagSubprogram:
			if err := l.function(false); err != nil {
				return err
			}
			continue
		default:
			if l.flags.types && isTypeTag(e.Tag) {
				if err := l.typeTag(); err != nil {
					return err
				}
				continue
			}
		}
		if err := l.skip(); err != nil {
			return err
		}
	}
}

// lexblock reads the lexical block just returned into a new block of blk.
func (l *dwarfLoader) lexblock(blk *block) error {
	nb := &block{}
	if err := l.initBlock(nb); err != nil {
		return err
	}
	if l.e.Children {
		if err := l.body(nil, nb); err != nil {
			return err
		}
	}
	blk.items = append(blk.items, &item{kind: itemBlock, block: nb})
	blk.nrBlocks++
	return nil
}

// inline is pahole's die__create_new_inline_expansion: the expansion's
// size from its address ranges, then its children (into the same block),
// then the expansion itself.
func (l *dwarfLoader) inline(blk *block) error {
	e := &l.e
	it := &item{kind: itemInline, off: uint64(e.Offset), originOff: ref(e, dwarf.AttrAbstractOrigin), origin: -1}
	if l.flags.extraDbg {
		it.line = uint32(l.num(dwarf.AttrCallLine))
	}
	if l.flags.addrInfo {
		if err := l.inlineSize(it); err != nil {
			return err
		}
	}
	if e.Children {
		if err := l.inlineBody(blk); err != nil {
			return err
		}
	}
	blk.items = append(blk.items, it)
	blk.nrInline++
	blk.sizeInline += uint32(it.size)
	l.inlines = append(l.inlines, it)
	return nil
}

// inlineSize sums the address ranges of the current entry as pahole's
// inline_expansion__new does (its high_pc is read as a low_pc, so the size
// always comes from libdw's dwarf_ranges); the first range's start is the
// address when there is no DW_AT_low_pc.
func (l *dwarfLoader) inlineSize(it *item) error {
	low, high, hasLow, hasHigh, err := l.pcRange()
	if err != nil {
		return err
	}
	if hasLow {
		it.addr = low
	}
	if hasLow && hasHigh {
		it.size = high - low
		return nil
	}
	f := l.e.Field(dwarf.AttrRanges)
	if f == nil {
		return nil
	}
	fc := *f
	return l.r.Ranges(&fc, func(lo, hi uint64) error {
		it.size += hi - lo
		if it.addr == 0 {
			it.addr = lo
		}
		return nil
	})
}

// inlineBody is pahole's die__process_inline_expansion: of an
// expansion's children only lexical blocks, nested expansions and labels
// join the enclosing block.
func (l *dwarfLoader) inlineBody(blk *block) error {
	r, e := l.r, &l.e
	for {
		ok, err := r.Next(e)
		if err != nil {
			return err
		}
		if !ok || e.Tag == 0 {
			return nil
		}
		switch e.Tag {
		case dwarf.TagLexicalBlock:
			if err := l.lexblock(blk); err != nil {
				return err
			}
			continue
		case dwarf.TagInlinedSubroutine:
			if err := l.inline(blk); err != nil {
				return err
			}
			continue
		case dwarf.TagLabel:
			if err := l.label(blk); err != nil {
				return err
			}
		case dwarf.TagSubprogram:
			if err := l.function(false); err != nil {
				return err
			}
			continue
		case dwarf.TagVariable:
			// pahole's tags table has them (pglobal, pdwtags), its
			// lexical blocks not.
			if l.flags.globals {
				it, err := l.variable()
				if err != nil {
					return err
				}
				it.noRecode = true
			}
		default:
			if l.flags.types && isTypeTag(e.Tag) {
				if err := l.typeTag(); err != nil {
					return err
				}
				continue
			}
		}
		if err := l.skip(); err != nil {
			return err
		}
	}
}

func (l *dwarfLoader) param() (*param, error) {
	e := &l.e
	p := &param{off: uint64(e.Offset), typeOff: ref(e, dwarf.AttrType), originOff: ref(e, dwarf.AttrAbstractOrigin)}
	p.name, _ = l.str(dwarf.AttrName)
	var err error
	if p.line, err = l.line(); err != nil {
		return nil, err
	}
	l.parmOff[p.off] = p
	return p, nil
}

func (l *dwarfLoader) variable() (*item, error) {
	e := &l.e
	it := &item{kind: itemVariable, off: uint64(e.Offset), typeOff: ref(e, dwarf.AttrType), originOff: ref(e, dwarf.AttrAbstractOrigin)}
	it.name, _ = l.str(dwarf.AttrName)
	var err error
	if it.line, err = l.line(); err != nil {
		return nil, err
	}
	it.external, it.declaration = e.Has(dwarf.AttrExternal), e.Has(dwarf.AttrDeclaration)
	if !it.declaration && l.flags.addrInfo {
		it.scope = l.scope()
	}
	if l.flags.globals {
		l.u.vars = append(l.u.vars, it)
	}
	l.varOff[it.off] = it
	l.lexVars = append(l.lexVars, it)
	return it, nil
}

// DWARF expression operations pahole looks at to tell a variable's scope.
const (
	opAddr   = 0x03
	opReg1   = 0x51
	opReg31  = 0x6f
	opBreg0  = 0x70
	opBreg31 = 0x8f
	opFbreg  = 0x91
	opAddrx  = 0xa1
)

// scope is pahole's dwarf__location: a single location expression's
// first operation tells the scope; a location list or no location means
// the variable was optimized out.
func (l *dwarfLoader) scope() uint8 {
	f := l.e.Field(dwarf.AttrLocation)
	if f == nil || (f.Class != dwarf.ClassExprLoc && f.Class != dwarf.ClassBlock) {
		return vscopeOptimized
	}
	expr := l.d.Bytes(f)
	if len(expr) == 0 {
		return vscopeUnknown
	}
	switch op := expr[0]; {
	case op == opAddr || op == opAddrx:
		return vscopeGlobal
	case op >= opReg1 && op <= opReg31, op >= opBreg0 && op <= opBreg31:
		return vscopeRegister
	case op == opFbreg:
		return vscopeLocal
	}
	return vscopeUnknown
}

func (l *dwarfLoader) label(blk *block) error {
	e := &l.e
	it := &item{kind: itemLabel, off: uint64(e.Offset), originOff: ref(e, dwarf.AttrAbstractOrigin)}
	it.name, _ = l.str(dwarf.AttrName)
	var err error
	if it.line, err = l.line(); err != nil {
		return err
	}
	l.lblOff[it.off] = it
	l.lexVars = append(l.lexVars, it)
	blk.items = append(blk.items, it)
	blk.nrLabels++
	return nil
}

// recode is what pfunct sees of pahole's cu__recode_dwarf_types and
// cu__resolve_func_ret_types_optimized: the inline expansions find their
// functions; then, function by function in table order, names and types
// come from abstract origins (variables, labels and parameters of
// lexical blocks, the parameters of inlined functions, the function's
// own parameters and name); last, an out-of-line instance without a
// return type takes its origin's. Types become IDs only when the unit
// has facts (setTypes).
func (l *dwarfLoader) recode() {
	u := l.u
	for _, it := range l.inlines {
		// An expansion whose function is not in the unit keeps pahole's
		// type 0: the first function of the table.
		it.origin = 0
		if i, ok := l.funcOff[it.originOff]; ok {
			it.origin = i
		} else if len(u.funcs) == 0 {
			it.origin = -1
		}
	}
	for _, f := range u.funcs {
		if !f.hasName {
			o := f.originOff
			if o == 0 {
				o = f.specOff
			}
			if i, ok := l.funcOff[f.originOff]; ok && f.originOff != 0 {
				f.name, f.hasName = u.funcs[i].name, u.funcs[i].hasName
			} else if i, ok := l.funcOff[f.specOff]; ok && f.specOff != 0 {
				f.name, f.hasName = u.funcs[i].name, u.funcs[i].hasName
			} else if o != 0 && l.warn != nil {
				fmt.Fprintf(l.warn, "tag__recode_dwarf_type: couldn't find name for function %#x, abstract_origin=%#x, specification=%#x\n", f.off, f.originOff, f.specOff)
			}
		}
		l.recodeBlock(&f.block)
		l.recodeParams(f)
	}
	for _, it := range u.vars { // pglobal: the unit's top level's too
		l.recodeVar(it)
	}
}

func (l *dwarfLoader) recodeBlock(b *block) {
	for _, it := range b.items {
		switch it.kind {
		case itemBlock:
			l.recodeBlock(it.block)
		case itemInline:
			if it.origin >= 0 {
				l.recodeParams(l.u.funcs[it.origin])
			}
		case itemParam:
			p := it.parm
			if p.typeOff == 0 {
				if o, ok := l.parmOff[p.originOff]; ok && p.originOff != 0 {
					p.name = o.name
				}
			}
		case itemVariable:
			l.recodeVar(it)
		case itemLabel:
			if o, ok := l.lblOff[it.originOff]; ok && it.originOff != 0 {
				it.name = o.name
			}
		}
	}
}

// recodeVar gives a variable without a type its abstract origin's name.
func (l *dwarfLoader) recodeVar(it *item) {
	if it.typeOff == 0 && !it.noRecode {
		if o, ok := l.varOff[it.originOff]; ok && it.originOff != 0 {
			it.name = o.name
		}
	}
}

func (l *dwarfLoader) recodeParams(f *function) {
	for _, p := range f.params {
		if p.typeOff != 0 || p.originOff == 0 {
			continue
		}
		if o, ok := l.parmOff[p.originOff]; ok {
			p.name = o.name
		}
	}
}

// setTypes gives the unit's parameters, variables and functions the IDs
// of their types in the unit's Spec, as pahole's recoding does: a DWARF
// type reference becomes its type's ID; an entry without one takes its
// abstract origin's (which pahole has recoded by then, origins keeping
// their own references).
func (l *dwarfLoader) setTypes(facts *dwarffacts.Facts) {
	id := func(off uint64) btf.TypeID {
		if off == 0 {
			return 0
		}
		t, _ := facts.TypeAt(off)
		return t
	}
	parm := func(p *param) {
		switch {
		case p.typeOff != 0:
			p.typ = id(p.typeOff)
		case p.originOff != 0:
			if o, ok := l.parmOff[p.originOff]; ok {
				p.typ = id(o.typeOff)
			}
		}
	}
	for _, p := range l.parmOff {
		parm(p)
	}
	for _, it := range l.lexVars {
		switch {
		case it.kind == itemLabel:
		case it.typeOff != 0:
			it.typ = id(it.typeOff)
		case it.originOff != 0 && !it.noRecode:
			if o, ok := l.varOff[it.originOff]; ok {
				it.typ = id(o.typeOff)
			}
		}
	}
	for _, f := range l.u.funcs {
		f.ret = id(f.retOff)
	}
	for _, f := range l.u.funcs {
		if f.ret == 0 && f.origin {
			if i, ok := l.funcOff[f.originOff]; ok {
				f.ret = l.u.funcs[i].ret
			}
		}
	}
}
