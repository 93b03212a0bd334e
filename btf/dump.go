package btf

import (
	"io"
	"slices"
	"strconv"
)

// This file writes the raw text listing of a Spec, byte for byte the one
// `bpftool btf dump file FILE` prints (bpftool 7.1, its dump_btf_type):
//
//	[ID] KIND 'NAME' field=value ...
//		'MEMBER' type_id=N bits_offset=N [bitfield_size=N]
//
// one line per type plus one tab-indented line per member, enumerator,
// parameter or section entry. Anonymous names print as (anon), name offsets
// outside the string table as (invalid). The format's quirks are kept on
// purpose: VAR prints "type_id=N, linkage=L" with a comma, ENUM64 values get
// an LL or ULL suffix, ENUM and ENUM64 print encoding=SIGNED|UNSIGNED from
// the kind_flag, and DATASEC entries name their variable's kind and name.

// dumpChunk is the size at which DumpRaw hands its buffer to the writer.
const dumpChunk = 256 << 10

// DumpRaw writes the raw listing of the Spec's own types to w, exactly as
// `bpftool btf dump file FILE` prints it. For a split Spec only its own types
// are listed, as `bpftool -B BASE btf dump file FILE` does; names and
// referenced types are still looked up in the base. The output is buffered
// internally: w needs no buffering of its own.
func DumpRaw(w io.Writer, s *Spec) error {
	buf := make([]byte, 0, dumpChunk+4096)
	for i := range s.hdrs {
		buf = s.appendRawType(buf, s.startID+TypeID(i), s.hdrs[i], s.words[s.extra[i]:s.extra[i+1]])
		if len(buf) >= dumpChunk {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	if len(buf) > 0 {
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// AppendRaw appends the raw listing of type id (one of this Spec's or its
// base's), in the format of DumpRaw, to dst and returns the extended slice.
// The listing ends with a newline. It panics if id is out of range.
func (s *Spec) AppendRaw(dst []byte, id TypeID) []byte {
	sp := s.owner(id)
	if sp == nil {
		panic("btf: AppendRaw: type id " + strconv.FormatUint(uint64(id), 10) + " out of range")
	}
	i := int(id - sp.startID)
	return s.appendRawType(dst, id, sp.hdrs[i], sp.words[sp.extra[i]:sp.extra[i+1]])
}

var intEncNames = [...]string{0: "(none)", IntSigned: "SIGNED", IntChar: "CHAR", IntBool: "BOOL"}

var linkageNames = [...]string{LinkageStatic: "static", LinkageGlobal: "global", LinkageExtern: "extern"}

func linkageName(l uint32) string {
	if l < uint32(len(linkageNames)) {
		return linkageNames[l]
	}
	return "(unknown)"
}

// kindName is Kind.String without the fmt fallback: bpftool prints UNKNOWN
// for kinds it does not know.
func kindName(k Kind) string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "UNKNOWN"
}

// appendStr appends the string at offset off as bpftool's btf_str does:
// (anon) for offset 0, (invalid) for an offset outside the string space.
func (s *Spec) appendStr(b []byte, off uint32) []byte {
	if off == 0 {
		return append(b, "(anon)"...)
	}
	sp := s
	for sp != nil && off < sp.startStr {
		sp = sp.base
	}
	if sp == nil || int(off-sp.startStr) >= len(sp.strs) {
		return append(b, "(invalid)"...)
	}
	return append(b, CString(sp.strs[off-sp.startStr:])...)
}

const digitPairs = "00010203040506070809" + "10111213141516171819" + "20212223242526272829" +
	"30313233343536373839" + "40414243444546474849" + "50515253545556575859" +
	"60616263646566676869" + "70717273747576777879" + "80818283848586878889" +
	"90919293949596979899"

// appendU appends v in decimal. It is strconv.AppendUint without the
// intermediate buffer and copy: numbers are half of a listing's work.
func appendU(b []byte, v uint32) []byte {
	if v < 10 {
		return append(b, byte('0'+v))
	}
	n := 2
	for x := v / 100; x != 0; x /= 10 {
		n++
	}
	if cap(b)-len(b) < n {
		b = slices.Grow(b, n)
	}
	i := len(b) + n
	b = b[:i]
	for v >= 100 {
		q := v / 100
		r := 2 * (v - 100*q)
		i -= 2
		b[i], b[i+1] = digitPairs[r], digitPairs[r+1]
		v = q
	}
	if v >= 10 {
		b[i-2], b[i-1] = digitPairs[2*v], digitPairs[2*v+1]
	} else {
		b[i-1] = byte('0' + v)
	}
	return b
}

// appendRawType appends the listing of type id with header h and trailing
// words ext; names and DATASEC entries are looked up in s.
func (s *Spec) appendRawType(b []byte, id TypeID, h header, ext []uint32) []byte {
	k, vlen, kflag := KindOf(h.Info), VlenOf(h.Info), KindFlagOf(h.Info)

	b = append(b, '[')
	b = appendU(b, uint32(id))
	b = append(b, "] "...)
	b = append(b, kindName(k)...)
	b = append(b, " '"...)
	b = s.appendStr(b, h.NameOff)
	b = append(b, '\'')

	switch k {
	case KindInt:
		v := ext[0]
		b = append(b, " size="...)
		b = appendU(b, h.SizeType)
		b = append(b, " bits_offset="...)
		b = appendU(b, v>>16&0xff)
		b = append(b, " nr_bits="...)
		b = appendU(b, v&0xff)
		b = append(b, " encoding="...)
		if enc := v >> 24 & 0x0f; enc < uint32(len(intEncNames)) && intEncNames[enc] != "" {
			b = append(b, intEncNames[enc]...)
		} else {
			b = append(b, "UNKN"...)
		}
	case KindPtr, KindConst, KindVolatile, KindRestrict, KindTypedef, KindTypeTag:
		b = append(b, " type_id="...)
		b = appendU(b, h.SizeType)
	case KindArray:
		b = append(b, " type_id="...)
		b = appendU(b, ext[0])
		b = append(b, " index_type_id="...)
		b = appendU(b, ext[1])
		b = append(b, " nr_elems="...)
		b = appendU(b, ext[2])
	case KindStruct, KindUnion:
		b = append(b, " size="...)
		b = appendU(b, h.SizeType)
		b = append(b, " vlen="...)
		b = appendU(b, uint32(vlen))
		for j := 0; j < vlen; j++ {
			m := ext[3*j : 3*j+3]
			off, bits := MemberOffset(m[2], kflag)
			b = append(b, "\n\t'"...)
			b = s.appendStr(b, m[0])
			b = append(b, "' type_id="...)
			b = appendU(b, m[1])
			b = append(b, " bits_offset="...)
			b = appendU(b, off)
			if bits != 0 {
				b = append(b, " bitfield_size="...)
				b = appendU(b, bits)
			}
		}
	case KindEnum:
		b = appendEnumHead(b, kflag, h.SizeType, vlen)
		for j := 0; j < vlen; j++ {
			b = append(b, "\n\t'"...)
			b = s.appendStr(b, ext[2*j])
			b = append(b, "' val="...)
			if kflag {
				b = strconv.AppendInt(b, int64(int32(ext[2*j+1])), 10)
			} else {
				b = appendU(b, ext[2*j+1])
			}
		}
	case KindEnum64:
		b = appendEnumHead(b, kflag, h.SizeType, vlen)
		for j := 0; j < vlen; j++ {
			e := ext[3*j : 3*j+3]
			v := uint64(e[2])<<32 | uint64(e[1])
			b = append(b, "\n\t'"...)
			b = s.appendStr(b, e[0])
			b = append(b, "' val="...)
			if kflag {
				b = strconv.AppendInt(b, int64(v), 10)
				b = append(b, "LL"...)
			} else {
				b = strconv.AppendUint(b, v, 10)
				b = append(b, "ULL"...)
			}
		}
	case KindFwd:
		if kflag {
			b = append(b, " fwd_kind=union"...)
		} else {
			b = append(b, " fwd_kind=struct"...)
		}
	case KindFunc:
		b = append(b, " type_id="...)
		b = appendU(b, h.SizeType)
		b = append(b, " linkage="...)
		b = append(b, linkageName(uint32(vlen))...)
	case KindFuncProto:
		b = append(b, " ret_type_id="...)
		b = appendU(b, h.SizeType)
		b = append(b, " vlen="...)
		b = appendU(b, uint32(vlen))
		for j := 0; j < vlen; j++ {
			b = append(b, "\n\t'"...)
			b = s.appendStr(b, ext[2*j])
			b = append(b, "' type_id="...)
			b = appendU(b, ext[2*j+1])
		}
	case KindVar:
		b = append(b, " type_id="...)
		b = appendU(b, h.SizeType)
		b = append(b, ", linkage="...)
		b = append(b, linkageName(ext[0])...)
	case KindDatasec:
		b = append(b, " size="...)
		b = appendU(b, h.SizeType)
		b = append(b, " vlen="...)
		b = appendU(b, uint32(vlen))
		next := s.NextID()
		for j := 0; j < vlen; j++ {
			e := ext[3*j : 3*j+3]
			b = append(b, "\n\ttype_id="...)
			b = appendU(b, e[0])
			b = append(b, " offset="...)
			b = appendU(b, e[1])
			b = append(b, " size="...)
			b = appendU(b, e[2])
			// bpftool names the entry's type when its ID is in range
			// (ID 0 included: void, an UNKNOWN without a name).
			if TypeID(e[0]) < next {
				vt := s.Type(TypeID(e[0]))
				b = append(b, " ("...)
				b = append(b, kindName(vt.Kind())...)
				b = append(b, " '"...)
				b = s.appendStr(b, vt.NameOff())
				b = append(b, "')"...)
			}
		}
	case KindFloat:
		b = append(b, " size="...)
		b = appendU(b, h.SizeType)
	case KindDeclTag:
		b = append(b, " type_id="...)
		b = appendU(b, h.SizeType)
		b = append(b, " component_idx="...)
		b = strconv.AppendInt(b, int64(int32(ext[0])), 10)
	}
	return append(b, '\n')
}

func appendEnumHead(b []byte, signed bool, size uint32, vlen int) []byte {
	if signed {
		b = append(b, " encoding=SIGNED size="...)
	} else {
		b = append(b, " encoding=UNSIGNED size="...)
	}
	b = appendU(b, size)
	b = append(b, " vlen="...)
	return appendU(b, uint32(vlen))
}
