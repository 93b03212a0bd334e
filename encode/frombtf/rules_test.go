package frombtf

import (
	"debug/elf"
	"fmt"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testsupport/testelf"
)

// The per-member fix-up rules of doc.go, one table row each, on a member
// built by hand (btf.NewSpec/Add): each row gives the member as a
// compiler writes it and the member as the DWARF route (pahole 1.32's
// btf_encoder.c, with libbpf's btf__add_* helpers) would have written
// the same types, and fixMember must turn the one into the other. The
// expected BTF is written from pahole's encoder rules, not from our
// output.

// spelled is a Spec's own types, one line each, with names spelled out,
// and a type a rule drops (alias) shown as where its references go.
func spelled(s *btf.Spec, alias []btf.TypeID) []string {
	var out []string
	for id := s.FirstID(); id < s.NextID(); id++ {
		if alias != nil && alias[id-s.FirstID()] != 0 {
			to := alias[id-s.FirstID()]
			if to == noType {
				to = 0
			}
			out = append(out, fmt.Sprintf("[%d] dropped -> %d", id, to))
			continue
		}
		name, info, st, raw := s.RawType(id)
		k := btf.KindOf(info)
		// The words, with the names of members, enumerators and
		// parameters spelled out in place of their string offsets.
		ext := make([]any, len(raw))
		for i, w := range raw {
			ext[i] = w
		}
		step := 0
		switch k {
		case btf.KindEnum, btf.KindFuncProto:
			step = 2
		case btf.KindEnum64, btf.KindStruct, btf.KindUnion:
			step = 3
		}
		for i := 0; step > 0 && i < len(raw); i += step {
			ext[i] = fmt.Sprintf("%q", s.String(raw[i]))
		}
		line := fmt.Sprintf("[%d] %s %q vlen=%d kflag=%v st=%d %v", id, k, s.String(name), btf.VlenOf(info), btf.KindFlagOf(info), st, ext)
		out = append(out, line)
	}
	return out
}

type fixRow struct {
	rule        string // doc.go's rule, and the pahole behaviour it follows
	features    encode.Features
	reverseDims bool
	member      func(s *btf.Spec) // as the compiler wrote it
	want        func(s *btf.Spec) // as the DWARF route writes it
	// dropped: the member's types the rule drops, by ID, and where their
	// references go (0: void); only when no record is reshaped.
	dropped map[btf.TypeID]btf.TypeID
}

const (
	signed = btf.IntSigned << 24
	char   = btf.IntChar << 24
)

