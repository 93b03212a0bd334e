package cdump

import (
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// Layout fixes (Options.FixLayout): where bpftool 7.1's header gives a type
// another size or layout than the BTF describes, or does not compile, these
// print what the BTF means instead. Each is one small rule called from the
// emitter; with FixLayout off none of them runs and the output is
// bpftool's, bugs included.

// fixEnumMode returns the attribute that gives an enum the size the BTF
// says when C's default (4 bytes) differs: mode(byte) for 1-byte enums,
// mode(HI) for 2-byte ones, mode(word) for 8-byte enums whose values all
// fit in 32 bits (later libbpf prints the same for 1 and 8 bytes).
func (d *dumper) fixEnumMode(t btf.Type, allLow bool) string {
	switch {
	case t.Size() == 1:
		return " __attribute__((mode(byte)))"
	case t.Size() == 2:
		return " __attribute__((mode(HI)))"
	case t.Size() == 8 && d.ptrSz == 8 && (t.Kind() == btf.KindEnum || allLow):
		return " __attribute__((mode(word)))"
	}
	return ""
}

// fixBaseName spells compilers' names for complex base types ("complex
// double", clang's bare "complex") as C does ("_Complex double").
func fixBaseName(t btf.Type) string {
	name := t.Name()
	rest, ok := strings.CutPrefix(name, "complex")
	if !ok || (rest != "" && rest[0] != ' ') {
		return name
	}
	if rest == "" {
		switch t.Size() {
		case 8:
			rest = " float"
		case 32:
			rest = " long double"
		default:
			rest = " double"
		}
	}
	return "_Complex" + rest
}

// fixUnionAlign returns an aligned attribute for a union whose size is more
// than its largest member rounded up to the members' alignment: the mark
// of an over-aligned member (aligned(N) on a member), which BTF keeps only
// as the union's size.
func (d *dumper) fixUnionAlign(id btf.TypeID, t btf.Type) string {
	align := d.alignOf(id)
	if align <= 0 {
		return ""
	}
	largest := int64(0)
	ext := t.Extra()
	for i := 0; i+2 < len(ext); i += 3 {
		largest = max(largest, d.resolveSize(btf.TypeID(ext[i+1])))
	}
	size := int64(t.Size())
	round := func(a int64) int64 { return (largest + a - 1) / a * a }
	if round(int64(align)) == size {
		return ""
	}
	for a := int64(align) * 2; a <= size && a <= 1<<12; a *= 2 {
		if round(a) == size {
			return " __attribute__((aligned(" + itoa(a) + ")))"
		}
	}
	return ""
}

func itoa(v int64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			return string(b[i:])
		}
	}
}

// fixSignedSmall reports whether an enumerator of an enum of size bytes
// (not marked signed) must be printed signed to fit: gcc marks no enum
// signed, so "-100" in a 1-byte enum arrives as 0xffffff9c.
func fixSignedSmall(size uint32, v uint32) bool {
	return size < 4 && uint64(v) >= 1<<(8*size)
}
