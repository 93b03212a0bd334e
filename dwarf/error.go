package dwarf

import "fmt"

// DecodeError reports malformed or unsupported DWARF: which section, at
// which offset within it, and what was wrong.
type DecodeError struct {
	Section string // ".debug_info", ".debug_abbrev", ...
	Offset  uint64 // offset within Section
	Msg     string
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s+0x%x: %s", e.Section, e.Offset, e.Msg)
}

func errorf(section string, off uint64, format string, args ...any) *DecodeError {
	return &DecodeError{Section: section, Offset: off, Msg: fmt.Sprintf(format, args...)}
}
