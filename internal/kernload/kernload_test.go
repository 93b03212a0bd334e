package kernload

import (
	"errors"
	"os"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

func TestLoadKernelOwnBTF(t *testing.T) {
	data, err := os.ReadFile("/sys/kernel/btf/vmlinux")
	if err != nil {
		testenv.SkipOrFail(t, "no /sys/kernel/btf/vmlinux: %v", err)
	}
	err = Load(data)
	if errors.Is(err, ErrNotPermitted) {
		testenv.SkipOrFail(t, "%v", err)
	}
	if err != nil {
		t.Fatalf("the kernel's own BTF was rejected: %v", err)
	}
	// A corrupted copy must be rejected with a log: bad magic.
	bad := append([]byte(nil), data...)
	bad[0] ^= 0xff
	var rej *RejectedError
	if err := Load(bad); !errors.As(err, &rej) {
		t.Fatalf("corrupted BTF: got %v, want a rejection", err)
	}
}
