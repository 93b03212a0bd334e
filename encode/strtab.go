package encode

import "unsafe"

// strTab interns a fragment's names. Strings are interned by identity
// (data pointer and length), not by content: the fast reader's strings are
// views of .debug_str, where one name is one place, so identity catches
// nearly every repeat without hashing any bytes. A string seen at two
// places (inline DW_FORM_string names) is listed twice, which the merge's
// content interning undoes. The hash table is reused across units: a
// generation stamp invalidates its slots instead of clearing them.
type strTab struct {
	f     *fragment
	slots []strSlot
	used  int
	gen   uint32

	known *knownStrs
}

type strSlot struct {
	ptr uintptr
	n   uint32
	gen uint32
	idx uint32
}

// reset starts interning into f's string list.
func (t *strTab) reset(f *fragment) {
	t.f = f
	t.gen++
	t.used = 0
	if t.slots == nil {
		t.slots = make([]strSlot, 1<<12)
	}
	if t.gen == 0 { // wrapped: really clear
		clear(t.slots)
		t.gen = 1
	}
}

// add returns the reference (index+1) of s in the fragment's string list,
// appending it if this string has not been seen in this unit; 0 for "".
func (t *strTab) add(s string) uint32 {
	if s == "" {
		return 0
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	n := uint32(len(s))
	if off := t.known.find(p, n); off != 0 {
		return mergedRef(off)
	}
	if t.used*2 >= len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	h := (uint64(p)*0x9E3779B97F4A7C15 ^ uint64(n)) >> 20
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.gen != t.gen {
			t.f.strs = append(t.f.strs, s)
			idx := uint32(len(t.f.strs))
			*sl = strSlot{p, n, t.gen, idx}
			t.used++
			return idx
		}
		if sl.ptr == p && sl.n == n {
			return sl.idx
		}
	}
}

func (t *strTab) grow() {
	old := t.slots
	t.slots = make([]strSlot, len(old)*2)
	mask := uint64(len(t.slots) - 1)
	for _, sl := range old {
		if sl.gen != t.gen {
			continue
		}
		h := (uint64(sl.ptr)*0x9E3779B97F4A7C15 ^ uint64(sl.n)) >> 20
		for i := h & mask; ; i = (i + 1) & mask {
			if t.slots[i].gen != t.gen {
				t.slots[i] = sl
				break
			}
		}
	}
}
