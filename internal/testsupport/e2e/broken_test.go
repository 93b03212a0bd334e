//go:build linux

package e2e

import (
	"errors"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/kernload"
)

// TestBreakagesRejected: the running kernel's verifier must reject the
// host's own BTF broken by BreakFuncName and BreakDatasec for the reason
// each names, and accept GrowBase's (the other vmlinux is valid BTF; only
// a module encoded against it is not).
func TestBreakagesRejected(t *testing.T) {
	raw := hostBTF(t)
	for _, c := range []struct {
		name  string
		brk   func([]byte, *btf.Spec) ([]byte, btf.TypeID, error)
		wants string
	}{
		{"func-name", BreakFuncName, "Invalid name"},
		{"datasec-overlap", BreakDatasec, "Invalid offset"},
	} {
		bad, id, err := c.brk(raw, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err = kernload.Load(bad)
		var rej *kernload.RejectedError
		if !errors.As(err, &rej) {
			t.Errorf("%s (type %d): load gave %v, want a rejection", c.name, id, err)
			continue
		}
		if !strings.Contains(rej.Log, c.wants) {
			t.Errorf("%s (type %d): rejected for another reason than %q: %s", c.name, id, c.wants, rej.Log)
		}
	}
	grown, id, err := GrowBase(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(grown) < len(raw)+4096 {
		t.Errorf("GrowBase added %d bytes, want more than 4096", len(grown)-len(raw))
	}
	if err := kernload.Load(grown); err != nil {
		t.Errorf("GrowBase's BTF (struct [%d] added): %v", id, err)
	}
}

// TestBreakBaseStructSize: only the size of one struct changes.
func TestBreakBaseStructSize(t *testing.T) {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, 0x01000020)
	s.Add("fwd_only", btf.KindStruct, 0, false, 0)
	st := s.Add("embedded", btf.KindStruct, 0, false, 24)
	raw := s.Marshal(s.ByteOrder())
	bad, id, err := BreakBaseStructSize(raw)
	if err != nil {
		t.Fatal(err)
	}
	if id != st {
		t.Fatalf("broke type %d, want the sized struct %d", id, st)
	}
	b, err := btf.Parse(bad, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Type(st).Size(); got != 32 {
		t.Errorf("size %d, want 32", got)
	}
	if b.Type(i).Size() != 4 || b.NumTypes() != s.NumTypes() {
		t.Error("other types changed")
	}
	if _, _, err := BreakBaseStructSize(raw[:10]); err == nil {
		t.Error("truncated input: no error")
	}
}
