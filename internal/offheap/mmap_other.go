//go:build !linux

package offheap

// mapAnon returns nil: elsewhere the slices are the Go heap's.
func mapAnon(size int) []byte { return nil }

func unmapAnon(b []byte) {}
