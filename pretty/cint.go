package pretty

import (
	"fmt"
	"math"
)

// parseCInt reads an integer at the start of s the way C's strtoll(s,
// &end, 0) does: optional leading spaces and sign, then hexadecimal after
// 0x, octal after a leading 0, decimal otherwise, clamped to the int64
// range. n is how many bytes it read, 0 when s starts with no number.
func parseCInt(s string) (v int64, n int) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := uint64(10)
	start := i
	if i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && i+2 < len(s) && digitVal(s[i+2]) < 16 {
		base, i = 16, i+2
		start = i
	} else if i < len(s) && s[i] == '0' {
		base = 8
	}
	var u uint64
	overflow := false
	for i < len(s) {
		d := digitVal(s[i])
		if d >= base {
			break
		}
		if u > (math.MaxUint64-d)/base {
			overflow = true
		}
		u = u*base + d
		i++
	}
	if i == start {
		return 0, 0
	}
	switch {
	case neg && (overflow || u > 1<<63):
		return math.MinInt64, i
	case neg:
		return -int64(u), i
	case overflow || u > math.MaxInt64:
		return math.MaxInt64, i
	}
	return int64(u), i
}

// parseNumber parses a whole option value as a C integer (decimal, 0x
// hexadecimal or 0 octal, with an optional sign).
func parseNumber(what, s string) (int64, error) {
	v, n := parseCInt(s)
	for n < len(s) && isSpace(s[n]) {
		n++
	}
	if n == 0 || n != len(s) {
		return 0, fmt.Errorf("%s: '%s' is not a number", what, s)
	}
	return v, nil
}

func digitVal(c byte) uint64 {
	switch {
	case '0' <= c && c <= '9':
		return uint64(c - '0')
	case 'a' <= c && c <= 'f':
		return uint64(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return uint64(c-'A') + 10
	}
	return 99
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
