package elfx

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// fuzzSrc is a small C file with debug info worth relocating: types,
// a function, data, and a kfunc-style .BTF_ids set (BTF_SET8 layout).
const fuzzSrc = `struct node { struct node *next; int v; const char *name; };
static struct node head = { 0, 1, "head" };
int walk(struct node *n) { int s = 0; for (; n; n = n->next) s += n->v; return s; }
struct node *first(void) { return &head; }
__attribute__((section(".BTF_ids"), used)) static unsigned int ids[6] = { 0, 1, 0, 0, 0x1, 0 };
`

// fuzzObjects compiles fuzzSrc into small ELF files of several kinds: a
// relocatable object (the shape of a kernel module) with DWARF 4 and 5,
// its copies with zlib, zstd and .zdebug compressed debug sections, and
// an executable with a loaded read-only section (the shape of a
// vmlinux's .BTF). It returns their bytes by name.
func fuzzObjects(t testing.TB) map[string][]byte {
	t.Helper()
	testc.Require(t, "gcc", "objcopy")
	dir := t.TempDir()
	src := filepath.Join(dir, "f.c")
	if err := os.WriteFile(src, []byte(fuzzSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	build := func(name string, args ...string) string {
		p := filepath.Join(dir, name)
		cmd := exec.Command("gcc", append(args, "-o", p, src)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("gcc %v: %v\n%s", args, err, b)
		}
		return p
	}
	read := func(name, p string) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
	}
	o5 := build("f5.o", "-c", "-g", "-gdwarf-5", "-O1")
	read("rel-dwarf5", o5)
	read("rel-dwarf4", build("f4.o", "-c", "-g", "-gdwarf-4", "-O0"))
	for _, z := range []string{"zlib", "zstd", "zlib-gnu"} {
		p := filepath.Join(dir, "f-"+z+".o")
		if b, err := exec.Command("objcopy", "--compress-debug-sections="+z, o5, p).CombinedOutput(); err != nil {
			t.Fatalf("objcopy: %v\n%s", err, b)
		}
		read("rel-"+z, p)
	}
	exe := filepath.Join(dir, "loaded.c")
	os.WriteFile(exe, []byte(loadedSrc), 0o644)
	p := filepath.Join(dir, "loaded")
	if b, err := exec.Command("gcc", "-g", "-no-pie", "-o", p, exe).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, b)
	}
	read("exec-loaded", p)
	return out
}

// wantElfxError fails unless err is nil or an *Error.
func wantElfxError(t *testing.T, what string, err error) bool {
	t.Helper()
	if err == nil {
		return true
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: error %v (%T) is not an *elfx.Error", what, err, err)
	}
	return false
}

// FuzzOpen feeds arbitrary bytes to NewFile and, when they parse, reads
// everything elfx offers: every section (raw, decompressed, relocated),
// sections by name, the debug sections merged, the symbol table and the
// .BTF_ids sets. Nothing may panic or hang; every error is an *Error.
func FuzzOpen(f *testing.F) {
	for _, b := range fuzzObjects(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ef, err := NewFile(data)
		if !wantElfxError(t, "NewFile", err) {
			return
		}
		for _, s := range ef.Sections {
			for _, reloc := range []bool{false, true} {
				b, err := ef.Contents(s, reloc)
				if wantElfxError(t, "Contents "+s.Name, err) && s.Type != elf.SHT_NOBITS &&
					s.Flags&elf.SHF_COMPRESSED != 0 && uint64(len(b)) != s.Size {
					t.Fatalf("%s: %d bytes decompressed, header says %d", s.Name, len(b), s.Size)
				}
			}
		}
		for _, name := range []string{".debug_info", ".debug_abbrev", ".debug_str", ".debug_line", ".BTF", ".BTF_ids", ".symtab"} {
			_, err := ef.SectionData(name)
			wantElfxError(t, "SectionData "+name, err)
			_, err = ef.DebugSection(name)
			wantElfxError(t, "DebugSection "+name, err)
			_, err = ef.Merged(name)
			wantElfxError(t, "Merged "+name, err)
		}
		syms, err := ef.Symbols()
		if wantElfxError(t, "Symbols", err) {
			_, err = ef.Set8Funcs(syms, 0)
			wantElfxError(t, "Set8Funcs", err)
		}
	})
}

// relocMachines are the machines whose relocations elfx applies; the
// fuzzer picks one for the object it relocates, so the same relocation
// bytes are read by each machine's rules.
var relocMachines = []elf.Machine{elf.EM_X86_64, elf.EM_AARCH64, elf.EM_RISCV, elf.EM_S390, elf.EM_PPC64, elf.EM_386, elf.EM_ARM, elf.EM_LOONGARCH}

