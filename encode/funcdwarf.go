package encode

import (
	"encoding/binary"

	"github.com/btfkit/btfkit/dwarf"
)

// maxOpsDecoded is how many operations of a location expression are
// decoded on the stack (longer expressions are decoded again in full).
const maxOpsDecoded = 16

// wantedFunc reports whether the entry is one whose function/variable
// attributes are read: top-level subprograms and variables, and the
// parameters of subprograms.
func wantedFunc(tag, parent dwarf.Tag) bool {
	switch tag {
	case dwarf.TagSubprogram, dwarf.TagVariable:
		return parent == dwarf.TagCompileUnit || parent == dwarf.TagPartialUnit
	case dwarf.TagFormalParameter:
		return parent == dwarf.TagSubprogram
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
	case dwarf.AttrCallingConvention:
		if f.Val == dwarf.CCNocall {
			fx.has |= fxNoCall
		}
	case dwarf.AttrConstValue:
		fx.has |= fxConstValue
	case dwarf.AttrGNUAnnotation:
		fx.has |= fxAnnotated
	case dwarf.AttrLocation:
		fx.has |= fxLoc
		switch f.Class {
		case dwarf.ClassExprLoc, dwarf.ClassBlock:
			fx.has |= fxLocExpr
			expr := dd.Bytes(f)
			if d.tag == dwarf.TagVariable {
				varLocation(expr, r.Unit().AddrSize, fx, addrs)
			} else {
				fx.loc.add(expr, 0, int(r.Unit().AddrSize))
			}
		case dwarf.ClassLocList, dwarf.ClassLocListPtr:
			if d.tag != dwarf.TagFormalParameter {
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
	case dwarf.OpAddr:
		fx.addr = ops[0].n
		if addrs.bigEndin && len(expr) > addrSize {
			if addrSize == 4 {
				fx.addr = uint64(binary.BigEndian.Uint32(expr[1:]))
			} else {
				fx.addr = binary.BigEndian.Uint64(expr[1:])
			}
		}
	case dwarf.OpAddrx:
		a, ok := addrs.get(ops[0].n)
		if !ok {
			return
		}
		fx.addr = a
	default:
		return
	}
	fx.has |= fxAddr
	if n == 2 && ops[1].atom == dwarf.OpPlusUconst {
		fx.addr += ops[1].n
	}
}

// op is one decoded DWARF expression operation: its opcode, first
// operand, and for DW_OP_entry_value the sub-expression.
type op struct {
	atom dwarf.Op
	n    uint64
	sub  []byte
}

// decodeOps decodes up to len(out) operations of expr and returns the
// total number of operations in expr (which may exceed len(out)); an
// operation it cannot size ends the count.
func decodeOps(expr []byte, addrSize int, out []op) int {
	n := 0
	for p := 0; p < len(expr); {
		a := dwarf.Op(expr[p])
		p++
		o := op{atom: a}
		switch a {
		case dwarf.OpAddr:
			if p+addrSize > len(expr) {
				return n + 1
			}
			if addrSize == 4 {
				o.n = uint64(binary.LittleEndian.Uint32(expr[p:]))
			} else {
				o.n = binary.LittleEndian.Uint64(expr[p:])
			}
			p += addrSize
		case dwarf.OpConst1u, dwarf.OpConst1s, dwarf.OpPick, dwarf.OpDerefSize, dwarf.OpXderefSize:
			p++
		case dwarf.OpConst2u, dwarf.OpConst2s, dwarf.OpBra, dwarf.OpSkip, dwarf.OpCall2:
			p += 2
		case dwarf.OpConst4u, dwarf.OpConst4s, dwarf.OpCall4, dwarf.OpCallRef, dwarf.OpGNUParameterRef:
			p += 4
		case dwarf.OpConst8u, dwarf.OpConst8s:
			p += 8
		case dwarf.OpConstu, dwarf.OpPlusUconst, dwarf.OpRegx, dwarf.OpPiece, dwarf.OpAddrx,
			dwarf.OpConstx, dwarf.OpConvert, dwarf.OpReinterpret, dwarf.OpGNUConvert,
			dwarf.OpGNUReinterpret, dwarf.OpGNUAddrIndex, dwarf.OpGNUConstIndex,
			dwarf.OpConsts, dwarf.OpFbreg:
			// One LEB128 operand (a signed one's value is not used:
			// only its length matters).
			v, k := uleb(expr[p:])
			o.n = v
			p += k
		case dwarf.OpBregx, dwarf.OpBitPiece, dwarf.OpRegvalType, dwarf.OpGNURegvalType:
			_, k := uleb(expr[p:])
			p += k
			_, k = uleb(expr[p:])
			p += k
		case dwarf.OpImplicitPointer, dwarf.OpGNUImplicitPointer:
			p += 4
			_, k := uleb(expr[min(p, len(expr)):])
			p += k
		case dwarf.OpImplicitValue, dwarf.OpEntryValue, dwarf.OpGNUEntryValue:
			l, k := uleb(expr[p:])
			p += k
			if uint64(len(expr)-p) < l {
				return n + 1
			}
			o.sub = expr[p : p+int(l)]
			p += int(l)
		case dwarf.OpConstType, dwarf.OpGNUConstType:
			_, k := uleb(expr[p:])
			p += k
			if p < len(expr) {
				p += 1 + int(expr[p])
			}
		case dwarf.OpDerefType, dwarf.OpXderefType, dwarf.OpGNUDerefType:
			p++
			_, k := uleb(expr[min(p, len(expr)):])
			p += k
		case dwarf.OpNop, dwarf.OpPushObjectAddress, dwarf.OpFormTLSAddress, dwarf.OpCallFrameCFA,
			dwarf.OpStackValue, dwarf.OpGNUPushTLSAddress, dwarf.OpGNUUninit:
			// no operands
		default:
			switch {
			case a >= dwarf.OpBreg0 && a <= dwarf.OpBreg31:
				v, k := uleb(expr[p:]) // an SLEB128 offset; only its length matters
				o.n = v
				p += k
			case a >= dwarf.OpDeref && a <= dwarf.OpNe, a >= dwarf.OpLit0 && a <= dwarf.OpReg31:
				// no operands
			default:
				return n + 1
			}
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
	stackValue := cnt <= maxOpsDecoded && ops[cnt-1].atom == dwarf.OpStackValue
	if cnt == 2 && stackValue {
		cnt = 1
	}
	set := func(reg *int8, r dwarf.Op) {
		if *reg == paramRegUnknown {
			*reg = int8(r)
		}
	}
	a := ops[0].atom
	if cnt != 1 {
		switch {
		case a >= dwarf.OpLit0 && a <= dwarf.OpLit31 || a == dwarf.OpConstu || a == dwarf.OpConsts:
			if n == 0 {
				l.constant = true
			}
			return
		}
		// Scalars and small aggregates.
		switch {
		case a >= dwarf.OpReg0 && a <= dwarf.OpReg31:
			if n == 0 {
				set(&l.regSmall, a-dwarf.OpReg0)
			}
		case a >= dwarf.OpBreg0 && a <= dwarf.OpBreg31:
			if n == 0 {
				for i := 1; i < min(cnt, maxOpsDecoded); i++ {
					if ops[i].atom == dwarf.OpStackValue {
						set(&l.regSmall, a-dwarf.OpBreg0)
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
			if b := all[i].atom; b >= dwarf.OpReg0 && b <= dwarf.OpReg31 {
				set(&l.regBig, b-dwarf.OpReg0)
				break
			}
		}
		l.addPieces(all, addrSize)
		return
	}
	both := func(r dwarf.Op) {
		set(&l.regSmall, r)
		set(&l.regBig, r)
	}
	switch {
	case a >= dwarf.OpReg0 && a <= dwarf.OpReg31:
		if n == 0 {
			both(a - dwarf.OpReg0)
		}
	case a >= dwarf.OpBreg0 && a <= dwarf.OpBreg31:
		if n == 0 && stackValue {
			both(a - dwarf.OpBreg0)
		}
	case a == dwarf.OpFbreg:
		if n == 0 {
			l.stack = true
		}
	case a >= dwarf.OpLit0 && a <= dwarf.OpLit31 || a == dwarf.OpConstu || a == dwarf.OpConsts:
		if n == 0 {
			l.constant = true
		}
	case a == dwarf.OpEntryValue || a == dwarf.OpGNUEntryValue:
		var sub [2]op
		if decodeOps(ops[0].sub, addrSize, sub[:]) == 1 && sub[0].atom >= dwarf.OpReg0 && sub[0].atom <= dwarf.OpReg31 {
			both(sub[0].atom - dwarf.OpReg0)
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
		if ops[i].atom != dwarf.OpPiece {
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
	if !f.entry(off) || f.e.Tag != dwarf.TagSubprogram {
		return false
	}
	name, err := f.dd.Name(&f.e)
	if err != nil {
		return false
	}
	out.name = name
	out.has, out.typ = f.typeRef()
	out.fx = 0
	if fl := f.e.Field(dwarf.AttrCallingConvention); fl != nil && fl.Val == dwarf.CCNocall {
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
		if f.e.Tag == dwarf.TagFormalParameter {
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
	if !f.entry(off) || f.e.Tag != dwarf.TagFormalParameter {
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
	t := typeFacts{tag: f.e.Tag}
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
