package prettytest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// TypeEnum says which member prints as an enumerator of a type_enum: the
// member Member of struct Struct, named by the enumerators of Enums.
type TypeEnum struct {
	Struct, Member string
	Enums          []string
}

// Record is the envelope of one JSON record.
type Record struct {
	Offset int64           `json:"offset"`
	Header bool            `json:"header"`
	Class  string          `json:"class"`
	Type   string          `json:"type"`
	Size   int             `json:"size"`
	Member json.RawMessage `json:"members"`
	Value  json.RawMessage `json:"value"`
	Extra  [][2]any        `json:"extra"`
}

// RecordBytes parses one line of pretty's JSON output and rebuilds the
// record's bytes from it with the types of spec: every member's value
// written back where its type puts it, then the "extra" bytes. A member
// the JSON names but the type does not have, or a value of the wrong
// sort, is an error.
func RecordBytes(spec *btf.Spec, line []byte, te *TypeEnum) (Record, []byte, error) {
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&rec); err != nil {
		return rec, nil, err
	}
	t, ok := findNamed(spec, rec.Type)
	if !ok {
		return rec, nil, fmt.Errorf("no type %q", rec.Type)
	}
	e := &encoder{spec: spec, buf: make([]byte, rec.Size), te: te}
	raw := rec.Member
	if raw == nil {
		raw = rec.Value
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return rec, nil, err
	}
	if err := e.value(t.ID, v, 0); err != nil {
		return rec, nil, fmt.Errorf("%s at %d: %w", rec.Type, rec.Offset, err)
	}
	for _, x := range rec.Extra {
		off, err := x[0].(json.Number).Int64()
		if err != nil {
			return rec, nil, err
		}
		b, err := hex.DecodeString(x[1].(string))
		if err != nil {
			return rec, nil, err
		}
		for i, c := range b {
			e.buf[int(off)+i] |= c
		}
	}
	return rec, e.buf, nil
}

func findNamed(spec *btf.Spec, name string) (btf.Type, bool) {
	for id := btf.TypeID(1); id < spec.NextID(); id++ {
		t := spec.Type(id)
		switch t.Kind() {
		case btf.KindStruct, btf.KindUnion, btf.KindTypedef, btf.KindEnum, btf.KindEnum64:
			if t.Name() == name {
				return t, true
			}
		}
	}
	return btf.Type{}, false
}

type encoder struct {
	spec *btf.Spec
	buf  []byte
	te   *TypeEnum
}

func (e *encoder) put(off, size int, v uint64) error {
	if off < 0 || off+size > len(e.buf) {
		return fmt.Errorf("value at %d..%d is past the record's %d bytes", off, off+size, len(e.buf))
	}
	putUint(e.buf[off:], size, v)
	return nil
}

// number reads a JSON number or bool as the 64 bits of an integer.
func number(v any) (uint64, error) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return uint64(i), nil
		}
		return strconv.ParseUint(string(x), 10, 64)
	}
	return 0, fmt.Errorf("%v is not a number", v)
}

// decimal reads a string of decimal digits (with a sign when negative) as
// the 64 bits of an integer.
func decimal(s string) (uint64, error) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return uint64(i), nil
	}
	return strconv.ParseUint(s, 10, 64)
}

func (e *encoder) enumValue(enums []btf.Type, name string) (uint64, bool) {
	for _, t := range enums {
		for i := 0; i < t.Vlen(); i++ {
			if ev := t.Enum(i); e.spec.String(ev.NameOff) == name {
				return ev.Val, true
			}
		}
	}
	return 0, false
}