// FuzzRelocate keeps a relocatable object's headers valid and replaces
// what relocation reads: the bytes of .rela.debug_info and of the symbol
// table (fuzzed, cut or padded to their sizes), and the machine. Applying
// the relocations to .debug_info must give an error (an *Error naming
// the section) or the section's bytes, never a panic or a write outside
// them.
func FuzzRelocate(f *testing.F) {
	obj := fuzzObjects(f)["rel-dwarf5"]
	ef, err := NewFile(obj)
	if err != nil {
		f.Fatal(err)
	}
	rela, symtab := ef.Section(".rela.debug_info"), ef.Section(".symtab")
	if rela == nil || symtab == nil {
		f.Fatal("the object has no .rela.debug_info or .symtab")
	}
	relaBytes := obj[rela.Offset : rela.Offset+rela.FileSize]
	symBytes := obj[symtab.Offset : symtab.Offset+symtab.FileSize]
	f.Add(byte(0), relaBytes, symBytes)
	f.Add(byte(1), relaBytes, symBytes)
	f.Add(byte(5), relaBytes[:len(relaBytes)/2], symBytes)
	f.Fuzz(func(t *testing.T, machine byte, rel, sym []byte) {
		img := append([]byte(nil), obj...)
		copy(img[rela.Offset:rela.Offset+rela.FileSize], pad(rel, int(rela.FileSize)))
		copy(img[symtab.Offset:symtab.Offset+symtab.FileSize], pad(sym, int(symtab.FileSize)))
		binary.LittleEndian.PutUint16(img[18:], uint16(relocMachines[int(machine)%len(relocMachines)]))
		g, err := NewFile(img)
		if err != nil {
			return
		}
		s := g.Section(".debug_info")
		b, err := g.Contents(s, true)
		if wantElfxError(t, "relocating .debug_info", err) && uint64(len(b)) != s.Size {
			t.Fatalf("relocated .debug_info: %d bytes, want %d", len(b), s.Size)
		}
		if err != nil && !strings.Contains(err.Error(), ".debug_info") && !strings.Contains(err.Error(), ".rela") && !strings.Contains(err.Error(), ".symtab") {
			t.Fatalf("relocation error does not name a section: %v", err)
		}
	})
}

// pad returns b cut or zero-padded to n bytes.
func pad(b []byte, n int) []byte {
	if len(b) >= n {
		return b[:n]
	}
	return append(append([]byte(nil), b...), make([]byte, n-len(b))...)
}

// FuzzDecompress feeds arbitrary compressed sections to the section
// decompressor (an ELF compression header of either class and byte
// order, and legacy .zdebug) and arbitrary files to Open's whole-file
// decompression (xz, gzip, zstd, chosen by the magic the fuzzer puts
// first). A section either decompresses to exactly its declared size or
// is an error naming it; memory never exceeds what the input's size
// allows (decompress refuses larger declared sizes before allocating).
func FuzzDecompress(f *testing.F) {
	objs := fuzzObjects(f)
	for _, z := range []string{"rel-zlib", "rel-zstd", "rel-zlib-gnu"} {
		ef, err := NewFile(objs[z])
		if err != nil {
			f.Fatal(err)
		}
		s := ef.FindDebug(".debug_abbrev")
		raw, _ := ef.Raw(s)
		f.Add(byte(0), raw)
	}
	for _, c := range [][]string{{"xz", "--check=crc32", "--lzma2=dict=1MiB"}, {"gzip"}, {"zstd", "-q"}} {
		if _, err := exec.LookPath(c[0]); err != nil {
			continue
		}
		cmd := exec.Command(c[0], append(c[1:], "-c")...)
		cmd.Stdin = bytes.NewReader(objs["rel-dwarf4"])
		b, err := cmd.Output()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(byte(4), b)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, mode byte, data []byte) {
		switch mode % 5 {
		case 0, 1, 2:
			// An ELF compression header: 64-bit LE, 32-bit LE, 64-bit BE.
			ef := &File{File: &elf.File{FileHeader: elf.FileHeader{Class: elf.ELFCLASS64, ByteOrder: binary.LittleEndian}}}
			switch mode % 5 {
			case 1:
				ef.Class = elf.ELFCLASS32
			case 2:
				ef.ByteOrder = binary.BigEndian
			}
			out, err := ef.decompressChdr(".debug_x", data)
			checkDecompressed(t, out, err, data, ef)
		case 3:
			out, err := decompressZdebug(".zdebug_x", data)
			if err == nil && (len(data) < 12 || uint64(len(out)) != binary.BigEndian.Uint64(data[4:])) {
				t.Fatalf(".zdebug: %d bytes, header says otherwise", len(out))
			}
			if err != nil && !strings.Contains(err.Error(), ".zdebug_x") {
				t.Fatalf("error does not name the section: %v", err)
			}
		case 4:
			p := filepath.Join(dir, fmt.Sprintf("m%d.ko", len(data)%7))
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			g, err := Open(p)
			var e *Error
			if wantElfxError(t, "Open", err) {
				g.Close()
			} else if errors.As(err, &e) && e.Path != p {
				t.Fatalf("error names %q, not the file %q", e.Path, p)
			}
		}
	})
}

