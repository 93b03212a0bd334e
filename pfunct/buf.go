package pfunct

import "strconv"

// buf collects output; its methods are the printf forms pfunct uses, with
// C's rules ("%#x" of 0 is "0"; a negative field width left-justifies).
type buf []byte

func (b *buf) str(s string) { *b = append(*b, s...) }
func (b *buf) byte(c byte)  { *b = append(*b, c) }

// tabs is "%.*s" of pahole's string of 16 tabs.
func (b *buf) tabs(n int) { b.repeat('\t', min(max(n, 0), 16)) }

func (b *buf) repeat(c byte, n int) {
	for ; n > 0; n-- {
		*b = append(*b, c)
	}
}

// padRight is "%-*s".
func (b *buf) padRight(s string, w int) {
	if w < 0 {
		w = -w
	}
	b.str(s)
	b.repeat(' ', w-len(s))
}

// padLeft is "%*s".
func (b *buf) padLeft(s string, w int) {
	if w < 0 {
		b.padRight(s, -w)
		return
	}
	b.repeat(' ', w-len(s))
	b.str(s)
}

func (b *buf) uint(v uint64) { *b = strconv.AppendUint(*b, v, 10) }
func (b *buf) int(v int64)   { *b = strconv.AppendInt(*b, v, 10) }

// hex is "%#llx".
func (b *buf) hex(v uint64) {
	if v == 0 {
		b.byte('0')
		return
	}
	b.str("0x")
	*b = strconv.AppendUint(*b, v, 16)
}

// fill is pahole's `"%-*.*s", w, w, " "`: a space padded to w, nothing
// when w is 0; a negative w is a left-justified width with no precision.
func (b *buf) fill(w int) {
	switch {
	case w == 0:
	case w < 0:
		b.padRight(" ", -w)
	default:
		b.padRight(" ", w)
	}
}

// truncate cuts what was appended since start to size-1 bytes, as
// snprintf into a buffer of size bytes does.
func (b *buf) truncate(start, size int) {
	if len(*b)-start >= size {
		*b = (*b)[:start+size-1]
	}
}

// cut appends s cut to size-1 bytes.
func (b *buf) cut(start int, s string, size int) {
	b.str(s)
	b.truncate(start, size)
}
