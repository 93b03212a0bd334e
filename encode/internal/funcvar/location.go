package funcvar

import (
	"encoding/binary"

	"github.com/btfkit/btfkit/dwarf"
)

// Location is what pahole learns from a parameter's location: the
// register it is in on entry (read one way for a scalar or a small
// aggregate, another for an aggregate larger than a word), whether it
// lives on the stack or is a constant, and, for an aggregate passed in
// two registers, which of its bytes the DW_OP_pieces carry. The zero value
// knows nothing.
type Location struct {
	// DWARF register numbers plus one; 0 when no register was found.
	scalarReg, aggregateReg uint8
	stack, constant         bool
	// Aggregates in two registers: bit n of firstPieces (secondPieces)
	// says a DW_OP_piece starts at byte n of the first (second)
	// register's word.
	firstPieces, secondPieces uint64
}

// noReg is a register not known.
const noReg = -1

// reg returns the register a location field records, or noReg.
func reg(field uint8) int8 { return int8(field) - 1 }

// setReg records r in field unless a register is there already.
func setReg(field *uint8, r dwarf.Op) {
	if *field == 0 {
		*field = uint8(r) + 1
	}
}

// maxOpsDecoded is how many operations of a location expression are
// decoded on the stack (longer expressions are decoded again in full).
const maxOpsDecoded = 16

// Add folds the n-th entry of a location list (n is 0 for a single
// expression) into l, as pahole's parameter__decode_location reads it.
// Aggregates larger than a word read pieces (aggregateReg); everything
// else scalarReg.
func (l *Location) Add(expr []byte, n int, addrSize int) {
	var ops [maxOpsDecoded]op
	cnt := decodeOps(expr, addrSize, ops[:])
	if cnt == 0 {
		return
	}
	stackValue := cnt <= maxOpsDecoded && ops[cnt-1].atom == dwarf.OpStackValue
	if cnt == 2 && stackValue {
		cnt = 1
	}
	isReg := func(a dwarf.Op) bool { return a >= dwarf.OpReg0 && a <= dwarf.OpReg31 }
	isBreg := func(a dwarf.Op) bool { return a >= dwarf.OpBreg0 && a <= dwarf.OpBreg31 }
	isConst := func(a dwarf.Op) bool {
		return a >= dwarf.OpLit0 && a <= dwarf.OpLit31 || a == dwarf.OpConstu || a == dwarf.OpConsts
	}
	a := ops[0].atom
	if cnt != 1 {
		if isConst(a) {
			if n == 0 {
				l.constant = true
			}
			return
		}
		// Scalars and small aggregates.
		switch {
		case isReg(a):
			if n == 0 {
				setReg(&l.scalarReg, a-dwarf.OpReg0)
			}
		case isBreg(a):
			if n == 0 {
				for i := 1; i < min(cnt, maxOpsDecoded); i++ {
					if ops[i].atom == dwarf.OpStackValue {
						setReg(&l.scalarReg, a-dwarf.OpBreg0)
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
			if b := all[i].atom; isReg(b) {
				setReg(&l.aggregateReg, b-dwarf.OpReg0)
				break
			}
		}
		l.addPieces(all, addrSize)
		return
	}
	both := func(r dwarf.Op) {
		setReg(&l.scalarReg, r)
		setReg(&l.aggregateReg, r)
	}
	switch {
	case isReg(a):
		if n == 0 {
			both(a - dwarf.OpReg0)
		}
	case isBreg(a):
		if n == 0 && stackValue {
			both(a - dwarf.OpBreg0)
		}
	case a == dwarf.OpFbreg:
		if n == 0 {
			l.stack = true
		}
	case isConst(a):
		if n == 0 {
			l.constant = true
		}
	case a == dwarf.OpEntryValue || a == dwarf.OpGNUEntryValue:
		var sub [2]op
		if decodeOps(ops[0].sub, addrSize, sub[:]) == 1 && isReg(sub[0].atom) {
			both(sub[0].atom - dwarf.OpReg0)
		}
	}
}

// addPieces records, as pahole 1.31 does for an aggregate passed in two
// registers, the byte offset within the aggregate at which each
// DW_OP_piece starts: in firstPieces when it falls in the first
// register's word, in secondPieces (relative to that word) otherwise. A
// piece opening the expression has no location: it only moves the
// offset. Every entry of a location list adds its pieces.
func (l *Location) addPieces(ops []op, addrSize int) {
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
			l.firstPieces |= pieceBit(off)
		} else {
			l.secondPieces |= pieceBit(off - uint64(addrSize))
		}
		off += ops[i].n
	}
}

// pieceBit is the bit of byte offset off in a set of piece offsets
// (offsets past 63 are not recorded).
func pieceBit(off uint64) uint64 {
	if off >= 64 {
		return 0
	}
	return 1 << off
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
		uleb := func() uint64 {
			v, k := dwarf.ULEB128(expr[min(p, len(expr)):])
			p += k
			return v
		}
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
			o.n = uleb()
		case dwarf.OpBregx, dwarf.OpBitPiece, dwarf.OpRegvalType, dwarf.OpGNURegvalType:
			uleb()
			uleb()
		case dwarf.OpImplicitPointer, dwarf.OpGNUImplicitPointer:
			p += 4
			uleb()
		case dwarf.OpImplicitValue, dwarf.OpEntryValue, dwarf.OpGNUEntryValue:
			l := uleb()
			if uint64(len(expr)-p) < l {
				return n + 1
			}
			o.sub = expr[p : p+int(l)]
			p += int(l)
		case dwarf.OpConstType, dwarf.OpGNUConstType:
			uleb()
			if p < len(expr) {
				p += 1 + int(expr[p])
			}
		case dwarf.OpDerefType, dwarf.OpXderefType, dwarf.OpGNUDerefType:
			p++
			uleb()
		case dwarf.OpNop, dwarf.OpPushObjectAddress, dwarf.OpFormTLSAddress, dwarf.OpCallFrameCFA,
			dwarf.OpStackValue, dwarf.OpGNUPushTLSAddress, dwarf.OpGNUUninit:
			// no operands
		default:
			switch {
			case a >= dwarf.OpBreg0 && a <= dwarf.OpBreg31:
				o.n = uleb() // an SLEB128 offset; only its length matters
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
