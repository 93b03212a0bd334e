// Package cfmt is the output buffer of the printers that reproduce pahole's
// and pfunct's text (layout, pfunct): a byte slice with the few printf
// forms those tools use, following C's rules ("%#x" of 0 is "0", a
// negative field width left-justifies, snprintf's truncation). Appending
// to a []byte instead of calling fmt keeps the listings of a whole vmlinux
// cheap. It knows nothing of what is printed.
package cfmt

import "strconv"

// Buf collects output.
type Buf []byte

// Str appends s.
func (b *Buf) Str(s string) { *b = append(*b, s...) }

// Byte appends c.
func (b *Buf) Byte(c byte) { *b = append(*b, c) }

// Tabs is "%.*s" of pahole's string of 16 tabs.
func (b *Buf) Tabs(n int) { b.Repeat('\t', min(max(n, 0), 16)) }

// Repeat appends n copies of c.
func (b *Buf) Repeat(c byte, n int) {
	for ; n > 0; n-- {
		*b = append(*b, c)
	}
}

// PadRight is "%-*s".
func (b *Buf) PadRight(s string, w int) {
	if w < 0 {
		w = -w
	}
	b.Str(s)
	b.Repeat(' ', w-len(s))
}

// PadLeft is "%*s".
func (b *Buf) PadLeft(s string, w int) {
	if w < 0 {
		b.PadRight(s, -w)
		return
	}
	b.Repeat(' ', w-len(s))
	b.Str(s)
}

// Uint is "%llu".
func (b *Buf) Uint(v uint64) { *b = strconv.AppendUint(*b, v, 10) }

// Int is "%lld".
func (b *Buf) Int(v int64) { *b = strconv.AppendInt(*b, v, 10) }

// Hex is "%#llx".
func (b *Buf) Hex(v uint64) {
	if v == 0 {
		b.Byte('0')
		return
	}
	b.Str("0x")
	*b = strconv.AppendUint(*b, v, 16)
}

// Num is "%*u" (hex false) or "%#*x" (hex true).
func (b *Buf) Num(v uint64, w int, hex bool) { b.PadLeft(NumStr(v, hex), w) }

// NumStr is "%u" (hex false) or "%#x" (hex true) of v.
func NumStr(v uint64, hex bool) string {
	if !hex {
		return strconv.FormatUint(v, 10)
	}
	if v == 0 {
		return "0"
	}
	return "0x" + strconv.FormatUint(v, 16)
}

// Fill is pahole's `"%-*.*s", w, w, " "`: a space padded to w, nothing
// when w is 0; a negative w is a left-justified width with no precision.
func (b *Buf) Fill(w int) {
	switch {
	case w == 0:
	case w < 0:
		b.PadRight(" ", -w)
	default:
		b.PadRight(" ", w)
	}
}

// Truncate cuts what was appended since start to size-1 bytes, as
// snprintf into a buffer of size bytes does.
func (b *Buf) Truncate(start, size int) {
	if len(*b)-start >= size {
		*b = (*b)[:start+size-1]
	}
}

// Cut appends s cut to size-1 bytes (start: where this snprintf began).
func (b *Buf) Cut(start int, s string, size int) {
	b.Str(s)
	b.Truncate(start, size)
}
