package pretty

import (
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// enumSet is a type_enum: one or more enums looked up in order, pahole's
// "virtual enum" made of ENUM+ENUM.
type enumSet struct {
	enums  []btf.Type
	byVal  map[uint64]enumerator // first enumerator of each value, enums in order
	small  []enumerator          // the same for values below smallValues (name "": none)
	prefix []int                 // each enum's common enumerator prefix length
}

// smallValues bounds the values looked up in a slice instead of the map:
// record types are small numbers.
const smallValues = 1024

// enumerator is one enumerator of an enumSet.
type enumerator struct {
	name  string
	value uint64
}

func newEnumSet(enums []btf.Type) *enumSet {
	s := &enumSet{enums: enums, byVal: map[uint64]enumerator{}, prefix: make([]int, len(enums))}
	for i, e := range enums {
		var prev string
		common := -1
		for j := 0; j < e.Vlen(); j++ {
			ev := e.Enum(j)
			name := e.Spec().String(ev.NameOff)
			if _, ok := s.byVal[ev.Val]; !ok {
				s.byVal[ev.Val] = enumerator{name, ev.Val}
			}
			if j > 0 {
				if n := commonPrefix(prev, name); common < 0 || n < common {
					common = n
				}
			}
			prev = name
		}
		if common > 0 {
			s.prefix[i] = common
		}
	}
	s.small = make([]enumerator, smallValues)
	for v, e := range s.byVal {
		if v < smallValues {
			s.small[v] = e
		}
	}
	return s
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// byValue returns the first enumerator with value v.
func (s *enumSet) byValue(v uint64) (enumerator, bool) {
	if v < smallValues {
		e := s.small[v]
		return e, e.name != ""
	}
	e, ok := s.byVal[v]
	return e, ok
}

// byName returns the first enumerator named name, or whose name without
// its enum's common prefix is name (PERF_RECORD_MMAP or MMAP), enums in
// order.
func (s *enumSet) byName(name string) (enumerator, bool) {
	for i, e := range s.enums {
		for j := 0; j < e.Vlen(); j++ {
			ev := e.Enum(j)
			n := e.Spec().String(ev.NameOff)
			if n == name || (s.prefix[i] > 0 && n[s.prefix[i]:] == name) {
				return enumerator{n, ev.Val}, true
			}
		}
	}
	return enumerator{}, false
}

// structName is the name of the struct an enumerator picks: the
// enumerator's name in lower case (PERF_RECORD_MMAP: perf_record_mmap).
func structName(enumerator string) string { return strings.ToLower(enumerator) }
