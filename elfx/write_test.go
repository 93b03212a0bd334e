package elfx

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

func writeTestInputs(t *testing.T) (obj, exe string) {
	t.Helper()
	testc.Require(t, "gcc")
	dir := t.TempDir()
	src := filepath.Join(dir, "p.c")
	os.WriteFile(src, []byte("#include <stdio.h>\nstruct s { int a; long b; };\nint main(void) { struct s v = {1, 2}; printf(\"ok %d\\n\", v.a); return 0; }\n"), 0o644)
	obj = filepath.Join(dir, "p.o")
	exe = filepath.Join(dir, "p")
	for _, args := range [][]string{{"-g", "-c", "-o", obj, src}, {"-g", "-no-pie", "-o", exe, src}} {
		if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
			t.Fatalf("gcc %v: %v\n%s", args, err, out)
		}
	}
	return obj, exe
}

func sectionOf(t *testing.T, path, name string) []byte {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatalf("debug/elf cannot read %s: %v", path, err)
	}
	defer f.Close()
	s := f.Section(name)
	if s == nil {
		t.Fatalf("%s: no section %s", path, name)
	}
	b, err := s.Data()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func toolCheck(t *testing.T, path, name string, want []byte) {
	t.Helper()
	if _, err := exec.LookPath("readelf"); err == nil {
		out, err := exec.Command("readelf", "-S", "-W", path).CombinedOutput()
		if err != nil || bytes.Contains(out, []byte("Warning")) || bytes.Contains(out, []byte("Error")) {
			t.Fatalf("readelf -S %s: %v\n%s", path, err, out)
		}
		if !bytes.Contains(out, []byte(" "+name+" ")) {
			t.Fatalf("readelf does not list %s:\n%s", name, out)
		}
	}
	if _, err := exec.LookPath("objcopy"); err == nil {
		dump := path + ".dump"
		out, err := exec.Command("objcopy", "--dump-section", name+"="+dump, path, path+".copy").CombinedOutput()
		if err != nil {
			t.Fatalf("objcopy --dump-section: %v\n%s", err, out)
		}
		got, _ := os.ReadFile(dump)
		if !bytes.Equal(got, want) {
			t.Fatalf("objcopy dumps %d bytes, want %d", len(got), len(want))
		}
	}
}

func TestWriteSectionAddReplace(t *testing.T) {
	obj, exe := writeTestInputs(t)
	for _, path := range []string{obj, exe} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			orig, _ := os.ReadFile(path)
			data := bytes.Repeat([]byte("BTF!"), 1000)
			if err := WriteSection(path, ".BTF", data); err != nil {
				t.Fatal(err)
			}
			if got := sectionOf(t, path, ".BTF"); !bytes.Equal(got, data) {
				t.Fatalf("added section holds %d bytes, want %d", len(got), len(data))
			}
			toolCheck(t, path, ".BTF", data)
			// Every other section is unchanged.
			fo, _ := elf.NewFile(bytes.NewReader(orig))
			for _, s := range fo.Sections {
				if s.Type == elf.SHT_NOBITS || s.Name == ".shstrtab" {
					continue
				}
				a, _ := s.Data()
				if b := sectionOf(t, path, s.Name); !bytes.Equal(a, b) {
					t.Errorf("section %s changed", s.Name)
				}
			}
			// Grow, then shrink.
			for _, n := range []int{9000, 100} {
				data = bytes.Repeat([]byte{byte(n)}, n)
				if err := WriteSection(path, ".BTF", data); err != nil {
					t.Fatal(err)
				}
				if got := sectionOf(t, path, ".BTF"); !bytes.Equal(got, data) {
					t.Fatalf("replaced section holds %d bytes, want %d", len(got), n)
				}
				toolCheck(t, path, ".BTF", data)
			}
			if path == exe {
				out, err := exec.Command(path).CombinedOutput()
				if err != nil || string(out) != "ok 1\n" {
					t.Fatalf("executable no longer runs: %v %q", err, out)
				}
			} else if _, err := exec.LookPath("ld"); err == nil {
				out, err := exec.Command("ld", "-r", "-o", path+".r.o", path).CombinedOutput()
				if err != nil {
					t.Fatalf("ld -r: %v\n%s", err, out)
				}
			}
		})
	}
}

func TestWriteSectionErrorsLeaveFileUntouched(t *testing.T) {
	obj, exe := writeTestInputs(t)
	dir := filepath.Dir(obj)
	notELF := filepath.Join(dir, "text")
	os.WriteFile(notELF, []byte("hello, not an ELF file at all, just some text"), 0o644)
	// FuzzWriteSections found a section whose name lies outside the
	// section name table written out as it was, into a file debug/elf
	// cannot read: section 1's sh_name (the header's first word) made
	// 0xff0020.
	badName := filepath.Join(dir, "badname.o")
	img, _ := os.ReadFile(obj)
	var ehdr elf.Header64
	if err := binary.Read(bytes.NewReader(img), binary.LittleEndian, &ehdr); err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(img[ehdr.Shoff+uint64(ehdr.Shentsize):], 0xff0020)
	os.WriteFile(badName, img, 0o644)
	// And one whose section 1 starts at offset 4, inside the ELF
	// header WriteSections rewrites (sh_offset is at 0x18 of a 64-bit
	// section header).
	overlap := filepath.Join(dir, "overlap.o")
	img, _ = os.ReadFile(obj)
	binary.LittleEndian.PutUint64(img[ehdr.Shoff+uint64(ehdr.Shentsize)+0x18:], 4)
	os.WriteFile(overlap, img, 0o644)
	for _, c := range []struct {
		path, name, want string
	}{
		{notELF, ".BTF", "not an ELF"},
		{exe, ".text", "SHF_ALLOC"},
		{filepath.Join(dir, "missing"), ".BTF", "no such file"},
		{dir, ".BTF", "not a regular file"},
		{badName, ".BTF", "section header 1 at 0x"},
		{overlap, ".BTF", "section 1 (0x4, "},
	} {
		before, _ := os.ReadFile(c.path) // nil for a directory
		err := WriteSection(c.path, c.name, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.path, err, c.want)
		}
		after, _ := os.ReadFile(c.path)
		if !bytes.Equal(before, after) {
			t.Errorf("%s changed after an error", c.path)
		}
	}
	noTemps(t, dir)
}

// TestWriteSectionKernelModule replaces the .BTF of a real kernel module
// (Debian's vxlan.ko: scripts/install-test-deps) and adds a section.
func TestWriteSectionKernelModule(t *testing.T) {
	ko := testenv.Module(t, "vxlan")
	path := filepath.Join(t.TempDir(), "m.ko")
	b, err := os.ReadFile(ko)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, b, 0o644)
	old := sectionOf(t, path, ".BTF")
	for _, c := range []struct {
		name string
		data []byte
	}{
		{".BTF", append(append([]byte(nil), old...), make([]byte, 4096)...)}, // grown: moves to the end
		{".BTF", old[:len(old)/2]}, // shrunk: in place
		{".BTF.base", bytes.Repeat([]byte{0xeb, 0x9f}, 100)},
	} {
		if err := WriteSection(path, c.name, c.data); err != nil {
			t.Fatal(err)
		}
		if got := sectionOf(t, path, c.name); !bytes.Equal(got, c.data) {
			t.Fatalf("%s: %d bytes, want %d", c.name, len(got), len(c.data))
		}
		toolCheck(t, path, c.name, c.data)
	}
	if got := sectionOf(t, path, ".modinfo"); !bytes.Equal(got, sectionOf(t, ko, ".modinfo")) {
		t.Errorf(".modinfo changed")
	}
}
