package dedup

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// stringMap translates the string offsets of one Spec's table into those
// of a merged table, adding each string the first time it is met, so
// that a string costs one look-up in the merged table per Spec, not one
// per reference. Merger.Add, MergeDedup and the archive route's groups
// (Builder.stringMap) use it for every type they copy.
//
// Its cache has one 8-byte slot per 8 bytes of the Spec's table, for the
// first string met that starts in that span; a second string starting
// there is looked up again and gets the same offset. A slot per byte
// would be 4 bytes per string byte: 10 MB of page faults for a vmlinux.
type stringMap struct {
	strs  *interner
	shift uint32 // added to the interner's offsets (a split table's start)
	old   []byte
	start uint32 // offsets below it are the base's, kept as they are
	cache []uint64
	// noCache: no cache (Builder.stringMap's, for an archive's members,
	// whose names are nearly all met once per member: the cache would
	// hit one look-up in 60 and cost its clearing and a miss each).
	noCache bool
	// next is the interner's offset of the string after the last one
	// mapped: the guess for the next name (see Map).
	next uint32
}

// Reset makes m translate offsets of s's own string table (those below
// s.StringsStart() are its base's and stay as they are).
func (m *stringMap) Reset(s *btf.Spec) {
	m.old = s.RawStrings()
	m.start = s.StringsStart()
	m.next = 0
	if m.noCache {
		return
	}
	if n := len(m.old)/8 + 1; cap(m.cache) < n {
		m.cache = make([]uint64, n)
	} else {
		m.cache = m.cache[:n]
		clear(m.cache)
	}
}

// Map rewrites *p, a string offset of the Spec m was Reset to, as its
// offset in the merged table; 0 and a base's offsets stay as they are.
func (m *stringMap) Map(p *uint32) error {
	if *p == 0 || *p < m.start {
		return nil
	}
	rel := *p - m.start
	if int(rel) >= len(m.old) {
		return fmt.Errorf("string offset %d past the end of the string table", *p)
	}
	var c *uint64
	tag := uint64(rel%8+1) << 32
	if !m.noCache {
		c = &m.cache[rel/8]
		if *c>>32 == tag>>32 {
			*p = uint32(*c)
			return nil
		}
	}
	// Specs made from the same headers name their types in the same
	// order, and the interner holds names in the order first met: the
	// name after the last one mapped is the one wanted nearly two times
	// in three in an archive's members, and a comparison with it (memory
	// read in order) costs less than a look-up. The table holds each
	// string once, so an equal string there is the string's only offset.
	b := m.old[rel:]
	no := m.next
	n := m.strs.at(no, b)
	if n < 0 {
		no, n = m.strs.addCString(b)
	}
	m.next = no + uint32(n) + 1
	no += m.shift
	if c != nil && *c == 0 {
		*c = tag | uint64(no)
	}
	*p = no
	return nil
}