// value writes v, a value of type id, at off.
func (e *encoder) value(id btf.TypeID, v any, off int) error {
	t := strip(e.spec, id)
	switch t.Kind() {
	case btf.KindInt, btf.KindPtr, btf.KindEnum, btf.KindEnum64:
		size := sizeOf(e.spec, t.ID)
		if s, ok := v.(string); ok {
			if t.Kind() == btf.KindEnum || t.Kind() == btf.KindEnum64 {
				val, ok := e.enumValue([]btf.Type{t}, s)
				if !ok {
					n, err := decimal(s)
					if err != nil {
						return fmt.Errorf("%q is no enumerator of %s", s, t.Name())
					}
					val = n
				}
				return e.put(off, size, val)
			}
			if n, err := decimal(s); err == nil {
				return e.put(off, size, n) // an integer past 2^53, written as a string
			}
			return e.bigInt(off, size, s)
		}
		n, err := number(v)
		if err != nil {
			return err
		}
		return e.put(off, size, n)
	case btf.KindFloat:
		size := int(t.Size())
		if s, ok := v.(string); ok {
			if size != 4 && size != 8 {
				return e.bytes(off, s)
			}
			n, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 64)
			if err != nil {
				return err
			}
			return e.put(off, size, n)
		}
		num, ok := v.(json.Number)
		if !ok {
			return fmt.Errorf("%v is not a float", v)
		}
		f, err := strconv.ParseFloat(string(num), 64)
		if err != nil {
			return err
		}
		if size == 4 {
			return e.put(off, 4, uint64(math.Float32bits(float32(f))))
		}
		return e.put(off, 8, math.Float64bits(f))
	case btf.KindArray:
		a := t.Array()
		es := sizeOf(e.spec, a.Elem)
		if s, ok := v.(string); ok {
			if off+len(s) > len(e.buf) {
				return fmt.Errorf("string %q past the record", s)
			}
			copy(e.buf[off:], s)
			return nil
		}
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%v is not an array", v)
		}
		for i, x := range list {
			if err := e.value(a.Elem, x, off+i*es); err != nil {
				return err
			}
		}
		return nil
	case btf.KindStruct, btf.KindUnion:
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%v is not an object", v)
		}
		used := map[string]bool{}
		if err := e.members(t, obj, off, used); err != nil {
			return err
		}
		for k := range obj {
			if !used[k] {
				return fmt.Errorf("%s has no member %q", t.Name(), k)
			}
		}
		return nil
	}
	if s, ok := v.(string); ok {
		return e.bytes(off, s)
	}
	return fmt.Errorf("%v for a %s", v, t.Kind())
}

// members writes the members of struct or union t found in obj; those of
// anonymous members come from obj too.
func (e *encoder) members(t btf.Type, obj map[string]any, off int, used map[string]bool) error {
	for i := 0; i < t.Vlen(); i++ {
		m := t.Member(i)
		name := e.spec.String(m.NameOff)
		bitOff, bits := t.MemberBits(i)
		moff := off + int(bitOff/8)
		if name == "" {
			if st := strip(e.spec, m.Type); st.Kind() == btf.KindStruct || st.Kind() == btf.KindUnion {
				if err := e.members(st, obj, moff, used); err != nil {
					return err
				}
			}
			continue
		}
		v, ok := obj[name]
		if !ok {
			continue
		}
		used[name] = true
		if e.te != nil && t.Name() == e.te.Struct && name == e.te.Member {
			if s, ok := v.(string); ok {
				var enums []btf.Type
				for _, en := range e.te.Enums {
					et, ok := findNamed(e.spec, en)
					if !ok {
						return fmt.Errorf("no enum %s", en)
					}
					enums = append(enums, et)
				}
				val, ok := e.enumValue(enums, s)
				if !ok {
					return fmt.Errorf("%q is no enumerator of %v", s, e.te.Enums)
				}
				if err := e.put(moff, sizeOf(e.spec, m.Type), val); err != nil {
					return err
				}
				continue
			}
		}
		if bits != 0 {
			var val uint64
			if s, ok := v.(string); ok {
				et := strip(e.spec, m.Type)
				if val, ok = e.enumValue([]btf.Type{et}, s); !ok {
					return fmt.Errorf("%q is no enumerator of %s", s, et.Name())
				}
			} else {
				n, err := number(v)
				if err != nil {
					return err
				}
				val = n
			}
			putBits(e.buf, off*8+int(bitOff), int(bits), val)
			continue
		}
		if err := e.value(m.Type, v, moff); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// bigInt writes "0x..." as an integer of size bytes.
func (e *encoder) bigInt(off, size int, s string) error {
	h := strings.TrimPrefix(s, "0x")
	if len(h)%2 == 1 {
		h = "0" + h
	}
	msb, err := hex.DecodeString(h)
	if err != nil || len(msb) > size || off+size > len(e.buf) {
		return fmt.Errorf("bad wide integer %q", s)
	}
	for i, c := range msb {
		j := len(msb) - 1 - i // byte j from the least significant end
		if bigEndian {
			e.buf[off+size-1-j] = c
		} else {
			e.buf[off+j] = c
		}
	}
	return nil
}

// bytes writes a hex string of raw bytes.
func (e *encoder) bytes(off int, s string) error {
	b, err := hex.DecodeString(s)
	if err != nil || off+len(b) > len(e.buf) {
		return fmt.Errorf("bad bytes %q", s)
	}
	copy(e.buf[off:], b)
	return nil
}
