package elfx

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// loadedSrc keeps 48 bytes in an allocated, read-only section named
// btf_test (as a vmlinux keeps .BTF) and prints what the linker-made
// __start_/__stop_ symbols bound: what the program sees of it when loaded.
const loadedSrc = `#include <stdio.h>
extern const char __start_btf_test[], __stop_btf_test[];
__attribute__((section("btf_test"), used)) static const char blob[48] = "the loaded bytes, read through __start_btf_test";
int main(void) {
	long n = __stop_btf_test - __start_btf_test;
	printf("%ld %.*s\n", n, (int)n - 1, __start_btf_test);
	return 0;
}
`

const loadedWant = "48 the loaded bytes, read through __start_btf_test\n"

// buildLoaded compiles loadedSrc with extra gcc flags into dir.
func buildLoaded(t *testing.T, dir, name string, flags ...string) string {
	t.Helper()
	testc.Require(t, "gcc")
	src := filepath.Join(dir, "loaded.c")
	if err := os.WriteFile(src, []byte(loadedSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	args := append(append([]string{}, flags...), "-o", out, src)
	if b, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		t.Fatalf("gcc %v: %v\n%s", args, err, b)
	}
	return out
}

// runTool runs a tool that must be installed, returning stdout and stderr.
func runTool(t *testing.T, name string, args ...string) (string, string) {
	t.Helper()
	testc.Require(t, name)
	var out, errb bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, errb.String())
	}
	return out.String(), errb.String()
}

