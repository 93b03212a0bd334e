package main

import (
	"bytes"
	"compress/zlib"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testelf"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// badInput is one hand-made bad input: the file's name and bytes, and
// the command that reads it (given the file's path).
type badInput struct {
	name string
	file string
	data []byte
	args func(path string) []string
}

func dumpArgs(p string) []string   { return []string{"dump", p} }
func checkArgs(p string) []string  { return []string{"check", p} }
func encodeArgs(p string) []string { return []string{"encode", "-o", p + ".btf", p} }

// A message locates the problem: a byte offset ("offset 0x1c", ".debug_info+0x2b",
// "at 0x..."), or, for BTF that parses but breaks a rule, the type ("type [5]"),
// as the kernel's verifier log does.
var locates = regexp.MustCompile(`0x[0-9a-f]+|type \[\d+\]`)

// TestBadInputs: hand-made bad inputs across BTF, ELF and DWARF (see
// badInputs; more than 40) each make the command that reads them exit
// with status 1 and a message naming the file and where in it the
// problem is, without a crash. It runs in the race run too, with a
// btfkit built with -race then.
func TestBadInputs(t *testing.T) {
	bin := testenv.Btfkit(t)
	if raceEnabled {
		bin = testenv.BtfkitRace(t)
	}
	dir := t.TempDir()
	cases := badInputs(t)
	if len(cases) < 40 {
		t.Fatalf("%d bad inputs, want at least 40", len(cases))
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.file)
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, c.args(p)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.Run()
		code := cmd.ProcessState.ExitCode()
		msg := errb.String() + out.String()
		if code != 1 || !strings.Contains(msg, p) || !locates.MatchString(msg) || isCrash(msg) {
			t.Errorf("%s: btfkit %s: exit status %d, want 1 and a message naming the file and the offset:\n%s", c.name, strings.Join(c.args(p), " "), code, tail(msg))
		} else if testing.Verbose() {
			t.Logf("%s: %s", c.name, firstLine(msg))
		}
		os.Remove(p)
		os.Remove(p + ".btf")
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// badInputs makes the inputs: BTF broken at each step of reading it,
// ELF files broken in their headers, sections, relocations and
// compression, and DWARF broken in its units, abbreviations and forms.
func badInputs(t *testing.T) []badInput {
	var cs []badInput
	cs = append(cs, badBTF()...)
	cs = append(cs, badELF(t)...)
	cs = append(cs, badDWARF()...)
	// The DWARF ones through the other commands that read DWARF.
	for _, c := range badDWARF() {
		if strings.Contains(c.name, "typedef of itself") || strings.Contains(c.name, "member past the struct") {
			continue // valid DWARF for a layout: BTF's rules do not apply
		}
		c.name += " (layout)"
		c.file = "layout-" + c.file
		c.args = func(p string) []string { return []string{"layout", "-F", "dwarf", p} }
		cs = append(cs, c)
	}
	return cs
}

// goodBTF is small valid BTF: an int, a pointer, a struct, a typedef.
func goodBTF() *btf.Spec {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)                                            // 1
	p := s.Add("", btf.KindPtr, 0, false, 3)                                                                     // 2
	s.Add("s", btf.KindStruct, 2, false, 16, s.AddString("a"), uint32(i), 0, s.AddString("next"), uint32(p), 64) // 3
	s.Add("s_t", btf.KindTypedef, 0, false, 3)                                                                   // 4
	return s
}

// patched returns a copy of b with v written at off (little endian, as
// Marshal writes on this machine).
func patched(b []byte, off int, v uint32) []byte {
	c := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(c[off:], v)
	return c
}

func badBTF() []badInput {
	good := goodBTF().Marshal(binary.LittleEndian)
	hl := int(binary.LittleEndian.Uint32(good[4:]))
	typeLen := int(binary.LittleEndian.Uint32(good[12:]))
	strOff := int(binary.LittleEndian.Uint32(good[16:]))
	strLen := int(binary.LittleEndian.Uint32(good[20:]))
	// The struct (type 3) starts after the int (16 bytes) and the
	// pointer (12): its info word is at hl+28+4.
	structInfo := hl + 28 + 4
	typedefType := hl + 28 + 12 + 24 + 8
	mod := func(name string, args func(string) []string, f func([]byte) []byte) badInput {
		return badInput{"BTF " + name, strings.ReplaceAll(name, " ", "-") + ".btf", f(append([]byte(nil), good...)), args}
	}
	cs := []badInput{
		mod("bad magic", dumpArgs, func(b []byte) []byte { b[0] = 0x12; return b }),
		mod("truncated header", dumpArgs, func(b []byte) []byte { return b[:12] }),
		mod("version 2", dumpArgs, func(b []byte) []byte { b[2] = 2; return b }),
		mod("unknown flags", dumpArgs, func(b []byte) []byte { b[3] = 1; return b }),
		mod("header length 16", dumpArgs, func(b []byte) []byte { return patched(b, 4, 16) }),
		mod("header length past the end", dumpArgs, func(b []byte) []byte { return patched(b, 4, 1<<20) }),
		mod("type section past the end", dumpArgs, func(b []byte) []byte { return patched(b, 12, 1<<24) }),
		mod("string section past the end", dumpArgs, func(b []byte) []byte { return patched(b, 20, 1<<24) }),
		mod("misaligned type section", dumpArgs, func(b []byte) []byte { return patched(b, 8, 2) }),
		mod("type section length not whole words", dumpArgs, func(b []byte) []byte { return patched(b, 12, uint32(typeLen-2)) }),
		mod("strings not NUL-terminated", dumpArgs, func(b []byte) []byte { b[len(b)-1] = 'x'; return b }),
		mod("strings not starting with NUL", dumpArgs, func(b []byte) []byte { b[hl+strOff] = 'x'; return b }),
		mod("cut after the header", dumpArgs, func(b []byte) []byte { return b[:hl] }),
		mod("cut inside the types", dumpArgs, func(b []byte) []byte { return b[:hl+typeLen/2] }),
		mod("cut at the end of the types", dumpArgs, func(b []byte) []byte { return b[:hl+typeLen] }),
		mod("cut inside the strings", dumpArgs, func(b []byte) []byte { return b[:hl+strOff+strLen/2] }),
		mod("huge vlen", dumpArgs, func(b []byte) []byte { return patched(b, structInfo, btf.Info(btf.KindStruct, 0xffffff, false)) }),
		mod("vlen past the type section", dumpArgs, func(b []byte) []byte { return patched(b, structInfo, btf.Info(btf.KindStruct, 5, false)) }),
		mod("unknown kind", dumpArgs, func(b []byte) []byte { return patched(b, structInfo, 31<<24|2) }),
		mod("name offset out of range", checkArgs, func(b []byte) []byte { return patched(b, hl+28, 1<<20) }),
		mod("typedef of itself", checkArgs, func(b []byte) []byte { return patched(b, typedefType, 4) }),
		mod("type id out of range", checkArgs, func(b []byte) []byte { return patched(b, typedefType, 999) }),
		mod("member past the struct", checkArgs, func(b []byte) []byte { return patched(b, hl+28+12+12+8, 1024) }),
	}
	// A pointer and a const that refer to each other.
	s := btf.NewSpec()
	s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	s.Add("", btf.KindPtr, 0, false, 3)
	s.Add("", btf.KindConst, 0, false, 2)
	cs = append(cs, badInput{"BTF pointer loop", "ptr-loop.btf", s.Marshal(nil), checkArgs},
		badInput{"BTF pointer loop (dedup)", "ptr-loop-dedup.btf", s.Marshal(nil), func(p string) []string { return []string{"dedup", "-o", p + ".btf", p} }})
	// A struct that holds itself, dumped as C.
	s = btf.NewSpec()
	s.Add("self", btf.KindStruct, 1, false, 4, s.AddString("m"), 1, 0)
	cs = append(cs, badInput{"BTF struct holding itself (C)", "self.btf", s.Marshal(nil), func(p string) []string { return []string{"dump", "--format", "c", p} }})
	// Garbage as the .BTF section of an ELF file.
	cs = append(cs, badInput{"ELF .BTF of garbage", "garbage-btf.o", testelf.Build(elf.ET_REL, elf.EM_X86_64, []testelf.Section{testelf.Debug(".BTF", []byte("\x9f\xeb\x01\x00garbage, not BTF"))}), dumpArgs})
	return cs
}

// rela64 is one Elf64_Rela.
func rela64(off uint64, sym, typ uint32, add int64) []byte {
	b := make([]byte, 24)
	binary.LittleEndian.PutUint64(b, off)
	binary.LittleEndian.PutUint64(b[8:], uint64(sym)<<32|uint64(typ))
	binary.LittleEndian.PutUint64(b[16:], uint64(add))
	return b
}

func zlibbed(b []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// chdr64 is an Elf64_Chdr.
func chdr64(typ elf.CompressionType, size uint64) []byte {
	b := make([]byte, 24)
	binary.LittleEndian.PutUint32(b, uint32(typ))
	binary.LittleEndian.PutUint64(b[8:], size)
	binary.LittleEndian.PutUint64(b[16:], 1)
	return b
}

func badELF(t *testing.T) []badInput {
	info, abbrev := goodDWARF()
	sections := func(extra ...testelf.Section) []byte {
		return testelf.Build(elf.ET_REL, elf.EM_X86_64, append([]testelf.Section{
			testelf.Debug(".debug_info", info), testelf.Debug(".debug_abbrev", abbrev),
		}, extra...))
	}
	good := sections()
	shoff := int(binary.LittleEndian.Uint64(good[40:]))
	// .debug_info is section 1, .symtab 3 (a null symbol and an
	// undefined one), the relocations 4, .strtab 5.
	symtab := testelf.Section{Header: elf.SectionHeader{Name: ".symtab", Type: elf.SHT_SYMTAB, Link: 5, Info: 1, Entsize: 24, Addralign: 8}, Data: make([]byte, 48)}
	strtab := testelf.Section{Header: elf.SectionHeader{Name: ".strtab", Type: elf.SHT_STRTAB, Addralign: 1}, Data: []byte{0}}
	rela := func(r []byte) []byte {
		return sections(symtab, testelf.Section{Header: elf.SectionHeader{Name: ".rela.debug_info", Type: elf.SHT_RELA, Link: 3, Info: 1, Entsize: 24, Addralign: 8}, Data: r}, strtab)
	}
	compressed := func(data []byte) []byte {
		return testelf.Build(elf.ET_REL, elf.EM_X86_64, []testelf.Section{
			{Header: elf.SectionHeader{Name: ".debug_info", Type: elf.SHT_PROGBITS, Flags: elf.SHF_COMPRESSED, Addralign: 8}, Data: data},
			testelf.Debug(".debug_abbrev", abbrev),
		})
	}
	cs := []badInput{
		{"ELF empty file", "empty.o", nil, encodeArgs},
		{"ELF text file", "text.o", []byte("not an object file\n"), encodeArgs},
		{"ELF magic only", "magic.o", good[:4], encodeArgs},
		{"ELF header cut short", "header.o", good[:40], encodeArgs},
		{"ELF section headers past the end", "shoff.o", patched(good, 40, uint32(len(good)+64)), encodeArgs},
		{"ELF section headers cut short", "shcut.o", good[:shoff+100], encodeArgs},
		{"ELF section name table index out of range", "shstrndx.o", func() []byte {
			b := append([]byte(nil), good...)
			binary.LittleEndian.PutUint16(b[62:], 99)
			return b
		}(), encodeArgs},
		{"ELF section past the end", "secpast.o", func() []byte {
			b := append([]byte(nil), good...)
			binary.LittleEndian.PutUint64(b[shoff+64+32:], 1<<30) // .debug_info's size
			return b
		}(), encodeArgs},
		{"ELF relocation off the end", "reloc-off.o", rela(rela64(1<<20, 1, uint32(elf.R_X86_64_32), 0)), encodeArgs},
		{"ELF relocation straddling the end", "reloc-edge.o", rela(rela64(uint64(len(info)-2), 1, uint32(elf.R_X86_64_32), 0)), encodeArgs},
		{"ELF relocation symbol out of range", "reloc-sym.o", rela(rela64(8, 99, uint32(elf.R_X86_64_32), 0)), encodeArgs},
		{"ELF relocation of an unknown type", "reloc-type.o", rela(rela64(8, 1, 200, 0)), encodeArgs},
		{"ELF relocations cut short", "reloc-cut.o", rela(rela64(8, 1, uint32(elf.R_X86_64_32), 0)[:20]), encodeArgs},
		{"ELF compressed section declaring more than it holds", "z-more.o", compressed(append(chdr64(elf.COMPRESS_ZLIB, uint64(len(info)+100)), zlibbed(info)...)), encodeArgs},
		{"ELF compressed section declaring less than it holds", "z-less.o", compressed(append(chdr64(elf.COMPRESS_ZLIB, uint64(len(info)-10)), zlibbed(info)...)), encodeArgs},
		{"ELF compressed section declaring 1 TiB", "z-huge.o", compressed(append(chdr64(elf.COMPRESS_ZLIB, 1<<40), zlibbed(info)...)), encodeArgs},
		{"ELF compressed section of garbage", "z-garbage.o", compressed(append(chdr64(elf.COMPRESS_ZLIB, uint64(len(info))), []byte("this is not a zlib stream")...)), encodeArgs},
		{"ELF compressed section of unknown type", "z-type.o", compressed(append(chdr64(7, uint64(len(info))), zlibbed(info)...)), encodeArgs},
		{"ELF zstd section of garbage", "zstd-garbage.o", compressed(append(chdr64(elf.COMPRESS_ZSTD, uint64(len(info))), []byte("\x28\xb5\x2f\xfdgarbage")...)), encodeArgs},
		{"ELF .zdebug without its ZLIB header", "zdebug.o", testelf.Build(elf.ET_REL, elf.EM_X86_64, []testelf.Section{testelf.Debug(".zdebug_info", zlibbed(info)), testelf.Debug(".debug_abbrev", abbrev)}), encodeArgs},
		{".ko.xz that is not xz", "m.ko.xz", []byte("\xfd7zXZ\x00 this is not xz"), encodeArgs},
		{".ko.zst that is not zstd", "m.ko.zst", []byte("\x28\xb5\x2f\xfd this is not zstd"), encodeArgs},
		{".ko.gz that is not gzip", "m.ko.gz", []byte("\x1f\x8b this is not gzip"), encodeArgs},
	}
	// A compiled object cut at the start of each of its sections.
	obj, err := os.ReadFile(paholeFixture(t, "types.c"))
	if err != nil {
		t.Fatal(err)
	}
	ef, err := elf.NewFile(bytes.NewReader(obj))
	if err != nil {
		t.Fatal(err)
	}
	offs := map[uint64]string{}
	for _, s := range ef.Sections {
		if s.Type != elf.SHT_NOBITS && s.Offset > 64 && s.Size > 0 {
			offs[s.Offset] = s.Name
		}
	}
	var keys []uint64
	for o := range offs {
		keys = append(keys, o)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, o := range keys {
		cs = append(cs, badInput{fmt.Sprintf("ELF cut at %s (0x%x)", offs[o], o), fmt.Sprintf("cut-%x.o", o), obj[:o], encodeArgs})
	}
	return cs
}

// goodDWARF is one DWARF 4 unit, hand-assembled so that the bad inputs
// can break it where they mean to: a compile unit holding int, a
// typedef of it, and a struct of two members.
func goodDWARF() (info, abbrev []byte) {
	abbrev = []byte{
		1, 0x11, 1, 0x03, 0x08, 0x13, 0x0b, 0, 0, // compile_unit: name string, language data1
		2, 0x24, 0, 0x03, 0x08, 0x0b, 0x0b, 0x3e, 0x0b, 0, 0, // base_type: name, byte_size, encoding
		3, 0x16, 0, 0x03, 0x08, 0x49, 0x13, 0, 0, // typedef: name, type ref4
		4, 0x13, 1, 0x03, 0x08, 0x0b, 0x0b, 0, 0, // structure_type: name, byte_size
		5, 0x0d, 0, 0x03, 0x08, 0x49, 0x13, 0x38, 0x0b, 0, 0, // member: name, type ref4, location data1
		0,
	}
	ref := func(off uint32) []byte { return binary.LittleEndian.AppendUint32(nil, off) }
	var dies []byte
	dies = append(dies, 1, 't', '.', 'c', 0, 0x0c)                           // 11: the unit, C99
	dies = append(dies, 2, 'i', 'n', 't', 0, 4, 5)                           // 17: int
	dies = append(dies, 3, 'm', 'y', 'i', 'n', 't', 0)                       // 24: typedef myint
	dies = append(dies, ref(17)...)                                          //
	dies = append(dies, 4, 's', 0, 8)                                        // 35: struct s, 8 bytes
	dies = append(dies, append(append([]byte{5, 'a', 0}, ref(17)...), 0)...) // 39: a at 0
	dies = append(dies, append(append([]byte{5, 'b', 0}, ref(24)...), 4)...) // 47: b at 4
	dies = append(dies, 0, 0)                                                // 55, 56: ends of children
	hdr := binary.LittleEndian.AppendUint32(nil, uint32(7+len(dies)))
	hdr = append(hdr, 4, 0)          // version 4
	hdr = append(hdr, 0, 0, 0, 0, 8) // abbrev offset 0, address size 8
	return append(hdr, dies...), abbrev
}

func badDWARF() []badInput {
	info, abbrev := goodDWARF()
	obj := func(info, abbrev []byte, extra ...testelf.Section) []byte {
		return testelf.Build(elf.ET_REL, elf.EM_X86_64, append([]testelf.Section{
			testelf.Debug(".debug_info", info), testelf.Debug(".debug_abbrev", abbrev),
		}, extra...))
	}
	set := func(b []byte, off int, v ...byte) []byte {
		c := append([]byte(nil), b...)
		copy(c[off:], v)
		return c
	}
	mod := func(name string, info, abbrev []byte, extra ...testelf.Section) badInput {
		return badInput{"DWARF " + name, strings.ReplaceAll(name, " ", "-") + ".o", obj(info, abbrev, extra...), encodeArgs}
	}
	strp := set(abbrev, 13, 0x0e) // int's name as DW_FORM_strp
	return []badInput{
		mod("bad abbreviation code", set(info, 17, 9), abbrev),
		mod("unknown form", info, set(abbrev, 13, 0x7f)),
		mod("string index without .debug_str_offsets", info, set(abbrev, 13, 0x25)),
		mod("unit length past the section", patched(info, 0, 1000), abbrev),
		mod("unit length cut short", patched(info, 0, 20), abbrev),
		mod("unsupported version", set(info, 4, 9), abbrev),
		mod("abbreviation offset past its section", patched(info, 6, 4096), abbrev),
		mod("address size 3", set(info, 10, 3), abbrev),
		mod("reference past the unit", patched(info, 31, 900), abbrev),
		mod("string offset past .debug_str", set(info, 18, 0xff, 0xff, 0, 0), strp, testelf.Debug(".debug_str", []byte("\x00int\x00"))),
		mod("cut inside an entry", info[:30], abbrev),
		mod("abbreviations without their end", info, abbrev[:len(abbrev)-12]),
		mod("typedef of itself", patched(info, 31, 24), abbrev),
		mod("member past the struct", set(info, 54, 200), abbrev),
		mod("no .debug_abbrev", info, nil),
	}
}
