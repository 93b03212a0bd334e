package pretty

import (
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/btfkit/btfkit/btf"
)

// JSONWriter prints each record as one JSON object on a line of its own:
//
//	{"offset":480,"class":"perf_event_header","type":"perf_record_comm","size":40,
//	 "members":{"header":{"type":"PERF_RECORD_COMM","misc":8192,"size":40},"pid":29885,...},
//	 "extra":[[32,"bd740000bd740000"]]}
//
// offset is where the record starts in the input, class the -C type it was
// read as (absent for the --header record, which has "header":true), type
// the type it is printed as and size its length in bytes. A struct's or
// union's members are an object keyed by member name ("members"; any other
// type is "value"); the members of anonymous structs and unions appear in
// the enclosing object, as C names them. Values follow their BTF types:
// integers by their signedness (as strings of decimal digits past 2^53-1,
// which JSON readers that hold numbers as doubles, jq 1.6 and JavaScript,
// would round), _Bool as true/false, enums (and the
// type_enum member) as enumerator names when one matches, char arrays as
// strings up to their NUL (arrays of numbers when not UTF-8), other arrays
// as JSON arrays, a flexible array at the end with the elements the record
// holds, floats as numbers (non-finite ones as "0x" and their bits),
// integers wider than 64 bits as "0x" and the hex number, anything else as
// a string of its bytes in hex. Members past the end of the record are left
// out. "extra" lists, as [offset, "hex"], the bytes (and bits) of the record
// no member printed covers and that are not zero: padding, data after the
// struct, bytes after a string's NUL. With them the record's bytes can be
// rebuilt exactly from its JSON.
type JSONWriter struct {
	w     io.Writer
	d     *Decoder
	buf   []byte
	nodes map[btf.TypeID]*jsonNode
	cover []byte // per byte of the record: which bits a printed member covers
	data  []byte
	err   error
}

// NewJSONWriter returns a writer of d's records to w. Output is buffered:
// call Flush at the end.
func NewJSONWriter(w io.Writer, d *Decoder) *JSONWriter {
	return &JSONWriter{w: w, d: d, buf: make([]byte, 0, 128<<10), nodes: map[btf.TypeID]*jsonNode{}}
}

type jsonKind uint8

const (
	jsonInt    jsonKind = iota // size 1, 2, 4 or 8
	jsonBool                   // _Bool
	jsonBigInt                 // an integer of another size: "0x..."
	jsonFloat                  // float or double
	jsonEnum                   // enumerator name or number
	jsonString                 // char array
	jsonArray                  // array of elem
	jsonStruct                 // struct or union: fields
	jsonBytes                  // anything else: its bytes in hex
)

type jsonNode struct {
	kind   jsonKind
	size   int
	signed bool
	t      btf.Type          // jsonStruct: the struct or union
	names  map[uint64]string // jsonEnum: enumerator of each value (first wins)
	elem   *jsonNode         // jsonArray, jsonString
	n      int               // jsonArray, jsonString: element count (0: flexible)
	fields []jsonField       // jsonStruct
	union  bool              // jsonStruct
	annot  *annotation       // jsonStruct: the type_enum member, when a class has one
}

type jsonField struct {
	name   string
	index  int
	off    int // byte offset
	bitOff int // bitfields: bit offset from the start of the struct
	bits   int
	node   *jsonNode
	last   bool
}