func fixRows() []fixRow {
	all := encode.DefaultFeatures
	return []fixRow{
		{
			rule:     "INT: CHAR bit cleared on char (gcc 12: SIGNED|CHAR); btf_encoder.c btf_encoder__add_base_type writes SIGNED, never CHAR",
			features: all,
			member: func(s *btf.Spec) {
				s.Add("char", btf.KindInt, 0, false, 1, signed|char|8)
				s.Add("signed char", btf.KindInt, 0, false, 1, signed|char|8)
			},
			want: func(s *btf.Spec) {
				s.Add("char", btf.KindInt, 0, false, 1, signed|8)
				s.Add("signed char", btf.KindInt, 0, false, 1, signed|8)
			},
		},
		{
			rule:     "INT: CHAR bit cleared on unsigned char (gcc 12: CHAR); btf_encoder.c btf_encoder__add_base_type writes encoding 0",
			features: all,
			member:   func(s *btf.Spec) { s.Add("unsigned char", btf.KindInt, 0, false, 1, char|8) },
			want:     func(s *btf.Spec) { s.Add("unsigned char", btf.KindInt, 0, false, 1, 8) },
		},
		{
			rule:     "INT: other encodings kept (BOOL, SIGNED, 0)",
			features: all,
			member: func(s *btf.Spec) {
				s.Add("_Bool", btf.KindInt, 0, false, 1, btf.IntBool<<24|8)
				s.Add("long int", btf.KindInt, 0, false, 8, signed|64)
				s.Add("unsigned int", btf.KindInt, 0, false, 4, 32)
			},
			want: func(s *btf.Spec) {
				s.Add("_Bool", btf.KindInt, 0, false, 1, btf.IntBool<<24|8)
				s.Add("long int", btf.KindInt, 0, false, 8, signed|64)
				s.Add("unsigned int", btf.KindInt, 0, false, 4, 32)
			},
		},
		{
			rule:     "FWD: size/type word zeroed (gcc 12 leaves garbage); libbpf btf__add_fwd writes 0, as the kernel requires",
			features: all,
			member: func(s *btf.Spec) {
				s.Add("foo", btf.KindFwd, 0, false, 0xdeadbeef)
				s.Add("bar", btf.KindFwd, 0, true, 7)
			},
			want: func(s *btf.Spec) {
				s.Add("foo", btf.KindFwd, 0, false, 0)
				s.Add("bar", btf.KindFwd, 0, true, 0)
			},
		},
		{
			rule:     "ENUM of no values and size 0 (gcc 14/15's \"enum foo;\"): size 4, libbpf btf__add_fwd(BTF_FWD_ENUM) / btf_encoder__add_enum_type for a declaration",
			features: all,
			member: func(s *btf.Spec) {
				s.Add("foo", btf.KindEnum, 0, false, 0)
			},
			want: func(s *btf.Spec) {
				s.Add("foo", btf.KindEnum, 0, false, 4)
			},
		},
		{
			rule:     "ENUM with values, or of no values but a size, kept",
			features: all,
			member: func(s *btf.Spec) {
				s.Add("e", btf.KindEnum, 1, false, 4, s.AddString("E_A"), 1)
				s.Add("d", btf.KindEnum, 0, false, 1)
			},
			want: func(s *btf.Spec) {
				s.Add("e", btf.KindEnum, 1, false, 4, s.AddString("E_A"), 1)
				s.Add("d", btf.KindEnum, 0, false, 1)
			},
		},
		{
			rule:     "ARRAY: index type is the member's INT \"int\" (gcc writes sizetype); btf_encoder.c: every ARRAY's index is the encoder's array_index_id",
			features: all,
			member: func(s *btf.Spec) {
				s.Add("long unsigned int", btf.KindInt, 0, false, 8, 64) // 1: gcc's sizetype
				s.Add("char", btf.KindInt, 0, false, 1, signed|8)        // 2
				s.Add("int", btf.KindInt, 0, false, 8, signed|64)        // 3: named int, not int's size
				s.Add("int", btf.KindInt, 0, false, 4, 32)               // 4: named int, unsigned
				s.Add("int", btf.KindInt, 0, false, 4, signed|char|32)   // 5: the first int (CHAR cleared first)
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)        // 6: a second int
				s.Add("", btf.KindArray, 0, false, 0, 2, 1, 16)          // 7: char[16] by sizetype
				s.Add("", btf.KindArray, 0, false, 0, 2, 4, 0)           // 8: by another INT
				s.Add("", btf.KindArray, 0, false, 0, 2, 6, 3)           // 9: by the second int
				s.Add("", btf.KindArray, 0, false, 0, 2, 5, 1)           // 10: already right
			},
			want: func(s *btf.Spec) {
				s.Add("long unsigned int", btf.KindInt, 0, false, 8, 64)
				s.Add("char", btf.KindInt, 0, false, 1, signed|8)
				s.Add("int", btf.KindInt, 0, false, 8, signed|64)
				s.Add("int", btf.KindInt, 0, false, 4, 32)
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindArray, 0, false, 0, 2, 5, 16)
				s.Add("", btf.KindArray, 0, false, 0, 2, 5, 0)
				s.Add("", btf.KindArray, 0, false, 0, 2, 5, 3)
				s.Add("", btf.KindArray, 0, false, 0, 2, 5, 1)
			},
		},
		{
			rule:     "ARRAY: index type \"int\" added to a member that has none (btf_encoder.c adds its array index INT when the unit has no int)",
			features: all,
			member: func(s *btf.Spec) {
				s.Add("long unsigned int", btf.KindInt, 0, false, 8, 64)
				s.Add("char", btf.KindInt, 0, false, 1, signed|8)
				s.Add("", btf.KindArray, 0, false, 0, 2, 1, 16)
			},
			want: func(s *btf.Spec) {
				s.Add("long unsigned int", btf.KindInt, 0, false, 8, 64)
				s.Add("char", btf.KindInt, 0, false, 1, signed|8)
				s.Add("", btf.KindArray, 0, false, 0, 2, 4, 16)
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
			},
		},
		{
			rule:     "ARRAY: no INT added to a member without arrays",
			features: all,
			member:   func(s *btf.Spec) { s.Add("char", btf.KindInt, 0, false, 1, signed|8) },
			want:     func(s *btf.Spec) { s.Add("char", btf.KindInt, 0, false, 1, signed|8) },
		},
		{
			rule:        "ARRAY dimensions, gcc < 14 (.comment): int a[2][3] written as 3 of 2 of int is reversed to 2 of 3 of int (GCC PR debug/114186; dwarf_loader.c: outermost dimension first)",
			features:    all,
			reverseDims: true,
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindArray, 0, false, 0, 3, 1, 3) // 2: outer, length 3 as gcc 12 writes
				s.Add("", btf.KindArray, 0, false, 0, 1, 1, 2) // 3: inner, length 2
			},
			want: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindArray, 0, false, 0, 3, 1, 2)
				s.Add("", btf.KindArray, 0, false, 0, 1, 1, 3)
			},
		},
		{
			rule:        "ARRAY dimensions, gcc < 14: a three-dimensional chain long d[2][3][4] written 4,3,2 becomes 2,3,4; a one-dimensional array is left alone",
			features:    all,
			reverseDims: true,
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("long int", btf.KindInt, 0, false, 8, signed|64)
				s.Add("", btf.KindArray, 0, false, 0, 4, 1, 4) // 3: outer, gcc 12's length 4
				s.Add("", btf.KindArray, 0, false, 0, 5, 1, 3) // 4
				s.Add("", btf.KindArray, 0, false, 0, 2, 1, 2) // 5: innermost, of long, length 2
				s.Add("", btf.KindArray, 0, false, 0, 2, 1, 9) // 6: one dimension
			},
			want: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("long int", btf.KindInt, 0, false, 8, signed|64)
				s.Add("", btf.KindArray, 0, false, 0, 4, 1, 2)
				s.Add("", btf.KindArray, 0, false, 0, 5, 1, 3)
				s.Add("", btf.KindArray, 0, false, 0, 2, 1, 4)
				s.Add("", btf.KindArray, 0, false, 0, 2, 1, 9)
			},
		},
		{
			rule:        "ARRAY dimensions, gcc < 14: an element ARRAY another type refers to (typeof, a typedef of an array) is an array type of its own and ends the chain",
			features:    all,
			reverseDims: true,
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindArray, 0, false, 0, 1, 1, 3) // 2: int[3], also row_t's
				s.Add("row_t", btf.KindTypedef, 0, false, 2)   // 3
				s.Add("", btf.KindArray, 0, false, 0, 2, 1, 5) // 4: an array of 5 int[3]
			},
			want: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindArray, 0, false, 0, 1, 1, 3)
				s.Add("row_t", btf.KindTypedef, 0, false, 2)
				s.Add("", btf.KindArray, 0, false, 0, 2, 1, 5)
			},
		},
		{
			rule:        "ARRAY dimensions: no .comment naming gcc < 14 (clang, gcc >= 14): the dimensions are taken as they are",
			features:    all,
			reverseDims: false,
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindArray, 0, false, 0, 3, 1, 2)
				s.Add("", btf.KindArray, 0, false, 0, 1, 1, 3)
			},
			want: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindArray, 0, false, 0, 3, 1, 2)
				s.Add("", btf.KindArray, 0, false, 0, 1, 1, 3)
			},
		},
		{
			rule:     "FLOAT without the float feature: an INT of its size, encoding 0 (btf_encoder.c btf_encoder__add_base_type: btf__add_int unless gen_floats)",
			features: all &^ encode.FeatFloat,
			member: func(s *btf.Spec) {
				s.Add("double", btf.KindFloat, 0, false, 8)
				s.Add("d", btf.KindTypedef, 0, false, 1)
			},
			want: func(s *btf.Spec) {
				s.Add("double", btf.KindInt, 0, false, 8, 64)
				s.Add("d", btf.KindTypedef, 0, false, 1)
			},
		},
		{
			rule:     "FLOAT with the float feature kept (btf_encoder.c: btf__add_float with gen_floats)",
			features: all,
			member:   func(s *btf.Spec) { s.Add("long double", btf.KindFloat, 0, false, 16) },
			want:     func(s *btf.Spec) { s.Add("long double", btf.KindFloat, 0, false, 16) },
		},
		{
			rule:     "complex FLOAT, even with float: an INT of its size (dwarf_loader.c: DW_ATE_complex_float is no float_type, so btf__add_int)",
			features: all,
			member: func(s *btf.Spec) {
				s.Add("complex double", btf.KindFloat, 0, false, 16)
				s.Add("_Complex float", btf.KindFloat, 0, false, 8)
				s.Add("float", btf.KindFloat, 0, false, 4)
			},
			want: func(s *btf.Spec) {
				s.Add("complex double", btf.KindInt, 0, false, 16, 128)
				s.Add("_Complex float", btf.KindInt, 0, false, 8, 64)
				s.Add("float", btf.KindFloat, 0, false, 4)
			},
		},
		{
			rule:     "ENUM64 without enum64: an ENUM of its size with each value's low 32 bits (btf_encoder.c btf_encoder__add_enum_type, skip_encoding_enum64)",
			features: all &^ encode.FeatEnum64,
			member: func(s *btf.Spec) {
				a, b := s.AddString("BIG"), s.AddString("SMALL")
				s.Add("e64", btf.KindEnum64, 2, true, 8, a, 0x00000002, 0x1, b, 0xfffffffe, 0xffffffff)
				s.Add("p", btf.KindPtr, 0, false, 1)
			},
			want: func(s *btf.Spec) {
				a, b := s.AddString("BIG"), s.AddString("SMALL")
				s.Add("e64", btf.KindEnum, 2, false, 8, a, 0x00000002, b, 0xfffffffe)
				s.Add("p", btf.KindPtr, 0, false, 1)
			},
		},
		{
			rule:     "ENUM64 with enum64 kept",
			features: all,
			member: func(s *btf.Spec) {
				s.Add("e64", btf.KindEnum64, 1, false, 8, s.AddString("BIG"), 2, 1)
			},
			want: func(s *btf.Spec) {
				s.Add("e64", btf.KindEnum64, 1, false, 8, s.AddString("BIG"), 2, 1)
			},
		},
		{
			rule:     "TYPE_TAG without type_tag: looked through, references go to its type (btf_encoder.c: skip_encoding_btf_type_tag)",
			features: all &^ encode.FeatTypeTag,
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32) // 1
				s.Add("user", btf.KindTypeTag, 0, false, 1)       // 2
				s.Add("", btf.KindPtr, 0, false, 2)               // 3
				s.Add("rcu", btf.KindTypeTag, 0, false, 0)        // 4: of void
			},
			want: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("user", btf.KindTypeTag, 0, false, 1)
				s.Add("", btf.KindPtr, 0, false, 2)
				s.Add("rcu", btf.KindTypeTag, 0, false, 0)
			},
			dropped: map[btf.TypeID]btf.TypeID{2: 1, 4: 0},
		},
		{
			rule:     "DECL_TAG without decl_tag: dropped (btf_encoder.c: skip_encoding_btf_decl_tag)",
			features: all &^ encode.FeatDeclTag,
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("s", btf.KindStruct, 1, false, 4, s.AddString("m"), 1, 0)
				s.Add("tag", btf.KindDeclTag, 0, false, 2, 0xffffffff)
			},
			want: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("s", btf.KindStruct, 1, false, 4, s.AddString("m"), 1, 0)
				s.Add("tag", btf.KindDeclTag, 0, false, 2, 0xffffffff)
			},
			dropped: map[btf.TypeID]btf.TypeID{3: 0},
		},
		{
			rule:     "TYPE_TAG and DECL_TAG with their features kept",
			features: all,
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("user", btf.KindTypeTag, 0, false, 1)
				s.Add("tag", btf.KindDeclTag, 0, false, 1, 0xffffffff)
			},
			want: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("user", btf.KindTypeTag, 0, false, 1)
				s.Add("tag", btf.KindDeclTag, 0, false, 1, 0xffffffff)
			},
		},
		{
			rule:     "reshaping (FLOAT without float) with a dropped DECL_TAG: the copy leaves the tag out and renumbers what follows",
			features: all &^ (encode.FeatFloat | encode.FeatDeclTag),
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("tag", btf.KindDeclTag, 0, false, 1, 0xffffffff)
				s.Add("float", btf.KindFloat, 0, false, 4)
				s.Add("", btf.KindPtr, 0, false, 3)
			},
			want: func(s *btf.Spec) {
				s.AddString("int")
				s.AddString("tag")
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("float", btf.KindInt, 0, false, 4, 32)
				s.Add("", btf.KindPtr, 0, false, 2)
			},
		},
	}
}

