package btf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// libbpfLayouts is libbpf v1.8.0's table of kind layouts (src/btf.c,
// layouts[NR_BTF_KINDS]), written out from its definition: the struct that
// follows each kind's btf_type in include/uapi/linux/btf.h, as
// {info_sz, elem_sz}; flags are 0.
var libbpfLayouts = [][2]uint8{
	KindUnknown:   {0, 0},
	KindInt:       {4, 0},  // __u32 encoding
	KindPtr:       {0, 0},  //
	KindArray:     {12, 0}, // struct btf_array: type, index_type, nelems
	KindStruct:    {0, 12}, // struct btf_member: name_off, type, offset
	KindUnion:     {0, 12}, // struct btf_member
	KindEnum:      {0, 8},  // struct btf_enum: name_off, val
	KindFwd:       {0, 0},
	KindTypedef:   {0, 0},
	KindVolatile:  {0, 0},
	KindConst:     {0, 0},
	KindRestrict:  {0, 0},
	KindFunc:      {0, 0},
	KindFuncProto: {0, 8}, // struct btf_param: name_off, type
	KindVar:       {4, 0}, // struct btf_var: linkage
	KindDatasec:   {0, 12},
	KindFloat:     {0, 0},
	KindDeclTag:   {4, 0}, // struct btf_decl_tag: component_idx
	KindTypeTag:   {0, 0},
	KindEnum64:    {0, 12}, // struct btf_enum64: name_off, val_lo32, val_hi32
}

// layoutBytes encodes kind layout entries as struct btf_layout in bo.
func layoutBytes(bo binary.ByteOrder, ents []KindLayout) []byte {
	b := make([]byte, 4*len(ents))
	for i, e := range ents {
		b[4*i], b[4*i+1] = e.InfoSize, e.ElemSize
		bo.PutUint16(b[4*i+2:], e.Flags)
	}
	return b
}

func libbpfTable() []KindLayout {
	l := make([]KindLayout, len(libbpfLayouts))
	for k, e := range libbpfLayouts {
		l[k] = KindLayout{InfoSize: e[0], ElemSize: e[1]}
	}
	return l
}

// handStrs and handTypes are a small BTF written word by word:
// [1] INT 'int' 4 bytes signed, [2] PTR -> [1], [3] STRUCT 's' { int a;
// int *b; }, [4] ENUM 'e' { E1 = 7 }.
const handStrs = "\x00int\x00s\x00a\x00b\x00e\x00E1\x00"

var handTypes = []uint32{
	1, uint32(KindInt) << 24, 4, IntSigned<<24 | 32,
	0, uint32(KindPtr) << 24, 1,
	5, uint32(KindStruct)<<24 | 2, 16, 7, 1, 0, 9, 2, 64,
	11, uint32(KindEnum)<<24 | 1, 4, 13, 7,
}

// handBTF assembles raw BTF by hand the way libbpf v1.8 lays it out:
// header (hdrLen bytes), types, then the kind layout section when layout
// is not nil, then strings; the header's layout words are written only
// when hdrLen has room for them.
func handBTF(bo binary.ByteOrder, hdrLen int, layout []byte) []byte {
	typeLen := 4 * len(handTypes)
	out := make([]byte, hdrLen+typeLen+len(layout)+len(handStrs))
	bo.PutUint16(out, Magic)
	out[2] = 1
	bo.PutUint32(out[4:], uint32(hdrLen))
	bo.PutUint32(out[8:], 0)
	bo.PutUint32(out[12:], uint32(typeLen))
	bo.PutUint32(out[16:], uint32(typeLen+len(layout)))
	bo.PutUint32(out[20:], uint32(len(handStrs)))
	if layout != nil {
		bo.PutUint32(out[24:], uint32(typeLen))
		bo.PutUint32(out[28:], uint32(len(layout)))
	}
	for i, w := range handTypes {
		bo.PutUint32(out[hdrLen+4*i:], w)
	}
	copy(out[hdrLen+typeLen:], layout)
	copy(out[hdrLen+typeLen+len(layout):], handStrs)
	return out
}

