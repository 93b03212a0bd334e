package encode

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/btfkit/btfkit/btf"
)

// Options controls an encoding.
type Options struct {
	// Features selects what is encoded; see ParseFeatures. The zero value
	// means no optional feature at all; most callers want DefaultFeatures.
	Features Features
	// Jobs is the number of units converted in parallel; <= 0 means one
	// per CPU. The output does not depend on it.
	Jobs int
	// LangExclude lists DW_LANG codes of units to skip (see ParseLanguages).
	LangExclude []uint16
	// NoDedup returns the merged fragments without deduplication (for
	// tests and debugging).
	NoDedup bool
}

// source is what the encoder needs from a DWARF reader: units by index,
// each walked entry by entry. Every method but walkUnit is called from one
// goroutine; walkUnit is called concurrently for different units.
type source interface {
	numUnits() int
	bigEndian() bool
	walkUnit(i int, add func(*die)) error
	close() error
}

// Dedup is the deduplication the encoder applies to the merged fragments.
// It is a variable so that the encoder does not import a particular
// implementation; the default is set by this package's init when a
// deduplicator is available.
var Dedup func(*btf.Spec) (*btf.Spec, error)

// EncodeFile converts the DWARF of the ELF file at path (vmlinux, a module,
// an object file) to BTF: every unit becomes a fragment, in parallel; the
// fragments are merged in unit order and deduplicated.
func EncodeFile(path string, o Options) (*btf.Spec, error) {
	src, err := openSource(path)
	if err != nil {
		return nil, err
	}
	defer src.close()
	return encode(src, o)
}

// Fragments converts each unit of the file at path to a BTF fragment and
// returns them in unit order, without merging (for tests and tools).
func Fragments(path string, o Options) ([]*btf.Spec, error) {
	src, err := openSource(path)
	if err != nil {
		return nil, err
	}
	defer src.close()
	return fragments(src, o)
}

func openSource(path string) (source, error) {
	return openStd(path)
}

func fragments(src source, o Options) ([]*btf.Spec, error) {
	n := src.numUnits()
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	if jobs > n {
		jobs = n
	}
	frags := make([]*btf.Spec, n)
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newUnitConv(o, src.bigEndian())
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				c.reset()
				if err := src.walkUnit(i, c.add); err != nil {
					errs[i] = err
					continue
				}
				frags[i] = c.emit()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return frags, nil
}

func newUnitConv(o Options, big bool) *unitConv {
	c := &unitConv{feat: o.Features, bigEndian: big}
	if len(o.LangExclude) > 0 {
		ex := o.LangExclude
		c.langSkip = func(l uint16) bool {
			for _, x := range ex {
				if x == l {
					return true
				}
			}
			return false
		}
	}
	return c
}

func encode(src source, o Options) (*btf.Spec, error) {
	frags, err := fragments(src, o)
	if err != nil {
		return nil, err
	}
	merged := mergeFragments(frags)
	if o.NoDedup {
		return merged, nil
	}
	if Dedup == nil {
		return nil, fmt.Errorf("encode: no deduplicator available")
	}
	return Dedup(merged)
}
