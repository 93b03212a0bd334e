package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"github.com/btfkit/btfkit/internal/refdata"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
)

var (
	modRefDir  = refdata.Dir + "/reference/debian-6.1.0-57-cloud"
	modBaseBTF = modRefDir + "/embedded.btf"
)

// modSkip skips the test, or fails it under CI=true.
func modSkip(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf("SKIP: "+format, args...)
}

// modInputs returns the Debian vmlinux and module directory
// (/work/shared/tools/kernel-inputs), skipping when they are absent.
func modInputs(t testing.TB) (vmlinux, modules string) {
	t.Helper()
	vmlinux, modules, err := refdata.KernelInputs()
	if err != nil {
		modSkip(t, "the Debian kernel is not installed: %v", err)
	}
	for _, p := range []string{vmlinux, modules, modBaseBTF} {
		if _, err := os.Stat(p); p == "" || err != nil {
			modSkip(t, "kernel input %q not available", p)
		}
	}
	return vmlinux, modules
}

// modSubset returns n module paths spread over the Debian package.
func modSubset(t testing.TB, n int) []string {
	_, dir := modInputs(t)
	var all []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ko") {
			all = append(all, p)
		}
		return nil
	})
	sort.Strings(all)
	var out []string
	for i := 0; i < len(all) && len(out) < n; i += max(1, len(all)/n) {
		out = append(out, all[i])
	}
	return out
}

// modFind returns the path of one Debian module.
func modFind(t testing.TB, name string) string {
	_, dir := modInputs(t)
	var found string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == name+".ko" {
			found = p
		}
		return nil
	})
	if found == "" {
		t.Fatalf("module %s not found under %s", name, dir)
	}
	return found
}

// runCmd runs a command, returning stdout, stderr and the exit status.
func runCmd(t testing.TB, name string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	}
	t.Fatalf("running %s %v: %v", name, args, err)
	return "", "", -1
}

func copyFile(t testing.TB, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func fileHash(t testing.TB, path string) [32]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	var s [32]byte
	copy(s[:], h.Sum(nil))
	return s
}

// TestEncodeOutDirEqualsOneByOne: `btfkit encode --base B --out-dir D`
// over 30 modules writes, for each, the bytes `btfkit encode --base B -o
// OUT mod.ko` writes for it alone; no progress bar when standard error is
// not a terminal, one summary line.
func TestEncodeOutDirEqualsOneByOne(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 6
	}
	mods := modSubset(t, n)
	bin := btfkitBinary(t)
	dir := t.TempDir()
	batch := filepath.Join(dir, "batch")
	_, stderr, code := runCmd(t, bin, append([]string{"encode", "-j2", "--base", modBaseBTF, "--out-dir", batch}, mods...)...)
	if code != 0 {
		t.Fatalf("batch: status %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "\r") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, fmt.Sprintf("%d modules, %d written, 0 failed", len(mods), len(mods))) {
		t.Errorf("stderr of a batch not on a terminal: %q", stderr)
	}
	for _, m := range mods {
		name := strings.TrimSuffix(filepath.Base(m), ".ko")
		one := filepath.Join(dir, name+".one.btf")
		if _, stderr, code := runCmd(t, bin, "encode", "--base", modBaseBTF, "-o", one, m); code != 0 {
			t.Fatalf("%s: status %d: %s", name, code, stderr)
		}
		a, err1 := os.ReadFile(one)
		b, err2 := os.ReadFile(filepath.Join(batch, name+".btf"))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: batch output differs from the one-by-one run (%v, %v)", name, err1, err2)
		}
	}
}

