package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/kmod"
)

// The flags Linux 7.2's scripts/Makefile.btf passes a pahole that says
// v1.31 or later (gen-btf.sh adds -J and --btf_encode_detached); make
// puts its -j count after each -j, a plain make none.
const linux72Features = "--btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs --btf_features=attributes --btf_features=layout"

func linux72Flags(j string) []string {
	f := []string{"-J", j}
	f = append(f, strings.Fields(linux72Features)...)
	return append(f, j, "--lang_exclude=rust")
}

// pahole132Sums reads testdata/reference/pahole-1.32/SHA256SUMS (made by
// scripts/pahole132-references from Debian sid's pahole 1.32): the hash
// of each encoding by its name.
func pahole132Sums(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(testenv.Root(t), "testdata", "reference", "pahole-1.32", "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: bad line %q", sc.Text())
		}
		sums[name] = sum
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return sums
}

// withoutLayout returns the bytes of the BTF file at path without a kind
// layout section and with the 24-byte header: what sid's pahole 1.32,
// linked with libbpf 1.7 (which has no layout section), writes for the
// same flags. BTF without a layout section is returned as it is.
func withoutLayout(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := btf.Parse(data, nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if spec.KindLayouts() == nil {
		return data
	}
	spec.SetKindLayouts(nil)
	spec.SetHeaderLen(btf.HeaderLen)
	return spec.Marshal(nil)
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// TestPahole132Vmlinux: `btfkit pahole -J` writes pahole 1.32's bytes for
// the Debian 6.1 vmlinux and the Debian 6.12.111 debug vmlinux, with
// --btf_features=default and with exactly the flags of Linux 7.2's
// Makefile.btf (which ask for the layout feature, which sid's pahole 1.32
// ignores: btfkit's layout section is taken out before the comparison and
// checked on its own), at -j1 and -j2 (and make's bare -j for the kernel
// flags).
func TestPahole132Vmlinux(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes two vmlinux files ten times; skipped under -short")
	}
	sums := pahole132Sums(t)
	vmlinux, _ := testenv.KernelInputs(t)
	inputs := []struct{ name, path string }{{"debian-6.1.0-57-cloud", vmlinux}}
	if v := testenv.Vmlinux612(t); v != "" {
		inputs = append(inputs, struct{ name, path string }{"debian-6.12.111-cloud", v})
	}
	dir := t.TempDir()
	for _, in := range inputs {
		for _, run := range []struct {
			name  string
			flags []string
		}{
			{"default -j1", []string{"-J", "-j1", "--btf_features=default"}},
			{"default -j2", []string{"-J", "-j2", "--btf_features=default"}},
			{"linux-7.2 -j1", linux72Flags("-j1")},
			{"linux-7.2 -j2", linux72Flags("-j2")},
			{"linux-7.2 -j", linux72Flags("-j")},
		} {
			name := in.name + " " + run.name
			want, ok := sums[name]
			if !ok {
				t.Fatalf("SHA256SUMS has no %q (scripts/pahole132-references)", name)
			}
			out := filepath.Join(dir, "out.btf")
			args := append(append([]string{}, run.flags...), "--btf_encode_detached="+out, in.path)
			if _, errOut, code := runPahole(t, args...); code != 0 {
				t.Fatalf("%s: btfkit pahole %q: status %d: %s", name, args, code, errOut)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(run.name, "linux-7.2") {
				spec, err := btf.Parse(data, nil)
				if err != nil {
					t.Fatal(err)
				}
				// The layout feature: libbpf v1.8's table, 32-byte header.
				if got, std := spec.KindLayouts(), btf.StandardKindLayouts(); len(got) != len(std) || spec.HeaderLen() != btf.LayoutHeaderLen {
					t.Errorf("%s: kind layout section of %d entries, header %d bytes; want libbpf's %d entries and %d bytes",
						name, len(got), spec.HeaderLen(), len(std), btf.LayoutHeaderLen)
				}
			}
			if got := sha256Hex(withoutLayout(t, out)); got != want {
				t.Errorf("%s: sha256 %s, pahole 1.32 wrote %s", name, got, want)
			} else {
				t.Logf("%s: identical to pahole 1.32's", name)
			}
		}
	}
}

// TestPahole132Modules: every one of the 1,121 modules of the Debian 6.1
// kernel, encoded against pahole 1.32's BTF of its vmlinux, is byte for
// byte what pahole 1.32 writes (pahole-basefix: sid's pahole on libbpf
// 1.7.0 with its base-typedef hashing fixed, see scripts/sid-tools):
// all of them through `btfkit encode --out-dir` (one process), and a
// sample through `btfkit pahole -J --btf_base` (pahole's command line).
func TestPahole132Modules(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes 1,121 modules; skipped under -short")
	}
	sums := pahole132Sums(t)
	_, modDir := testenv.KernelInputs(t)
	base := testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf")
	out := t.TempDir()
	if stdout, stderr, code := btfkit(t, "encode", "-j", "2", "--base", base, "--out-dir", out, modDir); code != 0 {
		t.Fatalf("btfkit encode --out-dir: status %d: %s%s", code, stdout, stderr)
	}
	mods := testenv.Modules(t)
	var bad []string
	for _, ko := range mods {
		name := kmod.Name(ko)
		want, ok := sums["module "+name]
		if !ok {
			t.Fatalf("SHA256SUMS has no module %s", name)
		}
		data, err := os.ReadFile(filepath.Join(out, name+".btf"))
		if err != nil {
			t.Fatal(err)
		}
		if sha256Hex(data) != want {
			bad = append(bad, name)
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("%d of %d modules differ from pahole 1.32's: %s", len(bad), len(mods), strings.Join(bad[:min(len(bad), 20)], " "))
	} else {
		t.Logf("all %d modules identical to pahole 1.32's", len(mods))
	}
	for _, ko := range testenv.ModuleSample(t, 25) {
		name := kmod.Name(ko)
		o := filepath.Join(t.TempDir(), name+".btf")
		if _, errOut, code := runPahole(t, "-J", "--btf_features=default", "--btf_base", base, "--btf_encode_detached="+o, ko); code != 0 {
			t.Fatalf("btfkit pahole --btf_base %s: status %d: %s", ko, code, errOut)
		}
		data, err := os.ReadFile(o)
		if err != nil {
			t.Fatal(err)
		}
		if sha256Hex(data) != sums["module "+name] {
			t.Errorf("btfkit pahole -J --btf_base: %s differs from pahole 1.32's", name)
		}
	}
}

// TestPahole132Sums: the reference list names every encoding the tests
// ask for and nothing twice.
func TestPahole132Sums(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testenv.Root(t), "testdata", "reference", "pahole-1.32", "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		sum, name, ok := strings.Cut(string(l), "  ")
		if !ok || len(sum) != 64 {
			t.Fatalf("bad line %q", l)
		}
		if seen[name] {
			t.Errorf("%q twice", name)
		}
		seen[name] = true
	}
	if n := len(seen); n < 1121+10 {
		t.Errorf("%d encodings listed, want the 10 vmlinux ones and 1,121 modules", n)
	}
}
