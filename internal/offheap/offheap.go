package offheap

import (
	"unsafe"
)

// Slice returns a slice of length 0 and capacity n of T, which must hold
// no pointers, and the region to give Free when it is no longer used.
// The memory reads as zeros. Region is nil when the slice is an ordinary
// Go slice (n too small to be worth a mapping, or no mapping possible).
func Slice[T any](n int) ([]T, *Region) {
	var zero T
	size := uintptr(n) * unsafe.Sizeof(zero)
	if n <= 0 || size < MinBytes {
		return make([]T, 0, n), nil
	}
	b := mapAnon(int(size))
	if b == nil {
		return make([]T, 0, n), nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)[:0], &Region{b: b}
}

// MinBytes is the size below which Slice returns an ordinary slice.
const MinBytes = 1 << 20

// Region is memory from Slice outside the Go heap.
type Region struct {
	b []byte
}

// Free returns r's memory to the system; nothing may refer to it
// afterwards. Free of nil, or twice, does nothing.
func (r *Region) Free() {
	if r == nil || r.b == nil {
		return
	}
	unmapAnon(r.b)
	r.b = nil
}
