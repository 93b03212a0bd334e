package pretty

import (
	"errors"
	"io"
	"strconv"

	"github.com/btfkit/btfkit/btf"
)

// TextOptions change how TextWriter prints.
type TextOptions struct {
	// Hex prints numbers in hexadecimal (pahole --hex).
	Hex bool
	// Verbose prints pahole -V's comment line before each record:
	// "// type=perf_event_header, offset=0x1e0, sizeof=8, real_sizeof=48".
	Verbose bool
}

// TextWriter prints records as pahole 1.32 does, byte for byte: each
// record a C initializer followed by ",\n". Its rules are pahole's:
// integers (through typedefs) are read as signed integers of their size;
// char arrays, of any dimensions, print as strings up to their first NUL;
// one-dimensional arrays of integers as "{ 1, 2 }"; a flexible array at the end of a struct takes the rest of
// the record; the type_enum member prints as its enumerator; nested
// structs and named unions print in braces, an anonymous union's members
// inline; anything else (pointers, enums, typedef'd structs, arrays of
// structs, multidimensional arrays) is a hex dump of its bytes.
type TextWriter struct {
	w     io.Writer
	d     *Decoder
	opt   TextOptions
	buf   []byte
	plans []*textPlan // by type ID
	err   error
}

// NewTextWriter returns a writer of d's records to w. Output is buffered:
// call Flush at the end.
func NewTextWriter(w io.Writer, d *Decoder, opt TextOptions) *TextWriter {
	return &TextWriter{w: w, d: d, opt: opt, buf: make([]byte, 0, 128<<10), plans: make([]*textPlan, d.ts.spec.NextID())}
}

// textKind is how pahole prints one member.
type textKind uint8

const (
	textInt      textKind = iota // a number read by size
	textBitfield                 // a bitfield's bits
	textString                   // a char array up to its NUL
	textIntArray                 // { n, n, ... }
	textHex                      // 0x.. 0x.. dump
	textStruct                   // a nested struct, in braces
	textUnion                    // a union, in braces when named
)

type textField struct {
	member
	kind     textKind
	flex     bool // an array of no size at the end: it takes the rest
	elemSize int  // textIntArray: element size
	nelems   int  // textIntArray: element count (0: as many as fit)
	sub      btf.TypeID
	subPlan  *textPlan // sub's plan, compiled on first use

	prefixes []string // "\n\t\t.name = " by indent, made on first use
}

type textPlan struct {
	t      btf.Type
	fields []textField
	annot  *annotation // the type_enum member, when a class has one
}

// plan compiles how pahole prints the members of struct or union t.
func (tw *TextWriter) plan(t btf.Type) *textPlan {
	if p := tw.plans[t.ID]; p != nil {
		return p
	}
	ts := tw.d.ts
	p := &textPlan{t: t, fields: make([]textField, t.Vlen()), annot: tw.d.annot[t.ID]}
	for i := range p.fields {
		f := textField{member: ts.member(t, i)}
		mt, _ := ts.typ(f.typ)
		switch {
		case f.bits != 0:
			f.kind = textBitfield
		case isBase(ts, f.typ):
			f.kind = textInt
		case isArray(ts, f.typ):
			f.kind = textHex
			f.flex = f.byteSize == 0 && f.last
			if mt.Kind() != btf.KindArray {
				break // a typedef'd or const array: pahole dumps it
			}
			elemID, dims := ts.array(mt)
			elem, _ := ts.typ(elemID)
			if elem.Kind() == btf.KindInt && elem.Name() == "char" {
				f.kind = textString
			} else if bt, ok := ts.baseType(elemID); ok && len(dims) == 1 {
				f.kind = textIntArray
				f.elemSize = ts.size(bt.ID)
				f.nelems = int(dims[0])
			}
		case mt.Kind() == btf.KindStruct:
			f.kind, f.sub = textStruct, mt.ID
		case mt.Kind() == btf.KindUnion:
			f.kind, f.sub = textUnion, mt.ID
		default:
			f.kind = textHex
		}
		p.fields[i] = f
	}
	tw.plans[t.ID] = p
	return p
}

