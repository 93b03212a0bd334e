package frombtf

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/routediff"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testc/libbpfdedup"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
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
		// Kind by kind, the same number of the types no rule of this
		// route changes (it decides functions and variables again,
		// reorders gcc 12's array dimensions, writes complex floats as INT, adds kfunc
		// DECL_TAGs, turns enum forwards from FWD into ENUM).
		r := diff.Compare(spec, lib, diff.Options{})
		for _, k := range []btf.Kind{btf.KindStruct, btf.KindUnion, btf.KindEnum64, btf.KindTypedef,
			btf.KindPtr, btf.KindConst, btf.KindVolatile, btf.KindRestrict} {
			if r.CountsA[k] != r.CountsB[k] {
				t.Errorf("%v: ours %d, libbpf %d", k, r.CountsA[k], r.CountsB[k])
			}
		}
		if a, b := r.CountsA[btf.KindEnum]+r.CountsA[btf.KindFwd], r.CountsB[btf.KindEnum]+r.CountsB[btf.KindFwd]; a != b {
			t.Errorf("ENUM+FWD: ours %d, libbpf %d", a, b)
		}
	})
}

// TestCorpusAgainstDWARF: the same linked object through the DWARF route
// (package encode) and this one. Every difference btfkit diff finds is
// one of a known cause (internal/routediff), checked against the two
// BTFs, the object's DWARF and both routes' reports; the corpus has
// examples of gcc 12's enum losses, of a type defined in a function body
// and of an enum declared but never defined.
func TestCorpusAgainstDWARF(t *testing.T) {
	file := corpusArchive(t)
	var repB, repD funcvar.Report
	fromBTF, err := EncodeFile(file, Options{Features: encode.DefaultFeatures, Jobs: 2, Report: &repB})
	if err != nil {
		t.Fatal(err)
	}
	fromDWARF, err := encode.EncodeFile(file, encode.Options{Features: encode.DefaultFeatures, Jobs: 2, Report: &repD})
	if err != nil {
		t.Fatal(err)
	}
	in := routediff.Inputs{DWARF: fromDWARF, Archive: fromBTF,
		DWARFReport: reasons(repD), ArchiveReport: reasons(repB)}
	if in.Local, err = routediff.LocalTypes(file); err != nil {
		t.Fatal(err)
	}
	if in.MultiDefined, err = routediff.MultiDefined(file); err != nil {
		t.Fatal(err)
	}
	funcKinds := []btf.Kind{btf.KindFunc, btf.KindFuncProto, btf.KindVar, btf.KindDatasec}
	types := diff.Compare(fromDWARF, fromBTF, diff.Options{ExcludeKinds: funcKinds})
	funcs := diff.Compare(fromDWARF, fromBTF, diff.Options{Kinds: []btf.Kind{btf.KindFunc, btf.KindVar, btf.KindDatasec}})
	for _, g := range []struct {
		name string
		r    *diff.Result
	}{{"types", types}, {"functions and variables", funcs}} {
		res := routediff.Classify(g.r.Diffs, in)
		for _, u := range res.Unexplained {
			t.Errorf("%s: no known cause: %s", g.name, u)
		}
		t.Logf("%s: %d difference lines: %v", g.name, len(g.r.Diffs), res.Summary())
	}
	// The corpus shows each gcc 12 loss at least once, so that the
	// classification is exercised.
	res := routediff.Classify(types.Diffs, in)
	for _, c := range []string{routediff.CauseEnum, routediff.CauseLocal, routediff.CauseEnumFwd} {
		if len(res.Causes[c]) == 0 {
			t.Errorf("no difference of cause %q: the corpus has an example of it", c)
		}
	}
}

// reasons maps each function a report leaves out to its reason.
func reasons(r funcvar.Report) map[string]string {
	m := map[string]string{}
	for _, s := range r.Skipped {
		m[s.Name] = s.Reason
	}
	return m
}
