package main

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// modBase is pahole 1.32's BTF of the Debian vmlinux (the reference
// pahole-1.32/debian-6.1.0-57-cloud.btf): the base the modules are
// encoded against, as pahole 1.32's module references are.
func modBase(t testing.TB) string {
	return testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf")
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
	modBaseBTF := modBase(t)
	n := 30
	if testing.Short() {
		n = 6
	}
	mods := testenv.ModuleSample(t, n)
	bin := testenv.Btfkit(t)
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
	modBaseBTF := modBase(t)
	mods := testenv.ModuleSample(t, 3)
	bin := testenv.Btfkit(t)
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
	modBaseBTF := modBase(t)
	bin := testenv.Btfkit(t)
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
// detached output's bytes (pahole 1.32's, SHA256SUMS) as .BTF; readelf
// and objcopy read the file;
// bpftool's dump of it (-B base) equals its dump of the detached output.
// With +distilled_base it writes .BTF.base too, and bpftool reads the
// .BTF against it. A failure at the last step leaves the file as it was.
func TestEncodeInPlaceModule(t *testing.T) {
	modBaseBTF := modBase(t)
	testc.Require(t, "readelf", "objcopy", "bpftool")
	src := testenv.Module(t, "8021q")
	bin := testenv.Btfkit(t)
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
	if got, want := sha256Hex(b), pahole132Sums(t)["module 8021q"]; got != want {
		t.Errorf("detached output: sha256 %s, pahole 1.32's %s", got, want)
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
	// The same BTF as pahole 1.32 writes there (the reference tarball).
	ref := t.TempDir()
	if out, err := exec.Command("tar", "-xJf", testenv.Reference(t, "debian-6.1.0-57-cloud/distilled-pahole-1.32.tar.xz"), "-C", ref, "8021q.BTF", "8021q.BTF.base").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v: %s", err, out)
	}
	for _, c := range [][]string{
		{"diff", filepath.Join(ref, "8021q.BTF.base"), distBase},
		{"diff", "--base", filepath.Join(ref, "8021q.BTF.base"), "--base-b", distBase, filepath.Join(ref, "8021q.BTF"), distSplit},
	} {
		if out, _, code := runCmd(t, bin, c...); code != 0 {
			t.Errorf("btfkit %v: differs from pahole 1.32's:\n%s", c, out)
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

// TestEncodeInPlaceNoGap: writing a module's BTF in place leaves no
// dead copy of the section it replaces. On Debian's fuse.ko (a .BTF by
// pahole 1.24, of another size than ours), plain and with a distilled
// base: the file is no larger than what GNU objcopy --update-section (and
// --add-section for .BTF.base) makes of the same sections (old code:
// 28 KB more, the old .BTF left where it was); encoding in place again
// gives the same file, byte for byte; with .BTF and .BTF.base removed by
// objcopy, the original and the written file give the same bytes (every
// other section's contents and header the same); readelf reads it without
// a warning; bpftool dumps the module's BTF as it dumps the detached
// output, and btfkit check accepts it against its base.
func TestEncodeInPlaceNoGap(t *testing.T) {
	modBaseBTF := modBase(t)
	testc.Require(t, "readelf", "objcopy", "bpftool")
	src := testenv.Module(t, "fuse")
	bin := testenv.Btfkit(t)
	dir := t.TempDir()
	size := func(p string) int64 {
		t.Helper()
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	strip := func(p string) [32]byte {
		t.Helper()
		out := p + ".stripped"
		if _, stderr, code := runCmd(t, "objcopy", "-R", ".BTF", "-R", ".BTF.base", p, out); code != 0 || stderr != "" {
			t.Fatalf("objcopy -R .BTF -R .BTF.base %s: %d: %s", p, code, stderr)
		}
		defer os.Remove(out)
		return fileHash(t, out)
	}
	origStripped := strip(src)
	for _, c := range []struct {
		name     string
		features []string
	}{
		{"plain", nil},
		{"distilled", []string{"--features=+distilled_base"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ko := filepath.Join(dir, c.name+".ko")
			copyFile(t, src, ko)
			encode := func() {
				t.Helper()
				args := append(append([]string{"encode", "--base", modBaseBTF}, c.features...), "--in-place", ko)
				if _, stderr, code := runCmd(t, bin, args...); code != 0 {
					t.Fatalf("%v: %d: %s", args, code, stderr)
				}
			}
			encode()
			once := fileHash(t, ko)
			n1 := size(ko)
			encode()
			if n2 := size(ko); n2 != n1 || fileHash(t, ko) != once {
				t.Errorf("encoding in place again: %d bytes, was %d (or other bytes)", n2, n1)
			}

			// objcopy given the same sections.
			btfSec, baseSec := filepath.Join(dir, c.name+".BTF"), filepath.Join(dir, c.name+".BTF.base")
			dump := []string{"--dump-section", ".BTF=" + btfSec}
			update := []string{"--update-section", ".BTF=" + btfSec}
			if c.features != nil {
				dump = append(dump, "--dump-section", ".BTF.base="+baseSec)
				update = append(update, "--add-section", ".BTF.base="+baseSec)
			}
			if _, stderr, code := runCmd(t, "objcopy", append(dump, ko, filepath.Join(dir, "scratch"))...); code != 0 {
				t.Fatalf("objcopy --dump-section: %s", stderr)
			}
			oc := filepath.Join(dir, c.name+".objcopy.ko")
			if _, stderr, code := runCmd(t, "objcopy", append(update, src, oc)...); code != 0 {
				t.Fatalf("objcopy %v: %s", update, stderr)
			}
			// 8 bytes of slack: where each puts its alignment padding.
			if n, no := size(ko), size(oc); n > no+8 {
				t.Errorf("written in place: %d bytes; objcopy makes %d (original %d)", n, no, size(src))
			}
			if strip(ko) != origStripped {
				t.Errorf("without .BTF and .BTF.base, objcopy makes other bytes of the written file than of the original")
			}
			if out, stderr, code := runCmd(t, "readelf", "-SW", ko); code != 0 || stderr != "" || strings.Contains(out, "Warning") {
				t.Errorf("readelf -SW: %d: %s", code, stderr)
			}
			detached := filepath.Join(dir, c.name+".detached.btf")
			if _, stderr, code := runCmd(t, bin, "encode", "--base", modBaseBTF, "-o", detached, src); code != 0 {
				t.Fatalf("detached: %s", stderr)
			}
			if c.features == nil {
				d1, e1, c1 := runCmd(t, "bpftool", "-B", modBaseBTF, "btf", "dump", "file", detached)
				d2, e2, c2 := runCmd(t, "bpftool", "-B", modBaseBTF, "btf", "dump", "file", ko)
				if c1 != 0 || c2 != 0 || d1 == "" || d1 != d2 {
					t.Errorf("bpftool dumps differ or fail: %d %q, %d %q", c1, e1, c2, e2)
				}
			} else {
				// .BTF against .BTF.base, as objcopy dumped them
				// (TestEncodeInPlaceModule compares them with pahole
				// 1.32's).
				out, stderr, code := runCmd(t, "bpftool", "-B", baseSec, "btf", "dump", "file", btfSec)
				if code != 0 || !strings.Contains(out, "STRUCT 'fuse_conn'") {
					t.Errorf("bpftool -B .BTF.base btf dump .BTF: %d: %s", code, stderr)
				}
			}
			if out, _, code := runCmd(t, bin, "check", "--base", modBaseBTF, ko); code != 0 {
				t.Errorf("btfkit check --base: %d: %s", code, out)
			}
		})
	}
}

// TestEncodeInPlaceVmlinux: --in-place on a copy of the Debian vmlinux,
// whose .BTF (pahole 1.24's) is loaded (SHF_ALLOC, between __start_BTF and
// __stop_BTF in the first PT_LOAD segment) and of another size than ours.
// Oracles: readelf -SW -lW print no warning and map .BTF.loaded (the old,
// loaded .BTF, kept) into the segment; objcopy copies the file without a
// word and dumps .BTF as exactly the detached output and .BTF.loaded as the
// original .BTF; bpftool's dump of the file equals its dump of the detached
// output; objcopy -O binary (the loaded image) is the original's; debug/elf
// reads the original program headers; of the original bytes before the
// section name table (which grows) only e_shoff and e_shnum differ, and the
// file grows by no more than the new .BTF, its name and header; encoded in
// place again, it keeps its size. A failure midway (the file size limit reached while
// writing, an injected error before the rename, an unwritable directory)
// leaves the original bytes and no temporary file. Without .BTF (renamed by
// objcopy; a kernel build's .tmp_vmlinux has none either) .BTF is added.
func TestEncodeInPlaceVmlinux(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: copies the 590 MB vmlinux and encodes it five times, about 2-3 minutes (-short)")
	}
	testc.Require(t, "readelf", "objcopy", "bpftool", "prlimit")
	vmlinux, _ := testenv.KernelInputs(t)
	bin := testenv.Btfkit(t)
	dir := t.TempDir()
	detached := filepath.Join(dir, "vmlinux.btf")
	if _, stderr, code := runCmd(t, bin, "encode", "-o", detached, vmlinux); code != 0 {
		t.Fatalf("detached: %d: %s", code, stderr)
	}
	want, _ := os.ReadFile(detached)
	of, err := elf.Open(vmlinux)
	if err != nil {
		t.Fatal(err)
	}
	origBTF, err := of.Section(".BTF").Data()
	if err != nil {
		t.Fatal(err)
	}
	origProgs := of.Progs
	loaded := of.Section(".BTF").Flags&elf.SHF_ALLOC != 0
	shstrOff := int64(of.Section(".shstrtab").Offset)
	of.Close()
	if !loaded || len(origBTF) == len(want) {
		t.Fatalf("the input's .BTF is not loaded or has our size (%d bytes): not the case tested", len(origBTF))
	}
	origImage := filepath.Join(dir, "orig.bin")
	if _, stderr, code := runCmd(t, "objcopy", "-O", "binary", vmlinux, origImage); code != 0 {
		t.Fatalf("objcopy -O binary: %s", stderr)
	}

	cp := filepath.Join(dir, "vmlinux")
	copyFile(t, vmlinux, cp)
	if _, stderr, code := runCmd(t, bin, "encode", "--in-place", cp); code != 0 {
		t.Fatalf("in place: %d: %s", code, stderr)
	}
	secs, e1, c1 := runCmd(t, "readelf", "-SW", cp)
	segs, e2, c2 := runCmd(t, "readelf", "-lW", cp)
	if c1 != 0 || c2 != 0 || e1 != "" || e2 != "" || strings.Contains(secs+segs, "Warning") {
		t.Errorf("readelf: status %d %d: %s%s", c1, c2, e1, e2)
	}
	if !strings.Contains(secs, "] .BTF ") || !strings.Contains(segs, " .BTF.loaded .BTF_ids ") {
		t.Errorf("readelf: no .BTF, or .BTF.loaded not in its segment:\n%s\n%s", secs, segs)
	}
	dumped, kept := filepath.Join(dir, "dumped.btf"), filepath.Join(dir, "kept.btf")
	copied := filepath.Join(dir, "objcopy.out")
	if _, stderr, code := runCmd(t, "objcopy", "--dump-section", ".BTF="+dumped, "--dump-section", ".BTF.loaded="+kept, cp, copied); code != 0 || stderr != "" {
		t.Errorf("objcopy: status %d: %s", code, stderr)
	}
	os.Remove(copied)
	if a, _ := os.ReadFile(dumped); !bytes.Equal(a, want) {
		t.Errorf(".BTF (%d bytes) differs from the detached output (%d bytes)", len(a), len(want))
	}
	if a, _ := os.ReadFile(kept); !bytes.Equal(a, origBTF) {
		t.Errorf(".BTF.loaded (%d bytes) is not the original .BTF (%d bytes)", len(a), len(origBTF))
	}
	d1, e1, c1 := runCmd(t, "bpftool", "btf", "dump", "file", cp)
	d2, e2, c2 := runCmd(t, "bpftool", "btf", "dump", "file", detached)
	if c1 != 0 || c2 != 0 || d1 != d2 || d1 == "" {
		t.Errorf("bpftool dumps differ or fail: %d %q, %d %q", c1, e1, c2, e2)
	}
	image := filepath.Join(dir, "vmlinux.bin")
	if _, stderr, code := runCmd(t, "objcopy", "-O", "binary", cp, image); code != 0 {
		t.Fatalf("objcopy -O binary: %s", stderr)
	}
	if fileHash(t, image) != fileHash(t, origImage) {
		t.Errorf("the loaded image (objcopy -O binary) changed")
	}
	nf, err := elf.Open(cp)
	if err != nil {
		t.Fatalf("debug/elf: %v", err)
	}
	if got, _ := nf.Section(".BTF").Data(); !bytes.Equal(got, want) {
		t.Errorf("debug/elf reads %d bytes of .BTF, want %d", len(got), len(want))
	}
	for i := range origProgs {
		if i >= len(nf.Progs) || nf.Progs[i].ProgHeader != origProgs[i].ProgHeader {
			t.Errorf("program header %d changed", i)
		}
	}
	nf.Close()
	sameExceptShdrPointer(t, vmlinux, cp, shstrOff)
	// The file grows by the new .BTF, the name .BTF.loaded and a section
	// header, with padding; again in place, it does not grow.
	st0, _ := os.Stat(vmlinux)
	st1, _ := os.Stat(cp)
	if grown := st1.Size() - st0.Size(); grown > int64(len(want)+len(".BTF.loaded\x00")+64+3+7) {
		t.Errorf("the vmlinux grew by %d bytes for a .BTF of %d", grown, len(want))
	}
	if _, stderr, code := runCmd(t, bin, "encode", "--in-place", cp); code != 0 {
		t.Fatalf("in place again: %d: %s", code, stderr)
	}
	if st2, _ := os.Stat(cp); st2.Size() != st1.Size() {
		t.Errorf("in place again: %d bytes, was %d", st2.Size(), st1.Size())
	}
	os.Remove(cp)

	// Failures midway, on a copy in a directory of its own.
	fdir := filepath.Join(dir, "fail")
	os.Mkdir(fdir, 0o755)
	cp2 := filepath.Join(fdir, "vmlinux")
	copyFile(t, vmlinux, cp2)
	st, _ := os.Stat(cp2)
	before := fileHash(t, cp2)
	unchanged := func(what string) {
		t.Helper()
		if fileHash(t, cp2) != before {
			t.Errorf("%s: the vmlinux copy changed", what)
		}
		if left, _ := filepath.Glob(filepath.Join(fdir, ".*btfkit*")); len(left) > 0 {
			t.Errorf("%s: temporary files left: %v", what, left)
		}
	}
	// The file size limit lets the copy through and stops the new .BTF
	// (SIGXFSZ ignored, so the write fails with EFBIG).
	limit := fmt.Sprint(st.Size() + 1<<20)
	_, stderr, code := runCmd(t, "sh", "-c", `trap '' XFSZ; exec prlimit --fsize=`+limit+` "$@"`, "sh", bin, "encode", "--in-place", cp2)
	if code != 1 || !strings.Contains(stderr, cp2+": section .BTF: ") || !strings.Contains(stderr, "file too large") {
		t.Errorf("file size limit: status %d: %s", code, stderr)
	}
	unchanged("file size limit")
	// An error injected after .BTF is written, before the rename.
	spec, err := btf.LoadFile(detached, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tmpBTF []byte
	inPlaceHook = func(tmp string) error {
		f, err := elf.Open(tmp)
		if err == nil {
			tmpBTF, _ = f.Section(".BTF").Data()
			f.Close()
		}
		return errors.New("injected failure")
	}
	err = writeInPlace(cp2, spec, false)
	inPlaceHook = nil
	if err == nil || !strings.Contains(err.Error(), "injected failure") || !strings.HasPrefix(err.Error(), cp2+": ") {
		t.Errorf("writeInPlace with a failing last step: %v", err)
	}
	if !bytes.Equal(tmpBTF, want) {
		t.Errorf("the injected failure came before .BTF was written (%d bytes seen)", len(tmpBTF))
	}
	unchanged("injected failure")
	// An unwritable directory (root writes into mode 0555 ones; chattr +i
	// stops it).
	t.Run("unwritable-directory", func(t *testing.T) {
		if os.Geteuid() == 0 {
			if out, err := exec.Command("chattr", "+i", fdir).CombinedOutput(); err != nil {
				// A plain skip: chattr needs a file system with
				// attributes (not tmpfs or overlayfs), which CI's
				// temporary directory need not be.
				t.Skipf("SKIP: running as root and chattr +i fails (%v: %s): no unwritable directory", err, out)
			}
			defer exec.Command("chattr", "-i", fdir).Run()
		} else {
			os.Chmod(fdir, 0o555)
			defer os.Chmod(fdir, 0o755)
		}
		_, stderr, code := runCmd(t, bin, "encode", "--in-place", cp2)
		if code != 1 || !strings.Contains(stderr, cp2) {
			t.Errorf("unwritable directory: status %d: %s", code, stderr)
		}
	})
	unchanged("unwritable directory")
	os.Remove(cp2)

	// objcopy cannot remove .BTF (__start_BTF points into it): renamed,
	// .BTF is missing and is added.
	stripped := filepath.Join(dir, "vmlinux.nobtf")
	if _, stderr, code := runCmd(t, "objcopy", "--rename-section", ".BTF=.BTF.debian", vmlinux, stripped); code != 0 {
		t.Fatalf("objcopy --rename-section: %s", stderr)
	}
	if _, stderr, code := runCmd(t, bin, "encode", "--in-place", stripped); code != 0 {
		t.Fatalf("in place: %d: %s", code, stderr)
	}
	secs, e1, c1 = runCmd(t, "readelf", "-SW", stripped)
	if c1 != 0 || e1 != "" || !strings.Contains(secs, "] .BTF ") {
		t.Errorf("readelf: status %d, no .BTF: %s", c1, e1)
	}
	if _, stderr, code := runCmd(t, "objcopy", "--dump-section", ".BTF="+dumped, stripped, copied); code != 0 || stderr != "" {
		t.Fatalf("objcopy: %d: %s", code, stderr)
	}
	os.Remove(copied)
	if a, _ := os.ReadFile(dumped); !bytes.Equal(a, want) {
		t.Errorf(".BTF (%d bytes) differs from the detached output (%d bytes)", len(a), len(want))
	}
	d1, e1, c1 = runCmd(t, "bpftool", "btf", "dump", "file", stripped)
	if c1 != 0 || d1 != d2 {
		t.Errorf("bpftool dumps differ or fail: %d %q", c1, e1)
	}
}

// sameExceptShdrPointer fails unless the first upTo bytes of the files at
// a and b are the same, except e_shoff and e_shnum of the ELF64 header
// (what elfx changes when it moves the section header table).
func sameExceptShdrPointer(t *testing.T, a, b string, upTo int64) {
	t.Helper()
	fa, err := os.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	defer fb.Close()
	ba, bb := make([]byte, 4<<20), make([]byte, 4<<20)
	fa2 := io.LimitReader(fa, upTo)
	for off := int64(0); ; {
		n, err := io.ReadFull(fa2, ba)
		if n == 0 {
			return
		}
		if m, _ := io.ReadFull(fb, bb[:n]); m != n {
			t.Fatalf("%s is shorter than %s", b, a)
		}
		for i := 0; i < n; i++ {
			if p := off + int64(i); ba[i] != bb[i] && !(p >= 0x28 && p < 0x30) && !(p >= 0x3c && p < 0x3e) {
				t.Fatalf("byte 0x%x of %s changed", p, a)
			}
		}
		if err != nil {
			return
		}
		off += int64(n)
	}
}

// TestEncodeBaseFromELF: --base takes the base BTF from raw BTF or from an
// ELF's .BTF (the Debian vmlinux, whose .BTF is embedded.btf): the same
// output either way.
func TestEncodeBaseFromELF(t *testing.T) {
	modBaseBTF := testenv.Reference(t, "debian-6.1.0-57-cloud/embedded.btf")
	vmlinux, _ := testenv.KernelInputs(t)
	mod := testenv.Module(t, "vfat")
	bin := testenv.Btfkit(t)
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
