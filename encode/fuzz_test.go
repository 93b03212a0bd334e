package encode

import (
	"debug/elf"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testelf"
)

// fuzzSeed is a compiled object taken apart for FuzzEncode: its sections
// with the debug sections relocated and the relocation sections emptied
// (so that the image needs no relocation), and the indexes of the three
// sections the fuzzer replaces.
type fuzzSeed struct {
	typ                elf.Type
	machine            elf.Machine
	secs               []testelf.Section
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
			for i, sec := range f.Sections {
				if i == 0 {
					continue
				}
				es := testelf.Section{Header: sec.SectionHeader}
				switch {
				case sec.Type == elf.SHT_RELA || sec.Type == elf.SHT_REL:
				case sec.Type == elf.SHT_NOBITS:
				case strings.HasPrefix(sec.Name, ".debug_"):
					es.Data, err = f.Contents(sec, true)
				default:
					es.Data, err = f.Contents(sec, false)
				}
				if err != nil {
					t.Fatal(err)
				}
				es.Data = append([]byte(nil), es.Data...)
				switch sec.Name {
				case ".debug_info":
					s.info, s.infoB = i, es.Data
				case ".debug_abbrev":
					s.abbrev, s.abbrB = i, es.Data
				case ".debug_str":
					s.str, s.strB = i, es.Data
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
		secs := append([]testelf.Section(nil), s.secs...)
		secs[s.info-1].Data, secs[s.abbrev-1].Data, secs[s.str-1].Data = info, abbrev, str
		ef, err := elfx.NewFile(testelf.Build(s.typ, s.machine, secs))
		if err != nil {
			t.Fatalf("%s: the rebuilt image does not open: %v", s.name, err)
		}
		out, err := encode(ef, Options{Features: DefaultFeatures, Jobs: 2}, nil)
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
