package btf

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// referenceDir holds the BTF files the project is measured against.
func referenceBTFFiles(t testing.TB) []string {
	t.Helper()
	m, _ := filepath.Glob("../../shared/reference/*/*.btf")
	if len(m) == 0 {
		t.Skip("SKIP: ../../shared/reference/*/*.btf not found")
	}
	return m
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