// noTemps fails when a temporary file of WriteSections is left in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".btfkit-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestWriteSectionLoadedOtherSize: an allocated read-only section of an
// executable (ET_EXEC and PIE) given contents of another size keeps its
// loaded copy under NAME.loaded and gets an unloaded section NAME. Oracles:
// the program still runs and reads its old bytes through
// __start_/__stop_; readelf -SW -lW prints no warning; objcopy
// --dump-section gives the new contents and the old ones, objcopy -O binary
// (the loaded image) is what it was; debug/elf reads the same program
// headers; every byte of the original file but e_shoff and e_shnum is where
// it was.
func TestWriteSectionLoadedOtherSize(t *testing.T) {
	for _, c := range []struct {
		name  string
		flags []string
		typ   elf.Type
	}{
		{"exec", []string{"-no-pie"}, elf.ET_EXEC},
		{"pie", []string{"-pie", "-fPIE"}, elf.ET_DYN},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			exe := buildLoaded(t, dir, c.name, c.flags...)
			if out, _ := runTool(t, exe); out != loadedWant {
				t.Fatalf("the program prints %q before any change", out)
			}
			orig, err := os.ReadFile(exe)
			if err != nil {
				t.Fatal(err)
			}
			of, err := elf.NewFile(bytes.NewReader(orig))
			if err != nil {
				t.Fatal(err)
			}
			if of.Type != c.typ {
				t.Fatalf("gcc made %v, want %v", of.Type, c.typ)
			}
			os0 := of.Section("btf_test")
			if os0 == nil || os0.Flags != elf.SHF_ALLOC || os0.Size != 48 {
				t.Fatalf("gcc did not make btf_test a 48-byte allocated read-only section: %+v", os0)
			}
			oldData, _ := os0.Data()
			origImage := filepath.Join(dir, "orig.bin")
			runTool(t, "objcopy", "-O", "binary", exe, origImage)

			for _, size := range []int{4000, 20} { // bigger, then smaller
				data := bytes.Repeat([]byte{byte(size)}, size)
				cp := filepath.Join(dir, fmt.Sprintf("%s-%d", c.name, size))
				if err := os.WriteFile(cp, orig, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := WriteSection(cp, "btf_test", data); err != nil {
					t.Fatal(err)
				}
				now, _ := os.ReadFile(cp)

				// Before the section name table, which grows by the
				// name btf_test.loaded, only e_shoff (8 bytes at 0x28)
				// and e_shnum (2 at 0x3c) of the original bytes change;
				// the file grows by at most the new contents, that name
				// and one section header, with alignment padding (3 + 7
				// bytes): the old section name table and header table
				// are not left behind.
				shstr := of.Section(".shstrtab")
				for i := range orig[:shstr.Offset] {
					if orig[i] != now[i] && !(i >= 0x28 && i < 0x30) && !(i >= 0x3c && i < 0x3e) {
						t.Fatalf("byte 0x%x of the original changed", i)
					}
				}
				grown := len(data) + len("btf_test.loaded\x00") + 64
				if len(now) > len(orig)+grown+3+7 {
					t.Fatalf("file of %d bytes, want at most %d + %d (+ up to 10 of padding)", len(now), len(orig), grown)
				}

				// The program reads its old loaded bytes.
				if out, _ := runTool(t, cp); out != loadedWant {
					t.Errorf("the program prints %q, want %q", out, loadedWant)
				}

				// readelf: no warnings; the loaded copy is in a segment.
				sOut, sErr := runTool(t, "readelf", "-SW", cp)
				lOut, lErr := runTool(t, "readelf", "-lW", cp)
				if sErr != "" || lErr != "" || strings.Contains(sOut+lOut, "Warning") {
					t.Errorf("readelf warns: %s%s", sErr, lErr)
				}
				if !strings.Contains(lOut, " btf_test.loaded ") {
					t.Errorf("readelf -lW maps no btf_test.loaded into a segment:\n%s", lOut)
				}

				// objcopy: the new and the old contents by name, no
				// warnings copying, the same loaded image.
				newDump, oldDump := filepath.Join(dir, "new.dump"), filepath.Join(dir, "old.dump")
				if _, e := runTool(t, "objcopy", "--dump-section", "btf_test="+newDump, "--dump-section", "btf_test.loaded="+oldDump, cp, cp+".copy"); e != "" {
					t.Errorf("objcopy warns: %s", e)
				}
				if b, _ := os.ReadFile(newDump); !bytes.Equal(b, data) {
					t.Errorf("objcopy dumps %d bytes of btf_test, want the %d written", len(b), len(data))
				}
				if b, _ := os.ReadFile(oldDump); !bytes.Equal(b, oldData) {
					t.Errorf("objcopy dumps %d bytes of btf_test.loaded, want the original %d", len(b), len(oldData))
				}
				image := cp + ".bin"
				runTool(t, "objcopy", "-O", "binary", cp, image)
				a, _ := os.ReadFile(origImage)
				b, _ := os.ReadFile(image)
				if len(a) == 0 || !bytes.Equal(a, b) {
					t.Errorf("objcopy -O binary differs from the original's (%d and %d bytes)", len(b), len(a))
				}

				// debug/elf: the same program headers, the loaded copy
				// with its old header under the new name, the new section
				// unloaded with the data.
				nf, err := elf.NewFile(bytes.NewReader(now))
				if err != nil {
					t.Fatalf("debug/elf: %v", err)
				}
				if len(nf.Progs) != len(of.Progs) {
					t.Fatalf("%d program headers, was %d", len(nf.Progs), len(of.Progs))
				}
				for i := range of.Progs {
					if nf.Progs[i].ProgHeader != of.Progs[i].ProgHeader {
						t.Errorf("program header %d changed", i)
					}
				}
				for i, s := range of.Sections {
					n := nf.Sections[i]
					want := s.SectionHeader
					switch s.Name {
					case "btf_test":
						want.Name = "btf_test.loaded"
					case ".shstrtab":
						continue
					}
					if n.SectionHeader != want {
						t.Errorf("section %d: header %+v, want %+v", i, n.SectionHeader, want)
					}
				}
				ns := nf.Section("btf_test")
				if ns == nil || ns.Flags&elf.SHF_ALLOC != 0 || ns.Addr != 0 {
					t.Fatalf("btf_test is not an unloaded section: %+v", ns)
				}
				if got, _ := ns.Data(); !bytes.Equal(got, data) {
					t.Errorf("debug/elf reads %d bytes of btf_test, want %d", len(got), len(data))
				}

				// Again, now that btf_test is not loaded: rewritten in
				// place (smaller) without a second kept copy.
				again := data[:len(data)/2]
				if err := WriteSection(cp, "btf_test", again); err != nil {
					t.Fatal(err)
				}
				if got := sectionOf(t, cp, "btf_test"); !bytes.Equal(got, again) {
					t.Errorf("second write: %d bytes, want %d", len(got), len(again))
				}
				f2, _ := elf.Open(cp)
				if len(f2.Sections) != len(nf.Sections) {
					t.Errorf("second write: %d sections, want %d", len(f2.Sections), len(nf.Sections))
				}
				f2.Close()
				noTemps(t, dir)
			}
		})
	}
}

// TestWriteSectionLoadedSameSize: contents of the same size replace a
// loaded section where it is, and the program reads them.
func TestWriteSectionLoadedSameSize(t *testing.T) {
	dir := t.TempDir()
	exe := buildLoaded(t, dir, "exe", "-no-pie")
	data := []byte("replaced, same size, read by the running program")
	data = append(data[:47:47], 0)
	if err := WriteSection(exe, "btf_test", data); err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	s := f.Section("btf_test")
	if s == nil || s.Flags&elf.SHF_ALLOC == 0 || f.Section("btf_test.loaded") != nil {
		t.Errorf("btf_test is not the same loaded section")
	}
	f.Close()
	if out, _ := runTool(t, exe); out != "48 "+string(data[:47])+"\n" {
		t.Errorf("the program prints %q", out)
	}
	if _, e := runTool(t, "readelf", "-lW", exe); e != "" {
		t.Errorf("readelf warns: %s", e)
	}
}