// TestFixMemberRules: fixMember on each rule's member gives the types
// the DWARF route writes.
func TestFixMemberRules(t *testing.T) {
	for _, r := range fixRows() {
		t.Run(r.rule, func(t *testing.T) {
			m := btf.NewSpec()
			r.member(m)
			fixed, alias := fixMember(m, r.features, r.reverseDims)
			want := btf.NewSpec()
			r.want(want)
			var wantAlias []btf.TypeID
			if r.dropped != nil {
				wantAlias = make([]btf.TypeID, want.NumTypes())
				for id, to := range r.dropped {
					if to == 0 {
						to = noType
					}
					wantAlias[id-1] = to
				}
			}
			if alias != nil && len(alias) < fixed.NumTypes() {
				t.Fatalf("alias has %d entries for %d types", len(alias), fixed.NumTypes())
			}
			if r.dropped == nil && alias != nil {
				for _, a := range alias {
					if a != 0 {
						t.Fatalf("types dropped: %v", alias)
					}
				}
				alias = nil
			}
			got, exp := spelled(fixed, alias), spelled(want, wantAlias)
			if strings.Join(got, "\n") != strings.Join(exp, "\n") {
				t.Errorf("fixed member:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(exp, "\n"))
			}
		})
	}
}

// TestGCCReversesDims: which .comment sections make the array rule
// reverse dimensions (doc.go: "when the file's .comment names gcc and
// only releases before 14"), on ELF files built by hand.
func TestGCCReversesDims(t *testing.T) {
	for _, c := range []struct {
		rule    string
		comment []string // nil: no .comment section
		want    bool
	}{
		{"no .comment: taken as it is", nil, false},
		{"gcc 12 only: reversed", []string{"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"}, true},
		{"gcc 13 and 11: reversed", []string{"GCC: (Ubuntu 13.2.0-23ubuntu4) 13.2.0", "GCC: 11.4.0"}, true},
		{"gcc 14 only: as it is (fixed in 14)", []string{"GCC: (GNU) 14.2.1 20240912 (Red Hat 14.2.1-3)"}, false},
		{"gcc 12 and gcc 14 objects: as it is", []string{"GCC: (Debian 12.2.0-14) 12.2.0", "GCC: (Debian 14.2.0-8) 14.2.0"}, false},
		{"clang only: as it is", []string{"Debian clang version 14.0.6"}, false},
		{"gcc 12 and clang: reversed (only gcc strings count)", []string{"GCC: (Debian 12.2.0-14) 12.2.0", "Debian clang version 19.1.7"}, true},
		{"empty .comment", []string{}, false},
	} {
		t.Run(c.rule, func(t *testing.T) {
			var secs []testelf.Section
			if c.comment != nil {
				var data []byte
				for _, s := range c.comment {
					data = append(append(data, s...), 0)
				}
				if len(data) == 0 {
					data = []byte{0}
				}
				secs = append(secs, testelf.Section{
					Header: elf.SectionHeader{Name: ".comment", Type: elf.SHT_PROGBITS, Flags: elf.SHF_MERGE | elf.SHF_STRINGS, Addralign: 1, Entsize: 1},
					Data:   data,
				})
			}
			secs = append(secs, testelf.Section{Header: elf.SectionHeader{Name: ".text", Type: elf.SHT_PROGBITS, Flags: elf.SHF_ALLOC | elf.SHF_EXECINSTR, Addralign: 1}, Data: []byte{0xc3}})
			f, err := elfx.NewFile(testelf.Build(elf.ET_REL, elf.EM_X86_64, secs))
			if err != nil {
				t.Fatal(err)
			}
			if got := gccReversesDims(f); got != c.want {
				t.Errorf("gccReversesDims = %v, want %v", got, c.want)
			}
		})
	}
}

// TestEnumForwardRules: after the merge, a FWD of a struct that names an
// enum, or that a type uses by value, becomes the forward-declared ENUM
// (vlen 0, size 4) the DWARF route writes for "enum foo;"
// (btf_encoder.c btf_encoder__add_enum_type for a declaration; libbpf
// btf__add_fwd(BTF_FWD_ENUM)); other FWDs stay.
func TestEnumForwardRules(t *testing.T) {
	fwdEnum := "FWD->ENUM"
	for _, c := range []struct {
		rule  string
		build func(s *btf.Spec) btf.TypeID // returns the FWD
		want  string                       // fwdEnum, or "FWD" for unchanged
	}{
		{"FWD struct naming an ENUM (and no struct): enum", func(s *btf.Spec) btf.TypeID {
			s.Add("e", btf.KindEnum, 1, false, 4, s.AddString("A"), 0)
			return s.Add("e", btf.KindFwd, 0, false, 0)
		}, fwdEnum},
		{"FWD struct naming an ENUM64: enum", func(s *btf.Spec) btf.TypeID {
			s.Add("e", btf.KindEnum64, 1, false, 8, s.AddString("A"), 0, 1)
			return s.Add("e", btf.KindFwd, 0, false, 0)
		}, fwdEnum},
		{"FWD struct naming an ENUM and a struct: stays", func(s *btf.Spec) btf.TypeID {
			s.Add("e", btf.KindEnum, 1, false, 4, s.AddString("A"), 0)
			s.Add("e", btf.KindStruct, 0, false, 0)
			return s.Add("e", btf.KindFwd, 0, false, 0)
		}, "FWD"},
		{"FWD struct of a struct name: stays", func(s *btf.Spec) btf.TypeID {
			s.Add("s", btf.KindStruct, 0, false, 0)
			return s.Add("s", btf.KindFwd, 0, false, 0)
		}, "FWD"},
		{"FWD used through a pointer only: stays", func(s *btf.Spec) btf.TypeID {
			f := s.Add("s", btf.KindFwd, 0, false, 0)
			p := s.Add("", btf.KindPtr, 0, false, uint32(f))
			s.Add("h", btf.KindStruct, 1, false, 8, s.AddString("p"), uint32(p), 0)
			return f
		}, "FWD"},
		{"FWD used by value as a member: enum", func(s *btf.Spec) btf.TypeID {
			f := s.Add("s", btf.KindFwd, 0, false, 0)
			s.Add("h", btf.KindStruct, 1, false, 4, s.AddString("v"), uint32(f), 0)
			return f
		}, fwdEnum},
		{"FWD used by value through const and typedef as a parameter: enum", func(s *btf.Spec) btf.TypeID {
			f := s.Add("s", btf.KindFwd, 0, false, 0)
			c := s.Add("", btf.KindConst, 0, false, uint32(f))
			td := s.Add("s_t", btf.KindTypedef, 0, false, uint32(c))
			s.Add("", btf.KindFuncProto, 1, false, 0, s.AddString("x"), uint32(td))
			return f
		}, fwdEnum},
		{"FWD used by value as a return type: enum", func(s *btf.Spec) btf.TypeID {
			f := s.Add("s", btf.KindFwd, 0, false, 0)
			s.Add("", btf.KindFuncProto, 0, false, uint32(f))
			return f
		}, fwdEnum},
		{"FWD used by value as an array element: enum", func(s *btf.Spec) btf.TypeID {
			s.Add("int", btf.KindInt, 0, false, 4, signed|32)
			f := s.Add("s", btf.KindFwd, 0, false, 0)
			s.Add("", btf.KindArray, 0, false, 0, uint32(f), 1, 2)
			return f
		}, fwdEnum},
		{"FWD of a union (kind flag) naming an enum: stays", func(s *btf.Spec) btf.TypeID {
			s.Add("e", btf.KindEnum, 1, false, 4, s.AddString("A"), 0)
			return s.Add("e", btf.KindFwd, 0, true, 0)
		}, "FWD"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			s := btf.NewSpec()
			f := c.build(s)
			var e enumForwards
			e.scan(s, s.FirstID(), s.NextID())
			e.fix(s)
			name, info, st, ext := s.RawType(f)
			got := "FWD"
			switch {
			case btf.KindOf(info) == btf.KindEnum && btf.VlenOf(info) == 0 && st == 4 && len(ext) == 0 && !btf.KindFlagOf(info):
				got = fwdEnum
			case btf.KindOf(info) != btf.KindFwd:
				got = fmt.Sprintf("%s size %d", btf.KindOf(info), st)
			}
			if got != c.want || s.String(name) == "" {
				t.Errorf("type %d %q: %s, want %s", f, s.String(name), got, c.want)
			}
		})
	}
}

