package btf

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDumpRawMatchesBpftool checks DumpRaw against `bpftool [-B BASE] btf
// dump file FILE`, byte for byte, on every oracle input: reference BTFs, the
// running kernel's, the Debian vmlinux (ELF) and 20 of its modules (split),
// and objects compiled with BTF from the C corpus.
func TestDumpRawMatchesBpftool(t *testing.T) {
	for _, in := range allInputs(t) {
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			s := loadInput(t, in)
			var got bytes.Buffer
			if err := DumpRaw(&got, s); err != nil {
				t.Fatal(err)
			}
			want := bpftoolDump(t, in.path, in.base)
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("DumpRaw differs from bpftool (%d vs %d bytes) at %s", got.Len(), len(want), firstDiff(got.Bytes(), want))
			}
		})
	}
}

// everyKindSpec builds a base Spec with every kind and the format's corner
// cases: each INT encoding, signed and unsigned ENUM and ENUM64 (negative
// and 64-bit values), FWD of struct and union, bitfields with and without
// kind_flag, every FUNC and VAR linkage, a variadic FUNC_PROTO, DATASEC
// entries, DECL_TAGs on a declaration and on a member, TYPE_TAG, FLOAT, and
// anonymous types.
func everyKindSpec() *Spec {
	s := NewSpec()
	i32 := s.Add("int", KindInt, 0, false, 4, IntSigned<<24|32)           // 1
	u8 := s.Add("unsigned char", KindInt, 0, false, 1, 8)                 // 2
	s.Add("char", KindInt, 0, false, 1, IntChar<<24|8)                    // 3
	s.Add("_Bool", KindInt, 0, false, 1, IntBool<<24|8)                   // 4
	s.Add("u3", KindInt, 0, false, 1, 3<<16|3)                            // 5: bits_offset 3
	ptr := s.Add("", KindPtr, 0, false, uint32(i32))                      // 6
	idx := s.Add("__ARRAY_SIZE_TYPE__", KindInt, 0, false, 4, 32)         // 7
	arr := s.Add("", KindArray, 0, false, 0, uint32(u8), uint32(idx), 16) // 8
	st := s.Add("plain", KindStruct, 2, false, 24,                        // 9
		s.AddString("p"), uint32(ptr), 0,
		s.AddString("buf"), uint32(arr), 64)
	s.Add("bits", KindStruct, 3, true, 4, // 10: kind_flag bitfields
		s.AddString("a"), uint32(i32), 3<<24|0,
		s.AddString("b"), uint32(i32), 5<<24|3,
		0, uint32(i32), 0) // anonymous, not a bitfield
	s.Add("", KindUnion, 2, false, 8, s.AddString("x"), uint32(i32), 0, s.AddString("y"), uint32(ptr), 0)     // 11
	s.Add("uenum", KindEnum, 2, false, 4, s.AddString("A"), 0, s.AddString("B"), 0xffffffff)                  // 12
	s.Add("senum", KindEnum, 2, true, 4, s.AddString("NEG"), 0xfffffffd, s.AddString("POS"), 3)               // 13
	s.Add("fs", KindFwd, 0, false, 0)                                                                         // 14
	s.Add("fu", KindFwd, 0, true, 0)                                                                          // 15
	td := s.Add("myint", KindTypedef, 0, false, uint32(i32))                                                  // 16
	s.Add("", KindVolatile, 0, false, uint32(td))                                                             // 17
	cst := s.Add("", KindConst, 0, false, uint32(i32))                                                        // 18
	s.Add("", KindRestrict, 0, false, uint32(ptr))                                                            // 19
	proto := s.Add("", KindFuncProto, 2, false, uint32(i32), s.AddString("n"), uint32(i32), 0, 0)             // 20: variadic
	s.Add("f_static", KindFunc, LinkageStatic, false, uint32(proto))                                          // 21
	fg := s.Add("f_global", KindFunc, LinkageGlobal, false, uint32(proto))                                    // 22
	s.Add("f_extern", KindFunc, LinkageExtern, false, uint32(proto))                                          // 23
	s.Add("", KindFuncProto, 0, false, 0)                                                                     // 24: void (void)
	v1 := s.Add("v_static", KindVar, 0, false, uint32(i32), LinkageStatic)                                    // 25
	v2 := s.Add("v_global", KindVar, 0, false, uint32(cst), LinkageGlobal)                                    // 26
	v3 := s.Add("v_extern", KindVar, 0, false, uint32(st), LinkageExtern)                                     // 27
	s.Add(".data", KindDatasec, 3, false, 40, uint32(v1), 0, 4, uint32(v2), 4, 4, uint32(v3), 8, 24)          // 28
	s.Add("double", KindFloat, 0, false, 8)                                                                   // 29
	s.Add("tag_decl", KindDeclTag, 0, false, uint32(fg), 0xffffffff)                                          // 30: component_idx -1
	s.Add("tag_member", KindDeclTag, 0, false, uint32(st), 1)                                                 // 31
	s.Add("user", KindTypeTag, 0, false, uint32(i32))                                                         // 32
	s.Add("u64enum", KindEnum64, 2, false, 8, s.AddString("SMALL"), 1, 0, s.AddString("HUGE"), 0, 0xffffffff) // 33
	s.Add("s64enum", KindEnum64, 2, true, 8, s.AddString("NBIG"), 0, 0xffffffff, s.AddString("MIN"), 0, 0x80000000)
	s.Add("", KindEnum, 0, false, 4) // anonymous, no enumerators
	// kind_flag set on tags (attribute-style tags of newer kernels): bpftool
	// 7.1 does not show it.
	s.Add("attr_decl", KindDeclTag, 0, true, uint32(fg), 0xffffffff)
	s.Add("attr_type", KindTypeTag, 0, true, uint32(i32))
	return s
}

