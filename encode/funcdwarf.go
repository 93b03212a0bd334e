package encode

import (
	"encoding/binary"

	"github.com/btfkit/btfkit/dwarf"
)

// DWARF attributes, forms and operations function and variable encoding
// reads.
const (
	attrCallingConvention = 0x36
	ccNocall              = 0x03

	opAddr         = 0x03
	opConstu       = 0x10
	opConsts       = 0x11
	opPlusUconst   = 0x23
	opLit0         = 0x30
	opLit31        = 0x4f
	opReg0         = 0x50
	opReg31        = 0x6f
	opBreg0        = 0x70
	opBreg31       = 0x8f
	opFbreg        = 0x91
	opPiece        = 0x93
	opStackValue   = 0x9f
	opAddrx        = 0xa1
	opEntryValue   = 0xa3
	opGNUEntryVal  = 0xf3
	maxOpsDecoded  = 16
	wantedFuncTags = 0
)

// wantedFunc reports whether the entry is one whose function/variable
// attributes are read: top-level subprograms and variables, and the
// parameters of subprograms.
func wantedFunc(tag, parent uint32) bool {
	switch tag {
	case tagSubprogram, tagVariable:
		return parent == tagCompileUnit || parent == tagPartialUnit
	case tagFormalParameter:
		return parent == tagSubprogram
	}
	return false
}