// TestExtractRules: before the merge, a member's FUNC, VAR and DATASEC
// records are taken out with the DECL_TAGs that point at them and the
// FUNC_PROTOs only FUNCs refer to (doc.go; the DWARF route adds them
// after all types, btf_encoder.c btf_encoder__add_func); its functions
// and variables are recorded by name, declarations (unnamed parameters,
// funcvar.UnnamedParams) and the FUNCs want refuses not at all. Each row
// gives the member, the types left for the group and what is recorded.
func TestExtractRules(t *testing.T) {
	all := encode.DefaultFeatures
	for _, c := range []struct {
		rule     string
		features encode.Features
		want     func(string) bool
		member   func(s *btf.Spec)
		left     func(s *btf.Spec) // the types appended to the group
		recorded []string          // "func NAME(ret; params) tags", "var NAME type linkage section tags"
	}{
		{
			rule: "FUNC, its FUNC_PROTO and its DECL_TAG taken out and recorded",
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)               // 1
				s.Add("", btf.KindFuncProto, 1, false, 1, s.AddString("a"), 1)  // 2
				s.Add("f", btf.KindFunc, btf.LinkageGlobal, false, 2)           // 3
				s.Add("bpf_kfunc", btf.KindDeclTag, 0, false, 3, 0xffffffff)    // 4
				s.Add("s", btf.KindStruct, 1, false, 4, s.AddString("m"), 1, 0) // 5
				s.Add("on_struct", btf.KindDeclTag, 0, false, 5, 0xffffffff)    // 6: stays
				s.Add("on_param", btf.KindDeclTag, 0, false, 3, 0)              // 7
			},
			left: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("s", btf.KindStruct, 1, false, 4, s.AddString("m"), 1, 0)
				s.Add("on_struct", btf.KindDeclTag, 0, false, 2, 0xffffffff)
			},
			recorded: []string{"func f(1; a 1) [bpf_kfunc -1 on_param 0]"},
		},
		{
			rule: "a FUNC_PROTO another type refers to (a function pointer) stays",
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)              // 1
				s.Add("", btf.KindFuncProto, 1, false, 1, s.AddString("a"), 1) // 2
				s.Add("f", btf.KindFunc, btf.LinkageStatic, false, 2)          // 3
				s.Add("", btf.KindPtr, 0, false, 2)                            // 4
			},
			left: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindFuncProto, 1, false, 1, s.AddString("a"), 1)
				s.Add("", btf.KindPtr, 0, false, 2)
			},
			recorded: []string{"func f(1; a 1) []"},
		},
		{
			rule: "a declaration (unnamed parameters) is taken out but not recorded",
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindFuncProto, 1, false, 1, 0, 1)
				s.Add("decl", btf.KindFunc, btf.LinkageExtern, false, 2)
			},
			left: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
			},
		},
		{
			rule: "a FUNC want refuses (not a function of the ELF symbol table) is taken out, not recorded",
			want: func(name string) bool { return name == "kept" },
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindFuncProto, 0, false, 1)
				s.Add("gone", btf.KindFunc, btf.LinkageGlobal, false, 2)
				s.Add("kept", btf.KindFunc, btf.LinkageGlobal, false, 2)
			},
			left: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
			},
			recorded: []string{"func kept(1; ) []"},
		},
		{
			rule: "VARs and DATASECs taken out, each VAR recorded with its section, linkage and DECL_TAGs",
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)                      // 1
				s.Add("v", btf.KindVar, 0, false, 1, btf.LinkageGlobal)                // 2
				s.Add("w", btf.KindVar, 0, false, 1, btf.LinkageStatic)                // 3
				s.Add(".data..percpu", btf.KindDatasec, 2, false, 0, 2, 0, 0, 3, 0, 0) // 4: gcc 12's offsets and sizes 0
				s.Add("tagged", btf.KindDeclTag, 0, false, 3, 0xffffffff)              // 5
			},
			left: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
			},
			recorded: []string{"var v 1 1 .data..percpu []", "var w 1 0 .data..percpu [tagged -1]"},
		},
		{
			rule:     "a TYPE_TAG fixMember dropped (no type_tag) is looked through by the FUNC recorded",
			features: all &^ encode.FeatTypeTag,
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)              // 1
				s.Add("user", btf.KindTypeTag, 0, false, 1)                    // 2
				s.Add("", btf.KindPtr, 0, false, 2)                            // 3
				s.Add("", btf.KindFuncProto, 1, false, 3, s.AddString("p"), 3) // 4
				s.Add("f", btf.KindFunc, btf.LinkageGlobal, false, 4)          // 5
			},
			left: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindPtr, 0, false, 1)
			},
			recorded: []string{"func f(2; p 2) []"},
		},
		{
			rule: "a member with no FUNC, VAR or DATASEC is appended whole, nothing recorded",
			member: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindFuncProto, 0, false, 1)
			},
			left: func(s *btf.Spec) {
				s.Add("int", btf.KindInt, 0, false, 4, signed|32)
				s.Add("", btf.KindFuncProto, 0, false, 1)
			},
		},
	} {
		t.Run(c.rule, func(t *testing.T) {
			f := c.features
			if f == 0 {
				f = all
			}
			m := btf.NewSpec()
			c.member(m)
			fixed, dropped := fixMember(m, f, false)
			g := &groupBuilder{b: dedup.NewBuilder(0, 0, 0)}
			mb, err := extract(fixed, dropped, c.want, g)
			if err != nil {
				t.Fatal(err)
			}
			out, err := g.b.Spec()
			if err != nil {
				t.Fatal(err)
			}
			want := btf.NewSpec()
			c.left(want)
			if got, exp := strings.Join(spelled(out, nil), "\n"), strings.Join(spelled(want, nil), "\n"); got != exp {
				t.Errorf("types left:\n%s\nwant:\n%s", got, exp)
			}
			var rec []string
			tags := func(ts []memberTag) string {
				var w []string
				for _, tg := range ts {
					w = append(w, fmt.Sprintf("%s %d", tg.value, int32(tg.comp)))
				}
				return "[" + strings.Join(w, " ") + "]"
			}
			for _, fn := range mb.funcs {
				var ps []string
				for _, p := range fn.params {
					ps = append(ps, fmt.Sprintf("%s %d", p.name, p.typ))
				}
				rec = append(rec, fmt.Sprintf("func %s(%d; %s) %s", fn.name, fn.ret, strings.Join(ps, ", "), tags(fn.tags)))
			}
			for _, v := range mb.vars {
				rec = append(rec, fmt.Sprintf("var %s %d %d %s %s", v.name, v.typ, v.linkage, v.section, tags(v.tags)))
			}
			if strings.Join(rec, "\n") != strings.Join(c.recorded, "\n") {
				t.Errorf("recorded:\n%s\nwant:\n%s", strings.Join(rec, "\n"), strings.Join(c.recorded, "\n"))
			}
		})
	}
}

