package pretty

import (
	"bufio"
	"errors"
	"io"
)

// input is the data being decoded, read forward once, with the offset of
// the next byte. Nothing is kept behind the offset: memory does not grow
// with the input.
type input struct {
	r   *bufio.Reader
	off int64
}

// inputBufSize is the read-ahead: large enough that reading a record is a
// copy from memory, small enough not to matter.
const inputBufSize = 256 << 10

func newInput(r io.Reader) *input { return &input{r: bufio.NewReaderSize(r, inputBufSize)} }

// read fills p, like io.ReadFull: n < len(p) with io.EOF when the input
// ended before the first byte, io.ErrUnexpectedEOF after it.
func (in *input) read(p []byte) (int, error) {
	n, err := io.ReadFull(in.r, p)
	in.off += int64(n)
	return n, err
}

// skip discards n bytes; it reports false when the input ends first.
func (in *input) skip(n int64) (bool, error) {
	for n > 0 {
		chunk := n
		if chunk > 1<<30 {
			chunk = 1 << 30
		}
		d, err := in.r.Discard(int(chunk))
		in.off += int64(d)
		n -= int64(d)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return false, nil
			}
			return false, err
		}
	}
	return true, nil
}