var orders = []binary.ByteOrder{binary.LittleEndian, binary.BigEndian}

// TestKindLayoutRoundTrip: BTF with a kind layout section, assembled by
// hand in both byte orders, parses with the section's entries and the
// types intact and is written back byte for byte, also with a table that
// is not libbpf's (more kinds, non-zero flags, whose byte order counts).
func TestKindLayoutRoundTrip(t *testing.T) {
	odd := append(libbpfTable(), KindLayout{}, KindLayout{InfoSize: 8, ElemSize: 4, Flags: 0x0102})
	for _, bo := range orders {
		for _, table := range [][]KindLayout{libbpfTable(), odd} {
			raw := handBTF(bo, 32, layoutBytes(bo, table))
			s, err := Parse(raw, nil)
			if err != nil {
				t.Fatalf("%v, %d entries: %v", bo, len(table), err)
			}
			if got := s.KindLayouts(); !slices.Equal(got, table) {
				t.Errorf("%v: KindLayouts() = %v, want %v", bo, got, table)
			}
			if s.NumTypes() != 4 || s.Type(3).Kind() != KindStruct || s.Type(3).Name() != "s" || s.Type(4).Name() != "e" {
				t.Errorf("%v: types not read as written: %d types, [3] %s %q", bo, s.NumTypes(), s.Type(3).Kind(), s.Type(3).Name())
			}
			if s.HeaderLen() != 32 {
				t.Errorf("%v: HeaderLen() = %d, want 32", bo, s.HeaderLen())
			}
			if out := s.Marshal(bo); !bytes.Equal(out, raw) {
				t.Errorf("%v, %d entries: read→write differs at byte %d (%d vs %d bytes)", bo, len(table), diffAt(out, raw), len(out), len(raw))
			}
		}
	}
	// KindLayouts returns a copy.
	s, _ := Parse(handBTF(binary.LittleEndian, 32, layoutBytes(binary.LittleEndian, libbpfTable())), nil)
	s.KindLayouts()[1].InfoSize = 99
	if s.KindLayouts()[1].InfoSize != 4 {
		t.Error("KindLayouts() shares memory with the Spec")
	}
}

