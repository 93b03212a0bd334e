package encode

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/internal/testc"
)

// elfSection is one section of an image buildELF writes.
type elfSection struct {
	hdr  elf.SectionHeader
	data []byte
}

// buildELF writes a little-endian ELF64 image of the given type and
// machine with these sections (index 0, the null section, first), their
// indexes unchanged, and a fresh section name table at the end.
func buildELF(typ elf.Type, machine elf.Machine, secs []elfSection) []byte {
	var out bytes.Buffer
	out.Write(make([]byte, 64))
	var shstr bytes.Buffer
	shstr.WriteByte(0)
	offs := make([]uint64, len(secs)+1)
	names := make([]uint32, len(secs)+1)
	for i, s := range secs {
		if i == 0 {
			continue
		}
		names[i] = uint32(shstr.Len())
		shstr.WriteString(s.hdr.Name)
		shstr.WriteByte(0)
		for out.Len()%8 != 0 {
			out.WriteByte(0)
		}
		offs[i] = uint64(out.Len())
		if s.hdr.Type != elf.SHT_NOBITS {
			out.Write(s.data)
		}
	}
	shstrIdx := len(secs)
	names[shstrIdx] = uint32(shstr.Len())
	shstr.WriteString(".shstrtab\x00")
	offs[shstrIdx] = uint64(out.Len())
	shstrLen := shstr.Len()
	out.Write(shstr.Bytes())
	for out.Len()%8 != 0 {
		out.WriteByte(0)
	}
	shoff := uint64(out.Len())
	le := binary.LittleEndian
	sh := make([]byte, 64)
	for i := 0; i <= len(secs); i++ {
		clear(sh)
		if i == shstrIdx {
			le.PutUint32(sh[0:], names[i])
			le.PutUint32(sh[4:], uint32(elf.SHT_STRTAB))
			le.PutUint64(sh[24:], offs[i])
			le.PutUint64(sh[32:], uint64(shstrLen))
			le.PutUint64(sh[48:], 1)
		} else if i > 0 {
			h := secs[i].hdr
			le.PutUint32(sh[0:], names[i])
			le.PutUint32(sh[4:], uint32(h.Type))
			le.PutUint64(sh[8:], uint64(h.Flags))
			le.PutUint64(sh[16:], h.Addr)
			le.PutUint64(sh[24:], offs[i])
			size := uint64(len(secs[i].data))
			if h.Type == elf.SHT_NOBITS {
				size = h.Size
			}
			le.PutUint64(sh[32:], size)
			le.PutUint32(sh[40:], h.Link)
			le.PutUint32(sh[44:], h.Info)
			le.PutUint64(sh[48:], h.Addralign)
			le.PutUint64(sh[56:], h.Entsize)
		}
		out.Write(sh)
	}
	b := out.Bytes()
	copy(b, elf.ELFMAG)
	b[4], b[5], b[6] = byte(elf.ELFCLASS64), byte(elf.ELFDATA2LSB), byte(elf.EV_CURRENT)
	le.PutUint16(b[16:], uint16(typ))
	le.PutUint16(b[18:], uint16(machine))
	le.PutUint32(b[20:], uint32(elf.EV_CURRENT))
	le.PutUint64(b[40:], shoff)
	le.PutUint16(b[52:], 64)
	le.PutUint16(b[58:], 64)
	le.PutUint16(b[60:], uint16(len(secs)+1))
	le.PutUint16(b[62:], uint16(shstrIdx))
	return b
}

// fuzzSeed is a compiled object taken apart for FuzzEncode: its sections
// with the debug sections relocated and the relocation sections emptied
// (so that the image needs no relocation), and the indexes of the three
// sections the fuzzer replaces.
type fuzzSeed struct {
	typ                elf.Type
	machine            elf.Machine
	secs               []elfSection
	info, abbrev, str  int
	infoB, abbrB, strB []byte
	name               string
}

