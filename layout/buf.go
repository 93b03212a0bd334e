package layout

import "strconv"

// buf collects output; its methods are the few printf forms pahole uses,
// with C's rules (a negative field width left-justifies, "%#x" of 0 is
// "0").
type buf []byte

func (b *buf) str(s string) { *b = append(*b, s...) }
func (b *buf) byte(c byte)  { *b = append(*b, c) }
func (b *buf) tabs(n int)   { b.repeat('\t', min(max(n, 0), 16)) }
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

// num is "%*u" (hex false) or "%#*x" (hex true).
func (b *buf) num(v uint64, w int, hex bool) {
	b.padLeft(numStr(v, hex), w)
}

func numStr(v uint64, hex bool) string {
	if !hex {
		return strconv.FormatUint(v, 10)
	}
	if v == 0 {
		return "0"
	}
	return "0x" + strconv.FormatUint(v, 16)
}

func (b *buf) uint(v uint64) { *b = strconv.AppendUint(*b, v, 10) }
func (b *buf) int(v int64)   { *b = strconv.AppendInt(*b, v, 10) }

// plural is pahole's "%s" of n != 1 ? "s" : "".
func plural(n int64) string {
	if n != 1 {
		return "s"
	}
	return ""
}
