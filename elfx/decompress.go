package elfx

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"

	"github.com/ulikunitz/xz"
)

// compression is a whole-file compression Open undoes: the formats kernel
// modules are installed in (CONFIG_MODULE_COMPRESS_XZ, _ZSTD, _GZIP).
type compression struct {
	name  string
	magic string
	open  func(r io.Reader) (io.Reader, error)
}

var compressions = []compression{
	{"xz", "\xfd7zXZ\x00", func(r io.Reader) (io.Reader, error) { return xz.NewReader(r) }},
	{"gzip", "\x1f\x8b", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
	{"zstd", "\x28\xb5\x2f\xfd", nil}, // DecodeAll with the shared decoder
}

// compressionOf returns the compression whose magic head starts with, or nil.
func compressionOf(head []byte) *compression {
	for i := range compressions {
		if bytes.HasPrefix(head, []byte(compressions[i].magic)) {
			return &compressions[i]
		}
	}
	return nil
}

// decompress returns the decompressed contents of the file fd.
func (c *compression) decompress(fd *os.File) ([]byte, error) {
	hint := 0
	if st, err := fd.Stat(); err == nil && st.Size() > 0 && st.Size() < 1<<30 {
		hint = int(st.Size()) * 4 // kernel modules compress about 3-5:1
	}
	if c.open == nil {
		in, err := io.ReadAll(fd)
		if err != nil {
			return nil, err
		}
		dec, err := zstdDecoder()
		if err != nil {
			return nil, err
		}
		return dec.DecodeAll(in, make([]byte, 0, hint))
	}
	r, err := c.open(bufio.NewReaderSize(fd, 1<<16))
	if err != nil {
		return nil, err
	}
	buf := bytes.NewBuffer(make([]byte, 0, hint))
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