func fuzzSeeds(t testing.TB) []fuzzSeed {
	var seeds []fuzzSeed
	for _, v := range []testc.Variant{
		{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}},
		{CC: testc.GCC, Flags: []string{"-gdwarf-4", "-O0"}},
		{CC: testc.Clang, Flags: []string{"-gdwarf-5", "-O0"}},
	} {
		if !testc.Have(v.CC) {
			testc.Require(t, string(v.CC))
		}
		for _, src := range []string{"types.c", "funcs.c", "tags.c"} {
			obj := testc.Compile(t, filepath.Join(testc.CorpusDir(), src), v)
			f, err := elfx.Open(obj)
			if err != nil {
				t.Fatal(err)
			}
			s := fuzzSeed{typ: f.Type, machine: f.Machine, name: src + " " + v.Name(), info: -1, abbrev: -1, str: -1}
			s.secs = append(s.secs, elfSection{})
			for i, sec := range f.Sections {
				if i == 0 {
					continue
				}
				es := elfSection{hdr: sec.SectionHeader}
				switch {
				case sec.Type == elf.SHT_RELA || sec.Type == elf.SHT_REL:
				case sec.Type == elf.SHT_NOBITS:
				case strings.HasPrefix(sec.Name, ".debug_"):
					es.data, err = f.Contents(sec, true)
				default:
					es.data, err = f.Contents(sec, false)
				}
				if err != nil {
					t.Fatal(err)
				}
				es.data = append([]byte(nil), es.data...)
				switch sec.Name {
				case ".debug_info":
					s.info, s.infoB = i, es.data
				case ".debug_abbrev":
					s.abbrev, s.abbrB = i, es.data
				case ".debug_str":
					s.str, s.strB = i, es.data
				}
				s.secs = append(s.secs, es)
			}
			f.Close()
			if s.info < 0 || s.abbrev < 0 || s.str < 0 {
				t.Fatalf("%s: no .debug_info, .debug_abbrev or .debug_str", s.name)
			}
			seeds = append(seeds, s)
		}
	}
	return seeds
}

// FuzzEncode runs the whole encoder (units in parallel, merge, dedup,
// functions and variables against the ELF symbols, and the final Check
// EncodeFile makes) on objects compiled from the corpus whose
// .debug_info, .debug_abbrev and .debug_str the fuzzer replaces. Nothing
// may panic or hang; an error names the section and offset (a
// *dwarf.DecodeError or an *elfx.Error) or the BTF type that DWARF made
// invalid (a *btf.CheckError); BTF it returns passes Check.
func FuzzEncode(f *testing.F) {
	seeds := fuzzSeeds(f)
	for i, s := range seeds {
		f.Add(uint8(i), s.infoB, s.abbrB, s.strB)
	}
	f.Fuzz(func(t *testing.T, which uint8, info, abbrev, str []byte) {
		s := seeds[int(which)%len(seeds)]
		secs := append([]elfSection(nil), s.secs...)
		secs[s.info].data, secs[s.abbrev].data, secs[s.str].data = info, abbrev, str
		ef, err := elfx.NewFile(buildELF(s.typ, s.machine, secs))
		if err != nil {
			t.Fatalf("%s: the rebuilt image does not open: %v", s.name, err)
		}
		out, err := encode(ef, Options{Features: DefaultFeatures, Jobs: 2})
		if err == nil {
			err = checkOutput(out) // as EncodeFile does
		}
		if err != nil {
			var de *dwarf.DecodeError
			var ee *elfx.Error
			var ce *btf.CheckError
			// The file as a whole: no DWARF to read (an empty
			// .debug_info); the command adds the path.
			whole := strings.HasPrefix(err.Error(), "no DWARF")
			if !errors.As(err, &de) && !errors.As(err, &ee) && !errors.As(err, &ce) && !whole {
				t.Fatalf("%s: error names no section and offset: %v", s.name, err)
			}
			return
		}
		if err := out.Check(); err != nil {
			var ce *btf.CheckError
			if errors.As(err, &ce) && len(ce.Problems) > 0 {
				t.Fatalf("%s: the encoder's BTF fails Check: %v (first: %v)", s.name, err, ce.Problems[0])
			}
			t.Fatalf("%s: the encoder's BTF fails Check: %v", s.name, err)
		}
	})
}
