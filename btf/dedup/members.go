package dedup

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/btfkit/btfkit/btf"
)

// LoadMembers reads every input (raw BTF, an ELF's .BTF section, or a BTF
// archive of several blobs back to back) and parses each blob, split
// against base when base is not nil, with up to jobs parsers at once
// (GOMAXPROCS when jobs <= 0). The result lists the members in input order,
// then archive order, whatever the parallelism, ready for Merge.
func LoadMembers(paths []string, base *btf.Spec, jobs int) ([]*btf.Spec, error) {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	type blob struct {
		data  []byte
		where string
	}
	var blobs []blob
	for _, p := range paths {
		data, where, err := btf.ReadBTFBytes(p)
		if err != nil {
			return nil, err
		}
		parts, err := btf.SplitArchive(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		off := 0
		for i, b := range parts {
			w := where
			if len(parts) > 1 {
				w = fmt.Sprintf("%s: archive member %d at offset 0x%x", where, i, off)
			}
			blobs = append(blobs, blob{b, w})
			off += len(b)
		}
	}
	specs := make([]*btf.Spec, len(blobs))
	errs := make([]error, len(blobs))
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	for w := 0; w < jobs && w < len(blobs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(blobs) {
					return
				}
				s, err := btf.Parse(blobs[i].data, base)
				if err != nil {
					err = fmt.Errorf("%s: %w", blobs[i].where, err)
				}
				specs[i], errs[i] = s, err
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return specs, nil
}
