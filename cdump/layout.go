package cdump

import (
	"math"

	"github.com/btfkit/btfkit/btf"
)

// alignOf is the alignment in bytes C gives type id, as libbpf derives it
// from BTF: the natural alignment of scalars (capped at the pointer size),
// the largest member alignment of a struct, or 1 for a struct whose layout
// shows it is packed. It is 0 for types without an alignment (void, FWD,
// functions).
func (d *dumper) alignOf(id btf.TypeID) int {
	if !d.valid(id) {
		return 0
	}
	if m := d.alignMemo[id]; m != 0 {
		return int(m - 1)
	}
	a := d.alignOfUncached(id)
	d.alignMemo[id] = int16(a + 1)
	return a
}

func (d *dumper) alignOfUncached(id btf.TypeID) int {
	t := d.spec.Type(id)
	switch t.Kind() {
	case btf.KindInt, btf.KindEnum, btf.KindEnum64, btf.KindFloat:
		return min(d.ptrSz, int(t.Size()))
	case btf.KindPtr:
		return d.ptrSz
	case btf.KindTypedef, btf.KindVolatile, btf.KindConst, btf.KindRestrict, btf.KindTypeTag:
		// Mark as in progress (0) to end malformed cycles.
		d.alignMemo[id] = 1
		return d.alignOf(t.Ref())
	case btf.KindArray:
		d.alignMemo[id] = 1
		return d.alignOf(btf.TypeID(t.Extra()[0]))
	case btf.KindStruct, btf.KindUnion:
		d.alignMemo[id] = 1
		maxAlign := 1
		ext := t.Extra()
		kflag := t.KindFlag()
		for i := 0; i+2 < len(ext); i += 3 {
			a := d.alignOf(btf.TypeID(ext[i+1]))
			if a <= 0 {
				return a
			}
			maxAlign = max(maxAlign, a)
			off, bitSz := btf.MemberOffset(ext[i+2], kflag)
			if bitSz == 0 && off%uint32(8*a) != 0 {
				return 1
			}
		}
		if int(t.Size())%maxAlign != 0 {
			return 1
		}
		return maxAlign
	}
	return 0
}

// resolveSize is the byte size of type id, or -1 when it has none (void,
// FWD, functions, reference chains deeper than libbpf follows) or it does
// not fit in 32 bits.
func (d *dumper) resolveSize(id btf.TypeID) int64 {
	if !d.valid(id) {
		return -1
	}
	if m := d.sizeMemo[id]; m != 0 {
		return int64(m) - 2
	}
	sz := d.resolveSizeUncached(id)
	if sz >= -1 && sz < math.MaxInt32-2 {
		d.sizeMemo[id] = int32(sz + 2)
	}
	return sz
}

func (d *dumper) resolveSizeUncached(id btf.TypeID) int64 {
	if sz, ok := btf.ResolveSize(d.spec, id, uint32(d.ptrSz)); ok {
		return sz
	}
	return -1
}

// isPacked reports whether a struct's layout can only come from
// __attribute__((packed)): a non-bitfield member off its natural alignment,
// or a size that is not a multiple of the largest member alignment.
func (d *dumper) isPacked(t btf.Type) bool {
	maxAlign := 1
	ext := t.Extra()
	kflag := t.KindFlag()
	for i := 0; i+2 < len(ext); i += 3 {
		a := d.alignOf(btf.TypeID(ext[i+1]))
		off, bitSz := btf.MemberOffset(ext[i+2], kflag)
		if a != 0 && bitSz == 0 && off%uint32(8*a) != 0 {
			return true
		}
		maxAlign = max(a, maxAlign)
	}
	return int(t.Size())%maxAlign != 0
}

func roundUp(x, y int) int { return (x + y - 1) / y * y }

// emitBitPadding fills the gap between bit offsets cur and next with
// anonymous bitfields ("long: 64;", "int: 0;", ...), using the widest type
// that lands on a natural boundary and an explicit ": 0" alignment mark
// where the compiler would not align by itself.
func (d *dumper) emitBitPadding(cur, next, nextAlign int, inBitfield bool, lvl int) {
	if cur >= next {
		return
	}
	pads := [4]struct {
		name string
		bits int
	}{{"long", d.ptrSz * 8}, {"int", 32}, {"short", 16}, {"char", 8}}

	var newOff, padBits int
	var padType string
	for _, p := range pads {
		padBits, padType = p.bits, p.name
		newOff = roundUp(cur, padBits)
		if newOff <= next {
			break
		}
	}
	if newOff > cur && newOff <= next {
		if inBitfield ||
			(newOff == next && roundUp(cur, nextAlign*8) != newOff) ||
			(newOff != next && next-newOff <= newOff-cur) {
			d.str("\n")
			d.indent(lvl)
			d.str(padType)
			d.str(": ")
			if inBitfield {
				d.int(int64(newOff - cur))
			} else {
				d.str("0")
			}
			d.str(";")
		}
		cur = newOff
	}
	for cur != next && !d.overflow() {
		bits := min(next-cur, padBits)
		if bits == padBits {
			d.str("\n")
			d.indent(lvl)
			d.str(padType)
			d.str(": ")
			d.int(int64(padBits))
			d.str(";")
			cur += bits
			continue
		}
		// The remainder: the smallest type that holds it.
		for i := len(pads) - 1; i >= 0; i-- {
			padType, padBits = pads[i].name, pads[i].bits
			if padBits < bits {
				continue
			}
			d.str("\n")
			d.indent(lvl)
			d.str(padType)
			d.str(": ")
			d.int(int64(bits))
			d.str(";")
			cur += bits
			break
		}
	}
}

