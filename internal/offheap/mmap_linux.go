package offheap

import "golang.org/x/sys/unix"

// mapAnon returns size bytes of zeroed anonymous memory, or nil.
func mapAnon(size int) []byte {
	b, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil
	}
	return b
}

func unmapAnon(b []byte) { unix.Munmap(b) }
