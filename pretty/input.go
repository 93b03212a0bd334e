package pretty

import (
	"bufio"
	"errors"
	"io"
)

// input is the data being decoded, read forward, with the offset of the
// next byte. Nothing is kept behind the offset: memory does not grow with
// the input. Data that can seek (a regular file, standard input from
// one) can also be repositioned backwards, as pahole 1.32 does with
// fseek; a pipe cannot.
type input struct {
	r      *bufio.Reader
	src    io.Reader
	seeker io.Seeker // nil when src cannot seek
	start  int64     // src's position when decoding began: offset 0
	off    int64
}

// inputBufSize is the read-ahead: large enough that reading a record is a
// copy from memory, small enough not to matter.
const inputBufSize = 256 << 10

func newInput(r io.Reader) *input {
	in := &input{r: bufio.NewReaderSize(r, inputBufSize), src: r}
	if s, ok := r.(io.Seeker); ok {
		if pos, err := s.Seek(0, io.SeekCurrent); err == nil {
			in.seeker, in.start = s, pos
		}
	}
	return in
}

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

// canSeek reports whether the input can be repositioned (seekTo).
func (in *input) canSeek() bool { return in.seeker != nil }

// seekTo repositions a seekable input at offset off (0 or more).
func (in *input) seekTo(off int64) error {
	if _, err := in.seeker.Seek(in.start+off, io.SeekStart); err != nil {
		return err
	}
	in.r.Reset(in.src)
	in.off = off
	return nil
}
