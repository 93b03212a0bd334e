//go:build linux

package e2e

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestCorruptNameRejected: the running kernel's verifier must reject the
// host's own BTF with one name offset corrupted, for that reason, and
// only four bytes may change.
func TestCorruptNameRejected(t *testing.T) {
	raw := hostBTF(t)
	bad, id, err := CorruptName(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != len(raw) {
		t.Fatalf("size changed: %d -> %d", len(raw), len(bad))
	}
	diff := 0
	for i := range raw {
		if raw[i] != bad[i] {
			diff++
		}
	}
	if diff == 0 || diff > 4 {
		t.Errorf("%d bytes differ, want 1 to 4", diff)
	}
	err = kernload.Load(bad)
	var rej *kernload.RejectedError
	if !errors.As(err, &rej) {
		t.Fatalf("corrupted name of type %d: load gave %v, want a rejection", id, err)
	}
	if !strings.Contains(rej.Log, "Invalid name_offset") {
		t.Errorf("rejected for another reason: %s", rej.Log)
	}
	t.Logf("type %d: %v", id, rej.Errno)

	if _, _, err := CorruptName(raw[:20]); err == nil {
		t.Error("truncated input: no error")
	}
}

// hostBTF is the running kernel's BTF, which its verifier must accept;
// the test is skipped (or fails, under CI) where there is none or
// BPF_BTF_LOAD is not permitted.
func hostBTF(t *testing.T) []byte {
	t.Helper()
	raw, err := os.ReadFile("/sys/kernel/btf/vmlinux")
	if err != nil {
		testenv.SkipOrFail(t, "no kernel BTF here: %v", err)
	}
	if err := kernload.Load(raw); errors.Is(err, kernload.ErrNotPermitted) {
		testenv.SkipOrFail(t, "%v", err)
	} else if err != nil {
		t.Fatalf("the kernel's own BTF: %v", err)
	}
	return raw
}
