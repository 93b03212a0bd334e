package btf

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// referenceBTFFiles returns the paths of the reference BTF files
// (testdata/reference/*/*.btf), unpacked for t.
func referenceBTFFiles(t testing.TB) []string {
	t.Helper()
	names := testenv.ReferenceNames(t, "*/*.btf")
	if len(names) == 0 {
		t.Fatal("no reference BTF files in testdata/reference")
	}
	var paths []string
	for _, n := range names {
		paths = append(paths, testenv.Reference(t, n))
	}
	return paths
}

// TestRoundTripReference parses each reference BTF and writes it back: the
// bytes must equal the input (libbpf and pahole lay out raw BTF as header,
// types, strings, which is what Marshal writes), and parsing the output
// gives the same types.
func TestRoundTripReference(t *testing.T) {
	files := referenceBTFFiles(t)
	if _, err := os.Stat("/sys/kernel/btf/vmlinux"); err == nil {
		files = append(files, "/sys/kernel/btf/vmlinux")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			out := s.Marshal(s.ByteOrder())
			if !bytes.Equal(out, data) {
				t.Fatalf("round trip differs: in %d bytes, out %d bytes", len(data), len(out))
			}
		})
	}
}

// TestRoundTripAllInputs reads every oracle input (reference BTFs, the
// running kernel's, the Debian vmlinux and 20 split modules, compiled
// objects), writes it with Marshal and reads it back: the types and strings
// must be the same. The written file must be accepted by bpftool with a
// listing equal to the original's, and, for base BTF, by the running
// kernel's verifier (BPF_BTF_LOAD).
func TestRoundTripAllInputs(t *testing.T) {
	dir := t.TempDir()
	for i, in := range allInputs(t) {
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			s := loadInput(t, in)
			out := s.Marshal(s.ByteOrder())
			back, err := Parse(out, s.Base())
			if err != nil {
				t.Fatalf("reading back what Marshal wrote: %v", err)
			}
			if d := specDiff(back, s); d != "" {
				t.Fatalf("round trip lost information: %s", d)
			}

			written := filepath.Join(dir, fmt.Sprintf("%d.btf", i))
			if err := os.WriteFile(written, out, 0o644); err != nil {
				t.Fatal(err)
			}
			want := bpftoolDump(t, in.path, in.base)
			if got := bpftoolDump(t, written, in.base); !bytes.Equal(got, want) {
				t.Errorf("bpftool lists the written file differently at %s", firstDiff(got, want))
			}

			if s.Base() != nil {
				return // the kernel loads split BTF only against a loaded base
			}
			err = kernload.Load(out)
			if errors.Is(err, kernload.ErrNotPermitted) {
				testenv.SkipOrFail(t, "kernel check: %v", err)
			}
			if err != nil {
				// Objects from compilers may carry BTF the kernel refuses
				// in any form; then the original must be refused alike.
				orig, _, rerr := ReadBTFBytes(in.path)
				if rerr == nil && kernload.Load(orig) != nil {
					t.Logf("the kernel refuses the original too: %s", lastLogLine(err))
					return
				}
				t.Fatalf("kernel rejects the written BTF: %v", err)
			}
		})
	}
}

// lastLogLine shortens a kernel rejection to the verifier log's last line,
// which names the offending type and the reason.
func lastLogLine(err error) string {
	var rej *kernload.RejectedError
	if !errors.As(err, &rej) {
		return err.Error()
	}
	lines := strings.Split(strings.TrimSpace(rej.Log), "\n")
	return fmt.Sprintf("%v: %s", rej.Errno, strings.TrimSpace(lines[len(lines)-1]))
}
