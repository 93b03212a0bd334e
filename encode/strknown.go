package encode

import (
	"sync/atomic"
	"unsafe"

	"github.com/btfkit/btfkit/encode/internal/funcvar"
)

// knownStrs tells the workers which names of a linked file's .debug_str
// the merge has already interned, and where: a name the merge has seen
// (in a kernel, nearly every name after the first few units: ~55,000
// distinct names among 6.6 million per-unit ones) goes into the fragment
// as its offset in the merged string table (flagged with
// funcvar.MergedRef), not into the fragment's string list, so the merge
// neither looks it up again nor maps it. Only the merge writes the table;
// workers read it while it does. A name not found (yet) takes the usual
// way through the fragment's list, and the merge finds its offset as
// before: what the workers see changes the work, never the output.
//
// An entry is one word, published atomically: the name's offset in
// .debug_str (28 bits), its length (12 bits) and its offset in the merged
// table (24 bits). Names that do not fit are not published.
type knownStrs struct {
	str  uintptr // .debug_str's address; 0: no table (an unlinked file)
	size uintptr // .debug_str's length
	tab  atomic.Pointer[knownTab]
}

type knownTab struct {
	slots []uint64 // str offset<<36 | length<<24 | merged offset; 0: free
	used  int      // the merge's count
}

const (
	knownOffBits = 28
	knownLenBits = 12
	knownValBits = 24
	minKnown     = 1 << 16
)

// open makes k the table of names in the section str (a linked file's
// .debug_str, which it indexes for the whole walk).
func (k *knownStrs) open(str []byte) {
	if len(str) == 0 {
		return
	}
	k.str = uintptr(unsafe.Pointer(unsafe.SliceData(str)))
	k.size = uintptr(len(str))
	k.tab.Store(&knownTab{slots: make([]uint64, minKnown)})
}

// key returns the key of the string at p of length n, false when it is
// not a .debug_str name the table can hold.
func (k *knownStrs) key(p uintptr, n uint32) (uint64, bool) {
	off := p - k.str
	if off >= k.size || off >= 1<<knownOffBits || n >= 1<<knownLenBits {
		return 0, false
	}
	return uint64(off)<<knownLenBits | uint64(n), true
}

func knownHash(key uint64) uint64 { return key * 0x9E3779B97F4A7C15 >> 24 }

// find returns the merged offset of the string at p of length n, 0 when
// the merge has not published it (or k has no table).
func (k *knownStrs) find(p uintptr, n uint32) uint32 {
	if k == nil || k.str == 0 {
		return 0
	}
	key, ok := k.key(p, n)
	if !ok {
		return 0
	}
	t := k.tab.Load()
	mask := uint64(len(t.slots) - 1)
	for i := knownHash(key) & mask; ; i = (i + 1) & mask {
		v := atomic.LoadUint64(&t.slots[i])
		if v == 0 {
			return 0
		}
		if v>>knownValBits == key {
			return uint32(v & (1<<knownValBits - 1))
		}
	}
}

// publish records that the string at p of length n is at off in the
// merged table; the merge calls it once per string, on its goroutine.
func (k *knownStrs) publish(p uintptr, n uint32, off uint32) {
	if k == nil || k.str == 0 || off == 0 || off >= 1<<knownValBits {
		return
	}
	key, ok := k.key(p, n)
	if !ok {
		return
	}
	t := k.tab.Load()
	if t.used*2 >= len(t.slots) {
		// A new table for the workers' next look; the old one stays
		// valid for those reading it.
		nt := &knownTab{slots: make([]uint64, 2*len(t.slots)), used: t.used}
		for _, v := range t.slots {
			if v != 0 {
				nt.insert(v)
			}
		}
		k.tab.Store(nt)
		t = nt
	}
	t.insert(key<<knownValBits | uint64(off))
	t.used++
}

func (t *knownTab) insert(v uint64) {
	mask := uint64(len(t.slots) - 1)
	for i := knownHash(v>>knownValBits) & mask; ; i = (i + 1) & mask {
		if t.slots[i] == 0 {
			atomic.StoreUint64(&t.slots[i], v)
			return
		}
	}
}

// mergedRef returns the fragment reference for merged offset off.
func mergedRef(off uint32) uint32 { return funcvar.MergedRef | off }
