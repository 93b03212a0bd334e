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

// TestWriteSectionsRemove: a section is removed and the sections after it
// renumbered as GNU objcopy --remove-section does: on gcc's object file,
// without .comment, readelf lists the same sections, symbols and
// relocations for both files, objdump disassembles them alike, and the
// object still links into a program that runs. A section added and then
// removed leaves the original's sections. What would need symbols, groups
// or other contents renumbered, and loaded sections and the section name
// table, are refused, the file untouched.
func TestWriteSectionsRemove(t *testing.T) {
	testc.Require(t, "readelf", "objcopy", "objdump")
	obj, _ := writeTestInputs(t)
	dir := filepath.Dir(obj)
	orig, _ := os.ReadFile(obj)

	ours := filepath.Join(dir, "ours.o")
	os.WriteFile(ours, orig, 0o644)
	if err := WriteSections(ours, []Section{{Name: ".comment", Remove: true}}, nil); err != nil {
		t.Fatal(err)
	}
	theirs := filepath.Join(dir, "theirs.o")
	if out, err := exec.Command("objcopy", "--remove-section", ".comment", obj, theirs).CombinedOutput(); err != nil {
		t.Fatalf("objcopy: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"readelf", "-SW"}, {"readelf", "-sW"}, {"readelf", "-rW"}, {"objdump", "-dr"}} {
		a, errA := exec.Command(args[0], append(args[1:], ours)...).CombinedOutput()
		b, errB := exec.Command(args[0], append(args[1:], theirs)...).CombinedOutput()
		if errA != nil || errB != nil || bytes.Contains(a, []byte("Warning")) {
			t.Fatalf("%v: %v %v\n%s", args, errA, errB, a)
		}
		// Offsets differ (objcopy lays out the whole file anew), and
		// the section name table's size; the names, flags, links,
		// symbols and relocations do not.
		norm := func(s []byte) string {
			s = bytes.ReplaceAll(s, []byte(ours), nil)
			s = bytes.ReplaceAll(s, []byte(theirs), nil)
			var lines []string
			for _, l := range strings.Split(string(s), "\n") {
				if args[1] == "-SW" {
					f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "["))
					if len(f) > 5 && strings.HasSuffix(f[0], "]") {
						f[4] = "OFF" // Nr] Name Type Address Off
					}
					// objcopy also drops the name from .shstrtab.
					if strings.HasPrefix(l, "There are") || strings.Contains(l, " .shstrtab ") {
						f = nil
					}
					l = strings.Join(f, " ")
				}
				lines = append(lines, l)
			}
			return strings.Join(lines, "\n")
		}
		if norm(a) != norm(b) {
			t.Errorf("%v differs from objcopy's:\n%s\n----\n%s", args, a, b)
		}
	}
	if _, err := exec.LookPath("gcc"); err == nil {
		exe := filepath.Join(dir, "linked")
		if out, err := exec.Command("gcc", "-o", exe, ours).CombinedOutput(); err != nil {
			t.Fatalf("gcc cannot link the object: %v\n%s", err, out)
		}
		if out, err := exec.Command(exe).CombinedOutput(); err != nil || string(out) != "ok 1\n" {
			t.Errorf("the linked program: %v %q", err, out)
		}
	}

	// Added, then removed: the original's sections.
	round := filepath.Join(dir, "round.o")
	os.WriteFile(round, orig, 0o644)
	if err := WriteSection(round, ".BTF.base", []byte("distilled")); err != nil {
		t.Fatal(err)
	}
	if err := WriteSections(round, []Section{{Name: ".BTF.base", Remove: true}, {Name: ".absent", Remove: true}}, nil); err != nil {
		t.Fatal(err)
	}
	fo, _ := elf.NewFile(bytes.NewReader(orig))
	fr, err := elf.Open(round)
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	if len(fr.Sections) != len(fo.Sections) {
		t.Fatalf("%d sections, the original %d", len(fr.Sections), len(fo.Sections))
	}
	for i, s := range fo.Sections {
		r := fr.Sections[i]
		a, _ := s.Data()
		b, _ := r.Data()
		if r.Name != s.Name || r.Type != s.Type || r.Link != s.Link || r.Info != s.Info || (s.Name != ".shstrtab" && !bytes.Equal(a, b)) {
			t.Errorf("section %d: %s, the original's %s (or other contents)", i, r.Name, s.Name)
		}
	}
	if st, _ := os.Stat(round); st.Size() > int64(len(orig))+int64(len(".BTF.base\x00"))+8 {
		t.Errorf("%d bytes after adding and removing a section, the original %d", st.Size(), len(orig))
	}

	for _, c := range []struct{ name, want string }{
		{".text", "SHF_ALLOC"},
		{".shstrtab", "section name table"},
		{".symtab", "links to it"},
		{".debug_str", "would need renumbering"},
	} {
		err := WriteSections(obj, []Section{{Name: c.name, Remove: true}}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), obj+": section "+c.name+": ") {
			t.Errorf("removing %s: %v, want an error naming file and section and saying %q", c.name, err, c.want)
		}
		if now, _ := os.ReadFile(obj); !bytes.Equal(now, orig) {
			t.Fatalf("removing %s changed the file", c.name)
		}
	}
	noTemps(t, dir)
}