// TestEncodeOutDirFailures: with broken modules among good ones, the good
// ones are written, every failed one is named, and the status is 1.
func TestEncodeOutDirFailures(t *testing.T) {
	mods := modSubset(t, 3)
	bin := btfkitBinary(t)
	in := t.TempDir()
	for _, m := range mods {
		if err := os.Symlink(m, filepath.Join(in, filepath.Base(m))); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(in, "aaa_broken.ko"), []byte("no ELF here"), 0o644)
	os.WriteFile(filepath.Join(in, "zzz_trunc.ko.gz"), []byte("\x1f\x8b\x08\x00garbage"), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	_, stderr, code := runCmd(t, bin, "encode", "--base", modBaseBTF, "--out-dir", out, in)
	if code != 1 {
		t.Errorf("status %d, want 1", code)
	}
	for _, name := range []string{"aaa_broken", "zzz_trunc"} {
		if !strings.Contains(stderr, name) {
			t.Errorf("stderr does not name %s: %s", name, stderr)
		}
		if _, err := os.Stat(filepath.Join(out, name+".btf")); err == nil {
			t.Errorf("%s.btf written for a failed module", name)
		}
	}
	if !strings.Contains(stderr, "2 of 5 modules failed: aaa_broken zzz_trunc") {
		t.Errorf("no summary of failures: %s", stderr)
	}
	for _, m := range mods {
		if _, err := os.Stat(filepath.Join(out, strings.TrimSuffix(filepath.Base(m), ".ko")+".btf")); err != nil {
			t.Errorf("good module not written: %v", err)
		}
	}
}

// TestEncodeFlagErrors: contradictory flags are refused.
func TestEncodeFlagErrors(t *testing.T) {
	bin := btfkitBinary(t)
	for _, args := range [][]string{
		{"encode", "--out-dir", "d", "--in-place", "x.ko"},
		{"encode", "-o", "x", "--out-dir", "d", "x.ko"},
		{"encode", "--base", modBaseBTF, "x.ko"},
		{"encode", "--out-dir", "d"},
		{"encode", "--base", modBaseBTF, "-o", "x", "a.ko", "b.ko"},
	} {
		if _, stderr, code := runCmd(t, bin, args...); code != 1 || stderr == "" {
			t.Errorf("%v: status %d, stderr %q", args, code, stderr)
		}
	}
}

// TestEncodeInPlaceModule: --in-place on a copy of a module writes the
// detached output's bytes as .BTF; readelf and objcopy read the file;
// bpftool's dump of it (-B base) equals its dump of the detached output.
// With +distilled_base it writes .BTF.base too, and bpftool reads the
// .BTF against it. A failure at the last step leaves the file as it was.
func TestEncodeInPlaceModule(t *testing.T) {
	for _, tool := range []string{"readelf", "objcopy", "bpftool"} {
		if _, err := exec.LookPath(tool); err != nil {
			modSkip(t, "%s not installed", tool)
		}
	}
	src := modFind(t, "8021q")
	bin := btfkitBinary(t)
	dir := t.TempDir()
	detached := filepath.Join(dir, "detached.btf")
	if _, stderr, code := runCmd(t, bin, "encode", "--base", modBaseBTF, "-o", detached, src); code != 0 {
		t.Fatalf("detached: %d: %s", code, stderr)
	}
	ko := filepath.Join(dir, "8021q.ko")
	copyFile(t, src, ko)
	if _, stderr, code := runCmd(t, bin, "encode", "--base", modBaseBTF, "--in-place", ko); code != 0 {
		t.Fatalf("in place: %d: %s", code, stderr)
	}
	secs, stderr, code := runCmd(t, "readelf", "-SW", ko)
	if code != 0 || !strings.Contains(secs, " .BTF ") || stderr != "" {
		t.Errorf("readelf -S: status %d, stderr %q", code, stderr)
	}
	dumped := filepath.Join(dir, "dumped.btf")
	if _, stderr, code := runCmd(t, "objcopy", "--dump-section", ".BTF="+dumped, ko, filepath.Join(dir, "objcopy.out")); code != 0 {
		t.Fatalf("objcopy: %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(dumped)
	b, _ := os.ReadFile(detached)
	if !bytes.Equal(a, b) {
		t.Errorf(".BTF (%d bytes) differs from the detached output (%d bytes)", len(a), len(b))
	}
	d1, e1, c1 := runCmd(t, "bpftool", "-B", modBaseBTF, "btf", "dump", "file", ko)
	d2, e2, c2 := runCmd(t, "bpftool", "-B", modBaseBTF, "btf", "dump", "file", detached)
	if c1 != 0 || c2 != 0 || d1 != d2 || d1 == "" {
		t.Errorf("bpftool dumps differ or fail: %d %q, %d %q", c1, e1, c2, e2)
	}

	// Distilled base: .BTF split against .BTF.base.
	kd := filepath.Join(dir, "8021q-distilled.ko")
	copyFile(t, src, kd)
	if _, stderr, code := runCmd(t, bin, "encode", "--base", modBaseBTF, "--features=+distilled_base", "--in-place", kd); code != 0 {
		t.Fatalf("in place, distilled: %d: %s", code, stderr)
	}
	secs, _, _ = runCmd(t, "readelf", "-SW", kd)
	if !strings.Contains(secs, " .BTF ") || !strings.Contains(secs, " .BTF.base ") {
		t.Errorf("readelf: no .BTF and .BTF.base:\n%s", secs)
	}
	distBase := filepath.Join(dir, "distilled.base")
	distSplit := filepath.Join(dir, "distilled.split")
	if _, stderr, code := runCmd(t, "objcopy", "--dump-section", ".BTF.base="+distBase, "--dump-section", ".BTF="+distSplit, kd, filepath.Join(dir, "objcopy2.out")); code != 0 {
		t.Fatalf("objcopy: %d: %s", code, stderr)
	}
	if out, stderr, code := runCmd(t, "bpftool", "-B", distBase, "btf", "dump", "file", distSplit); code != 0 || !strings.Contains(out, "STRUCT 'vlan_net'") {
		t.Errorf("bpftool -B .BTF.base btf dump .BTF: status %d: %s", code, stderr)
	}
	// The same BTF as pahole 1.31 writes there (the reference tarball).
	ref := t.TempDir()
	if out, err := exec.Command("tar", "-xJf", modRefDir+"/distilled-pahole-1.31.tar.xz", "-C", ref, "8021q.BTF", "8021q.BTF.base").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v: %s", err, out)
	}
	for _, c := range [][]string{
		{"diff", filepath.Join(ref, "8021q.BTF.base"), distBase},
		{"diff", "--base", filepath.Join(ref, "8021q.BTF.base"), "--base-b", distBase, filepath.Join(ref, "8021q.BTF"), distSplit},
	} {
		if out, _, code := runCmd(t, bin, c...); code != 0 {
			t.Errorf("btfkit %v: differs from pahole 1.31's:\n%s", c, out)
		}
	}

	// A failure after both sections are written, before the rename.
	kf := filepath.Join(dir, "8021q-fail.ko")
	copyFile(t, src, kf)
	before := fileHash(t, kf)
	base, err := encode.LoadBase(modBaseBTF)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := btf.LoadFile(detached, base.Spec())
	if err != nil {
		t.Fatal(err)
	}
	inPlaceHook = func(string) error { return errors.New("injected failure") }
	err = writeInPlace(kf, spec, true)
	inPlaceHook = nil
	if err == nil || !strings.Contains(err.Error(), "injected failure") {
		t.Errorf("writeInPlace with a failing last step: %v", err)
	}
	if fileHash(t, kf) != before {
		t.Errorf("the file changed although writing failed")
	}
	// A file that is not a complete ELF: refused, untouched.
	trunc := filepath.Join(dir, "trunc.ko")
	raw, _ := os.ReadFile(src)
	os.WriteFile(trunc, raw[:len(raw)/2], 0o644)
	before = fileHash(t, trunc)
	for _, distilled := range []bool{false, true} {
		if err := writeInPlace(trunc, spec, distilled); err == nil {
			t.Errorf("writeInPlace (distilled %v) into a truncated ELF succeeded", distilled)
		}
	}
	if fileHash(t, trunc) != before {
		t.Errorf("the truncated file changed")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*btfkit*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestEncodeInPlaceVmlinux: --in-place on a copy of the Debian vmlinux.
// Its .BTF is a loaded (SHF_ALLOC) section, which cannot change size in
// place: refused, the file untouched. Without it (renamed by objcopy; a
// kernel build's .tmp_vmlinux has none either), .BTF is added: readelf and objcopy read the result, and bpftool's dump of it
// equals its dump of the detached output.
func TestEncodeInPlaceVmlinux(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: copies and encodes the 590 MB vmlinux (-short)")
	}
	for _, tool := range []string{"readelf", "objcopy", "bpftool"} {
		if _, err := exec.LookPath(tool); err != nil {
			modSkip(t, "%s not installed", tool)
		}
	}
	vmlinux, _ := modInputs(t)
	bin := btfkitBinary(t)
	dir := t.TempDir()
	detached := filepath.Join(dir, "vmlinux.btf")
	if _, stderr, code := runCmd(t, bin, "encode", "-o", detached, vmlinux); code != 0 {
		t.Fatalf("detached: %d: %s", code, stderr)
	}
	cp := filepath.Join(dir, "vmlinux")
	copyFile(t, vmlinux, cp)
	before := fileHash(t, cp)
	if _, stderr, code := runCmd(t, bin, "encode", "--in-place", cp); code != 1 || !strings.Contains(stderr, ".BTF") {
		t.Errorf("in place over an allocated .BTF of another size: status %d: %s", code, stderr)
	}
	if fileHash(t, cp) != before {
		t.Errorf("the vmlinux copy changed although writing failed")
	}
	// objcopy cannot remove it (__start_BTF points into it): renamed,
	// .BTF is missing and is added.
	stripped := filepath.Join(dir, "vmlinux.nobtf")
	if _, stderr, code := runCmd(t, "objcopy", "--rename-section", ".BTF=.BTF.debian", cp, stripped); code != 0 {
		t.Fatalf("objcopy --rename-section: %s", stderr)
	}
	os.Remove(cp)
	if _, stderr, code := runCmd(t, bin, "encode", "--in-place", stripped); code != 0 {
		t.Fatalf("in place: %d: %s", code, stderr)
	}
	secs, _, code := runCmd(t, "readelf", "-SW", stripped)
	if code != 0 || !strings.Contains(secs, " .BTF ") {
		t.Errorf("readelf: status %d, no .BTF", code)
	}
	dumped := filepath.Join(dir, "dumped.btf")
	if _, stderr, code := runCmd(t, "objcopy", "--dump-section", ".BTF="+dumped, stripped, filepath.Join(dir, "objcopy.out")); code != 0 {
		t.Fatalf("objcopy: %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(dumped)
	b, _ := os.ReadFile(detached)
	if !bytes.Equal(a, b) {
		t.Errorf(".BTF (%d bytes) differs from the detached output (%d bytes)", len(a), len(b))
	}
	d1, e1, c1 := runCmd(t, "bpftool", "btf", "dump", "file", stripped)
	d2, e2, c2 := runCmd(t, "bpftool", "btf", "dump", "file", detached)
	if c1 != 0 || c2 != 0 || d1 != d2 || d1 == "" {
		t.Errorf("bpftool dumps differ or fail: %d %q, %d %q", c1, e1, c2, e2)
	}
}

// TestEncodeBaseFromELF: --base takes the base BTF from raw BTF or from an
// ELF's .BTF (the Debian vmlinux, whose .BTF is embedded.btf): the same
// output either way.
func TestEncodeBaseFromELF(t *testing.T) {
	vmlinux, _ := modInputs(t)
	mod := modFind(t, "vfat")
	bin := btfkitBinary(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "raw.btf"), filepath.Join(dir, "elf.btf")
	for _, c := range [][]string{{modBaseBTF, a}, {vmlinux, b}} {
		if _, stderr, code := runCmd(t, bin, "encode", "--base", c[0], "-o", c[1], mod); code != 0 {
			t.Fatalf("--base %s: status %d: %s", c[0], code, stderr)
		}
	}
	x, _ := os.ReadFile(a)
	y, _ := os.ReadFile(b)
	if len(x) == 0 || !bytes.Equal(x, y) {
		t.Errorf("--base %s and --base %s give different outputs", modBaseBTF, vmlinux)
	}
	if _, stderr, code := runCmd(t, bin, "encode", "--base", filepath.Join(dir, "missing"), "-o", a, mod); code != 1 || !strings.Contains(stderr, "--base") {
		t.Errorf("missing base: status %d, %q", code, stderr)
	}
}