// TestEncodeArchiveRules: the rules through Encode, on an ELF file made
// by hand (internal/testsupport/testelf) whose .BTF is an archive of two members as
// gcc 12 writes them, with or without a .comment naming gcc: the result
// is compared (btf/diff, by names and shapes, not IDs) with the types
// the DWARF route writes for the same C, written by hand:
//
//	member 1: struct s { char c; int a[2][3]; }; struct t { struct gar *g; };
//	member 2: enum e; struct u { enum e v; };  (gcc 12: "enum e" is a struct FWD)
func TestEncodeArchiveRules(t *testing.T) {
	member1 := func() []byte {
		s := btf.NewSpec()
		s.Add("char", btf.KindInt, 0, false, 1, signed|char|8)                                    // 1
		s.Add("long unsigned int", btf.KindInt, 0, false, 8, 64)                                  // 2
		s.Add("int", btf.KindInt, 0, false, 4, signed|32)                                         // 3
		s.Add("", btf.KindArray, 0, false, 0, 5, 2, 3)                                            // 4: gcc 12: 3 of
		s.Add("", btf.KindArray, 0, false, 0, 3, 2, 2)                                            // 5: 2 of int
		s.Add("s", btf.KindStruct, 2, false, 28, s.AddString("c"), 1, 0, s.AddString("a"), 4, 32) // 6
		s.Add("gar", btf.KindFwd, 0, false, 0x1234)                                               // 7
		s.Add("", btf.KindPtr, 0, false, 7)                                                       // 8
		s.Add("t", btf.KindStruct, 1, false, 8, s.AddString("g"), 8, 0)                           // 9
		return s.Marshal(nil)
	}
	member2 := func() []byte {
		s := btf.NewSpec()
		s.Add("int", btf.KindInt, 0, false, 4, signed|32)               // 1
		s.Add("u", btf.KindStruct, 1, false, 4, s.AddString("v"), 3, 0) // 2
		s.Add("e", btf.KindFwd, 0, false, 0)                            // 3
		return s.Marshal(nil)
	}
	// want is the DWARF route's BTF; outer, inner: a's dimensions.
	want := func(outer, inner uint32) *btf.Spec {
		s := btf.NewSpec()
		s.Add("char", btf.KindInt, 0, false, 1, signed|8)                                         // 1
		s.Add("long unsigned int", btf.KindInt, 0, false, 8, 64)                                  // 2
		s.Add("int", btf.KindInt, 0, false, 4, signed|32)                                         // 3
		s.Add("", btf.KindArray, 0, false, 0, 5, 3, outer)                                        // 4
		s.Add("", btf.KindArray, 0, false, 0, 3, 3, inner)                                        // 5
		s.Add("s", btf.KindStruct, 2, false, 28, s.AddString("c"), 1, 0, s.AddString("a"), 4, 32) // 6
		s.Add("gar", btf.KindFwd, 0, false, 0)                                                    // 7
		s.Add("", btf.KindPtr, 0, false, 7)                                                       // 8
		s.Add("t", btf.KindStruct, 1, false, 8, s.AddString("g"), 8, 0)                           // 9
		s.Add("u", btf.KindStruct, 1, false, 4, s.AddString("v"), 11, 0)                          // 10
		s.Add("e", btf.KindEnum, 0, false, 4)                                                     // 11
		return s
	}
	for _, c := range []struct {
		rule         string
		comment      string // "" for no .comment
		outer, inner uint32
	}{
		{"gcc 12 in .comment: dimensions reversed, INT CHAR cleared, array index int, FWD used by value an enum", "GCC: (Debian 12.2.0-14+deb12u1) 12.2.0", 2, 3},
		{"gcc 14 in .comment: dimensions as written, the other rules all the same", "GCC: (Debian 14.2.0-19) 14.2.0", 3, 2},
		{"no .comment: dimensions as written", "", 3, 2},
	} {
		t.Run(c.rule, func(t *testing.T) {
			archive := append(member1(), member2()...)
			secs := []testelf.Section{{Header: elf.SectionHeader{Name: ".BTF", Type: elf.SHT_PROGBITS, Addralign: 4}, Data: archive}}
			if c.comment != "" {
				secs = append(secs, testelf.Section{
					Header: elf.SectionHeader{Name: ".comment", Type: elf.SHT_PROGBITS, Flags: elf.SHF_MERGE | elf.SHF_STRINGS, Addralign: 1, Entsize: 1},
					Data:   append([]byte(c.comment), 0),
				})
			}
			f, err := elfx.NewFile(testelf.Build(elf.ET_REL, elf.EM_X86_64, secs))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Encode(f, Options{Features: encode.DefaultFeatures, Jobs: 1})
			if err != nil {
				t.Fatal(err)
			}
			if r := diff.Compare(got, want(c.outer, c.inner), diff.Options{}); !r.Equal() {
				t.Errorf("differs from the DWARF route's types:\n%s", strings.Join(r.Diffs, "\n"))
			}
			if err := got.Check(); err != nil {
				t.Errorf("the kernel would refuse it: %v", err)
			}
		})
	}
}
