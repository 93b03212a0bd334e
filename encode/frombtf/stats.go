package frombtf

import "time"

// Stats are the counts and timings of one Encode.
type Stats struct {
	Members           int // archive members (1 for a single BTF)
	TypesIn, TypesOut int // types of all members; of the result
	// Time spent loading (splitting, parsing and fixing the members,
	// merging the groups as they come), finishing the merge (the enum
	// FWDs), deciding functions and variables, deduplicating.
	Load, Merge, Decide, Dedup time.Duration
	// The process's CPU time while loading (all jobs at once) and after
	// (the rest of the merge, deciding and deduplicating, on one
	// goroutine): how much of the work more jobs cannot shorten, also on
	// a busy machine.
	LoadCPU, SerialCPU time.Duration
}

func (s *Stats) start() time.Time { return time.Now() }

// lap adds the time since t to d and returns the time now.
func (s *Stats) lap(t time.Time, d *time.Duration) time.Time {
	now := time.Now()
	*d += now.Sub(t)
	return now
}