// fastFuncField fills d.fx from one field of the entry (fast reader);
// d.fx.loc is initialised before the entry's first field.
func fastFuncField(r *dwarf.UnitReader, dd *dwarf.Data, d *die, f *dwarf.Field, addrs *addrTable) error {
	fx := &d.fx
	switch f.Attr {
	case dwarf.AttrLowPC:
		if f.Class == dwarf.ClassAddress {
			fx.lowPC = f.Val
			fx.has |= fxLowPC
		}
	case dwarf.AttrAbstractOrigin:
		if f.Class == dwarf.ClassReference {
			fx.origin = f.Val
			fx.has |= fxOrigin
		}
	case dwarf.AttrSpecification:
		if f.Class == dwarf.ClassReference {
			fx.spec = f.Val
			fx.has |= fxSpec
		}
	case dwarf.AttrDeclaration:
		fx.has |= fxDecl
	case dwarf.AttrExternal:
		fx.has |= fxExternal
	case dwarf.AttrArtificial:
		if f.Val != 0 {
			fx.has |= fxArtificial
		}
	case dwarf.AttrInline:
		if f.Val != 0 {
			fx.has |= fxInline
		}
	case attrCallingConvention:
		if f.Val == ccNocall {
			fx.has |= fxNoCall
		}
	case dwarf.AttrConstValue:
		fx.has |= fxConstValue
	case 0x2139: // DW_AT_GNU_annotation
		fx.has |= fxAnnotated
	case dwarf.AttrLocation:
		fx.has |= fxLoc
		switch f.Class {
		case dwarf.ClassExprLoc, dwarf.ClassBlock:
			fx.has |= fxLocExpr
			expr := dd.Bytes(f)
			if d.tag == tagVariable {
				varLocation(expr, r.Unit().AddrSize, fx, addrs)
			} else {
				fx.loc.add(expr, 0, int(r.Unit().AddrSize))
			}
		case dwarf.ClassLocList, dwarf.ClassLocListPtr:
			if d.tag != tagFormalParameter {
				break
			}
			n := 0
			as := int(r.Unit().AddrSize)
			err := r.LocList(f, func(le dwarf.LocEntry) error {
				fx.loc.add(le.Expr, n, as)
				n++
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// varLocation reads a variable's single location expression the way
// pahole does: DW_OP_addr A [DW_OP_plus_uconst N] is a global at A(+N).
func varLocation(expr []byte, addrSize int, fx *funcAttrs, addrs *addrTable) {
	var ops [3]op
	n := decodeOps(expr, addrSize, ops[:])
	if n == 0 {
		return
	}
	switch ops[0].atom {
	case opAddr:
		fx.addr = ops[0].n
		if addrs.bigEndin && len(expr) > addrSize {
			if addrSize == 4 {
				fx.addr = uint64(binary.BigEndian.Uint32(expr[1:]))
			} else {
				fx.addr = binary.BigEndian.Uint64(expr[1:])
			}
		}
	case opAddrx:
		a, ok := addrs.get(ops[0].n)
		if !ok {
			return
		}
		fx.addr = a
	default:
		return
	}
	fx.has |= fxAddr
	if n == 2 && ops[1].atom == opPlusUconst {
		fx.addr += ops[1].n
	}
}

// op is one decoded DWARF expression operation: its opcode, first
// operand, and for DW_OP_entry_value the sub-expression.
type op struct {
	atom uint8
	n    uint64
	sub  []byte
}

// decodeOps decodes up to len(out) operations of expr and returns the
// total number of operations in expr (which may exceed len(out)); an
// operation it cannot size ends the count.
func decodeOps(expr []byte, addrSize int, out []op) int {
	n := 0
	for p := 0; p < len(expr); {
		a := expr[p]
		p++
		o := op{atom: a}
		switch {
		case a == opAddr:
			if p+addrSize > len(expr) {
				return n + 1
			}
			if addrSize == 4 {
				o.n = uint64(binary.LittleEndian.Uint32(expr[p:]))
			} else {
				o.n = binary.LittleEndian.Uint64(expr[p:])
			}
			p += addrSize
		case a == 0x08 || a == 0x09 || a == 0x15 || a == 0x94 || a == 0x95:
			p++
		case a == 0x0a || a == 0x0b || a == 0x28 || a == 0x2f || a == 0x98:
			p += 2
		case a == 0x0c || a == 0x0d || a == 0x99 || a == 0x9a || a == 0xfa:
			p += 4
		case a == 0x0e || a == 0x0f:
			p += 8
		case a == opConstu || a == opPlusUconst || a == 0x90 || a == opPiece || a == opAddrx ||
			a == 0xa2 || a == 0xa8 || a == 0xa9 || a == 0xf7 || a == 0xf9 || a == 0xfb || a == 0xfc:
			v, k := uleb(expr[p:])
			o.n = v
			p += k
		case a == opConsts || a >= opBreg0 && a <= opBreg31 || a == opFbreg:
			v, k := uleb(expr[p:]) // value unused; only the length matters
			o.n = v
			p += k
		case a == 0x92 || a == 0x9d || a == 0xa5 || a == 0xf5: // two LEB operands
			_, k := uleb(expr[p:])
			p += k
			_, k = uleb(expr[p:])
			p += k
		case a == 0xa0 || a == 0xf2: // implicit_pointer: offset, sleb
			p += 4
			_, k := uleb(expr[min(p, len(expr)):])
			p += k
		case a == 0x9e || a == opEntryValue || a == opGNUEntryVal: // block
			l, k := uleb(expr[p:])
			p += k
			if uint64(len(expr)-p) < l {
				return n + 1
			}
			o.sub = expr[p : p+int(l)]
			p += int(l)
		case a == 0xa4 || a == 0xf4: // const_type: uleb, size byte, block
			_, k := uleb(expr[p:])
			p += k
			if p < len(expr) {
				p += 1 + int(expr[p])
			}
		case a == 0xa6 || a == 0xa7 || a == 0xf6: // deref_type: byte, uleb
			p++
			_, k := uleb(expr[min(p, len(expr)):])
			p += k
		case a >= 0x06 && a <= 0x2e, a >= opLit0 && a <= opReg31, a == 0x96, a == 0x97,
			a == 0x9b, a == 0x9c, a == opStackValue, a == 0xe0, a == 0xf0:
			// no operands
		default:
			return n + 1
		}
		if n < len(out) {
			out[n] = o
		}
		n++
		if p > len(expr) {
			break
		}
	}
	return n
}

// add folds one location-list entry (the n-th) into the summary, as
// pahole's parameter__decode_location reads it. Aggregates larger than a
// word read pieces (regBig); everything else regSmall.
func (l *locSummary) add(expr []byte, n int, addrSize int) {
	var ops [maxOpsDecoded]op
	cnt := decodeOps(expr, addrSize, ops[:])
	if cnt == 0 {
		return
	}
	stackValue := cnt <= maxOpsDecoded && ops[cnt-1].atom == opStackValue
	if cnt == 2 && stackValue {
		cnt = 1
	}
	set := func(reg *int8, r uint8) {
		if *reg == paramRegUnknown {
			*reg = int8(r)
		}
	}
	a := ops[0].atom
	if cnt != 1 {
		switch {
		case a >= opLit0 && a <= opLit31 || a == opConstu || a == opConsts:
			if n == 0 {
				l.constant = true
			}
			return
		}
		// Scalars and small aggregates.
		switch {
		case a >= opReg0 && a <= opReg31:
			if n == 0 {
				set(&l.regSmall, a-opReg0)
			}
		case a >= opBreg0 && a <= opBreg31:
			if n == 0 {
				for i := 1; i < min(cnt, maxOpsDecoded); i++ {
					if ops[i].atom == opStackValue {
						set(&l.regSmall, a-opBreg0)
						break
					}
				}
			}
		}
		// Aggregates in two registers: the first register piece, and
		// which bytes of each register's word the pieces carry.
		all := ops[:min(cnt, maxOpsDecoded)]
		if cnt > maxOpsDecoded {
			all = make([]op, cnt)
			decodeOps(expr, addrSize, all)
		}
		for i := range all {
			if b := all[i].atom; b >= opReg0 && b <= opReg31 {
				set(&l.regBig, b-opReg0)
				break
			}
		}
		l.addPieces(all, addrSize)
		return
	}
	both := func(r uint8) {
		set(&l.regSmall, r)
		set(&l.regBig, r)
	}
	switch {
	case a >= opReg0 && a <= opReg31:
		if n == 0 {
			both(a - opReg0)
		}
	case a >= opBreg0 && a <= opBreg31:
		if n == 0 && stackValue {
			both(a - opBreg0)
		}
	case a == opFbreg:
		if n == 0 {
			l.stack = true
		}
	case a >= opLit0 && a <= opLit31 || a == opConstu || a == opConsts:
		if n == 0 {
			l.constant = true
		}
	case a == opEntryValue || a == opGNUEntryVal:
		var sub [2]op
		if decodeOps(ops[0].sub, addrSize, sub[:]) == 1 && sub[0].atom >= opReg0 && sub[0].atom <= opReg31 {
			both(sub[0].atom - opReg0)
		}
	}
}

// addPieces records, as pahole 1.31 does for an aggregate passed in two
// registers, the byte offset within the aggregate at which each
// DW_OP_piece starts: in first when it falls in the first register's
// word, in second (relative to that word) otherwise. A piece opening the
// expression has no location: it only moves the offset. Every entry of a
// location list adds its pieces.
func (l *locSummary) addPieces(ops []op, addrSize int) {
	off := uint64(0)
	for i := range ops {
		if ops[i].atom != opPiece {
			continue
		}
		if i == 0 {
			off = ops[i].n
			continue
		}
		if off < uint64(addrSize) {
			l.first |= fieldBit(off)
		} else {
			l.second |= fieldBit(off - uint64(addrSize))
		}
		off += ops[i].n
	}
}

// fieldBit is the bit of byte offset off in a piece field set (offsets
// past 63 are not recorded).
func fieldBit(off uint64) uint64 {
	if off >= 64 {
		return 0
	}
	return 1 << off
}

// addrTable reads a unit's entries of .debug_addr (DW_OP_addrx).
type addrTable struct {
	sec      []byte
	base     uint64
	size     int
	bigEndin bool
}

// setUnit records where the unit's .debug_addr entries start: its
// DW_AT_addr_base, or just past the section's header.
func (fc *funcConv) setUnit(r *dwarf.UnitReader, root *dwarf.Entry) {
	s := r.Data().Sections()
	fc.addrs = addrTable{sec: s.Addr, base: 8, size: r.Unit().AddrSize, bigEndin: s.BigEndian}
	if f := root.Field(dwarf.AttrAddrBase); f != nil {
		fc.addrs.base = f.Val
	}
	u := r.Unit()
	fc.unitLo, fc.unitHi = uint64(u.Offset), uint64(u.End)
	if fd, ok := fc.foreign.(*dwarfForeign); !ok || fd.dd != r.Data() {
		fc.foreign = &dwarfForeign{dd: r.Data()}
	}
}

// dwarfForeign reads entries of other units through the dwarf package
// (random access: Data.EntryAt, and a reader of its own for a
// subprogram's children). Each funcConv has its own.
type dwarfForeign struct {
	dd *dwarf.Data
	r  *dwarf.UnitReader
	e  dwarf.Entry
}

func (f *dwarfForeign) entry(off uint64) bool {
	return f.dd.EntryAt(dwarf.Offset(off), &f.e) == nil
}

// typeRef returns f.e's DW_AT_type: hasType and the offset, or 0, 0.
func (f *dwarfForeign) typeRef() (uint32, uint64) {
	if fl := f.e.Field(dwarf.AttrType); fl != nil && fl.Class == dwarf.ClassReference {
		return hasType, fl.Val
	}
	return 0, 0
}

func (f *dwarfForeign) subprogram(off uint64, out *foreignFn) bool {
	out.params = out.params[:0]
	if !f.entry(off) || uint32(f.e.Tag) != tagSubprogram {
		return false
	}
	name, err := f.dd.Name(&f.e)
	if err != nil {
		return false
	}
	out.name = name
	out.has, out.typ = f.typeRef()
	out.fx = 0
	if fl := f.e.Field(attrCallingConvention); fl != nil && fl.Val == ccNocall {
		out.fx |= fxNoCall
	}
	if fl := f.e.Field(dwarf.AttrInline); fl != nil && fl.Val != 0 {
		out.fx |= fxInline
	}
	if !f.e.Children {
		return true
	}
	u := f.dd.UnitAt(dwarf.Offset(off))
	if f.r == nil {
		f.r = f.dd.NewReader()
	}
	if u == nil || f.r.Reset(u) != nil || f.r.Seek(dwarf.Offset(off)) != nil {
		return false
	}
	if ok, err := f.r.Next(&f.e); !ok || err != nil {
		return false
	}
	for {
		ok, err := f.r.Next(&f.e)
		if err != nil {
			return false
		}
		if !ok || f.e.Depth == 0 || f.e.Tag == 0 && f.e.Depth == 1 {
			return true
		}
		if f.e.Tag == 0 {
			continue
		}
		if uint32(f.e.Tag) == tagFormalParameter {
			var p foreignPrm
			if !f.readParam(uint64(f.e.Offset), &p) {
				return false
			}
			out.params = append(out.params, p)
		}
		if f.e.Children {
			if err := f.r.SkipChildren(); err != nil {
				return false
			}
		}
	}
}

func (f *dwarfForeign) param(off uint64, out *foreignPrm) bool {
	if !f.entry(off) || uint32(f.e.Tag) != tagFormalParameter {
		return false
	}
	return f.readParam(off, out)
}

// readParam fills out from the formal parameter at off, read into f.e.
func (f *dwarfForeign) readParam(off uint64, out *foreignPrm) bool {
	*out = foreignPrm{off: off}
	if fl := f.e.Field(dwarf.AttrName); fl != nil {
		s, err := f.dd.String(fl)
		if err != nil {
			return false
		}
		out.name = s
	}
	out.has, out.typ = f.typeRef()
	return true
}

func (f *dwarfForeign) typeEntry(off uint64) (typeFacts, bool) {
	if !f.entry(off) {
		return typeFacts{}, false
	}
	t := typeFacts{tag: uint32(f.e.Tag)}
	t.has, t.typ = f.typeRef()
	if fl := f.e.Field(dwarf.AttrByteSize); fl != nil && fl.Class == dwarf.ClassConstant {
		t.size = fl.Val
	}
	return t, true
}

func (a *addrTable) get(idx uint64) (uint64, bool) {
	off := a.base + idx*uint64(a.size)
	if a.size != 4 && a.size != 8 || off < a.base || off+uint64(a.size) > uint64(len(a.sec)) {
		return 0, false
	}
	b := a.sec[off:]
	var bo binary.ByteOrder = binary.LittleEndian
	if a.bigEndin {
		bo = binary.BigEndian
	}
	if a.size == 4 {
		return uint64(bo.Uint32(b)), true
	}
	return bo.Uint64(b), true
}
