package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/internal/testenv"
)

// The flags Linux passes to pahole for vmlinux (scripts/Makefile.btf with
// a pahole that says it is 1.31; link-vmlinux.sh in 6.12, gen-btf.sh with
// --btf_encode_detached today), each with the pahole 1.31 output for the
// Debian vmlinux that the same flags give (testdata/README.md says how each
// reference was made and that pahole 1.31 gives these bytes for these
// flags).
var kernelFlagSets = []struct {
	name  string
	flags []string
	ref   string
}{
	{"Linux 6.12", []string{"-J", "-j", "--btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs", "-j", "--lang_exclude=rust"},
		"debian-6.1.0-57-cloud/pahole-1.31-head.btf"},
	{"today (7.1: attributes from 1.30, layout from 1.31)", []string{"-J", "-j", "--btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs", "--btf_features=attributes", "--btf_features=layout", "--lang_exclude=rust"},
		"debian-6.1.0-57-cloud/pahole-1.31-head-layout.btf"},
}

// TestKernelFlagSets: on the Debian vmlinux, `btfkit encode --features
// default,layout` writes pahole 1.31's --btf_features=default,layout bytes,
// and `btfkit pahole` given exactly the flags of Linux 6.12's and today's
// Makefile.btf writes what pahole 1.31 writes given them.
func TestKernelFlagSets(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes the whole vmlinux three times; skipped under -short")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "encode.btf")
	if stdout, stderr, code := btfkit(t, "encode", "-j", "2", "--features", "default,layout", "-o", out, vmlinux); code != 0 {
		t.Fatalf("btfkit encode: status %d: %s%s", code, stdout, stderr)
	}
	sameBytes(t, "encode --features default,layout", out, testenv.Reference(t, "debian-6.1.0-57-cloud/pahole-1.31-head-layout.btf"))
	for _, fs := range kernelFlagSets {
		out := filepath.Join(dir, "pahole.btf")
		args := append(append([]string{}, fs.flags...), "--btf_encode_detached="+out, vmlinux)
		if _, errOut, code := runPahole(t, args...); code != 0 {
			t.Fatalf("%s: btfkit pahole %q: status %d: %s", fs.name, args, code, errOut)
		}
		sameBytes(t, fs.name+" flags", out, testenv.Reference(t, fs.ref))
	}
}

func sameBytes(t *testing.T, what, got, want string) {
	t.Helper()
	a, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		n := 0
		for n < len(a) && n < len(b) && a[n] == b[n] {
			n++
		}
		t.Errorf("%s: %d bytes, pahole 1.31 wrote %d; first difference at byte %d", what, len(a), len(b), n)
	} else {
		t.Logf("%s: %d bytes, identical to pahole 1.31's", what, len(a))
	}
}
