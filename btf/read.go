package btf

import (
	"encoding/binary"
	"fmt"
)

// Magic is the BTF header magic, 0xeB9F in the file's byte order.
const Magic = 0xeB9F

// HeaderLen is the length of the version-1 BTF header.
const HeaderLen = 24

// Header is the fixed header at the start of raw BTF. Offsets of the type
// and string sections are relative to the end of the header. LayoutOff and
// LayoutLen, libbpf v1.8's kind layout section (layout.go), are read from a
// header of at least LayoutHeaderLen bytes and are zero otherwise.
type Header struct {
	Magic     uint16
	Version   uint8
	Flags     uint8
	HdrLen    uint32
	TypeOff   uint32
	TypeLen   uint32
	StrOff    uint32
	StrLen    uint32
	LayoutOff uint32
	LayoutLen uint32
}

// ParseError is a malformed-input error with the byte offset, from the start
// of the BTF blob, where the problem was found.
type ParseError struct {
	Off int64
	Msg string
}

func (e *ParseError) Error() string { return fmt.Sprintf("offset 0x%x: %s", e.Off, e.Msg) }

func perr(off int64, format string, args ...any) error {
	return &ParseError{Off: off, Msg: fmt.Sprintf(format, args...)}
}

// ByteOrderOf reports the byte order of raw BTF from its magic, or nil if
// the data does not start with a BTF magic.
func ByteOrderOf(data []byte) binary.ByteOrder {
	if len(data) < 2 {
		return nil
	}
	switch {
	case data[0] == 0x9f && data[1] == 0xeb:
		return binary.LittleEndian
	case data[0] == 0xeb && data[1] == 0x9f:
		return binary.BigEndian
	}
	return nil
}

// ParseHeader decodes and sanity-checks the header of raw BTF and returns it
// with the byte order and the total length of the blob (header plus the
// furthest section end).
func ParseHeader(data []byte) (Header, binary.ByteOrder, int, error) {
	var h Header
	bo := ByteOrderOf(data)
	if bo == nil {
		return h, nil, 0, perr(0, "not BTF: bad magic")
	}
	if len(data) < HeaderLen {
		return h, nil, 0, perr(0, "truncated header: %d bytes, need %d", len(data), HeaderLen)
	}
	h.Magic = Magic
	h.Version = data[2]
	h.Flags = data[3]
	h.HdrLen = bo.Uint32(data[4:])
	h.TypeOff = bo.Uint32(data[8:])
	h.TypeLen = bo.Uint32(data[12:])
	h.StrOff = bo.Uint32(data[16:])
	h.StrLen = bo.Uint32(data[20:])
	if h.Version != 1 {
		return h, bo, 0, perr(2, "unsupported BTF version %d", h.Version)
	}
	if h.Flags != 0 {
		return h, bo, 0, perr(3, "unsupported BTF flags 0x%x", h.Flags)
	}
	if h.HdrLen < HeaderLen || uint64(h.HdrLen) > uint64(len(data)) {
		return h, bo, 0, perr(4, "bad header length %d (blob is %d bytes)", h.HdrLen, len(data))
	}
	// Header bytes beyond the ones we know must be zero, as the kernel
	// demands; libbpf v1.8's 32-byte header adds the kind layout section.
	known := HeaderLen
	if h.HdrLen >= LayoutHeaderLen {
		h.LayoutOff = bo.Uint32(data[24:])
		h.LayoutLen = bo.Uint32(data[28:])
		known = LayoutHeaderLen
	}
	for i := known; i < int(h.HdrLen); i++ {
		if data[i] != 0 {
			return h, bo, 0, perr(int64(i), "unknown non-zero header byte")
		}
	}
	body := uint64(len(data)) - uint64(h.HdrLen)
	tEnd := uint64(h.TypeOff) + uint64(h.TypeLen)
	sEnd := uint64(h.StrOff) + uint64(h.StrLen)
	if tEnd > body {
		return h, bo, 0, perr(8, "type section [0x%x,0x%x) beyond end of data (0x%x bytes after header)", h.TypeOff, tEnd, body)
	}
	if sEnd > body {
		return h, bo, 0, perr(16, "string section [0x%x,0x%x) beyond end of data (0x%x bytes after header)", h.StrOff, sEnd, body)
	}
	if h.TypeOff%4 != 0 {
		return h, bo, 0, perr(8, "type section offset 0x%x not 4-byte aligned", h.TypeOff)
	}
	if h.TypeLen%4 != 0 {
		return h, bo, 0, perr(12, "type section length 0x%x not a multiple of 4", h.TypeLen)
	}
	end := tEnd
	if sEnd > end {
		end = sEnd
	}
	if h.LayoutLen != 0 {
		// libbpf v1.8's rules (btf_parse_hdr, btf_parse_layout_sec): the
		// section is whole entries, 4-byte aligned, after the types and
		// before the strings. A layout_off with no length means nothing
		// to libbpf, and Marshal writes it as zero.
		lEnd := uint64(h.LayoutOff) + uint64(h.LayoutLen)
		switch {
		case h.LayoutOff%4 != 0:
			return h, bo, 0, perr(24, "kind layout section offset 0x%x not 4-byte aligned", h.LayoutOff)
		case h.LayoutLen%kindLayoutSize != 0:
			return h, bo, 0, perr(28, "kind layout section length %d not a multiple of %d (one entry per kind)", h.LayoutLen, kindLayoutSize)
		case lEnd > body:
			return h, bo, 0, perr(28, "kind layout section [0x%x,0x%x) beyond end of data (0x%x bytes after header)", h.LayoutOff, lEnd, body)
		case uint64(h.LayoutOff) < tEnd:
			return h, bo, 0, perr(24, "kind layout section at 0x%x starts inside the type section [0x%x,0x%x); it must follow the types", h.LayoutOff, h.TypeOff, tEnd)
		case lEnd > uint64(h.StrOff):
			return h, bo, 0, perr(28, "kind layout section [0x%x,0x%x) runs into the string section at 0x%x; it must precede the strings", h.LayoutOff, lEnd, h.StrOff)
		}
		if lEnd > end {
			end = lEnd
		}
	}
	return h, bo, int(h.HdrLen) + int(end), nil
}