func diffAt(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestKindLayoutHeaders: without a kind layout section, the 24- and
// 32-byte headers are written as before (the 32-byte one with its last two
// words zero), and setting then removing a section gives the same bytes.
func TestKindLayoutHeaders(t *testing.T) {
	for _, bo := range orders {
		for _, hl := range []int{24, 32} {
			raw := handBTF(bo, hl, nil)
			s, err := Parse(raw, nil)
			if err != nil {
				t.Fatalf("%v, %d-byte header: %v", bo, hl, err)
			}
			if s.KindLayouts() != nil {
				t.Errorf("%v, %d-byte header: KindLayouts() = %v, want nil", bo, hl, s.KindLayouts())
			}
			if out := s.Marshal(bo); !bytes.Equal(out, raw) {
				t.Errorf("%v, %d-byte header: read→write differs at byte %d", bo, hl, diffAt(out, raw))
			}
			s.SetKindLayouts(StandardKindLayouts())
			with := s.Marshal(bo)
			if want := handBTF(bo, 32, layoutBytes(bo, libbpfTable())); !bytes.Equal(with, want) {
				t.Errorf("%v, %d-byte header + SetKindLayouts: differs from the hand-made layout BTF at byte %d", bo, hl, diffAt(with, want))
			}
			s.SetKindLayouts(nil)
			if out, want := s.Marshal(bo), handBTF(bo, 32, nil); !bytes.Equal(out, want) {
				t.Errorf("%v, %d-byte header, section set and removed: differs from the 32-byte no-layout BTF at byte %d", bo, hl, diffAt(out, want))
			}
		}
	}
}

// TestStandardKindLayoutsMatchUAPI compiles libbpf's table against the
// system's <linux/btf.h> (sizeof of each kind's trailing struct, indexed
// by the header's BTF_KIND_* values) and compares its bytes with
// StandardKindLayouts and with libbpfLayouts.
func TestStandardKindLayoutsMatchUAPI(t *testing.T) {
	want := uapiLayoutBytes(t)
	if got := layoutBytes(binary.NativeEndian, StandardKindLayouts()); !bytes.Equal(got, want) {
		t.Errorf("StandardKindLayouts() = % x\nthe uapi header's sizes give % x", got, want)
	}
	if got := layoutBytes(binary.NativeEndian, libbpfTable()); !bytes.Equal(got, want) {
		t.Errorf("the test's libbpf table = % x\nthe uapi header's sizes give % x", got, want)
	}
}

func uapiLayoutBytes(t *testing.T) []byte {
	b := testc.KindLayoutTable(t)
	if len(b) != 4*20 {
		t.Fatalf("the uapi table is %d bytes; NR_BTF_KINDS is 20 in libbpf v1.8.0", len(b))
	}
	return b
}

// TestKindLayoutCorrupt: a kind layout section out of place or of a bad
// size is a parse error naming the header field's offset, for Parse and
// for CheckRaw, never a panic.
func TestKindLayoutCorrupt(t *testing.T) {
	le := binary.LittleEndian
	good := handBTF(le, 32, layoutBytes(le, libbpfTable()))
	typeLen := uint32(4 * len(handTypes))
	cases := []struct {
		name    string
		mutate  func(b []byte)
		off     int64
		message string
	}{
		{"offset not aligned", func(b []byte) { le.PutUint32(b[24:], typeLen+2) }, 24, "not 4-byte aligned"},
		{"length not whole entries", func(b []byte) { le.PutUint32(b[28:], 78) }, 28, "not a multiple of 4"},
		{"inside the types", func(b []byte) { le.PutUint32(b[24:], typeLen-8) }, 24, "starts inside the type section"},
		{"into the strings", func(b []byte) { le.PutUint32(b[28:], 84) }, 28, "runs into the string section"},
		{"past the end", func(b []byte) { le.PutUint32(b[28:], 1<<20) }, 28, "beyond end of data"},
		{"offset past the end", func(b []byte) { le.PutUint32(b[24:], 0xfffffff0) }, 28, "beyond end of data"},
		{"unknown header byte after the layout words", func(b []byte) { b[33] = 1 }, 33, "unknown non-zero header byte"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := append([]byte(nil), good...)
			if tc.off == 33 {
				// A 36-byte header: bytes 32-35 are nobody's.
				b = handBTF(le, 36, layoutBytes(le, libbpfTable()))
				if _, err := Parse(b, nil); err != nil {
					t.Fatalf("36-byte header, zero past the layout words: %v", err)
				}
			}
			tc.mutate(b)
			_, err := Parse(b, nil)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse: got %v, want a *ParseError", err)
			}
			if pe.Off != tc.off || !strings.Contains(pe.Msg, tc.message) {
				t.Errorf("Parse: %v; want offset 0x%x and %q", err, tc.off, tc.message)
			}
			_, err = CheckRaw(b, nil)
			var ce *CheckError
			if !errors.As(err, &ce) || !ce.Has(RuleLayout) || !strings.Contains(err.Error(), tc.message) {
				t.Errorf("CheckRaw: %v; want a %s problem saying %q", err, RuleLayout, tc.message)
			}
		})
	}
}

