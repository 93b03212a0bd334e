// Package offheap hands out large pointer-free slices in memory the Go
// garbage collector does not manage: anonymous private mappings on Linux,
// ordinary slices elsewhere.
//
// It exists for tables that live for a whole job and make up most of its
// heap (dedup.Stream's per-type arrays, ~190 MB for a vmlinux). On the
// Go heap they count toward the collector's heap goal, which lets the
// garbage of everything else grow by GOGC percent of them too, and the
// capacity reserved but never written counts as live; mapped, they cost
// exactly the pages written, and the heap goal follows the heap that
// churns.
//
// The caller frees what it got (Free) when nothing refers to it any
// longer; memory must never hold Go pointers (the collector does not
// scan it). This package must not know what the slices hold.
package offheap
