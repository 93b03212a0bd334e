package dwarf

import "sort"

// Stats counts the DIEs of a set of units by tag.
type Stats struct {
	Units int
	DIEs  int // non-null entries
	Tags  map[Tag]int
}

// Add adds o to s.
func (s *Stats) Add(o *Stats) {
	if s.Tags == nil {
		s.Tags = map[Tag]int{}
	}
	s.Units += o.Units
	s.DIEs += o.DIEs
	for t, n := range o.Tags {
		s.Tags[t] += n
	}
}

// SortedTags returns the tags of s sorted by name.
func (s *Stats) SortedTags() []Tag {
	tags := make([]Tag, 0, len(s.Tags))
	for t := range s.Tags {
		tags = append(tags, t)
	}
	sort.Slice(tags, func(i, j int) bool { return tags[i].String() < tags[j].String() })
	return tags
}

// UnitStats counts the DIEs of the unit r is positioned on.
func UnitStats(r *UnitReader) (*Stats, error) {
	var counts [0x100]int
	s := &Stats{Units: 1, Tags: map[Tag]int{}}
	var e Entry
	for {
		ok, err := r.Next(&e)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if e.Tag == 0 {
			continue
		}
		s.DIEs++
		if e.Tag < 0x100 {
			counts[e.Tag]++
		} else {
			s.Tags[e.Tag]++
		}
	}
	for t, n := range counts {
		if n > 0 {
			s.Tags[Tag(t)] = n
		}
	}
	return s, nil
}

// CountTags walks every unit of d with the given number of workers and
// returns the unit count, DIE count and tag histogram.
func CountTags(d *Data, workers int) (*Stats, error) {
	total := &Stats{Tags: map[Tag]int{}}
	err := Walk(d, workers, UnitStats, func(_ *Unit, s *Stats) error {
		total.Add(s)
		return nil
	})
	return total, err
}
