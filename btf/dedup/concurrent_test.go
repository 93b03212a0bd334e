package dedup

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// TestConcurrentSharedBase runs, under -race as scripts/test does, what
// the package promises is safe: Dedup of several split Specs at once that
// share one freshly parsed base (whose string index no call has built
// yet), and LoadMembers parsing split BTFs against such a base with
// several workers. Each result must be the one a serial run gives.
func TestConcurrentSharedBase(t *testing.T) {
	b := newUnit()
	i := b.int_("int", 4, true)
	for n := 0; n < 50; n++ {
		b.structT(fmt.Sprintf("base_%d", n), 4, mem{fmt.Sprintf("f%d", n), i, 0})
	}
	baseRaw := b.Marshal(nil)
	serialBase := mustParse(t, baseRaw, nil)
	// Split BTFs that repeat base types and strings and add their own.
	const n = 8
	var raws [][]byte
	for g := 0; g < n; g++ {
		s := btf.NewSplitSpec(serialBase)
		x := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
		for k := 0; k < 50; k += 1 + g {
			s.Add(fmt.Sprintf("base_%d", k), btf.KindStruct, 1, false, 4, s.AddString(fmt.Sprintf("f%d", k)), uint32(x), 0)
			s.Add(fmt.Sprintf("own_%d_%d", g, k), btf.KindTypedef, 0, false, uint32(x))
		}
		raws = append(raws, s.Marshal(nil))
	}
	want := make([][]byte, n)
	for g, raw := range raws {
		out, _, err := Dedup(mustParse(t, raw, serialBase), Options{})
		if err != nil {
			t.Fatal(err)
		}
		want[g] = out.Marshal(nil)
	}

	base := mustParse(t, baseRaw, nil) // no string index built yet
	var wg sync.WaitGroup
	errs := make([]error, n)
	for g := 0; g < n; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in, err := btf.Parse(raws[g], base)
			if err != nil {
				errs[g] = err
				return
			}
			out, _, err := Dedup(in, Options{})
			if err != nil {
				errs[g] = err
			} else if !bytes.Equal(out.Marshal(nil), want[g]) {
				errs[g] = fmt.Errorf("split %d deduplicated concurrently differs from the serial result", g)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}

	// LoadMembers with several parsers sharing a fresh base.
	dir := t.TempDir()
	var paths []string
	for g, raw := range raws {
		p := filepath.Join(dir, fmt.Sprintf("split%d.btf", g))
		if err := os.WriteFile(p, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	base = mustParse(t, baseRaw, nil)
	specs, err := LoadMembers(paths, base, 4)
	if err != nil {
		t.Fatal(err)
	}
	for g, s := range specs {
		out, _, err := Dedup(s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Marshal(nil), want[g]) {
			t.Errorf("LoadMembers' split %d deduplicates differently from the serial run", g)
		}
	}
}
