package cdump

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/btfkit/btfkit/btf"
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

// rawChunk is the size at which WriteRaw hands its buffer to the writer.
const rawChunk = 256 << 10

// WriteRaw writes the raw listing of the Spec's own types to w, exactly as
// `bpftool btf dump file FILE` prints it. For a split Spec only its own types
// are listed, as `bpftool -B BASE btf dump file FILE` does; names and
// referenced types are still looked up in the base. The output is buffered
// internally: w needs no buffering of its own.
func WriteRaw(w io.Writer, s *btf.Spec) error {
	buf := make([]byte, 0, rawChunk+4096)
	for id := s.FirstID(); id < s.NextID(); id++ {
		buf = AppendRaw(buf, s, id)
		if len(buf) >= rawChunk {
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

var intEncNames = [...]string{0: "(none)", btf.IntSigned: "SIGNED", btf.IntChar: "CHAR", btf.IntBool: "BOOL"}

var linkageNames = [...]string{btf.LinkageStatic: "static", btf.LinkageGlobal: "global", btf.LinkageExtern: "extern"}

func linkageName(l uint32) string {
	if l < uint32(len(linkageNames)) {
		return linkageNames[l]
	}
	return "(unknown)"
}

// kindName is Kind.String without its fallback: bpftool prints UNKNOWN
// for kinds it does not know.
func kindName(k btf.Kind) string {
	if k <= btf.MaxKind {
		return k.String()
	}
	return "UNKNOWN"
}

// appendStr appends the string at offset off as bpftool's btf_str does:
// (anon) for offset 0, (invalid) for an offset outside the string space.
func appendStr(b []byte, s *btf.Spec, off uint32) []byte {
	if off == 0 {
		return append(b, "(anon)"...)
	}
	if !s.ValidStringOff(off) {
		return append(b, "(invalid)"...)
	}
	return append(b, s.String(off)...)
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

// AppendRaw appends the raw listing of type id (one of s's own types or
// its base's), in the format of WriteRaw, to dst and returns the extended
// slice. The listing ends with a newline. It panics if id is out of range.
func AppendRaw(dst []byte, s *btf.Spec, id btf.TypeID) []byte {
	if !s.Has(id) {
		panic(fmt.Sprintf("cdump: AppendRaw: type id %d out of range", id))
	}
	nameOff, info, sizeType, ext := s.RawType(id)
	k, vlen, kflag := btf.KindOf(info), btf.VlenOf(info), btf.KindFlagOf(info)
	b := dst

	b = append(b, '[')
	b = appendU(b, uint32(id))
	b = append(b, "] "...)
	b = append(b, kindName(k)...)
	b = append(b, " '"...)
	b = appendStr(b, s, nameOff)
	b = append(b, '\'')

	switch k {
	case btf.KindInt:
		v := ext[0]
		b = append(b, " size="...)
		b = appendU(b, sizeType)
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
	case btf.KindPtr, btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindTypedef, btf.KindTypeTag:
		b = append(b, " type_id="...)
		b = appendU(b, sizeType)
	case btf.KindArray:
		b = append(b, " type_id="...)
		b = appendU(b, ext[0])
		b = append(b, " index_type_id="...)
		b = appendU(b, ext[1])
		b = append(b, " nr_elems="...)
		b = appendU(b, ext[2])
	case btf.KindStruct, btf.KindUnion:
		b = append(b, " size="...)
		b = appendU(b, sizeType)
		b = append(b, " vlen="...)
		b = appendU(b, uint32(vlen))
		for j := 0; j < vlen; j++ {
			m := ext[3*j : 3*j+3]
			off, bits := btf.MemberOffset(m[2], kflag)
			b = append(b, "\n\t'"...)
			b = appendStr(b, s, m[0])
			b = append(b, "' type_id="...)
			b = appendU(b, m[1])
			b = append(b, " bits_offset="...)
			b = appendU(b, off)
			if bits != 0 {
				b = append(b, " bitfield_size="...)
				b = appendU(b, bits)
			}
		}
	case btf.KindEnum:
		b = appendEnumHead(b, kflag, sizeType, vlen)
		for j := 0; j < vlen; j++ {
			b = append(b, "\n\t'"...)
			b = appendStr(b, s, ext[2*j])
			b = append(b, "' val="...)
			if kflag {
				b = strconv.AppendInt(b, int64(int32(ext[2*j+1])), 10)
			} else {
				b = appendU(b, ext[2*j+1])
			}
		}
	case btf.KindEnum64:
		b = appendEnumHead(b, kflag, sizeType, vlen)
		for j := 0; j < vlen; j++ {
			e := ext[3*j : 3*j+3]
			v := uint64(e[2])<<32 | uint64(e[1])
			b = append(b, "\n\t'"...)
			b = appendStr(b, s, e[0])
			b = append(b, "' val="...)
			if kflag {
				b = strconv.AppendInt(b, int64(v), 10)
				b = append(b, "LL"...)
			} else {
				b = strconv.AppendUint(b, v, 10)
				b = append(b, "ULL"...)
			}
		}
	case btf.KindFwd:
		if kflag {
			b = append(b, " fwd_kind=union"...)
		} else {
			b = append(b, " fwd_kind=struct"...)
		}
	case btf.KindFunc:
		b = append(b, " type_id="...)
		b = appendU(b, sizeType)
		b = append(b, " linkage="...)
		b = append(b, linkageName(uint32(vlen))...)
	case btf.KindFuncProto:
		b = append(b, " ret_type_id="...)
		b = appendU(b, sizeType)
		b = append(b, " vlen="...)
		b = appendU(b, uint32(vlen))
		for j := 0; j < vlen; j++ {
			b = append(b, "\n\t'"...)
			b = appendStr(b, s, ext[2*j])
			b = append(b, "' type_id="...)
			b = appendU(b, ext[2*j+1])
		}
	case btf.KindVar:
		b = append(b, " type_id="...)
		b = appendU(b, sizeType)
		b = append(b, ", linkage="...)
		b = append(b, linkageName(ext[0])...)
	case btf.KindDatasec:
		b = append(b, " size="...)
		b = appendU(b, sizeType)
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
			if btf.TypeID(e[0]) < next {
				vt := s.Type(btf.TypeID(e[0]))
				b = append(b, " ("...)
				b = append(b, kindName(vt.Kind())...)
				b = append(b, " '"...)
				b = appendStr(b, s, vt.NameOff())
				b = append(b, "')"...)
			}
		}
	case btf.KindFloat:
		b = append(b, " size="...)
		b = appendU(b, sizeType)
	case btf.KindDeclTag:
		b = append(b, " type_id="...)
		b = appendU(b, sizeType)
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
