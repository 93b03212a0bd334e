package btf

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

func TestCString(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"", ""},
		{"\x00", ""},
		{"abc\x00def\x00", "abc"},
		{"abc", "abc"}, // no NUL: all of it
		{"\x00abc\x00", ""},
	} {
		if got := CString([]byte(c.in)); got != c.want {
			t.Errorf("CString(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// manyStringsSpec is a base Spec with a few hundred strings.
func manyStringsSpec() *Spec {
	s := NewSpec()
	i := s.Add("int", KindInt, 0, false, 4, IntSigned<<24|32)
	for n := 0; n < 100; n++ {
		s.Add(fmt.Sprintf("t%d", n), KindTypedef, 0, false, uint32(i))
		s.Add(fmt.Sprintf("s%d", n), KindStruct, 1, false, 4, s.AddString(fmt.Sprintf("m%d", n)), uint32(i), 0)
	}
	return s
}

// TestConcurrentReaders runs, under -race as scripts/test does, what the
// Spec doc promises is safe: goroutines reading one freshly parsed base
// Spec (whose string index is built by whichever lookup comes first) while
// each builds its own split Spec on top of it, which looks strings up in
// the base. Every goroutine must see the same answers as a serial run.
func TestConcurrentReaders(t *testing.T) {
	raw := manyStringsSpec().Marshal(nil)
	serial, err := Parse(raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The strings of the table, with their offsets, from the serial Spec.
	type str struct {
		s   string
		off uint32
	}
	var strs []str
	for i := 0; i < serial.StringsLen(); {
		s := serial.String(uint32(i))
		if s != "" {
			if off, ok := serial.FindString(s); ok && off == uint32(i) {
				strs = append(strs, str{s, off})
			}
		}
		i += len(s) + 1
	}
	if len(strs) < 20 {
		t.Fatalf("only %d strings in the test BTF", len(strs))
	}
	// What a split Spec adding its own strings and types gives, serially.
	build := func(base *Spec, g int) []byte {
		sp := NewSplitSpec(base)
		for _, s := range strs {
			sp.Add(s.s, KindTypedef, 0, false, 1)                              // a base string: the base's offset
			sp.Add(fmt.Sprintf("own_%d_%s", g, s.s), KindTypedef, 0, false, 1) // a string of its own
		}
		return sp.Marshal(nil)
	}
	const workers = 8
	want := make([][]byte, workers)
	for g := range want {
		want[g] = build(serial, g)
	}

	base, err := Parse(raw, nil) // a fresh one: no index built yet
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, s := range strs {
				if off, ok := base.FindString(s.s); !ok || off != s.off {
					errs[g] = fmt.Errorf("FindString(%q) = %d, %v; want %d", s.s, off, ok, s.off)
					return
				}
				if got := base.String(s.off); got != s.s {
					errs[g] = fmt.Errorf("String(%d) = %q, want %q", s.off, got, s.s)
					return
				}
			}
			for id := base.FirstID(); id < base.NextID(); id++ {
				base.Type(id).Name()
			}
			if got := build(base, g); !bytes.Equal(got, want[g]) {
				errs[g] = fmt.Errorf("split Spec %d built concurrently differs from the serial one", g)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
