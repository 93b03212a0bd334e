package encode

import (
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestLangExclude links a C++ unit with a C unit and encodes the result
// with the C++ unit's language excluded: the C++ types must be gone, and
// the result must equal pahole 1.32's with --lang_exclude.
func TestLangExclude(t *testing.T) {
	testc.Require(t, "g++", "gcc", "ld", "pahole")
	cxx := testc.Compile(t, filepath.Join("testdata", "cxx_only.cc"), testc.Variant{CC: "g++", Flags: []string{"-gdwarf-5", "-O0"}})
	c := testc.Compile(t, filepath.Join(testc.CorpusDir(), "types.c"), testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O0"}})
	mixed := filepath.Join(t.TempDir(), "mixed.o")
	testc.Run(t, "ld", "-r", "-o", mixed, cxx, c)

	hasCxx := func(s *btf.Spec) bool {
		for id := btf.TypeID(1); id < s.NextID(); id++ {
			if s.Type(id).Name() == "CxxOnly" {
				return true
			}
		}
		return false
	}
	all, err := EncodeFile(mixed, Options{Features: LegacyFeatures})
	if err != nil {
		t.Fatal(err)
	}
	if !hasCxx(all) {
		t.Fatal("CxxOnly missing without --lang-exclude")
	}
	langs, err := ParseLanguages("c++14,c++")
	if err != nil {
		t.Fatal(err)
	}
	got, err := EncodeFile(mixed, Options{Features: LegacyFeatures, LangExclude: langs})
	if err != nil {
		t.Fatal(err)
	}
	if hasCxx(got) {
		t.Fatal("CxxOnly encoded although c++ units are excluded")
	}
	ref, msg := paholeJ(t, mixed, []string{"--lang_exclude=c++14,c++"})
	if ref == nil {
		t.Fatalf("pahole: %s", msg)
	}
	want, err := btf.Parse(ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := diff.Compare(got, withoutFuncs(want), diff.Options{}); !r.Equal() {
		t.Errorf("ours (A) vs pahole 1.32 --lang_exclude (B):\n%s", diffText(r))
	}
}