// TestKindLayoutKernel: the running kernel (6.18 here) knows a 24-byte
// header and refuses BTF whose header has a kind layout section
// ("Unsupported btf_header", E2BIG), while it loads the same types with a
// 32-byte header whose layout words are zero. Check and CheckRaw say so
// first (RuleKindLayout), and report nothing for the BTF without it.
func TestKindLayoutKernel(t *testing.T) {
	le := binary.LittleEndian
	with := handBTF(le, 32, layoutBytes(le, libbpfTable()))
	without := handBTF(le, 32, nil)
	staleOff := append([]byte(nil), without...)
	le.PutUint32(staleOff[24:], 4*uint32(len(handTypes))) // layout_off without a section

	if _, err := CheckRaw(without, nil, hostKernel(t)); err != nil {
		t.Fatalf("CheckRaw, 32-byte header without a layout section: %v", err)
	}
	for name, raw := range map[string][]byte{"with a layout section": with, "with layout_off only": staleOff} {
		s, err := CheckRaw(raw, nil, hostKernel(t))
		var ce *CheckError
		if !errors.As(err, &ce) || !ce.Has(RuleKindLayout) || len(ce.Problems) != 1 {
			t.Errorf("CheckRaw %s: %v; want exactly one %s problem", name, err, RuleKindLayout)
		} else {
			t.Logf("CheckRaw %s: %s", name, ce.Problems[0])
		}
		if s == nil {
			t.Errorf("CheckRaw %s: the BTF did not parse", name)
		}
	}
	s, _ := Parse(with, nil)
	if err := s.Check(hostKernel(t)); err == nil || !err.(*CheckError).Has(RuleKindLayout) {
		t.Errorf("Check of a Spec with a kind layout section: %v; want %s", err, RuleKindLayout)
	}
	// An entry that misdescribes a known kind is a second problem.
	bad := libbpfTable()
	bad[KindInt].InfoSize = 8
	s.SetKindLayouts(bad)
	if err := s.Check(hostKernel(t), Strict()); err == nil || len(err.(*CheckError).Problems) != 2 || !strings.Contains(err.(*CheckError).Problems[1].Detail, "INT") {
		t.Errorf("Check with INT's entry {8, 0}: %v; want the section and the INT entry reported", err)
	}

	if rejected, msg, ok := kernelVerdict(t, without); ok && rejected {
		t.Fatalf("the kernel rejects the 32-byte header without a layout section: %s", msg)
	}
	for name, raw := range map[string][]byte{"with a layout section": with, "with layout_off only": staleOff} {
		rejected, msg, ok := kernelVerdict(t, raw)
		if !ok {
			return
		}
		if !rejected || !strings.Contains(msg, "Unsupported btf_header") || !strings.Contains(msg, "argument list too long") {
			t.Errorf("kernel, %s: rejected=%v %q; want \"Unsupported btf_header\" (E2BIG)", name, rejected, msg)
		} else {
			t.Logf("kernel, %s: %s", name, msg)
		}
	}
}

// TestKindLayoutBpftool: bpftool 7.1 (libbpf 1.1, which knows the 24-byte
// header and steps over longer ones) lists BTF with a kind layout section
// exactly as the same BTF without one, and Parse reads the types of both
// alike (cdump's TestRawKindLayout lists such BTF as bpftool does).
func TestKindLayoutBpftool(t *testing.T) {
	testc.Require(t, "bpftool")
	le := binary.LittleEndian
	dir := t.TempDir()
	with, without := filepath.Join(dir, "with.btf"), filepath.Join(dir, "without.btf")
	if err := os.WriteFile(with, handBTF(le, 32, layoutBytes(le, libbpfTable())), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(without, handBTF(le, 24, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := exec.Command("bpftool", "btf", "dump", "file", with).CombinedOutput()
	if err != nil {
		t.Fatalf("bpftool refuses BTF with a kind layout section: %v\n%s", err, got)
	}
	want := bpftoolDump(t, without, "")
	if !bytes.Equal(got, want) {
		t.Fatalf("bpftool lists the layout BTF differently: %s", firstDiff(got, want))
	}
	a, err := LoadFile(with, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadFile(without, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.SetKindLayouts(nil)
	a.SetHeaderLen(HeaderLen)
	b.SetHeaderLen(HeaderLen)
	if !bytes.Equal(a.Marshal(nil), b.Marshal(nil)) {
		t.Fatalf("the types and strings read with a kind layout section differ from those read without")
	}
}
