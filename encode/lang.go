package encode

import (
	"fmt"
	"strings"
)

// languages maps pahole's language names (--lang, --lang_exclude) to
// DW_LANG codes.
var languages = map[string]uint16{
	"ada83": 0x0003, "ada95": 0x000d, "bliss": 0x0025, "c11": 0x001d,
	"c89": 0x0001, "c99": 0x000c, "c": 0x0002, "cobol74": 0x0005,
	"cobol85": 0x0006, "c++03": 0x0019, "c++11": 0x001a, "c++14": 0x0021,
	"c++": 0x0004, "d": 0x0013, "dylan": 0x0020, "fortran03": 0x0022,
	"fortran08": 0x0023, "fortran77": 0x0007, "fortran90": 0x0008,
	"fortran95": 0x000e, "go": 0x0016, "haskell": 0x0018, "java": 0x000b,
	"julia": 0x001f, "modula2": 0x000a, "modula3": 0x0017, "objc": 0x0010,
	"objc++": 0x0011, "ocaml": 0x001b, "opencl": 0x0015, "pascal83": 0x0009,
	"pli": 0x000f, "python": 0x0014, "renderscript": 0x0024, "rust": 0x001c,
	"swift": 0x001e, "upc": 0x0012, "asm": 0x8001,
}

// ParseLanguages turns a comma-separated list of pahole language names
// ("rust", "c++", "asm", ...; case-insensitive) into DW_LANG codes.
func ParseLanguages(list string) ([]uint16, error) {
	var out []uint16
	for _, n := range strings.Split(list, ",") {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" {
			continue
		}
		code, ok := languages[n]
		if !ok {
			return nil, fmt.Errorf("unknown language %q", n)
		}
		out = append(out, code)
	}
	return out, nil
}
