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

// TestChecksOnHost runs the guest checks against the running kernel: they
// must all pass for its own BTF, and btf_load and sysfs_btf must fail for a
// corrupted copy.
func TestChecksOnHost(t *testing.T) {
	const sysfs = "/sys/kernel/btf/vmlinux"
	want, err := os.ReadFile(sysfs)
	if err != nil {
		testenv.SkipOrFail(t, "no kernel BTF here: %v", err)
	}
	if err := kernload.Load(want); errors.Is(err, kernload.ErrNotPermitted) {
		testenv.SkipOrFail(t, "%v", err)
	}
	rs := RunAll(sysfs, want)
	for _, r := range rs {
		t.Log(r)
		if !r.Pass {
			t.Errorf("%s failed on the host's own BTF", r.Name)
		}
	}
	if s := Summary(rs); !strings.HasPrefix(s, "E2E RESULT: PASS") {
		t.Errorf("summary %q", s)
	}

	bad, id, err := CorruptFuncProto(want)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("corrupted FUNC_PROTO [%d]", id)
	rs = RunAll(sysfs, bad)
	for _, r := range rs {
		t.Log(r)
	}
	if rs[0].Pass || rs[2].Pass {
		t.Errorf("checks passed on corrupted BTF")
	}
	if s := Summary(rs); !strings.HasPrefix(s, "E2E RESULT: FAIL") {
		t.Errorf("summary %q", s)
	}
}
