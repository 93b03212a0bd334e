package prettytest

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// Layout finds struct layouts by name in a Spec.
type Layout struct {
	Spec *btf.Spec
}

// Rec is a record being built: the bytes of a struct (plus any extra
// bytes after it), written member by member.
type Rec struct {
	l *Layout
	t btf.Type
	B []byte
}

// New returns a zeroed record of the struct named name, with extra more
// bytes after it (for a flexible array or trailing data). It panics when
// there is no such struct: a test's own mistake.
func (l *Layout) New(name string, extra int) *Rec {
	for id := btf.TypeID(1); id < l.Spec.NextID(); id++ {
		t := l.Spec.Type(id)
		if t.Kind() == btf.KindStruct && t.Name() == name {
			return &Rec{l: l, t: t, B: make([]byte, int(t.Size())+extra)}
		}
	}
	panic("prettytest: no struct " + name)
}

// Name is the struct's name.
func (r *Rec) Name() string { return r.t.Name() }

// Size is the struct's size, without extra bytes.
func (r *Rec) Size() int { return int(r.t.Size()) }

// place is where a member is: its byte offset, size and, for a bitfield,
// its bit offset from the start of the struct and its width.
type place struct {
	off, size    int
	bitOff, bits int
	typ          btf.TypeID
}

func strip(s *btf.Spec, id btf.TypeID) btf.Type {
	for {
		t := s.Type(id)
		switch t.Kind() {
		case btf.KindTypedef, btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindTypeTag:
			id = t.Ref()
		default:
			return t
		}
	}
}

func sizeOf(s *btf.Spec, id btf.TypeID) int {
	t := strip(s, id)
	switch t.Kind() {
	case btf.KindInt, btf.KindFloat, btf.KindEnum, btf.KindEnum64, btf.KindStruct, btf.KindUnion:
		return int(t.Size())
	case btf.KindPtr:
		return 8
	case btf.KindArray:
		a := t.Array()
		return int(a.Nelems) * sizeOf(s, a.Elem)
	}
	return 0
}

// find looks name up among t's members, and among the members of its
// anonymous members, as C does.
func find(s *btf.Spec, t btf.Type, name string, base int) (place, bool) {
	for i := 0; i < t.Vlen(); i++ {
		m := t.Member(i)
		bitOff, bits := t.MemberBits(i)
		p := place{off: base + int(bitOff/8), size: sizeOf(s, m.Type), bitOff: base*8 + int(bitOff), bits: int(bits), typ: m.Type}
		mn := s.String(m.NameOff)
		if mn == name {
			return p, true
		}
		if mn == "" {
			if st := strip(s, m.Type); st.Kind() == btf.KindStruct || st.Kind() == btf.KindUnion {
				if p, ok := find(s, st, name, base+int(bitOff/8)); ok {
					return p, true
				}
			}
		}
	}
	return place{}, false
}

// at resolves a member path such as "hdr.kind" or "named.i".
func (r *Rec) at(path string) place {
	t, base := r.t, 0
	parts := strings.Split(path, ".")
	for i, name := range parts {
		p, ok := find(r.l.Spec, t, name, base)
		if !ok {
			panic(fmt.Sprintf("prettytest: %s has no member %s", r.t.Name(), path))
		}
		if i == len(parts)-1 {
			return p
		}
		t, base = strip(r.l.Spec, p.typ), p.off
	}
	panic("unreachable")
}

// Set writes an integer member (a bitfield too), in the machine's byte
// order; v is truncated to the member's size.
func (r *Rec) Set(path string, v uint64) *Rec {
	p := r.at(path)
	if p.bits != 0 {
		putBits(r.B, p.bitOff, p.bits, v)
		return r
	}
	putUint(r.B[p.off:], p.size, v)
	return r
}

// Bytes copies b to where member path starts (an array, or a flexible
// array running into the extra bytes).
func (r *Rec) Bytes(path string, b []byte) *Rec {
	copy(r.B[r.at(path).off:], b)
	return r
}

// Off returns the byte offset of member path.
func (r *Rec) Off(path string) int { return r.at(path).off }

var native = binary.NativeEndian

func putUint(b []byte, size int, v uint64) {
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		native.PutUint16(b, uint16(v))
	case 4:
		native.PutUint32(b, uint32(v))
	case 8:
		native.PutUint64(b, v)
	default:
		panic(fmt.Sprintf("prettytest: no integer of %d bytes", size))
	}
}

var bigEndian = native.Uint16([]byte{0, 1}) == 1

func putBits(b []byte, bitOff, bits int, v uint64) {
	for i := 0; i < bits; i++ {
		bit := bitOff + i
		shift := uint(bit % 8)
		if bigEndian {
			shift = 7 - shift
		}
		if v>>uint(i)&1 != 0 {
			b[bit/8] |= 1 << shift
		} else {
			b[bit/8] &^= 1 << shift
		}
	}
}
