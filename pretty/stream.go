package pretty

// Reading the records: the header once, then for each class where its
// records start (range, seek) and how far they go (range, size), then one
// record at a time in a buffer kept from record to record.

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// Decode reads records from r and hands each to emit, in input order,
// until every class is done or the input ends. Errors from emit stop it
// and are returned as they are; bad data is a *DataError.
func (d *Decoder) Decode(r io.Reader, emit func(*Record) error) error {
	in := newInput(r)
	var headerData []byte
	rec := &Record{}
	for _, c := range d.classes {
		if d.header.ID != 0 && headerData == nil {
			size := d.ts.size(d.header.ID)
			headerData = make([]byte, size)
			if n, err := in.read(headerData); err != nil {
				if n < size && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)) {
					return dataErr(0, "--header (%s) type couldn't be read: the data has %d of its %d bytes", d.opts.Header, n, size)
				}
				return err
			}
			if d.opts.HeaderRecord {
				*rec = Record{ClassType: d.header, ClassSize: size, Type: d.header, Size: size, Data: headerData, view: headerData}
				if err := emit(rec); err != nil {
					return err
				}
			}
		}
		if err := d.decodeClass(in, c, headerData, rec, emit); err != nil {
			return err
		}
	}
	return nil
}

// decodeClass positions the input where class c's records start and
// reads them.
func (d *Decoder) decodeClass(in *input, c *class, header []byte, rec *Record, emit func(*Record) error) error {
	sizeBytes := uint64(math.MaxUint64)
	if r := c.Range; r != "" || d.opts.Range != "" {
		if d.opts.Range != "" {
			r = d.opts.Range
		}
		seek, err := d.headerValue(header, r+".offset", "range="+r)
		if err != nil {
			return err
		}
		if seek < in.off && (!in.canSeek() || seek < 0) {
			return dataErr(in.off, "range=%s: can't go back in the input, already read %d bytes, can't go to offset %#x", r, in.off, seek)
		}
		d.verbose("pahole: range.seek_bytes evaluated from range=%s is %s ", r, hex(uint64(seek)))
		size, err := d.headerValue(header, r+".size", "range="+r)
		if err != nil {
			return err
		}
		d.verbose("pahole: range.size_bytes evaluated from range=%s is %s ", r, hex(uint64(size)))
		sizeBytes = uint64(size)
		if err := d.seek(in, seek-in.off, "range="+r); err != nil {
			return err
		}
	} else {
		if s := d.opts.SeekBytes; s != "" {
			var seek int64
			if strings.HasPrefix(s, "$header.") {
				v, err := d.headerValue(header, s[len("$header."):], "--seek_bytes="+s)
				if err != nil {
					return err
				}
				d.verbose("pahole: seek bytes evaluated from --seek_bytes=%s is %s ", s, hex(uint64(v)))
				if v < int64(len(header)) {
					return fmt.Errorf("seek bytes evaluated from --seek_bytes=%s is less than the header type size", s)
				}
				seek = v
			} else {
				seek, _ = parseNumber("--seek_bytes", s)
			}
			if header != nil {
				// With a header the offset is from the start of the input.
				seek -= in.off
			}
			if err := d.seek(in, seek, "--seek_bytes="+s); err != nil {
				return err
			}
		}
		if s := d.opts.SizeBytes; s != "" {
			if strings.HasPrefix(s, "$header.") {
				v, err := d.headerValue(header, s[len("$header."):], "--size_bytes="+s)
				if err != nil {
					return err
				}
				d.verbose("pahole: size bytes evaluated from --size_bytes=%s is %s ", s, hex(uint64(v)))
				sizeBytes = uint64(v)
			} else {
				v, _ := parseNumber("--size_bytes", s)
				sizeBytes = uint64(v)
			}
		}
	}
	return d.readRecords(in, c, sizeBytes, rec, emit)
}

// seek moves n bytes on for what: forward, or, in data that can seek (a
// file, as pahole 1.32 fseeks it), backwards but not before its start.
func (d *Decoder) seek(in *input, n int64, what string) error {
	target := in.off + n
	if n < 0 {
		if !in.canSeek() || target < 0 {
			return dataErr(in.off, "%s: can't go back in the input to offset %#x", what, target)
		}
		return in.seekTo(target)
	}
	ok, err := in.skip(n)
	if err != nil {
		return err
	}
	if !ok {
		return dataErr(in.off, "%s: the data ends at offset %#x, before offset %#x", what, in.off, target)
	}
	return nil
}

func (d *Decoder) verbose(format string, args ...any) {
	if d.opts.Verbose != nil {
		d.opts.Verbose(fmt.Sprintf(format, args...))
	}
}

