package btf

import (
	"fmt"
	"sync"
)

// One Check run: the checker's state, the order its rules run in and how
// it reports a problem. The rules are in check_kinds.go (one type's
// record), check_names.go (names) and check_graph.go (what references
// reach: modifier chains, sizes, loops, the kernel's resolve order).

// Kernel limits (kernel/bpf/btf.c, include/linux/btf.h).
const (
	maxTypeID     = 0xfffff    // BTF_MAX_TYPE
	maxNameOffset = 0xffffff   // BTF_MAX_NAME_OFFSET
	maxRawSize    = 16 << 20   // BTF_MAX_SIZE
	maxNameLen    = 512        // KSYM_NAME_LEN: the longest name
	ptrSize       = 8          // sizeof(void *) of a 64-bit kernel
	infoMask16    = 0x9f00ffff // the info word's bits before Feature24BitVlen (kind.go)
	intMask       = 0x0fffffff // an INT encoding word's defined bits
)

// checker holds the state of one Check run: the problems found and
// memoized facts about types (what a chain of modifiers resolves to, the
// byte size of arrays), indexed by type ID.
type checker struct {
	s     *Spec
	cfg   checkConfig
	probs []Problem
	first TypeID // first type ID to check
	next  TypeID // one past the last type ID

	// resolved[id] is the type a chain of modifiers starting at id ends
	// on, plus one; state[id] says whether it is known yet, being followed
	// (to stop on loops) or bad (a loop or a dangling ID in the chain).
	// arrState and arrSize memoize the byte size of arrays likewise.
	resolved []TypeID
	state    []uint8
	arrState []uint8
	arrSize  []uint64
}

func newChecker(s *Spec, opts []CheckOption) *checker {
	c := &checker{s: s, cfg: checkConfig{max: 1000}}
	for _, o := range opts {
		o(&c.cfg)
	}
	c.first = s.FirstID()
	if c.cfg.base {
		c.first = 1
	}
	c.next = s.NextID()
	n := int(c.next)
	sc, _ := checkScratchPool.Get().(*checkScratch)
	if sc == nil {
		sc = new(checkScratch)
	}
	c.resolved = zeroed(sc.resolved, n)
	c.state = zeroed(sc.state, n)
	c.arrState = zeroed(sc.arrState, n)
	c.arrSize = zeroed(sc.arrSize, n)
	return c
}

// checkScratch is a finished checker's per-type memory, kept for the
// next: a batch of modules checks each against the base, and the arrays
// are as long as the base and the module together (1.3 MB a module
// against a vmlinux's base, 1.4 GB of garbage over 1,121 modules).
type checkScratch struct {
	resolved []TypeID
	state    []uint8
	arrState []uint8
	arrSize  []uint64
}

var checkScratchPool sync.Pool

// release gives c's per-type memory back for the next checker; c must
// not be used afterwards.
func (c *checker) release() {
	checkScratchPool.Put(&checkScratch{c.resolved, c.state, c.arrState, c.arrSize})
	c.resolved, c.state, c.arrState, c.arrSize = nil, nil, nil, nil
}

// zeroed returns s resized to n elements, all zero.
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func (c *checker) result() error { return finish(c.probs, c.cfg.max) }

func (c *checker) add(t Type, r Rule, format string, args ...any) {
	c.probs = append(c.probs, Problem{ID: t.ID, Kind: t.Kind(), Name: c.name(t.NameOff()), Rule: r, Detail: fmt.Sprintf(format, args...)})
}

func (c *checker) addBlob(r Rule, format string, args ...any) {
	c.probs = append(c.probs, Problem{Rule: r, Detail: fmt.Sprintf(format, args...)})
}

// name returns the string at off for messages, or a marker if off is bad.
func (c *checker) name(off uint32) string {
	if !c.s.ValidStringOff(off) {
		return fmt.Sprintf("<bad name offset %d>", off)
	}
	return quoted(c.s.String(off))
}

// quoted is a name as messages quote it: cut after maxQuoted bytes.
func quoted(name string) string {
	if len(name) > maxQuoted {
		return fmt.Sprintf("%s...(%d bytes)", name[:maxQuoted], len(name))
	}
	return name
}

// maxQuoted is how much of a name a message quotes: a name of megabytes
// (malformed input) would bury the message.
const maxQuoted = 128

func (c *checker) describe(id TypeID) string {
	if id == 0 {
		return "[0] void"
	}
	if !c.s.Has(id) {
		return fmt.Sprintf("[%d] (no such type)", id)
	}
	t := c.s.Type(id)
	if t.NameOff() == 0 {
		return fmt.Sprintf("[%d] %s", id, t.Kind())
	}
	return fmt.Sprintf("[%d] %s '%s'", id, t.Kind(), c.name(t.NameOff()))
}

func (c *checker) run() {
	s := c.s
	// The kernel's type table, void included, holds fewer than
	// BTF_MAX_TYPE entries: the last ID is at most BTF_MAX_TYPE-1.
	if last := int64(c.next) - 1; last >= maxTypeID {
		c.addBlob(RuleLimit, "last type ID %d, the kernel's limit is %d", last, maxTypeID-1)
	}
	if end := int64(s.StringsStart()) + int64(s.StringsLen()) - 1; end > maxNameOffset {
		c.addBlob(RuleStrings, "string section ends at offset %d, past the kernel's limit of %d: names there cannot be used", end, maxNameOffset)
	}
	if s.StringsLen() > 0 && s.RawStrings()[s.StringsLen()-1] != 0 {
		c.addBlob(RuleStrings, "string section does not end with a NUL byte")
	}
	if s.Base() == nil && (s.StringsLen() == 0 || s.RawStrings()[0] != 0) {
		c.addBlob(RuleStrings, "string section does not start with a NUL byte")
	}
	c.checkKindLayouts() // layout.go
	for id := c.first; id < c.next; id++ {
		c.checkType(s.Type(id))
	}
	c.checkLoops()
	c.checkDepth()
}
