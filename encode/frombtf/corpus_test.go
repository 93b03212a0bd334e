package frombtf

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testc"
	"github.com/btfkit/btfkit/internal/testc/libbpfdedup"
	"github.com/btfkit/btfkit/internal/testenv"
)

// corpusArchive compiles the C corpus and 30 member sources with gcc
// -gbtf and links them with ld -r into one object whose .BTF is their
// archive.
func corpusArchive(t *testing.T) string {
	t.Helper()
	testc.Require(t, "gcc", "ld")
	dir := t.TempDir()
	var objs []string
	for i := 0; i < 30; i++ {
		src := filepath.Join(dir, "m"+string(rune('a'+i%26))+string(rune('a'+i/26))+".c")
		if err := os.WriteFile(src, []byte(memberSource(i)), 0o644); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, testc.Compile(t, src, gbtf))
	}
	for _, src := range testc.CorpusFiles(t) {
		objs = append(objs, testc.Compile(t, src, gbtf, "-Wno-attributes"))
	}
	out := filepath.Join(dir, "corpus.o")
	// The corpus files may define the same global names; their .BTF is
	// what matters here.
	testc.Run(t, "ld", append([]string{"-r", "--allow-multiple-definition", "-o", out}, objs...)...)
	return out
}

// TestCorpusArchive (acceptance 3): the archive of every gcc -gbtf object
// compiled here merges to BTF that passes Check and the running kernel's
// BPF_BTF_LOAD, with no more types than libbpf's btf__add_btf +
// btf__dedup of the same members, and the same bytes for any -j.
func TestCorpusArchive(t *testing.T) {
	file := corpusArchive(t)
	spec, err := EncodeFile(file, Options{Features: encode.DefaultFeatures, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	raw := spec.Marshal(nil)
	if err := spec.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}
	for _, j := range []int{1, 3, 8} {
		s, err := EncodeFile(file, Options{Features: encode.DefaultFeatures, Jobs: j})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(s.Marshal(nil), raw) {
			t.Errorf("-j%d gives other bytes than -j2", j)
		}
	}

	t.Run("kernel", func(t *testing.T) {
		err := kernload.Load(raw)
		if errors.Is(err, kernload.ErrNotPermitted) {
			testenv.SkipOrFail(t, "%v", err)
		}
		if err != nil {
			t.Fatalf("the kernel refused the merged BTF: %v", err)
		}
	})

	t.Run("libbpf", func(t *testing.T) {
		// libbpf reads gcc 12's FWD type word as a type ID: zero it, and
		// change nothing else, for libbpf's input.
		data, _, err := btf.ReadBTFBytes(file)
		if err != nil {
			t.Fatal(err)
		}
		blobs, err := btf.SplitArchive(data)
		if err != nil {
			t.Fatal(err)
		}
		var in []byte
		for _, b := range blobs {
			m, err := btf.Parse(b, nil)
			if err != nil {
				t.Fatal(err)
			}
			for id := m.FirstID(); id < m.NextID(); id++ {
				if name, info, st, _ := m.RawType(id); btf.KindOf(info) == btf.KindFwd && st != 0 {
					m.SetRaw(id, name, info, 0)
				}
			}
			in = append(in, m.Marshal(nil)...)
		}
		p := filepath.Join(t.TempDir(), "members.btf")
		if err := os.WriteFile(p, in, 0o644); err != nil {
			t.Fatal(err)
		}
		lib, err := btf.Parse(libbpfdedup.Dedup(t, p, ""), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d members: ours %d types, libbpf add+dedup %d", len(blobs), spec.NumTypes(), lib.NumTypes())
		if spec.NumTypes() > lib.NumTypes() {
			t.Errorf("ours %d types > libbpf's %d", spec.NumTypes(), lib.NumTypes())
		}
		// Kind by kind, the types both keep: the same number, but for
		// the functions and variables this route decides again.
		r := diff.Compare(spec, lib, diff.Options{ExcludeKinds: []btf.Kind{btf.KindFunc, btf.KindFuncProto, btf.KindVar, btf.KindDatasec}})
		for k := btf.Kind(1); k <= btf.MaxKind; k++ {
			if r.CountsA[k] != r.CountsB[k] {
				t.Errorf("%v: ours %d, libbpf %d", k, r.CountsA[k], r.CountsB[k])
			}
		}
	})
}

// TestCorpusAgainstDWARF: the same linked object through the DWARF route
// (package encode) and this one. Every difference outside FUNC,
// FUNC_PROTO, VAR and DATASEC is one of gcc 12's known losses, an ENUM
// whose DWARF has a negative value or does not fit 32 bits; the
// functions and variables differ by known causes only (see doc.go).
func TestCorpusAgainstDWARF(t *testing.T) {
	file := corpusArchive(t)
	fromBTF, err := EncodeFile(file, Options{Features: encode.DefaultFeatures, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	fromDWARF, err := encode.EncodeFile(file, encode.Options{Features: encode.DefaultFeatures, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	r := diff.Compare(fromDWARF, fromBTF, diff.Options{ExcludeKinds: []btf.Kind{btf.KindFunc, btf.KindFuncProto, btf.KindVar, btf.KindDatasec}})
	lossy := gcc12LossyEnums(fromDWARF)
	lossy[countLine] = len(lossy) > 0
	for _, d := range r.Diffs {
		if name, ok := enumOfDiff(d); ok && lossy[name] {
			continue
		}
		t.Errorf("DWARF route vs BTF route: %s", d)
	}
	t.Logf("%d difference lines outside functions and variables, all gcc 12 enum losses (%d such enums)", len(r.Diffs), len(lossy))
}

// gcc12LossyEnums names the enums whose gcc 12 BTF cannot be right: a
// negative value (gcc 12 sets no signedness flag) or an 8-byte enum
// (gcc 12 writes no ENUM64 and drops the values above 32 bits).
func gcc12LossyEnums(s *btf.Spec) map[string]bool {
	out := map[string]bool{}
	for id := s.FirstID(); id < s.NextID(); id++ {
		t := s.Type(id)
		switch t.Kind() {
		case btf.KindEnum64:
			out[t.Name()] = true
		case btf.KindEnum:
			if t.KindFlag() {
				out[t.Name()] = true
			}
		}
	}
	return out
}

// countLine is what enumOfDiff returns for a count line of ENUM or
// ENUM64, which gcc 12's 8-byte enums change.
const countLine = "# count"

// enumOfDiff returns the enum a diff line is about.
func enumOfDiff(line string) (string, bool) {
	f := strings.Fields(line)
	if len(f) < 3 {
		return "", false
	}
	switch f[0] {
	case "-", "+", "~":
		if f[1] == "ENUM" || f[1] == "ENUM64" {
			return strings.TrimSuffix(f[2], ":"), true
		}
	case "#":
		if f[1] == "count" && (f[2] == "ENUM:" || f[2] == "ENUM64:") {
			return countLine, true
		}
	}
	return "", false
}
