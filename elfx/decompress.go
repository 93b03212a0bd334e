package elfx

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"
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
	{"zstd", "\x28\xb5\x2f\xfd", func(r io.Reader) (io.Reader, error) {
		return zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
	}},
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

// Bounds on what a compressed file may make Open hold in memory, however
// its headers lie: the decompressed file stops at minMaxDecompressed or
// maxFileRatio times the compressed size, whichever is larger (kernel
// modules compress 3-6:1; deflate cannot exceed 1032:1), and so does an
// xz dictionary, which the decoder allocates whole as the header says
// (xz -9 asks for 64 MiB). A stream that does not start as an ELF file
// stops after four bytes.
const (
	minMaxDecompressed = 64 << 20
	maxFileRatio       = 1032
)

// decompress returns the decompressed contents of the file fd.
func (c *compression) decompress(fd *os.File) ([]byte, error) {
	st, err := fd.Stat()
	if err != nil {
		return nil, err
	}
	limit := max(minMaxDecompressed, st.Size()*maxFileRatio)
	if c.name == "xz" {
		if err := checkXZDict(fd, limit); err != nil {
			return nil, err
		}
	}
	hint := 0
	if st.Size() > 0 && st.Size() < 1<<30 {
		hint = int(st.Size()) * 4 // kernel modules compress about 3-5:1
	}
	in := &countingReader{r: bufio.NewReaderSize(fd, 1<<16)}
	r, err := c.open(in)
	if err != nil {
		return nil, in.at(err)
	}
	if closer, ok := r.(interface{ Close() }); ok {
		defer closer.Close()
	}
	// What is not ELF is known from its first bytes: stop there.
	br := bufio.NewReader(r)
	if head, err := br.Peek(4); err != nil && err != io.EOF {
		return nil, in.at(err)
	} else if !isELF(head) {
		return nil, notELF(len(head))
	}
	buf := bytes.NewBuffer(make([]byte, 0, hint))
	n, err := buf.ReadFrom(io.LimitReader(br, limit+1))
	if err != nil {
		return nil, in.at(err)
	}
	if n > limit {
		return nil, fmt.Errorf("decompresses to more than %d bytes (%d times its %d bytes): not a kernel module or ELF file btfkit reads", limit, limit/max(1, st.Size()), st.Size())
	}
	return buf.Bytes(), nil
}

// checkXZDict reads the header of the first block of the xz file fd and
// of the blocks after it as far as their headers give their compressed
// sizes (xz -T writes them), and refuses an LZMA2 dictionary larger than
// limit bytes, which the decoder would allocate before reading any data.
func checkXZDict(fd *os.File, limit int64) error {
	var hdr [1024]byte
	off := int64(12) // the stream header
	for block := 0; block < 1<<16; block++ {
		n, _ := fd.ReadAt(hdr[:], off)
		if n < 1 || hdr[0] == 0 {
			return nil // the index: no more blocks (or too short: the decoder says so)
		}
		size := (int(hdr[0]) + 1) * 4
		if n < size {
			return nil
		}
		b := hdr[1:size]
		flags := b[0]
		b = b[1:]
		var compressed uint64
		var ok bool
		if flags&0x40 != 0 {
			if compressed, b, ok = uvarint(b); !ok {
				return nil
			}
		}
		if flags&0x80 != 0 {
			if _, b, ok = uvarint(b); !ok {
				return nil
			}
		}
		for f := 0; f <= int(flags&3); f++ {
			var id, nprops uint64
			if id, b, ok = uvarint(b); !ok {
				return nil
			}
			if nprops, b, ok = uvarint(b); !ok || nprops > uint64(len(b)) {
				return nil
			}
			if id == 0x21 && nprops == 1 { // LZMA2
				if d := xzDictSize(b[0]); d > limit {
					return fmt.Errorf("xz block at offset 0x%x: an LZMA2 dictionary of %d bytes, more than the %d btfkit allows for a file of this size", off, d, limit)
				}
			}
			b = b[nprops:]
		}
		if flags&0x40 == 0 {
			return nil
		}
		// The next block: after the data, padded to 4 bytes, and the
		// check (its size from the stream flags).
		var sf [2]byte
		if _, err := fd.ReadAt(sf[:], 6); err != nil {
			return nil
		}
		check := [16]int64{0, 4, 4, 4, 8, 8, 8, 16, 16, 16, 32, 32, 32, 64, 64, 64}[sf[1]&0xf]
		if compressed > 1<<62 {
			return nil
		}
		off += int64(size) + (int64(compressed)+3)&^3 + check
	}
	return nil
}

// uvarint is xz's multibyte integer (little-endian base 128, at most nine
// bytes), with what follows it.
func uvarint(b []byte) (uint64, []byte, bool) {
	v, n := binary.Uvarint(b)
	if n <= 0 || n > 9 {
		return 0, nil, false
	}
	return v, b[n:], true
}

// xzDictSize is the dictionary size an LZMA2 property byte declares.
func xzDictSize(p byte) int64 {
	if p >= 40 {
		return 1<<32 - 1
	}
	return int64(2|p&1) << (p/2 + 11)
}

// countingReader counts the compressed bytes a decoder has taken, so
// that its errors can say how far into the file they came.
type countingReader struct {
	r *bufio.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ReadByte makes the reader an io.ByteReader, so that gzip and flate
// take bytes one at a time instead of buffering ahead of the count.
func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// at says where in the compressed file a decoder's error came.
func (c *countingReader) at(err error) error {
	return fmt.Errorf("at or before offset 0x%x of the compressed file: %w", c.n, err)
}
