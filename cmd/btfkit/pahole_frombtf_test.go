package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/encode/frombtf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// linkedArchive compiles three C files, with gcc -gbtf when withBTF, and
// links them with ld -r: the .BTF of the result is their archive.
func linkedArchive(t *testing.T, withBTF bool) string {
	t.Helper()
	return linkedArchiveN(t, withBTF, 3)
}

// linkedArchiveN is linkedArchive of the first n of the C files.
func linkedArchiveN(t *testing.T, withBTF bool, n int) string {
	t.Helper()
	testc.Require(t, "gcc", "ld")
	dir := t.TempDir()
	flags := []string{"-O2", "-gdwarf-5"}
	if withBTF {
		flags = append(flags, "-gbtf")
	}
	var objs []string
	for i := 0; i < n; i++ {
		src := filepath.Join(dir, fmt.Sprintf("u%d.c", i))
		code := fmt.Sprintf(`struct u%[1]d_s { int a; long b[%[1]d + 1]; };
__attribute__((section(".data..percpu"))) struct u%[1]d_s u%[1]d_pcpu;
__attribute__((noinline)) long u%[1]d_get(struct u%[1]d_s *p, int i) { return p->b[i] + p->a; }
`, i)
		if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: flags}))
	}
	out := filepath.Join(dir, "linked.o")
	testc.Run(t, "ld", append([]string{"-r", "-o", out}, objs...)...)
	return out
}

// TestPaholeFromBTF: pahole -J -F btf writes what frombtf.EncodeFile
// makes (detached and in place, for any -j); -F btf,dwarf takes the
// .BTF when there is one, else the DWARF.
func TestPaholeFromBTF(t *testing.T) {
	file := linkedArchive(t, true)
	feats := "--btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs"
	f, _, _ := encode.ParseFeatures(strings.TrimPrefix(feats, "--btf_features="))
	want, err := frombtf.EncodeFile(file, frombtf.Options{Features: f})
	if err != nil {
		t.Fatal(err)
	}
	wantRaw := want.Marshal(nil)
	dir := t.TempDir()
	for i, args := range [][]string{
		{"-J", "-F", "btf", "-j1", feats},
		{"-J", "--format_path=btf", "-j4", feats},
		{"-J", "-F", "btf,dwarf", "-j", feats},
	} {
		out := filepath.Join(dir, fmt.Sprintf("out%d.btf", i))
		_, errOut, code := runPahole(t, append(args, "--btf_encode_detached="+out, file)...)
		if code != 0 {
			t.Fatalf("pahole %v: status %d: %s", args, code, errOut)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, wantRaw) {
			t.Errorf("pahole %v: %d bytes, not frombtf.EncodeFile's %d", args, len(got), len(wantRaw))
		}
	}
	// In place, as link-vmlinux.sh runs it.
	inPlace := filepath.Join(dir, "inplace.o")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(inPlace, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runPahole(t, "-J", "-F", "btf", feats, inPlace); code != 0 {
		t.Fatalf("pahole -J -F btf %s: status %d: %s", inPlace, code, errOut)
	}
	got, _, err := btf.ReadBTFBytes(inPlace)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wantRaw) {
		t.Errorf("the .BTF pahole -J -F btf wrote in place (%d bytes) is not frombtf.EncodeFile's (%d)", len(got), len(wantRaw))
	}

	// Without .BTF, -F btf,dwarf encodes the DWARF; -F btf fails.
	plain := linkedArchive(t, false)
	dw, err := encode.EncodeFile(plain, encode.Options{Features: f})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "dwarf.btf")
	if _, errOut, code := runPahole(t, "-J", "-F", "btf,dwarf", feats, "--btf_encode_detached="+out, plain); code != 0 {
		t.Fatalf("pahole -J -F btf,dwarf on a file without .BTF: status %d: %s", code, errOut)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, dw.Marshal(nil)) {
		t.Errorf("pahole -J -F btf,dwarf on a file without .BTF did not write the DWARF route's BTF")
	}
	_, errOut, code := runPahole(t, "-J", "-F", "btf", feats, "--btf_encode_detached="+filepath.Join(dir, "none.btf"), plain)
	if code != 1 || !strings.Contains(errOut, plain) || !strings.Contains(errOut, ".BTF") {
		t.Errorf("pahole -J -F btf on a file without .BTF: status %d, stderr %q; want 1 and a message naming the file and .BTF", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.btf")); err == nil {
		t.Errorf("a failed pahole -J -F btf left its output file")
	}
}