// TestDumpRawEveryKind runs DumpRaw and bpftool over a hand-built BTF with
// every kind and corner case, and over a split BTF on top of it that refers
// to base types and strings.
func TestDumpRawEveryKind(t *testing.T) {
	dir := t.TempDir()
	base := everyKindSpec()
	basePath := filepath.Join(dir, "base.btf")
	if err := os.WriteFile(basePath, base.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	split := NewSplitSpec(base)
	p := split.Add("", KindPtr, 0, false, 9) // to base struct plain
	v := split.Add("split_var", KindVar, 0, false, uint32(p), LinkageGlobal)
	split.Add("plain", KindStruct, 1, false, 8, split.AddString("p"), uint32(p), 0) // "p": a base string
	split.Add(".bss", KindDatasec, 2, false, 12, uint32(v), 0, 8, 25, 8, 4)         // own VAR, base VAR
	splitPath := filepath.Join(dir, "split.btf")
	if err := os.WriteFile(splitPath, split.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}

	// The same in big endian: bpftool reads either byte order.
	beBasePath := filepath.Join(dir, "base-be.btf")
	beSplitPath := filepath.Join(dir, "split-be.btf")
	if err := os.WriteFile(beBasePath, base.Marshal(binary.BigEndian), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(beSplitPath, split.Marshal(binary.BigEndian), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name       string
		s          *Spec
		path, base string
	}{
		{"base", base, basePath, ""},
		{"split", split, splitPath, basePath},
		{"base-be", base, beBasePath, ""},
		{"split-be", split, beSplitPath, beBasePath},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got bytes.Buffer
			if err := DumpRaw(&got, c.s); err != nil {
				t.Fatal(err)
			}
			want := bpftoolDump(t, c.path, c.base)
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("DumpRaw differs from bpftool at %s\nbpftool:\n%s", firstDiff(got.Bytes(), want), want)
			}
			// And the file read back (little or big endian) dumps the same.
			var rbase *Spec
			if c.base != "" {
				var err error
				if rbase, err = LoadFile(c.base, nil); err != nil {
					t.Fatal(err)
				}
			}
			r, err := LoadFile(c.path, rbase)
			if err != nil {
				t.Fatal(err)
			}
			got.Reset()
			DumpRaw(&got, r)
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("DumpRaw of %s read back differs from bpftool at %s", filepath.Base(c.path), firstDiff(got.Bytes(), want))
			}
		})
	}

	// AppendRaw of one type equals its lines in the full listing, also for a
	// base type seen through the split Spec.
	var full bytes.Buffer
	DumpRaw(&full, base)
	for id := TypeID(1); id < base.NextID(); id++ {
		line := split.AppendRaw(nil, id)
		if !bytes.Contains(full.Bytes(), line) || !strings.HasPrefix(string(line), "[") {
			t.Errorf("AppendRaw(%d) = %q not in the listing", id, line)
		}
	}
}

// TestDumpRawInvalidName checks the cases bpftool's loader refuses, so
// bpftool cannot be the oracle: a name offset outside the string table
// prints (invalid), as bpftool's btf_str does.
func TestDumpRawInvalidName(t *testing.T) {
	s := NewSpec()
	s.AddRaw(1000, Info(KindInt, 0, false), 4, 32)
	s.AddRaw(0, Info(KindDatasec, 1, false), 4, 99, 0, 4) // entry type out of range: no "(KIND 'name')"
	var got bytes.Buffer
	DumpRaw(&got, s)
	want := "[1] INT '(invalid)' size=4 bits_offset=0 nr_bits=32 encoding=(none)\n" +
		"[2] DATASEC '(anon)' size=4 vlen=1\n\ttype_id=99 offset=0 size=4\n"
	if got.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", got.String(), want)
	}
}