// node compiles how the JSON writer prints type id.
func (jw *JSONWriter) node(id btf.TypeID, depth int) *jsonNode {
	ts := jw.d.ts
	t, ok := ts.strip(id)
	if !ok || depth > maxDepth {
		return &jsonNode{kind: jsonBytes, size: ts.size(id)}
	}
	if n, ok := jw.nodes[t.ID]; ok {
		return n
	}
	n := &jsonNode{size: ts.size(t.ID)}
	jw.nodes[t.ID] = n
	switch t.Kind() {
	case btf.KindInt:
		enc, _, _ := t.IntEncoding()
		n.size = int(t.Size())
		n.signed = enc&btf.IntSigned != 0
		switch {
		case enc&btf.IntBool != 0 && n.size == 1:
			n.kind = jsonBool
		case n.size == 1 || n.size == 2 || n.size == 4 || n.size == 8:
			n.kind = jsonInt
		default:
			n.kind = jsonBigInt
		}
	case btf.KindFloat:
		n.kind = jsonBytes
		if n.size == 4 || n.size == 8 {
			n.kind = jsonFloat
		}
	case btf.KindPtr:
		n.kind = jsonInt
		if n.size != 1 && n.size != 2 && n.size != 4 && n.size != 8 {
			n.kind = jsonBytes
		}
	case btf.KindEnum, btf.KindEnum64:
		n.kind, n.signed, n.names = jsonEnum, t.KindFlag(), map[uint64]string{}
		for i := 0; i < t.Vlen(); i++ {
			e := t.Enum(i)
			if _, dup := n.names[e.Val]; !dup {
				n.names[e.Val] = ts.spec.String(e.NameOff)
			}
		}
		if n.size != 1 && n.size != 2 && n.size != 4 && n.size != 8 {
			n.kind = jsonBytes
		}
	case btf.KindArray:
		a := t.Array()
		n.kind, n.n, n.elem = jsonArray, int(a.Nelems), jw.node(a.Elem, depth+1)
		if et, ok := ts.strip(a.Elem); ok && et.Kind() == btf.KindInt && et.Size() == 1 {
			if enc, _, _ := et.IntEncoding(); enc&btf.IntChar != 0 || et.Name() == "char" {
				n.kind = jsonString
			}
		}
	case btf.KindStruct, btf.KindUnion:
		n.kind, n.t, n.union, n.annot = jsonStruct, t, t.Kind() == btf.KindUnion, jw.d.annot[t.ID]
		n.fields = make([]jsonField, t.Vlen())
		for i := range n.fields {
			m := t.Member(i)
			bitOff, bits := t.MemberBits(i)
			n.fields[i] = jsonField{
				name: ts.spec.String(m.NameOff), index: i,
				off: int(bitOff / 8), bitOff: int(bitOff), bits: int(bits),
				node: jw.node(m.Type, depth+1), last: i == t.Vlen()-1,
			}
		}
	default:
		n.kind = jsonBytes
	}
	return n
}

// Write prints one record.
func (jw *JSONWriter) Write(r *Record) error {
	if jw.err != nil {
		return jw.err
	}
	jw.data = r.Data
	if cap(jw.cover) < len(r.Data) {
		jw.cover = make([]byte, len(r.Data))
	}
	jw.cover = jw.cover[:len(r.Data)]
	clear(jw.cover)

	b := append(jw.buf, `{"offset":`...)
	b = strconv.AppendInt(b, r.Offset, 10)
	if r.IsHeader() {
		b = append(b, `,"header":true`...)
	} else {
		b = append(b, `,"class":`...)
		b = appendJSONString(b, r.ClassType.Name())
	}
	b = append(b, `,"type":`...)
	b = appendJSONString(b, r.Type.Name())
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, int64(len(r.Data)), 10)
	n := jw.node(r.Type.ID, 0)
	if n.kind == jsonStruct {
		b = append(b, `,"members":`...)
	} else {
		b = append(b, `,"value":`...)
	}
	b = jw.appendNode(b, n, 0, len(r.Data), 0)
	b = jw.appendExtra(b)
	b = append(b, "}\n"...)
	jw.buf = b
	if len(b) >= 64<<10 {
		return jw.Flush()
	}
	return nil
}

// Flush writes out what is buffered.
func (jw *JSONWriter) Flush() error {
	if jw.err != nil {
		return jw.err
	}
	if len(jw.buf) > 0 {
		_, jw.err = jw.w.Write(jw.buf)
		jw.buf = jw.buf[:0]
	}
	return jw.err
}

// fits reports whether n bytes at off are in the record.
func (jw *JSONWriter) fits(off, n int) bool { return off >= 0 && n >= 0 && off+n <= len(jw.data) }

func (jw *JSONWriter) markBytes(off, n int) {
	for i := off; i < off+n && i < len(jw.cover); i++ {
		jw.cover[i] = 0xff
	}
}