// TestPaholeFromBTFBadMember: a corrupted member's error names the file,
// the member and its offset; exit status 1, no output.
func TestPaholeFromBTFBadMember(t *testing.T) {
	file := linkedArchive(t, true)
	raw, _, err := btf.ReadBTFBytes(file)
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := btf.SplitArchive(raw)
	if err != nil || len(blobs) != 3 {
		t.Fatalf("archive: %d members, %v", len(blobs), err)
	}
	// Member 1's first type gets a kind that does not exist.
	off := cap(raw) - cap(blobs[1])
	bad := append([]byte(nil), raw...)
	hdrLen := int(bad[off+4]) | int(bad[off+5])<<8
	typeOff := int(bad[off+8]) | int(bad[off+9])<<8
	bad[off+hdrLen+typeOff+7] = 0x1f // info's kind byte
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, raw)
	if i < 0 {
		t.Fatal("the .BTF bytes are not found in the file")
	}
	copy(data[i:], bad)
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.o")
	if err := os.WriteFile(broken, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.btf")
	_, errOut, code := runPahole(t, "-J", "-F", "btf", "--btf_encode_detached="+out, broken)
	if code != 1 || !strings.Contains(errOut, broken) || !strings.Contains(errOut, "member 1") ||
		!strings.Contains(errOut, fmt.Sprintf("0x%x", off)) {
		t.Errorf("status %d, stderr %q; want 1 and the file, member 1 and its offset 0x%x", code, errOut, off)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("output written despite the error")
	}
}

// TestPaholeFromBTFSplitTwice: pahole -J -F btf --btf_base on a module
// whose .BTF an earlier run already wrote (as a kernel build that relinks
// vmlinux runs the module BTF step again on the same .ko) writes the same
// .BTF again; against another base, what a first run against that base
// writes: the archive stays in .BTF.archive.
func TestPaholeFromBTFSplitTwice(t *testing.T) {
	mod := linkedArchive(t, true)
	dir := t.TempDir()
	// A base: the BTF of the first object alone.
	base := filepath.Join(dir, "base.btf")
	if _, errOut, code := runPahole(t, "-J", "-F", "btf", "--btf_features=default", "--btf_encode_detached="+base, linkedArchiveN(t, true, 1)); code != 0 {
		t.Fatalf("base: %s", errOut)
	}
	data, err := os.ReadFile(mod)
	if err != nil {
		t.Fatal(err)
	}
	ko := filepath.Join(dir, "mod.ko")
	if err := os.WriteFile(ko, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var first []byte
	for run := 1; run <= 2; run++ {
		if _, errOut, code := runPahole(t, "-J", "-F", "btf", "--btf_features=default", "--btf_base", base, ko); code != 0 {
			t.Fatalf("run %d: status %d: %s", run, code, errOut)
		}
		got, _, err := btf.ReadBTFBytes(ko)
		if err != nil {
			t.Fatal(err)
		}
		b, err := btf.LoadFile(base, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := btf.Parse(got, b); err != nil {
			t.Fatalf("run %d: the .BTF is not split BTF against the base: %v", run, err)
		}
		if _, err := btf.Parse(got, nil); err == nil {
			t.Fatalf("run %d: the split .BTF also reads as standalone BTF: the second run would not take it as split", run)
		}
		if run == 1 {
			first = got
		} else if !bytes.Equal(got, first) {
			t.Errorf("the second run wrote %d bytes of .BTF, the first %d: not the same", len(got), len(first))
		}
	}
}

func TestPaholeFromBTFNewBase(t *testing.T) {
	mod := linkedArchive(t, true)
	dir := t.TempDir()
	bases := []string{filepath.Join(dir, "base1.btf"), filepath.Join(dir, "base2.btf")}
	for i, n := range []int{1, 2} {
		if _, errOut, code := runPahole(t, "-J", "-F", "btf", "--btf_features=default", "--btf_encode_detached="+bases[i], linkedArchiveN(t, true, n)); code != 0 {
			t.Fatalf("base %d: %s", i, errOut)
		}
	}
	data, err := os.ReadFile(mod)
	if err != nil {
		t.Fatal(err)
	}
	ko := filepath.Join(dir, "mod.ko")
	fresh := filepath.Join(dir, "fresh.ko")
	for _, p := range []string{ko, fresh} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range bases {
		if _, errOut, code := runPahole(t, "-J", "-F", "btf", "--btf_features=default", "--btf_base", b, ko); code != 0 {
			t.Fatalf("--btf_base %s: status %d: %s", b, code, errOut)
		}
	}
	if _, errOut, code := runPahole(t, "-J", "-F", "btf", "--btf_features=default", "--btf_base", bases[1], fresh); code != 0 {
		t.Fatalf("fresh: status %d: %s", code, errOut)
	}
	got, _, err := btf.ReadBTFBytes(ko)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := btf.ReadBTFBytes(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("encoded against base1 then base2: %d bytes of .BTF; against base2 at once: %d; not the same", len(got), len(want))
	}
	raw, _, err := btf.ReadBTFBytes(mod)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elfx.Open(ko)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kept, err := f.SectionData(frombtf.ArchiveSection)
	if err != nil || !bytes.Equal(kept, raw) {
		t.Errorf("%s of the encoded module is not the archive it had (%d bytes, want %d; %v)", frombtf.ArchiveSection, len(kept), len(raw), err)
	}
}