func (d *dumper) emitStructFwd(id btf.TypeID, t btf.Type) {
	if t.Kind() == btf.KindStruct {
		d.str("struct")
	} else {
		d.str("union")
	}
	if t.NameOff() != 0 {
		d.str(" ")
	}
	d.str(d.typeName(id))
}

func (d *dumper) emitStructDef(id btf.TypeID, t btf.Type, lvl int) {
	if d.inline > maxInline {
		d.fail(errDeep{id, maxInline}) // an anonymous struct that contains itself, or too deep
	}
	if d.overflow() {
		d.str("struct {}")
		return
	}
	d.inline++
	defer func() { d.inline-- }()
	isStruct := t.Kind() == btf.KindStruct
	align := d.alignOf(id)
	packed := isStruct && d.isPacked(t)

	d.emitStructFwd(id, t)
	d.str(" {")

	ext := t.Extra()
	kflag := t.KindFlag()
	vlen := len(ext) / 3
	off := 0
	prevBitfield := false
	for i := 0; i < vlen; i++ {
		nameOff, mtype := ext[3*i], btf.TypeID(ext[3*i+1])
		moff, bitSz := btf.MemberOffset(ext[3*i+2], kflag)
		mSz, mOff := int(bitSz), int(moff)
		mAlign := 1
		if !packed {
			mAlign = d.alignOf(mtype)
		}
		inBitfield := prevBitfield && mSz != 0

		d.emitBitPadding(off, mOff, mAlign, inBitfield, lvl+1)
		d.str("\n")
		d.indent(lvl + 1)
		d.emitTypeDecl(mtype, d.spec.String(nameOff), lvl+1)

		if mSz != 0 {
			d.str(": ")
			d.int(int64(mSz))
			off = mOff + mSz
			prevBitfield = true
		} else {
			sz := max(0, d.resolveSize(mtype))
			off = mOff + int(sz)*8
			prevBitfield = false
		}
		d.str(";")
	}
	if isStruct {
		d.emitBitPadding(off, int(t.Size())*8, align, false, lvl+1)
	}
	if vlen != 0 || t.Size() != 0 {
		d.str("\n")
		d.indent(lvl)
	}
	d.str("}")
	if packed {
		d.str(" __attribute__((packed))")
	}
	if d.fixLayout && !isStruct {
		d.str(d.fixUnionAlign(id, t))
	}
}

func (d *dumper) emitEnumDef(id btf.TypeID, t btf.Type, lvl int) {
	d.str("enum")
	if t.NameOff() != 0 {
		d.str(" ")
	}
	d.str(d.typeName(id))
	vlen := t.Vlen()
	if vlen == 0 {
		return
	}
	d.str(" {")
	ext := t.Extra()
	signed := t.KindFlag()
	is64 := t.Kind() == btf.KindEnum64
	allLow := true
	for i := 0; i < vlen; i++ {
		var name string
		d.str("\n")
		d.indent(lvl + 1)
		if is64 {
			name = d.spec.String(ext[3*i])
		} else {
			name = d.spec.String(ext[2*i])
		}
		d.str(name)
		if n := nameDups(d.identNames, name); n > 1 {
			d.str("___")
			d.int(int64(n))
		}
		d.str(" = ")
		if is64 {
			lo, hi := ext[3*i+1], ext[3*i+2]
			if hi != 0 {
				allLow = false
			}
			v := uint64(hi)<<32 | uint64(lo)
			if signed {
				d.int(int64(v))
				d.str("LL,")
			} else {
				d.uint(v)
				d.str("ULL,")
			}
		} else {
			v := ext[2*i+1]
			if signed || d.fixLayout && fixSignedSmall(t.Size(), v) {
				d.int(int64(int32(v)))
			} else {
				d.uint(uint64(v))
			}
			d.str(",")
		}
	}
	d.str("\n")
	d.indent(lvl)
	d.str("}")
	// No mode(byte)/mode(word) attribute for 1- and 8-byte enums: libbpf
	// 1.1 added them, but the kernel 6.1 tree Debian's bpftool 7.1 is
	// built from predates that change.
	if d.fixLayout {
		d.str(d.fixEnumMode(t, allLow))
	}
}

func (d *dumper) emitFwdDef(id btf.TypeID, t btf.Type) {
	if t.KindFlag() {
		d.str("union ")
	} else {
		d.str("struct ")
	}
	d.str(d.typeName(id))
}

func (d *dumper) emitTypedefDef(id btf.TypeID, t btf.Type, lvl int) {
	name := d.identName(id)
	// Old GCC emits __gnuc_va_list as a typedef of void.
	if t.Ref() == 0 && name == "__gnuc_va_list" {
		d.str("typedef __builtin_va_list __gnuc_va_list")
		return
	}
	d.str("typedef ")
	d.emitTypeDecl(t.Ref(), name, lvl)
}
