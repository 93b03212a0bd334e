package elfx

import (
	"bytes"
	"debug/elf"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestOpenCompressed: a module compressed the ways kernels install them
// (xz as CONFIG_MODULE_COMPRESS_XZ runs it, zstd, gzip; by the tools
// themselves) opens as the plain file: the same bytes, sections and
// relocated DWARF, under the path given.
func TestOpenCompressed(t *testing.T) {
	obj := testc.Compile(t, filepath.Join(testc.CorpusDir(), "types.c"), testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})
	raw, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	wantInfo, err := plain.DebugSection(".debug_info")
	if err != nil || len(wantInfo) == 0 {
		t.Fatalf(".debug_info: %d bytes, %v", len(wantInfo), err)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		ext  string
		tool []string
	}{
		{".ko.xz", []string{"xz", "--check=crc32", "--lzma2=dict=1MiB", "-c"}},
		{".ko.zst", []string{"zstd", "-T0", "--ultra", "-22", "-q", "-c"}},
		{".ko.gz", []string{"gzip", "-9", "-c"}},
	} {
		p := filepath.Join(dir, "m"+c.ext)
		out := testc.Output(t, c.tool[0], append(c.tool[1:], obj)...)
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := Open(p)
		if err != nil {
			t.Fatalf("%s: %v", c.ext, err)
		}
		if !bytes.Equal(f.Bytes(), raw) || f.Path != p {
			t.Errorf("%s: %d bytes (path %q), want the %d of the plain file", c.ext, len(f.Bytes()), f.Path, len(raw))
		}
		if got, err := f.DebugSection(".debug_info"); err != nil || !bytes.Equal(got, wantInfo) {
			t.Errorf("%s: relocated .debug_info differs from the plain file's (%v)", c.ext, err)
		}
		if len(f.Sections) != len(plain.Sections) {
			t.Errorf("%s: %d sections, want %d", c.ext, len(f.Sections), len(plain.Sections))
		}
		f.Close()

		// Corrupt after the magic: an error naming the file and the format.
		bad := filepath.Join(dir, "bad"+c.ext)
		os.WriteFile(bad, append(out[:len(out)/2:len(out)/2], "garbage"...), 0o644)
		_, err = Open(bad)
		var e *Error
		if !errors.As(err, &e) || e.Path != bad || !strings.Contains(err.Error(), "decompressing") {
			t.Errorf("%s cut short: %v, want an *Error naming it", c.ext, err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	obj := testc.Compile(t, filepath.Join(testc.CorpusDir(), "types.c"), testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})
	raw, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gz := testc.Output(t, "gzip", "-c", "/dev/null")
	for _, c := range []struct {
		path string
		is   error
	}{
		{filepath.Join(dir, "missing.o"), fs.ErrNotExist},
		{write("text", []byte("just some text, long enough to hold a header\n")), ErrNotELF},
		{write("empty", nil), ErrNotELF},
		{write("short", raw[:3]), ErrNotELF},
		{write("empty.gz", gz), ErrNotELF},
		{write("truncated.o", raw[:100]), ErrTruncated},
	} {
		f, err := Open(c.path)
		var e *Error
		if f != nil || !errors.Is(err, c.is) || !errors.As(err, &e) || e.Path != c.path || !strings.HasPrefix(err.Error(), c.path+": ") {
			t.Errorf("Open(%s): %v, want an *Error naming the file, cause %v", filepath.Base(c.path), err, c.is)
		}
	}
	if _, err := NewFile([]byte("not ELF")); !errors.Is(err, ErrNotELF) {
		t.Errorf("NewFile of text: %v", err)
	}

	// NamingFile adds the path once.
	e := &Error{Section: ".debug_info", Offset: 0x10, Err: errors.New("bad")}
	named := NamingFile("x.o", e)
	if named.Error() != "x.o: section .debug_info+0x10: bad" || NamingFile("x.o", named) != named {
		t.Errorf("NamingFile: %q", named)
	}
	if got := NamingFile("x.o", errors.New("plain")).Error(); got != "x.o: plain" {
		t.Errorf("NamingFile of a plain error: %q", got)
	}
}

// TestReadSection: a section added by objcopy reads back as given, from
// the file and, compressed, from a copy whose sections objcopy compressed;
// a missing or SHT_NOBITS section is an *Error saying so.
func TestReadSection(t *testing.T) {
	obj := testc.Compile(t, filepath.Join(testc.CorpusDir(), "types.c"), testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})
	dir := t.TempDir()
	blob := bytes.Repeat([]byte("section bytes "), 1000)
	blobFile := filepath.Join(dir, "blob")
	os.WriteFile(blobFile, blob, 0o644)
	with := filepath.Join(dir, "with.o")
	testc.Run(t, "objcopy", "--add-section", ".BTF="+blobFile, obj, with)
	got, err := ReadSection(with, ".BTF")
	if err != nil || !bytes.Equal(got, blob) {
		t.Fatalf("ReadSection: %d bytes, %v; want %d", len(got), err, len(blob))
	}
	// debug/elf, the other reader, agrees on a compressed debug section.
	z := filepath.Join(dir, "z.o")
	testc.Run(t, "objcopy", "--compress-debug-sections=zlib", obj, z)
	ef, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ef.Section(".debug_str").Data()
	ef.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ReadSection(z, ".debug_str"); err != nil || !bytes.Equal(got, want) {
		t.Errorf("compressed .debug_str: %d bytes, %v; want %d", len(got), err, len(want))
	}
	for _, c := range []struct{ name, want string }{
		{".BTF", "no such section"},
		{".bss", "has no data"},
	} {
		_, err := ReadSection(obj, c.name)
		var e *Error
		if !errors.As(err, &e) || e.Path != obj || e.Section != c.name || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadSection(%s): %v, want an *Error about the section saying %q", c.name, err, c.want)
		}
	}
	if _, err := ReadSection(obj, ".BTF"); !errors.Is(err, ErrNoSection) {
		t.Errorf("missing section: %v is not ErrNoSection", err)
	}
}

