package btf

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// extSpec is an object's BTF for the .BTF.ext tests: int [1], a struct
// [2], and the strings "sec" and "0:1".
func extSpec() (s *Spec, sec, access uint32) {
	s = NewSpec()
	i := s.Add("int", KindInt, 0, false, 4, IntSigned<<24|32)
	s.Add("s", KindStruct, 1, false, 4, s.AddString("x"), uint32(i), 0)
	return s, s.AddString("sec"), s.AddString("0:1")
}

// extBytes is a .BTF.ext section in order bo with no function or line
// information and the CO-RE part given as words (record size, then
// section entries and records).
func extBytes(bo binary.ByteOrder, words ...uint32) []byte {
	b := make([]byte, 32+4*len(words))
	bo.PutUint16(b, ExtMagic)
	b[2] = 1
	bo.PutUint32(b[4:], 32)
	bo.PutUint32(b[28:], uint32(4*len(words)))
	for i, w := range words {
		bo.PutUint32(b[32+4*i:], w)
	}
	return b
}

func TestParseCORERelos(t *testing.T) {
	s, sec, acc := extSpec()
	for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		got, err := ParseCORERelos(extBytes(bo, 16, sec, 2, 0, 2, acc, 0, 8, 1, 0, uint32(CORETypeMatches)), s)
		if err != nil {
			t.Fatalf("%v: %v", bo, err)
		}
		want := []CORERelo{
			{Section: "sec", InsnOff: 0, TypeID: 2, AccessStrOff: acc, Kind: COREFieldByteOffset, Offset: 44},
			{Section: "sec", InsnOff: 8, TypeID: 1, AccessStrOff: 0, Kind: CORETypeMatches, Offset: 60},
		}
		if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("%v: got %+v, want %+v", bo, got, want)
		}
	}
	// A 24-byte header (no CO-RE fields) and an empty CO-RE part: none.
	short := extBytes(binary.LittleEndian)[:24]
	binary.LittleEndian.PutUint32(short[4:], 24)
	for _, b := range [][]byte{short, extBytes(binary.LittleEndian)} {
		if got, err := ParseCORERelos(b, s); err != nil || len(got) != 0 {
			t.Errorf("no CO-RE relocations: got %v, %v", got, err)
		}
	}
	// A larger record size is allowed; its extra words are skipped.
	if got, err := ParseCORERelos(extBytes(binary.LittleEndian, 20, sec, 1, 0, 2, acc, 0, 99), s); err != nil || len(got) != 1 {
		t.Errorf("20-byte records: %v, %v", got, err)
	}
}

func TestParseCORERelosErrors(t *testing.T) {
	s, sec, acc := extSpec()
	le := binary.LittleEndian
	badMagic := extBytes(le, 16, sec, 1, 0, 2, acc, 0)
	badMagic[0] = 0
	for _, c := range []struct {
		name string
		data []byte
		off  int64
		msg  string
	}{
		{"empty", nil, 0, "truncated"},
		{"magic", badMagic, 0, "bad magic"},
		{"record size", extBytes(le, 8, sec, 1, 0, 2, acc, 0), 32, "record size 8"},
		{"section name", extBytes(le, 16, 999, 1, 0, 2, acc, 0), 36, "section name"},
		{"no records", extBytes(le, 16, sec, 0), 40, "no records"},
		{"count", extBytes(le, 16, sec, 2, 0, 2, acc, 0), 44, "past the end"},
		{"type ID 0", extBytes(le, 16, sec, 1, 0, 0, acc, 0), 48, "type ID 0"},
		{"type ID", extBytes(le, 16, sec, 1, 0, 3, acc, 0), 48, "type ID 3"},
		{"access string", extBytes(le, 16, sec, 1, 0, 2, 9999, 0), 52, "access string"},
		{"kind", extBytes(le, 16, sec, 1, 0, 2, acc, 13), 56, "unknown kind 13"},
		{"instruction", extBytes(le, 16, sec, 1, 4, 2, acc, 0), 44, "instruction offset 4"},
		{"truncated entry", extBytes(le, 16, sec), 36, "truncated section entry"},
	} {
		_, err := ParseCORERelos(c.data, s)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Off != c.off || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%s: got %v, want offset 0x%x and %q", c.name, err, c.off, c.msg)
		}
	}
	// The CO-RE part past the section's end.
	b := extBytes(le, 16, sec, 1, 0, 2, acc, 0)
	le.PutUint32(b[28:], 1000)
	if _, err := ParseCORERelos(b, s); err == nil || !strings.Contains(err.Error(), "past the section's end") {
		t.Errorf("CO-RE length past the end: %v", err)
	}
}

// FuzzParseCORERelos: any bytes give records of the object's types and
// strings, or an error; never a panic.
func FuzzParseCORERelos(f *testing.F) {
	s, sec, acc := extSpec()
	f.Add(extBytes(binary.LittleEndian, 16, sec, 2, 0, 2, acc, 0, 8, 1, 0, 12))
	f.Add(extBytes(binary.BigEndian, 20, sec, 1, 0, 2, acc, 0, 7))
	f.Fuzz(func(t *testing.T, data []byte) {
		relos, err := ParseCORERelos(data, s)
		if err != nil {
			return
		}
		for _, r := range relos {
			if !s.Has(r.TypeID) || !s.ValidStringOff(r.AccessStrOff) || r.Kind > CORETypeMatches || r.Offset+CORERecordSize > len(data) {
				t.Fatalf("bad record accepted: %+v", r)
			}
		}
	})
}