// appendNode prints the value of node n at byte offset off of the record;
// limit is where a flexible array there may extend to.
func (jw *JSONWriter) appendNode(b []byte, n *jsonNode, off, limit, depth int) []byte {
	switch n.kind {
	case jsonInt, jsonBool, jsonEnum:
		v := unsignedValue(jw.data[off:], n.size)
		jw.markBytes(off, n.size)
		if n.kind == jsonEnum {
			if name, ok := n.names[extend(v, n.size, n.signed)]; ok {
				return appendJSONString(b, name)
			}
		}
		if n.kind == jsonBool && v <= 1 {
			return strconv.AppendBool(b, v == 1)
		}
		return appendInt(b, v, n.size, n.signed)
	case jsonBigInt:
		jw.markBytes(off, n.size)
		return appendBigHex(b, jw.data[off:off+n.size])
	case jsonFloat:
		jw.markBytes(off, n.size)
		var f float64
		bits := 64
		if n.size == 4 {
			f, bits = float64(math.Float32frombits(native.Uint32(jw.data[off:]))), 32
		} else {
			f = math.Float64frombits(native.Uint64(jw.data[off:]))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			b = append(b, '"')
			b = appendCHex(b, unsignedValue(jw.data[off:], n.size))
			return append(b, '"')
		}
		return strconv.AppendFloat(b, f, 'g', -1, bits)
	case jsonString:
		end := off + n.n
		if n.n == 0 {
			end = limit
		}
		end = min(end, len(jw.data))
		s := jw.data[off:end]
		for i, c := range s {
			if c == 0 {
				s = s[:i]
				break
			}
		}
		jw.markBytes(off, min(len(s)+1, end-off))
		if utf8.Valid(s) {
			return appendJSONString(b, s)
		}
		b = append(b, '[')
		for i, c := range s {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendUint(b, uint64(c), 10)
		}
		return append(b, ']')
	case jsonArray:
		count, es := n.n, n.elem.size
		if count == 0 && es > 0 {
			count = max(limit-off, 0) / es
		}
		b = append(b, '[')
		for i := 0; i < count && es > 0; i++ {
			eoff := off + i*es
			if !jw.present(n.elem, eoff) {
				break
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = jw.appendNode(b, n.elem, eoff, eoff+es, depth+1)
		}
		return append(b, ']')
	case jsonStruct:
		b = append(b, '{')
		first := true
		b = jw.appendFields(b, n, off, limit, &first, depth)
		return append(b, '}')
	}
	// jsonBytes
	jw.markBytes(off, n.size)
	b = append(b, '"')
	for _, c := range jw.data[off : off+n.size] {
		b = append(b, hexDigits[c>>4], hexDigits[c&15])
	}
	return append(b, '"')
}

// present reports whether a value of node n at off is printed: whole for
// scalars, at least begun for strings, arrays and structs.
func (jw *JSONWriter) present(n *jsonNode, off int) bool {
	switch n.kind {
	case jsonString, jsonArray, jsonStruct:
		return off >= 0 && (off < len(jw.data) || (n.size == 0 && off == len(jw.data)))
	}
	return jw.fits(off, n.size)
}

// appendFields prints the members of struct or union n at off into the
// object being written; anonymous members' members go into it too.
func (jw *JSONWriter) appendFields(b []byte, n *jsonNode, off, limit int, first *bool, depth int) []byte {
	if depth > maxDepth {
		return b
	}
	annot := n.annot
	for i := range n.fields {
		f := &n.fields[i]
		foff := off + f.off
		// A member may use the space up to limit when nothing follows it.
		flimit := foff + f.node.size
		if f.last || n.union {
			flimit = limit
		}
		if f.name == "" && f.node.kind == jsonStruct {
			if jw.present(f.node, foff) {
				b = jw.appendFields(b, f.node, foff, flimit, first, depth+1)
			}
			continue
		}
		if f.bits != 0 {
			if !jw.bitsPresent(off, f) {
				continue
			}
		} else if !jw.present(f.node, foff) {
			continue
		}
		if !*first {
			b = append(b, ',')
		}
		*first = false
		b = appendJSONString(b, f.name)
		b = append(b, ':')
		switch {
		case f.bits != 0:
			b = jw.appendBitfield(b, f, off)
		case annot != nil && annot.typeMember == f.index && (f.node.kind == jsonInt || f.node.kind == jsonEnum):
			v := unsignedValue(jw.data[foff:], f.node.size)
			jw.markBytes(foff, f.node.size)
			if e, ok := annot.enums.byValue(extend(v, f.node.size, true)); ok {
				b = appendJSONString(b, e.name)
			} else if e, ok := annot.enums.byValue(v); ok {
				b = appendJSONString(b, e.name)
			} else {
				b = appendInt(b, v, f.node.size, f.node.signed)
			}
		default:
			b = jw.appendNode(b, f.node, foff, flimit, depth+1)
		}
	}
	return b
}

// bitsPresent reports whether the bytes holding bitfield f of the struct
// at off are all in the record.
func (jw *JSONWriter) bitsPresent(off int, f *jsonField) bool {
	first := off + f.bitOff/8
	last := off + (f.bitOff+f.bits-1)/8
	return f.bits <= 64 && jw.fits(first, last-first+1)
}

// appendBitfield prints bitfield f of the struct at off: its bits, sign
// extended when its type is signed, as the enumerator of an enum type.
func (jw *JSONWriter) appendBitfield(b []byte, f *jsonField, off int) []byte {
	var v uint64
	for i := 0; i < f.bits; i++ {
		bit := off*8 + f.bitOff + i
		byteIdx, shift := bit/8, uint(bit%8)
		if isBigEndian {
			shift = 7 - shift
		}
		if jw.data[byteIdx]>>shift&1 != 0 {
			v |= 1 << uint(i)
		}
		jw.cover[byteIdx] |= 1 << shift
	}
	signed := f.node.signed
	if signed && f.bits < 64 && v>>(uint(f.bits)-1)&1 != 0 {
		v |= ^uint64(0) << uint(f.bits)
	}
	if f.node.kind == jsonEnum {
		if name, ok := f.node.names[extend(v, f.node.size, signed)]; ok {
			return appendJSONString(b, name)
		}
	}
	if f.node.kind == jsonBool && v <= 1 {
		return strconv.AppendBool(b, v == 1)
	}
	if signed {
		return appendJSONInt(b, int64(v))
	}
	return appendJSONUint(b, v)
}

// maxExact is the largest integer an IEEE double holds exactly (2^53 - 1):
// the integers JavaScript's JSON.parse and jq 1.6 read without rounding.
const maxExact = 1<<53 - 1

// appendJSONInt writes v as a JSON number, or as a string of its decimal
// digits when its magnitude is past maxExact (kernel addresses, magic
// numbers), so that every reader gets it exactly.
func appendJSONInt(b []byte, v int64) []byte {
	if v > maxExact || v < -maxExact {
		b = append(b, '"')
		b = strconv.AppendInt(b, v, 10)
		return append(b, '"')
	}
	return strconv.AppendInt(b, v, 10)
}

// appendJSONUint is appendJSONInt for an unsigned value.
func appendJSONUint(b []byte, v uint64) []byte {
	if v > maxExact {
		b = append(b, '"')
		b = strconv.AppendUint(b, v, 10)
		return append(b, '"')
	}
	return strconv.AppendUint(b, v, 10)
}

// isBigEndian is the byte order of the data (the machine's).
var isBigEndian = native.Uint16([]byte{0, 1}) == 1

// extend is an integer of size bytes, sign-extended when signed, as BTF
// gives enumerator values.
func extend(v uint64, size int, signed bool) uint64 {
	if !signed || size >= 8 {
		return v
	}
	shift := uint(64 - 8*size)
	return uint64(int64(v<<shift) >> shift)
}

func appendInt(b []byte, v uint64, size int, signed bool) []byte {
	if signed {
		return appendJSONInt(b, int64(extend(v, size, true)))
	}
	return appendJSONUint(b, v)
}

// appendExtra prints "extra": the record's uncovered non-zero bits, as
// runs of bytes (runs closer than 8 bytes are joined).
func (jw *JSONWriter) appendExtra(b []byte) []byte {
	started := false
	for i := 0; i < len(jw.data); {
		if jw.data[i]&^jw.cover[i] == 0 {
			i++
			continue
		}
		end, gap := i+1, 0
		for j := i + 1; j < len(jw.data) && gap < 8; j++ {
			if jw.data[j]&^jw.cover[j] != 0 {
				end, gap = j+1, 0
			} else {
				gap++
			}
		}
		if !started {
			b = append(b, `,"extra":[`...)
			started = true
		} else {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `,"`...)
		for j := i; j < end; j++ {
			c := jw.data[j] &^ jw.cover[j]
			b = append(b, hexDigits[c>>4], hexDigits[c&15])
		}
		b = append(b, `"]`...)
		i = end
	}
	if started {
		b = append(b, ']')
	}
	return b
}

// appendJSONString appends s, valid UTF-8, as a JSON string.
func appendJSONString[S string | []byte](b []byte, s S) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// appendBigHex prints a wide integer held in v (the machine's byte order)
// as "0x" and its hex digits, most significant first, no leading zeros.
func appendBigHex(b []byte, v []byte) []byte {
	if len(v) == 0 {
		return append(b, `"0x0"`...)
	}
	msb := make([]byte, len(v)) // most significant byte first
	for i := range v {
		if isBigEndian {
			msb[i] = v[i]
		} else {
			msb[i] = v[len(v)-1-i]
		}
	}
	for len(msb) > 1 && msb[0] == 0 {
		msb = msb[1:]
	}
	b = append(b, `"0x`...)
	if msb[0] < 0x10 {
		b = append(b, hexDigits[msb[0]])
		msb = msb[1:]
		if len(msb) == 0 {
			return append(b, '"')
		}
	}
	for _, c := range msb {
		b = append(b, hexDigits[c>>4], hexDigits[c&15])
	}
	return append(b, '"')
}