// Parse reads raw BTF. With base nil the data must be a complete BTF; with a
// base it is read as split BTF extending base (IDs and string offsets
// continue after the base's). The data is copied: the Spec does not keep it.
// Parse checks the layout (header, section bounds, that each type's record
// fits); semantic rules are Check's. A kind layout section (libbpf v1.8,
// layout.go) is checked by libbpf's rules and kept: see KindLayouts.
func Parse(data []byte, base *Spec) (*Spec, error) {
	return ParseWith(data, base, ParseOptions{})
}

// ParseOptions are Parse's ways of saving work for a reader of many
// blobs, one after the other (a BTF archive's members).
type ParseOptions struct {
	// Reuse, when not nil, is a Spec the caller no longer uses: its
	// tables are reused when large enough (the result may be Reuse
	// itself).
	Reuse *Spec
	// ShareStrings makes the Spec's string table a view of data rather
	// than a copy: data must then stay unchanged while the Spec is used,
	// and the Spec's strings must not be added to (AddString).
	ShareStrings bool
}

// ParseWith is Parse with o's savings; the result is Parse's.
func ParseWith(data []byte, base *Spec, o ParseOptions) (*Spec, error) {
	h, bo, _, err := ParseHeader(data)
	if err != nil {
		return nil, err
	}
	var s *Spec
	if base != nil {
		s = NewSplitSpec(base)
	} else {
		s = NewSpec()
	}
	if r := o.Reuse; r != nil {
		s.hdrs, s.extStart, s.words = r.hdrs[:0], r.extStart[:0], r.words[:0]
		*r = Spec{}
	}
	strStart := int(h.HdrLen) + int(h.StrOff)
	strs := data[strStart : strStart+int(h.StrLen)]
	if base == nil {
		if len(strs) == 0 || strs[0] != 0 {
			return nil, perr(int64(strStart), "string section must start with a NUL byte")
		}
	}
	if len(strs) > 0 && strs[len(strs)-1] != 0 {
		return nil, perr(int64(strStart+len(strs)-1), "string section not NUL-terminated")
	}
	if len(strs) == 0 {
		strs = []byte{0}
	}
	if o.ShareStrings {
		s.strs = strs[:len(strs):len(strs)]
	} else {
		s.strs = append([]byte(nil), strs...)
	}
	s.order = bo
	s.hdrLen = h.HdrLen
	if h.LayoutLen != 0 {
		lsec := data[int(h.HdrLen)+int(h.LayoutOff):][:h.LayoutLen]
		s.layout = make([]KindLayout, len(lsec)/kindLayoutSize)
		for i := range s.layout {
			e := lsec[kindLayoutSize*i:]
			s.layout[i] = KindLayout{InfoSize: e[0], ElemSize: e[1], Flags: bo.Uint16(e[2:])}
		}
	}

	tStart := int(h.HdrLen) + int(h.TypeOff)
	tsec := data[tStart : tStart+int(h.TypeLen)]
	// First pass: count types and trailing words so the tables are
	// allocated once, at sizes bounded by the input's length.
	// The words are decoded with u32 and a constant-per-call flag rather
	// than through the ByteOrder interface: the calls inline, which makes
	// Parse about three times as fast.
	le := bo == binary.LittleEndian
	if le && o.Reuse != nil {
		if err := s.parseTypesOnePass(tsec, tStart); err != nil {
			return nil, err
		}
		return s, nil
	}
	nTypes, nWords := 0, 0
	for off := 0; off < len(tsec); {
		if len(tsec)-off < 12 {
			return nil, perr(int64(tStart+off), "type [%d]: truncated header (%d bytes left)", int(s.startID)+nTypes, len(tsec)-off)
		}
		info := u32(tsec[off+4:], le)
		w := ExtraWords(KindOf(info), VlenOf(info))
		if w < 0 || len(tsec)-off-12 < 4*w {
			return nil, recordErr(tsec, off, tStart, int(s.startID)+nTypes, info)
		}
		off += 12 + 4*w
		nTypes++
		nWords += w
	}
	s.hdrs = sized(s.hdrs, nTypes)
	s.extStart = sized(s.extStart, nTypes+1)
	s.words = sized(s.words, nWords)
	wi := 0
	off := 0
	for i := 0; i < nTypes; i++ {
		b := tsec[off : off+12]
		h := header{u32(b, le), u32(b[4:], le), u32(b[8:], le)}
		s.hdrs[i] = h
		s.extStart[i] = uint32(wi)
		w := ExtraWords(KindOf(h.Info), VlenOf(h.Info))
		ws := s.words[wi : wi+w]
		b = tsec[off+12 : off+12+4*w]
		for j := range ws {
			ws[j] = u32(b[4*j:], le)
		}
		wi += w
		off += 12 + 4*w
	}
	s.extStart[nTypes] = uint32(wi)
	return s, nil
}