// array is the ARRAY t as pahole 1.32's BTF loader makes it: an ARRAY
// whose element is directly an ARRAY of a lower ID (one per dimension, as
// pahole 1.32 and package encode write a multi-dimensional array) is
// folded into it, so that the element is the innermost one's and the
// dimensions are all of them, outermost first.
func (ts *types) array(t btf.Type) (btf.TypeID, []uint32) {
	a := t.Array()
	elem, dims := a.Elem, []uint32{a.Nelems}
	for cur := t.ID; ; { // IDs go down: it ends
		et, ok := ts.typ(elem)
		if !ok || et.Kind() != btf.KindArray || elem >= cur {
			break
		}
		in := et.Array()
		dims = append(dims, in.Nelems)
		cur, elem = elem, in.Elem
	}
	return elem, dims
}

// isBase is pahole's tag__is_base_type: an integer or float, through
// typedefs only.
func isBase(ts *types, id btf.TypeID) bool {
	_, ok := ts.baseType(id)
	return ok
}

// isArray is pahole's tag__is_array: an array, through typedefs and const.
func isArray(ts *types, id btf.TypeID) bool {
	for range ts.chainSteps() {
		t, ok := ts.typ(id)
		if !ok {
			return false
		}
		switch t.Kind() {
		case btf.KindArray:
			return true
		case btf.KindTypedef, btf.KindConst:
			id = t.Ref()
		default:
			return false
		}
	}
	return false
}

// errTooDeep is a struct nested in itself, which only malformed BTF has,
// or valid BTF nesting structs deeper than any C program does.
var errTooDeep = errors.New("structs nested more than 64 deep (the BTF loops, or nests deeper than pretty prints)")

// Write prints one record.
func (tw *TextWriter) Write(r *Record) error {
	if tw.err != nil {
		return tw.err
	}
	b := tw.buf
	if tw.opt.Verbose {
		b = append(b, "// type="...)
		b = append(b, r.ClassType.Name()...)
		b = append(b, ", offset="...)
		b = appendCHex(b, uint64(r.Offset))
		b = append(b, ", sizeof="...)
		b = strconv.AppendInt(b, int64(r.ClassSize), 10)
		if r.Size != r.ClassSize {
			b = append(b, ", real_sizeof="...)
			b = strconv.AppendInt(b, int64(r.Size), 10)
		}
		b = append(b, '\n')
	}
	var err error
	if r.Type.Kind() == btf.KindStruct {
		b, err = tw.appendStruct(b, tw.plan(r.Type), r.view, r.Size, 0, true, 0)
		if err != nil {
			tw.err = err
			return err
		}
	} else {
		b = appendHexDump(b, r.view, r.Size)
	}
	b = append(b, ",\n"...)
	tw.buf = b
	if len(b) >= 64<<10 {
		return tw.Flush()
	}
	return nil
}

// Flush writes out what is buffered.
func (tw *TextWriter) Flush() error {
	if tw.err != nil {
		return tw.err
	}
	if len(tw.buf) > 0 {
		_, tw.err = tw.w.Write(tw.buf)
		tw.buf = tw.buf[:0]
	}
	return tw.err
}

const tabs = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t" // pahole indents at most 16 deep

func appendIndent(b []byte, indent int) []byte {
	return append(b, tabs[:min(indent, len(tabs))]...)
}

// prefix is what comes before the field's value at an indent:
// "\n\t\t.name = ".
func (f *textField) prefix(indent int) string {
	indent = min(indent, len(tabs))
	if f.prefixes == nil {
		f.prefixes = make([]string, len(tabs)+1)
	}
	if f.prefixes[indent] == "" {
		f.prefixes[indent] = "\n" + tabs[:indent] + "\t." + f.name + " = "
	}
	return f.prefixes[indent]
}

// subPlan is the plan of a struct or union member.
func (tw *TextWriter) subPlan(f *textField) *textPlan {
	if f.subPlan == nil {
		t, _ := tw.d.ts.typ(f.sub)
		f.subPlan = tw.plan(t)
	}
	return f.subPlan
}