// hex formats v as C's "%#" PRIx64 does: 0 is "0", others 0x....
func hex(v uint64) string {
	if v == 0 {
		return "0"
	}
	return fmt.Sprintf("%#x", v)
}

// headerValue reads the header member at path ("data.offset"), an
// integer, as pahole does: struct members on the way, read signed by its
// size; a missing member or a negative value is an error.
func (d *Decoder) headerValue(header []byte, path, what string) (int64, error) {
	t := d.header
	off := 0
	names := strings.Split(path, ".")
	for i, name := range names {
		m, ok := d.ts.findMember(t, name)
		if !ok {
			break
		}
		off += m.byteOff
		if i == len(names)-1 {
			if _, ok := d.ts.baseType(m.typ); !ok || off+m.byteSize > len(header) {
				break
			}
			v := int64(signedValue(header[off:], m.byteSize))
			if v < 0 {
				break
			}
			return v, nil
		}
		next, ok := d.ts.typ(m.typ)
		if !ok || (next.Kind() != btf.KindStruct && next.Kind() != btf.KindUnion) {
			break
		}
		t = next
	}
	return 0, fmt.Errorf("couldn't read the '%s' member of '%s' for evaluating %s", path, d.opts.Header, what)
}

// readRecords reads class c's records until its count, sizeBytes or the
// end of the input.
func (d *Decoder) readRecords(in *input, c *class, sizeBytes uint64, rec *Record, emit func(*Record) error) error {
	if c.size == 0 {
		return nil // pahole reads nothing as a type of no size
	}
	var readBytes, count uint64
	skip := d.opts.Skip
	for {
		off := in.off
		if len(c.buf) < c.size {
			c.grow(c.size)
		}
		n, err := in.read(c.buf[:c.size])
		if err != nil {
			if n == 0 && errors.Is(err, io.EOF) {
				return nil
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return dataErr(off, "truncated record: the data ends after %d of the %d bytes of '%s'", n, c.size, c.Name)
			}
			return err
		}
		size := c.size
		if c.sizeof != nil {
			v := unsignedValue(c.buf[c.sizeof.byteOff:], c.sizeof.byteSize)
			if v > uint64(d.opts.MaxRecordSize) {
				return dataErr(off, "record size %d (member '%s' of '%s') is more than the limit of %d bytes", v, c.Sizeof, c.Name, d.opts.MaxRecordSize)
			}
			size = int(v)
			if size > c.size {
				if err := c.readRest(in, size, off); err != nil {
					return err
				}
			}
		}
		readBytes += uint64(size)
		consumed := max(size, c.size)

		if c.filter == nil || signedValue(c.buf[c.filter.m.byteOff:], c.filter.m.byteSize) == c.filter.value {
			if skip > 0 {
				skip--
			} else {
				t, tsize := c.realType(d.ts, c.buf[:consumed])
				if tsize > d.opts.MaxRecordSize {
					return dataErr(off, "record type '%s' is %d bytes, more than the record size limit of %d", t.Name(), tsize, d.opts.MaxRecordSize)
				}
				viewLen := max(consumed, tsize)
				if len(c.buf) < viewLen {
					c.grow(viewLen)
				}
				*rec = Record{
					Offset: off, Class: c.Class, ClassType: c.t, ClassSize: c.size,
					Type: t, Size: size, Data: c.buf[:consumed], view: c.buf[:viewLen],
				}
				if err := emit(rec); err != nil {
					return err
				}
				count++
				if d.opts.Count != 0 && count == d.opts.Count {
					return nil
				}
			}
		}
		if readBytes >= sizeBytes {
			return nil
		}
	}
}

// grow extends the class's buffer to n bytes, keeping its contents (what
// pahole's buffer holds past a short record) and zeroing the new part.
func (c *class) grow(n int) {
	if n <= cap(c.buf) {
		c.buf = c.buf[:n]
		return
	}
	nb := make([]byte, n, max(n, 2*cap(c.buf)))
	copy(nb, c.buf)
	c.buf = nb
}

// readRest reads the part of a record of size bytes past its class's
// size, growing the buffer only as the data arrives, so that a bogus size
// costs no more memory than the input has.
func (c *class) readRest(in *input, size int, off int64) error {
	have := c.size
	for have < size {
		chunk := min(size-have, 1<<20)
		if len(c.buf) < have+chunk {
			c.grow(have + chunk)
		}
		n, err := in.read(c.buf[have : have+chunk])
		have += n
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return dataErr(off, "record of %d bytes (member '%s' of '%s') runs past the end of the data: it has %d", size, c.Sizeof, c.Name, have)
			}
			return err
		}
	}
	return nil
}