// checkDecompressed: a section's decompressed bytes are exactly the size
// its header declares, or the error names the section.
func checkDecompressed(t *testing.T, out []byte, err error, raw []byte, ef *File) {
	t.Helper()
	if err != nil {
		if !strings.Contains(err.Error(), ".debug_x") {
			t.Fatalf("error does not name the section: %v", err)
		}
		return
	}
	var size uint64
	if ef.Class == elf.ELFCLASS64 {
		size = ef.ByteOrder.Uint64(raw[8:])
	} else {
		size = uint64(ef.ByteOrder.Uint32(raw[4:]))
	}
	if uint64(len(out)) != size {
		t.Fatalf("decompressed %d bytes, header says %d", len(out), size)
	}
}

// FuzzWriteSections writes a .BTF section into arbitrary ELF files
// through WriteSections and reads the result back with debug/elf and
// readelf. On success the file parses, its .BTF is what was written, and
// every other section that debug/elf read from the input has the same
// bytes; when readelf had nothing to say about the input, it has nothing
// to say about the output either. On failure the file is byte for byte
// what it was. No temporary file is ever left behind.
func FuzzWriteSections(f *testing.F) {
	for _, b := range fuzzObjects(f) {
		f.Add(b, []byte("new BTF contents"))
	}
	haveReadelf := true
	if _, err := exec.LookPath("readelf"); err != nil {
		haveReadelf = false
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, img, btf []byte) {
		p := filepath.Join(dir, "in.o")
		if err := os.WriteFile(p, img, 0o644); err != nil {
			t.Fatal(err)
		}
		before := readable(img)
		quietBefore := haveReadelf && readelfQuiet(p)
		err := WriteSections(p, []Section{{Name: ".BTF", Data: btf}}, nil)
		got, rerr := os.ReadFile(p)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Fatalf("%d files in the directory after WriteSections (%v): a temporary file was left", len(ents), err)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Path != p {
				t.Fatalf("error %v does not name the file", err)
			}
			if !bytes.Equal(got, img) {
				t.Fatalf("WriteSections failed (%v) and changed the file", err)
			}
			return
		}
		ef, err := elf.NewFile(bytes.NewReader(got))
		if err != nil {
			t.Fatalf("debug/elf cannot read the written file: %v", err)
		}
		s := ef.Section(".BTF")
		if s == nil {
			t.Fatal("the written file has no .BTF")
		}
		if b, err := s.Data(); err != nil || !bytes.Equal(b, btf) {
			t.Fatalf(".BTF reads back as %d bytes (%v), want %d", len(b), err, len(btf))
		}
		after := readable(got)
		for name, b := range before {
			if name == ".BTF" || name == ".BTF.loaded" || name == ".shstrtab" {
				continue
			}
			if a, ok := after[name]; ok && !bytes.Equal(a, b) {
				t.Fatalf("section %s changed", name)
			}
		}
		if quietBefore && !readelfQuiet(p) {
			out, _ := exec.Command("readelf", "-S", "-l", "-W", p).CombinedOutput()
			t.Fatalf("readelf accepts the input but not the output:\n%s", out)
		}
	})
}

// readable returns the contents of the sections debug/elf reads from an
// image, by name (the first of a name), or nil when it does not parse.
func readable(img []byte) map[string][]byte {
	ef, err := elf.NewFile(bytes.NewReader(img))
	if err != nil {
		return nil
	}
	out := map[string][]byte{}
	for _, s := range ef.Sections {
		if _, dup := out[s.Name]; dup || s.Type == elf.SHT_NOBITS || s.Flags&elf.SHF_COMPRESSED != 0 {
			continue
		}
		if b, err := s.Data(); err == nil {
			out[s.Name] = b
		}
	}
	return out
}

// readelfQuiet reports whether readelf reads the file's section and
// program headers without an error or a warning.
func readelfQuiet(p string) bool {
	out, err := exec.Command("readelf", "-S", "-l", "-W", p).CombinedOutput()
	return err == nil && !bytes.Contains(out, []byte("Warning")) && !bytes.Contains(out, []byte("Error"))
}
