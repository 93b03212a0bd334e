package cdump

import (
	"bytes"
	"io"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// BenchmarkBytes618 measures the dump alone (parsing excluded) on the 6.18
// reference BTF.
func BenchmarkBytes618(b *testing.B) {
	path := testenv.Reference(b, "host-6.18/vmlinux.btf")
	s, err := btf.LoadFile(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Bytes(s, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad618 measures reading the 6.18 reference BTF.
func BenchmarkLoad618(b *testing.B) {
	path := testenv.Reference(b, "host-6.18/vmlinux.btf")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := btf.LoadFile(path, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadAndBytes618 is what 'btfkit dump --format c' does for the
// 6.18 reference BTF: read it and print the header.
func BenchmarkLoadAndBytes618(b *testing.B) {
	path := testenv.Reference(b, "host-6.18/vmlinux.btf")
	b.ReportAllocs()
	for b.Loop() {
		s, err := btf.LoadFile(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Bytes(s, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteRaw618 is the raw listing of the 6.18 reference BTF
// (parsing excluded) to a discarding writer.
func BenchmarkWriteRaw618(b *testing.B) {
	path := testenv.Reference(b, "host-6.18/vmlinux.btf")
	s, err := btf.LoadFile(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	WriteRaw(&buf, s)
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteRaw(io.Discard, s); err != nil {
			b.Fatal(err)
		}
	}
}