func TestMap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("mapped bytes"), 0o644)
	m, err := Map(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Bytes()) != "mapped bytes" {
		t.Errorf("mapped %q", m.Bytes())
	}
	if err := m.Close(); err != nil || m.Close() != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := Map(filepath.Join(t.TempDir(), "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Map of a missing file: %v", err)
	}
}

// set8Src lays out .BTF_ids as the kernel's BTF_SET8_START/BTF_ID_FLAGS/
// BTF_SET8_END macros do (include/linux/btf_ids.h): a set symbol over
// (count, set flags) and (id, flags) pairs, one __BTF_ID__func__NAME__N
// symbol per ID word. The IDs are zero, as before resolve_btfids.
const set8Src = `
asm(".pushsection .BTF_ids,\"a\"\n"
    ".local __BTF_ID__set8__kfuncs\n"
    "__BTF_ID__set8__kfuncs:\n"
    ".long 2\n .long 1\n"                       /* count, BTF_SET8_KFUNCS */
    ".local __BTF_ID__func__bpf_alpha__1\n"
    "__BTF_ID__func__bpf_alpha__1:\n .long 0\n .long 0x1000\n"
    ".local __BTF_ID__func__bpf_beta_two__2\n"
    "__BTF_ID__func__bpf_beta_two__2:\n .long 0\n .long 0x3\n"
    ".size __BTF_ID__set8__kfuncs, 24\n"
    ".local __BTF_ID__set8__other\n"
    "__BTF_ID__set8__other:\n"
    ".long 1\n .long 0\n"                       /* a set without the flag */
    ".local __BTF_ID__func__bpf_gamma__3\n"
    "__BTF_ID__func__bpf_gamma__3:\n .long 0\n .long 0x7\n"
    ".size __BTF_ID__set8__other, 16\n"
    ".popsection\n");
int bpf_alpha(void) { return 1; }
int bpf_beta_two(void) { return 2; }
int bpf_gamma(void) { return 3; }
`

// TestSet8Funcs reads the functions of the flagged sets from an object
// gcc assembled from the layout above, and from a program linked from it.
func TestSet8Funcs(t *testing.T) {
	testc.Require(t, "gcc")
	dir := t.TempDir()
	src := filepath.Join(dir, "ids.c")
	os.WriteFile(src, []byte(set8Src), 0o644)
	obj := filepath.Join(dir, "ids.o")
	lib := filepath.Join(dir, "ids.so")
	testc.Run(t, "gcc", "-c", "-o", obj, src)
	testc.Run(t, "gcc", "-shared", "-fPIC", "-o", lib, src)
	for _, p := range []string{obj, lib} {
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		syms, err := f.Symbols()
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.Set8Funcs(syms, 1)
		want := []IDFunc{{"bpf_alpha", 0x1000}, {"bpf_beta_two", 0x3}}
		if err != nil || len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("%s: Set8Funcs(1) = %v, %v; want %v", filepath.Base(p), got, err, want)
		}
		if got, err := f.Set8Funcs(syms, 2); err != nil || len(got) != 0 {
			t.Errorf("%s: Set8Funcs(2) = %v, %v; want none", filepath.Base(p), got, err)
		}
		f.Close()
	}
}