// TestWriteSectionLoadedRefused: loaded sections that cannot be kept aside
// (code, writable data, NOBITS, sections of a relocatable object, a name
// already taken by NAME.loaded) are refused with an error naming file and
// section, and the file is untouched.
func TestWriteSectionLoadedRefused(t *testing.T) {
	dir := t.TempDir()
	exe := buildLoaded(t, dir, "exe", "-no-pie")
	obj := buildLoaded(t, dir, "obj.o", "-c")
	taken := filepath.Join(dir, "taken")
	runTool(t, "objcopy", "--add-section", "btf_test.loaded="+obj, exe, taken)
	for _, c := range []struct {
		path, name, want string
	}{
		{exe, ".text", "SHF_EXECINSTR"},
		{exe, ".data", "SHF_WRITE"},
		{exe, ".bss", "SHT_NOBITS"},
		{obj, "btf_test", "ET_REL"},
		{taken, "btf_test", "already has a section"},
	} {
		before, _ := os.ReadFile(c.path)
		err := WriteSection(c.path, c.name, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.path+": section "+c.name+": ") {
			t.Errorf("%s %s: error %v, want one naming file and section and containing %q", c.path, c.name, err, c.want)
		}
		if after, _ := os.ReadFile(c.path); !bytes.Equal(before, after) {
			t.Errorf("%s changed after an error", c.path)
		}
	}
	noTemps(t, dir)
}

// TestWriteSectionsFailures: a failure after the sections are written (the
// check), in the middle of writing (a writer that fails after some bytes),
// or before anything (an unwritable directory) leaves the original bytes
// and no temporary file.
func TestWriteSectionsFailures(t *testing.T) {
	dir := t.TempDir()
	exe := buildLoaded(t, dir, "exe", "-no-pie")
	before, _ := os.ReadFile(exe)
	big := bytes.Repeat([]byte{7}, 5000)

	// The check sees the finished temporary file and refuses it.
	var seen []byte
	err := WriteSections(exe, []Section{{Name: "btf_test", Data: big}, {Name: ".BTF.base", Data: []byte("base")}}, func(tmp string) error {
		seen = sectionOf(t, tmp, "btf_test")
		return errors.New("injected failure")
	})
	if err == nil || !strings.Contains(err.Error(), "injected failure") || !strings.HasPrefix(err.Error(), exe+": ") {
		t.Errorf("check failure: %v", err)
	}
	if !bytes.Equal(seen, big) {
		t.Errorf("the check saw %d bytes of btf_test, want %d", len(seen), len(big))
	}
	if after, _ := os.ReadFile(exe); !bytes.Equal(before, after) {
		t.Errorf("the file changed although the check failed")
	}
	noTemps(t, dir)

	// Every write that can fail midway does: the writer returns the
	// error for a failure at each write in turn.
	e, eerr := editFile(bytes.NewReader(before), int64(len(before)), []Section{{Name: "btf_test", Data: big}})
	if eerr != nil {
		t.Fatal(eerr)
	}
	for n := 0; ; n++ {
		f := &failingFile{failAt: n}
		err := e.write(f, bytes.NewReader(before))
		if f.writes <= n {
			if err != nil {
				t.Fatalf("no write failed, yet: %v", err)
			}
			if n < 3 {
				t.Fatalf("only %d writes", n)
			}
			break
		}
		if err == nil || !strings.Contains(err.Error(), "injected write failure") {
			t.Errorf("write %d failed, write returned %v", n, err)
		}
	}

	// An unwritable directory: the temporary file cannot be made.
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o755)
	in := filepath.Join(ro, "exe")
	os.WriteFile(in, before, 0o755)
	if os.Geteuid() == 0 {
		// Root writes into mode-0555 directories; an immutable one stops it.
		if out, err := exec.Command("chattr", "+i", ro).CombinedOutput(); err != nil {
			// A plain skip: chattr needs a file system with
			// attributes (not tmpfs or overlayfs), which CI's
			// temporary directory need not be.
			t.Skipf("SKIP: running as root and chattr +i fails (%v: %s); cannot make an unwritable directory", err, out)
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", ro).Run() })
	} else {
		os.Chmod(ro, 0o555)
		t.Cleanup(func() { os.Chmod(ro, 0o755) })
	}
	err = WriteSection(in, "btf_test", big)
	if err == nil || !strings.HasPrefix(err.Error(), in+": ") {
		t.Errorf("unwritable directory: %v", err)
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(before, after) {
		t.Errorf("the file changed although its directory is unwritable")
	}
	noTemps(t, ro)
}

// failingFile is an in-memory file whose write number failAt fails.
type failingFile struct {
	data   []byte
	writes int
	failAt int
}

func (f *failingFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(f.data)) {
		return 0, errors.New("read past the end")
	}
	n := copy(p, f.data[off:])
	if n < len(p) {
		return n, errors.New("short read")
	}
	return n, nil
}

func (f *failingFile) WriteAt(p []byte, off int64) (int, error) {
	f.writes++
	if f.writes-1 == f.failAt {
		return 0, errors.New("injected write failure")
	}
	if end := int(off) + len(p); end > len(f.data) {
		f.data = append(f.data, make([]byte, end-len(f.data))...)
	}
	return copy(f.data[off:], p), nil
}
