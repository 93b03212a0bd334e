package encode

import (
	"testing"

	"github.com/btfkit/btfkit/dwarf"
)

// TestFastAttrsSkipOnlyNoOps: walkUnitFast does not call fastField for
// the attributes below 0x100 that fastAttrs leaves out; for each of them,
// in every class, fastField must leave the entry as it was. And each
// attribute fastAttrs lists changes the entry in some class, so the list
// holds nothing fastField has stopped reading.
func TestFastAttrsSkipOnlyNoOps(t *testing.T) {
	for a := dwarf.Attr(0); a < dwarf.Attr(len(fastAttrs)); a++ {
		changed := false
		for c := dwarf.ClassUnknown; c <= dwarf.ClassRngList+1; c++ {
			if a == dwarf.AttrName || (a == dwarf.AttrConstValue && (c == dwarf.ClassString || c == dwarf.ClassStringAlt)) {
				changed = true // a string: read from the sections, which there are none of here
				continue
			}
			var d die
			f := dwarf.Field{Attr: a, Class: c, Form: dwarf.FormData1, Val: 1}
			if err := fastField(nil, &d, &f); err != nil {
				t.Fatalf("%v class %d: %v", a, c, err)
			}
			if d != (die{}) {
				changed = true
				if !fastAttrs[a] {
					t.Errorf("%v (class %d) is skipped by fastAttrs, but fastField reads it", a, c)
				}
			}
		}
		if fastAttrs[a] && !changed {
			t.Errorf("%v is in fastAttrs, but fastField reads it in no class", a)
		}
	}
}

// TestTagClasses: isTypeTag and wanted, which look tags up in tagClass,
// answer as the switches they replaced, for every tag and
// every parent a unit can give.
func TestTagClasses(t *testing.T) {
	typeTag := func(tag dwarf.Tag) bool {
		switch tag {
		case dwarf.TagBaseType, dwarf.TagPointerType, dwarf.TagConstType, dwarf.TagVolatileType, dwarf.TagRestrictType,
			dwarf.TagAtomicType, dwarf.TagTypedef, dwarf.TagStructureType, dwarf.TagClassType, dwarf.TagUnionType,
			dwarf.TagEnumerationType, dwarf.TagArrayType, dwarf.TagSubroutineType, dwarf.TagUnspecifiedType,
			dwarf.TagReferenceType, dwarf.TagRvalueReferenceType, dwarf.TagPtrToMemberType, dwarf.TagGNUAnnotation:
			return true
		}
		return false
	}
	want := func(tag, parent dwarf.Tag) bool {
		if typeTag(tag) {
			return true
		}
		switch tag {
		case dwarf.TagMember, dwarf.TagEnumerator, dwarf.TagSubrangeType, dwarf.TagUnspecifiedParameters, dwarf.TagLLVMAnnotation:
			return true
		case dwarf.TagFormalParameter:
			return parent == dwarf.TagSubroutineType
		}
		return false
	}
	parents := []dwarf.Tag{0, dwarf.TagCompileUnit, dwarf.TagSubroutineType, dwarf.TagSubprogram, dwarf.TagStructureType, dwarf.TagLexicalBlock}
	for i := 0; i <= 0xffff; i++ {
		tag := dwarf.Tag(i)
		if got := isTypeTag(tag); got != typeTag(tag) {
			t.Errorf("isTypeTag(%v) = %v", tag, got)
		}
		for _, p := range parents {
			if got := wanted(tag, p); got != want(tag, p) {
				t.Errorf("wanted(%v, %v) = %v", tag, p, got)
			}
		}
	}
}