// appendStruct prints the members of the struct or union of plan p whose
// bytes start at data (sizeof: pahole's size for it, which sizes a
// flexible array at its end).
func (tw *TextWriter) appendStruct(b []byte, p *textPlan, data []byte, sizeof, indent int, brackets bool, depth int) ([]byte, error) {
	if depth > maxDepth {
		return b, errTooDeep
	}
	annot := p.annot
	if brackets {
		b = append(b, '{')
	}
	var err error
	for i := range p.fields {
		f := &p.fields[i]
		if f.name != "" {
			b = append(b, f.prefix(indent)...)
		}
		v := sub(data, f.byteOff)
		switch {
		case annot != nil && annot.typeMember == f.index:
			val := signedValue(v, f.byteSize)
			if e, ok := annot.enums.byValue(val); ok {
				b = append(b, e.name...)
			} else {
				b = tw.appendValue(b, val)
			}
		case f.kind == textBitfield:
			b = tw.appendValue(b, bitfieldValue(v, &f.member))
		case f.kind == textInt:
			b = tw.appendValue(b, signedValue(v, f.byteSize))
		case f.kind == textString, f.kind == textIntArray, f.kind == textHex && f.flex:
			n := f.byteSize
			if f.flex {
				n = sizeof - f.byteOff
			}
			switch f.kind {
			case textString:
				b = appendString(b, v, n)
			case textIntArray:
				b = tw.appendIntArray(b, v, f, n)
			default:
				b = appendHexDump(b, v, n)
			}
		case f.kind == textStruct:
			if b, err = tw.appendStruct(b, tw.subPlan(f), v, f.byteSize, indent+1, true, depth+1); err != nil {
				return b, err
			}
		case f.kind == textUnion:
			named := f.name != ""
			in := indent
			if named {
				in++
			}
			if b, err = tw.appendStruct(b, tw.subPlan(f), v, f.byteSize, in, named, depth+1); err != nil {
				return b, err
			}
			if !named {
				continue
			}
		default:
			b = appendHexDump(b, v, f.byteSize)
		}
		b = append(b, ',')
	}
	if brackets {
		b = append(b, '\n')
		b = appendIndent(b, indent)
		b = append(b, '}')
	}
	return b, nil
}

// sub is data from off on; empty past its end (what is not there reads
// as zeros).
func sub(data []byte, off int) []byte {
	if off < 0 || off > len(data) {
		return nil
	}
	return data[off:]
}

// appendValue prints a number as pahole does: signed decimal, or with
// --hex C's %#x of the 64-bit value.
func (tw *TextWriter) appendValue(b []byte, v uint64) []byte {
	if tw.opt.Hex {
		return appendCHex(b, v)
	}
	return strconv.AppendInt(b, int64(v), 10)
}

// appendCHex is C's "%#" PRIx64: 0 is "0", others 0x followed by hex.
func appendCHex(b []byte, v uint64) []byte {
	if v == 0 {
		return append(b, '0')
	}
	b = append(b, "0x"...)
	return strconv.AppendUint(b, v, 16)
}

// appendString prints "%-.*s": the bytes up to the first NUL, at most n
// of them (all up to the NUL when n is negative, as C's printf does).
func appendString(b []byte, v []byte, n int) []byte {
	b = append(b, '"')
	if n < 0 || n > len(v) {
		n = len(v)
	}
	for _, c := range v[:n] {
		if c == 0 {
			break
		}
		b = append(b, c)
	}
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendHexDump prints n bytes as "0x.. 0x..", nothing when n <= 0.
func appendHexDump(b []byte, v []byte, n int) []byte {
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		var c byte
		if i < len(v) {
			c = v[i]
		}
		b = append(b, '0', 'x', hexDigits[c>>4], hexDigits[c&15])
	}
	return b
}

// appendIntArray prints an array of integers: "{ 1, 2 }", as many
// elements as it has, or as fit in n bytes when it has none.
func (tw *TextWriter) appendIntArray(b []byte, v []byte, f *textField, n int) []byte {
	b = append(b, "{ "...)
	count := f.nelems
	if count == 0 {
		count = 0
		if f.elemSize != 0 {
			count = n / f.elemSize
		}
	}
	for i := 0; i < count; i++ {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = tw.appendValue(b, signedValue(sub(v, i*f.elemSize), f.elemSize))
	}
	return append(b, " }"...)
}

// WriteString adds text to the output as it is, in order with the
// records (pahole -V's messages share stdout with them).
func (tw *TextWriter) WriteString(s string) {
	tw.buf = append(tw.buf, s...)
}