// parseTypesOnePass decodes the little-endian type section tsec (at
// tStart in the blob) in one pass, into tables sized by its length (at
// most one type per 12 bytes, one word per 4): for ParseOptions.Reuse,
// where the tables are reused from blob to blob and the bound costs no
// new memory after the first. Its checks and errors are Parse's.
func (s *Spec) parseTypesOnePass(tsec []byte, tStart int) error {
	hdrs := sized(s.hdrs, len(tsec)/12)
	extStart := sized(s.extStart, len(tsec)/12+1)
	words := sized(s.words, len(tsec)/4)
	n, wi := 0, 0
	for off := 0; off < len(tsec); n++ {
		if len(tsec)-off < 12 {
			return perr(int64(tStart+off), "type [%d]: truncated header (%d bytes left)", int(s.startID)+n, len(tsec)-off)
		}
		b := tsec[off : off+12]
		h := header{binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])}
		w := ExtraWords(KindOf(h.Info), VlenOf(h.Info))
		if w < 0 || len(tsec)-off-12 < 4*w {
			return recordErr(tsec, off, tStart, int(s.startID)+n, h.Info)
		}
		hdrs[n] = h
		extStart[n] = uint32(wi)
		src := tsec[off+12 : off+12+4*w]
		dst := words[wi : wi+w]
		for j := range dst {
			dst[j] = binary.LittleEndian.Uint32(src[4*j:])
		}
		wi += w
		off += 12 + 4*w
	}
	extStart[n] = uint32(wi)
	s.hdrs, s.extStart, s.words = hdrs[:n], extStart[:n+1], words[:wi]
	return nil
}

// recordErr is the error of the type record at off in the type section
// tsec (at tStart in the blob), type id, whose info word is info: an
// unknown kind, or a record that runs past the section.
func recordErr(tsec []byte, off, tStart, id int, info uint32) error {
	k := KindOf(info)
	w := ExtraWords(k, VlenOf(info))
	if w < 0 {
		return perr(int64(tStart+off+4), "type [%d]: unknown kind %d", id, k)
	}
	return perr(int64(tStart+off), "type [%d] %s: record of %d bytes runs past the type section", id, k, 12+4*w)
}

// sized returns a slice of length n, b's memory when it has the room.
// Every element is written by the caller.
func sized[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

// u32 decodes a 32-bit word in little (le) or big endian order.
func u32(b []byte, le bool) uint32 {
	if le {
		return binary.LittleEndian.Uint32(b)
	}
	return binary.BigEndian.Uint32(b)
}
