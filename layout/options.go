package layout

import (
	"os"
	"strconv"
	"strings"
)

// Options are pahole's output options the printer knows.
type Options struct {
	// CachelineSize is the cache line size in bytes used for cache line
	// boundaries, the "cachelines" counts and, for BTF, the inference of
	// __aligned__ attributes (-c/--cacheline_size). 0 means the machine's,
	// or 64 when it cannot be found, as pahole does.
	CachelineSize int

	// Hex prints offsets and sizes in hexadecimal (--hex).
	Hex bool

	// ClassNames, when not empty, selects the types to print, by name, in
	// this order (-C). A name may be a struct, union, enum or typedef.
	ClassNames []string

	// SkipMissing goes on with the next -C name when one is missing from
	// an input; without it pahole stops looking at the rest of the names
	// in that input (--skip_missing).
	SkipMissing bool
}

// SystemCachelineSize is the machine's L1 data cache line size, or 64 when
// it cannot be read.
func SystemCachelineSize() int {
	b, err := os.ReadFile("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size")
	if err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && n > 0 {
			return n
		}
	}
	return 64
}

// cachelineSize resolves o.CachelineSize the way pahole does: pahole keeps
// it in 16 bits.
func (o *Options) cachelineSize() uint32 {
	n := o.CachelineSize
	if n == 0 {
		n = SystemCachelineSize()
	}
	return uint32(uint16(n))
}
