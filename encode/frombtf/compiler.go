package frombtf

import (
	"bytes"

	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
)

// memberRules are what the per-member rules (fixMember) depend on besides
// the member: the features, and what the file says of the compiler.
type memberRules struct {
	features encode.Features
	// reverseDims: the compiler wrote multi-dimensional arrays with
	// their dimensions in reverse order (gccReversesDims).
	reverseDims bool
}

// gccReversesDims reports whether the BTF of the objects linked into f
// was written by a gcc that puts a multi-dimensional array's dimensions
// in reverse order: `int a[2][3]` as an ARRAY of 3 of an ARRAY of 2 of
// int. gcc before 14 does (GCC PR debug/114186, fixed in gcc 14; libctf's
// dumper hid it by printing array declarators backwards); the BTF itself
// cannot tell. The objects' compilers are named in the .comment section
// the linker merges ("GCC: (Debian 12.2.0-14) 12.2.0"): true when it
// names gcc and only releases before 14. A file without .comment, or
// that names gcc 14 or later, is taken as it is.
func gccReversesDims(f *elfx.File) bool {
	if f.Section(".comment") == nil {
		return false
	}
	data, err := f.SectionData(".comment")
	if err != nil {
		return false
	}
	old := false
	for _, s := range bytes.Split(data, []byte{0}) {
		major, ok := gccMajor(s)
		if !ok {
			continue
		}
		if major >= 14 {
			return false
		}
		old = true
	}
	return old
}

// gccMajor is the major release of a .comment string of gcc's ("GCC:
// (Debian 12.2.0-14) 12.2.0", "GCC: (GNU) 14.2.1 20240912 (Red Hat
// 14.2.1-3)"): the number after the parenthesized vendor part.
func gccMajor(s []byte) (int, bool) {
	rest, ok := bytes.CutPrefix(s, []byte("GCC: "))
	if !ok {
		return 0, false
	}
	if len(rest) > 0 && rest[0] == '(' {
		depth := 0
		i := 0
		for ; i < len(rest); i++ {
			switch rest[i] {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if i == len(rest) {
			return 0, false
		}
		rest = bytes.TrimLeft(rest[i+1:], " ")
	}
	n, digits := 0, 0
	for _, c := range rest {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
		if digits++; digits > 4 {
			return 0, false
		}
	}
	return n, digits > 0
}
