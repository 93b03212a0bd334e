package layout

import "io"

// The text of one type can be very large: pahole -p over a kernel expands
// pointers to pointers to structs exponentially, and -w makes forced
// paddings of forced paddings (8.3 GB for one struct of the Debian
// vmlinux, which pahole 1.31 streams out). So the printer writes its
// output as it goes, at member boundaries, instead of holding a type's
// whole text; where it measures what it printed (the offset comment's
// spacing) it counts what was written too.

// stream makes b, the listing's output buffer for this unit, one that
// flush writes out to w.
func (u *unit) stream(w io.Writer, b *buf) { u.out, u.outBuf = w, b }

// flush writes b out when it is the streamed buffer and holds flushAt
// bytes or more. A write error is kept (outErr) and stops further writes.
func (u *unit) flush(b *buf) {
	if b != u.outBuf || len(*b) < flushAt || u.outErr != nil {
		return
	}
	if _, err := u.out.Write(*b); err != nil {
		u.outErr = err
		return
	}
	u.written += len(*b)
	*b = (*b)[:0]
}

// pos is the position in the output after b's last byte.
func (u *unit) pos(b *buf) int {
	if b == u.outBuf {
		return u.written + len(*b)
	}
	return len(*b)
}
