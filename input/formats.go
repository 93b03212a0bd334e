package input

import (
	"fmt"
	"strings"
)

// Format is a debug format an input can be read in: the names of -F
// (layout, pretty, pfunct, pahole's -F/--format_path).
type Format uint8

const (
	// DWARF is an ELF file's debug information, converted to BTF types.
	DWARF Format = iota + 1
	// BTF is raw BTF, an ELF file's .BTF, a BTF archive or /sys/kernel/btf.
	BTF
	// CTF is pahole's name for Solaris' Compact Type Format. btfkit reads
	// no CTF: only the lists of pahole's command lines (PaholeFormats)
	// hold it, and no file is found to have it.
	CTF
	// Unknown is a name pahole has no loader for: pahole's loader stops
	// at it (PaholeFormats only).
	Unknown
)

func (f Format) String() string {
	switch f {
	case DWARF:
		return "dwarf"
	case BTF:
		return "btf"
	case CTF:
		return "ctf"
	}
	return "unknown"
}

// Formats is an -F list: the formats to try on each input, in order; the
// first one the input has is read.
type Formats []Format

// DefaultFormats is the order pahole and btfkit try without -F: DWARF,
// then BTF.
var DefaultFormats = Formats{DWARF, BTF}

// Has reports whether f is in the list.
func (fs Formats) Has(f Format) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

// String is the list as -F spells it ("dwarf,btf").
func (fs Formats) String() string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.String()
	}
	return strings.Join(names, ",")
}

// FormatError is an -F list btfkit's own commands refuse: a format btfkit
// has no reader for (ctf) or a name that is no format.
type FormatError struct {
	List string // -F as given
	Name string // the format refused
}

func (e *FormatError) Error() string {
	if e.Name == "ctf" {
		return fmt.Sprintf("-F %s: ctf is not supported (btfkit reads dwarf and btf)", e.List)
	}
	return fmt.Sprintf("-F %s: unknown debug format '%s' (dwarf or btf)", e.List, e.Name)
}

// ParseFormats parses an -F list for btfkit's own commands: format names
// separated by commas, tried in the order given; empty names are skipped,
// as pahole's strtok skips them, and an empty list is DefaultFormats.
// "ctf" and any name but "dwarf" and "btf" give a *FormatError.
func ParseFormats(list string) (Formats, error) {
	fs := PaholeFormats(list)
	for i, f := range fs {
		if f == CTF || f == Unknown {
			return nil, &FormatError{List: list, Name: formatNames(list)[i]}
		}
	}
	return fs, nil
}

// PaholeFormats parses an -F list as pahole 1.32 (and pfunct) read it,
// for the commands under their names: every name is kept, in order; "ctf"
// is a format no file has (the loader tries the next one), any other name
// but "dwarf" and "btf" is Unknown (the loader gives up there). Empty
// names are skipped; an empty list is DefaultFormats.
func PaholeFormats(list string) Formats {
	names := formatNames(list)
	if len(names) == 0 {
		return DefaultFormats
	}
	fs := make(Formats, len(names))
	for i, n := range names {
		fs[i] = formatNamed(n)
	}
	return fs
}

// formatNamed is the format of an -F name; Unknown for a name pahole
// has no loader for.
func formatNamed(name string) Format {
	for f := DWARF; f < Unknown; f++ {
		if f.String() == name {
			return f
		}
	}
	return Unknown
}

// UnknownFormat returns the first name of an -F list that is no format
// pahole knows (neither dwarf, btf nor ctf), "" when there is none.
func UnknownFormat(list string) string {
	for _, n := range formatNames(list) {
		if formatNamed(n) == Unknown {
			return n
		}
	}
	return ""
}

// formatNames splits an -F list at commas, leaving out empty names (and
// the spaces around names).
func formatNames(list string) []string {
	var names []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}
