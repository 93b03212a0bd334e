package pretty

import "fmt"

// DataError is bad input data: a record that cannot be read as its type
// says. Offset is where the record (or the header) starts in the input.
type DataError struct {
	Offset int64
	Msg    string
}

func (e *DataError) Error() string { return fmt.Sprintf("offset %#x: %s", e.Offset, e.Msg) }

func dataErr(off int64, format string, args ...any) error {
	return &DataError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}
