package encode

import (
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
)

// convert runs the per-unit conversion over a synthetic entry list (the
// root entry is added) and returns the fragment as a Spec.
func convert(t *testing.T, feat Features, big bool, lang uint16, dies []die) *btf.Spec {
	t.Helper()
	c := newUnitConv(Options{Features: feat, LangExclude: []uint16{0x1c}}, big)
	c.add(&die{off: 0, depth: 0, tag: dwarf.TagCompileUnit, children: true, language: lang})
	for i := range dies {
		d := dies[i]
		c.add(&d)
	}
	return c.emit().spec()
}

// dump renders a Spec compactly for comparisons in tests.
func dump(s *btf.Spec) string {
	var b strings.Builder
	c := newCanon(s)
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		b.WriteString(c.sig(id))
		b.WriteByte('\n')
	}
	return b.String()
}

func TestGNUAnnotations(t *testing.T) {
	// gcc 14+ style: a pointer's DW_AT_GNU_annotation starts a chain of
	// DW_TAG_GNU_annotation entries; members carry decl tags the same way.
	dies := []die{
		{off: 10, depth: 1, tag: dwarf.TagBaseType, has: hasName | hasByteSize | hasEncoding, name: "int", byteSize: 4, encoding: dwarf.EncSigned},
		{off: 20, depth: 1, tag: dwarf.TagGNUAnnotation, has: hasName | hasConstString | hasGNUAnnotation, name: "btf_type_tag", constString: "first", annotation: 30},
		{off: 30, depth: 1, tag: dwarf.TagGNUAnnotation, has: hasName | hasConstString | hasGNUAnnotation, name: "btf_type_tag", constString: "second", annotation: 40},
		{off: 40, depth: 1, tag: dwarf.TagGNUAnnotation, has: hasName | hasConstString, name: "btf_decl_tag", constString: "stop"},
		{off: 50, depth: 1, tag: dwarf.TagPointerType, has: hasType | hasGNUAnnotation | hasByteSize, typ: 10, annotation: 20, byteSize: 8},
		{off: 60, depth: 1, tag: dwarf.TagStructureType, children: true, has: hasName | hasByteSize, name: "s", byteSize: 8},
		{off: 61, depth: 2, tag: dwarf.TagMember, has: hasName | hasType | hasMemberLoc | hasGNUAnnotation, name: "p", typ: 50, annotation: 40},
	}
	got := dump(convert(t, DefaultFeatures, false, 0x1d, dies))
	want := `INT "int" size=4 enc=1 off=0 bits=32
PTR "" -> (TYPE_TAG "first" -> (TYPE_TAG "second" -> (int int)))
TYPE_TAG "first" -> (TYPE_TAG "second" -> (int int))
TYPE_TAG "second" -> (int int)
STRUCT "s" size=8 kflag=false { "p" (PTR "" -> (TYPE_TAG "first" -> (TYPE_TAG "second" -> (int int)))) @0x0; }
DECL_TAG "stop" on (struct s) comp=0
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Without the features, neither kind of tag appears.
	got = dump(convert(t, DefaultFeatures&^(FeatTypeTag|FeatDeclTag), false, 0x1d, dies))
	if strings.Contains(got, "TAG") {
		t.Errorf("tags encoded with the features off:\n%s", got)
	}
}

func TestBitfieldsDWARF4(t *testing.T) {
	// DW_AT_bit_offset counts from the storage unit's most significant
	// bit. For a 4-byte unit at byte 4, a 3-bit field at bit_offset 29 is
	// at bits 32..34 on little-endian targets, 61..63 on big-endian ones.
	dies := []die{
		{off: 10, depth: 1, tag: dwarf.TagBaseType, has: hasName | hasByteSize | hasEncoding, name: "unsigned int", byteSize: 4, encoding: dwarf.EncUnsigned},
		{off: 15, depth: 1, tag: dwarf.TagTypedef, has: hasName | hasType, name: "u32", typ: 10},
		{off: 20, depth: 1, tag: dwarf.TagStructureType, children: true, has: hasName | hasByteSize, name: "b", byteSize: 8},
		{off: 21, depth: 2, tag: dwarf.TagMember, has: hasName | hasType | hasMemberLoc | hasBitSize | hasBitOffset, name: "x", typ: 15, memberLoc: 4, bitSize: 3, bitOffset: 29},
		{off: 22, depth: 2, tag: dwarf.TagMember, has: hasName | hasType | hasMemberLoc, name: "static_like", typ: 10}, // no location in a struct: static, skipped
		{off: 23, depth: 2, tag: dwarf.TagMember, has: hasName | hasType | hasDataBitOffset | hasBitSize, name: "y", typ: 10, dataBitOff: 7, bitSize: 1},
	}
	dies[4].has &^= hasMemberLoc
	le := dump(convert(t, DefaultFeatures, false, 0x1d, dies))
	if !strings.Contains(le, `"x" (typedef u32) @0x3000020;`) || !strings.Contains(le, `"y" (int unsigned int) @0x1000007;`) || strings.Contains(le, "static_like") {
		t.Errorf("little-endian:\n%s", le)
	}
	be := dump(convert(t, DefaultFeatures, true, 0x1d, dies))
	if !strings.Contains(be, `"x" (typedef u32) @0x300003d;`) {
		t.Errorf("big-endian:\n%s", be)
	}
}

func TestOddTypes(t *testing.T) {
	dies := []die{
		{off: 10, depth: 1, tag: dwarf.TagBaseType, has: hasName | hasByteSize | hasEncoding, name: "_BitInt", byteSize: 3, encoding: dwarf.EncSigned},
		{off: 20, depth: 1, tag: dwarf.TagUnspecifiedType, has: hasName, name: "decltype(nullptr)"},
		{off: 30, depth: 1, tag: dwarf.TagPointerType, has: hasType, typ: 20},
		{off: 40, depth: 1, tag: dwarf.TagBaseType, has: hasName | hasByteSize | hasEncoding, name: "int", byteSize: 4, encoding: dwarf.EncSigned},
		{off: 50, depth: 1, tag: dwarf.TagAtomicType, has: hasType, typ: 40},
		{off: 60, depth: 1, tag: dwarf.TagConstType, has: hasType, typ: 50},
		{off: 70, depth: 1, tag: dwarf.TagBaseType, has: hasName | hasByteSize | hasEncoding, name: "complex float", byteSize: 8, encoding: dwarf.EncComplexFloat},
		{off: 80, depth: 1, tag: dwarf.TagEnumerationType, children: true, has: hasName | hasByteSize | hasType, name: "e", byteSize: 8, typ: 40},
		{off: 81, depth: 2, tag: dwarf.TagEnumerator, has: hasName | hasConstValue, name: "M", constValue: ^uint64(0)},
		{off: 82, depth: 2, tag: dwarf.TagEnumerator, has: hasName | hasConstValue, name: "B", constValue: 1 << 40},
		{off: 90, depth: 1, tag: dwarf.TagArrayType, children: true, has: hasType, typ: 40},
		{off: 91, depth: 2, tag: dwarf.TagSubrangeType, has: hasUpperBoundVar},
	}
	got := dump(convert(t, DefaultFeatures, false, 0x1d, dies))
	for _, w := range []string{
		`INT "__SANITIZED_FAKE_INT__" size=4 enc=1 off=0 bits=32`,
		`PTR "" -> (void)`,
		`CONST "" -> (int int)`,
		`INT "complex float" size=8 enc=0 off=0 bits=64`,
		`ENUM64 "e" size=8 kflag=true { "M"=18446744073709551615 "B"=1099511627776 }`,
		`ARRAY "" [0] of (int int) idx (int int)`,
	} {
		if !strings.Contains(got, w+"\n") {
			t.Errorf("missing %s in\n%s", w, got)
		}
	}
	// Without enum64 an 8-byte enum is an 8-byte ENUM with the values cut
	// to 32 bits and no sign, as pahole writes it.
	got = dump(convert(t, DefaultFeatures&^FeatEnum64, false, 0x1d, dies))
	if !strings.Contains(got, `ENUM "e" size=8 kflag=false { "M"=4294967295 "B"=0 }`) {
		t.Errorf("enum64 off:\n%s", got)
	}
	// A unit in an excluded language gives nothing.
	if s := convert(t, DefaultFeatures, false, 0x1c, dies); s.NumTypes() != 0 {
		t.Errorf("excluded unit gave %d types", s.NumTypes())
	}
}

func TestParseFeatures(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    Features
		unknown string
	}{
		{"default", DefaultFeatures, ""},
		{"float", FeatFloat, ""},
		{"float,enum64", FeatFloat | FeatEnum64, ""},
		{"+global_var", DefaultFeatures | FeatGlobalVar, ""},
		{"default,reproducible_build,bogus", DefaultFeatures | FeatReproducibleBuild, "bogus"},
		{"all", AllListed, ""},
	} {
		got, unk, err := ParseFeatures(c.in)
		if err != nil || got != c.want || strings.Join(unk, ",") != c.unknown {
			t.Errorf("ParseFeatures(%q) = %v, %v, %v; want %v, %q", c.in, got, unk, err, c.want, c.unknown)
		}
	}
	if DefaultFeatures.String() != "encode_force,var,float,decl_tag,type_tag,enum64,optimized_func,consistent_func,decl_tag_kfuncs" {
		t.Errorf("default set: %s", DefaultFeatures)
	}
	// pahole's strtok skips empty names.
	if f, _, err := ParseFeatures("float,,var,"); err != nil || f != FeatFloat|FeatVar {
		t.Errorf(`ParseFeatures("float,,var,") = %v, %v; want float,var`, f, err)
	}
	if l, err := ParseLanguages("rust,C++,asm"); err != nil || len(l) != 3 || l[0] != 0x1c || l[1] != 0x04 || l[2] != 0x8001 {
		t.Errorf("ParseLanguages: %v %v", l, err)
	}
}
