package dedup

import (
	"bytes"
	"slices"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// TestKindLayoutKept: libbpf v1.8 deduplicates a BTF object in place, so
// its kind layout section (the table btf_new_empty_opts(add_layout) put
// between types and strings) survives btf__dedup; pahole dedups after
// adding it and writes it out. Dedup and Merge keep it likewise, and the
// types and strings are those of the same input without the section.
func TestKindLayoutKept(t *testing.T) {
	_, data := embedded(t)
	plain := mustParse(t, data, nil)
	with := mustParse(t, data, nil)
	with.SetKindLayouts(btf.StandardKindLayouts())
	with = mustParse(t, with.Marshal(nil), nil) // as read from a file
	if len(with.KindLayouts()) == 0 {
		t.Fatal("the input lost its kind layout section in a round trip")
	}

	a, _, err := Dedup(plain, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Dedup(with, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := b.KindLayouts(), with.KindLayouts(); !slices.Equal(got, want) {
		t.Fatalf("dedup: kind layout section %v, want the input's %v", got, want)
	}
	// Without the section (and its header fields), the bytes are those of
	// the input deduplicated without one.
	b.SetKindLayouts(nil)
	b.SetHeaderLen(a.HeaderLen())
	if !bytes.Equal(b.Marshal(nil), a.Marshal(nil)) {
		t.Error("dedup with a kind layout section changed the types or strings")
	}

	m, err := Merge(plain, with)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.KindLayouts(), with.KindLayouts()) {
		t.Errorf("merge: kind layout section %v, want the second input's", m.KindLayouts())
	}
	if m, err = Merge(plain, plain); err != nil || m.KindLayouts() != nil {
		t.Errorf("merge of inputs without the section: %v, %v", m.KindLayouts(), err)
	}
}
