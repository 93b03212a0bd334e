package pfunct

// ar archives (a static library, pahole's tests' "multi-CU archives"):
// pahole's loader reads each member object, in order, as libdwfl reports
// them. Here the members are written to a temporary directory and loaded
// as files.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

const arMagic = "!<arch>\n"

// isArchive reports whether the file at path is an ar archive.
func isArchive(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [len(arMagic)]byte
	n, _ := f.Read(b[:])
	return n == len(b) && string(b[:]) == arMagic
}

// extractArchive writes the members of the ar archive at path into dir,
// numbered so that their order is kept, and returns their paths in
// order. The symbol table ("/") and the long name table ("//") are not
// members.
func extractArchive(path, dir string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte(arMagic)) {
		return nil, errors.New("not an ar archive")
	}
	var longNames []byte
	var out []string
	for off := len(arMagic); off+60 <= len(data); {
		hdr := data[off : off+60]
		name := strings.TrimRight(string(hdr[0:16]), " ")
		size, err := strconv.ParseInt(strings.TrimSpace(string(hdr[48:58])), 10, 64)
		if err != nil || size < 0 || off+60+int(size) > len(data) {
			return nil, fmt.Errorf("%s: malformed ar member header at %d", path, off)
		}
		body := data[off+60 : off+60+int(size)]
		off += 60 + int(size)
		if off%2 == 1 {
			off++
		}
		switch {
		case name == "/" || name == "/SYM64/":
			continue
		case name == "//":
			longNames = body
			continue
		case strings.HasPrefix(name, "/"):
			if i, err := strconv.Atoi(name[1:]); err == nil && i < len(longNames) {
				n := longNames[i:]
				if j := bytes.IndexByte(n, '\n'); j >= 0 {
					n = n[:j]
				}
				name = string(n)
			}
		}
		name = filepath.Base(strings.TrimSuffix(name, "/"))
		p := filepath.Join(dir, fmt.Sprintf("%04d-%s", len(out), name))
		if err := os.WriteFile(p, body, 0o644); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}
