package encode

import (
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestStats: Options.Stats counts the units, the types before and after
// deduplication, times every stage that ran, and does not change the
// result.
func TestStats(t *testing.T) {
	testc.Require(t, "ld")
	v := testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}}
	a := testc.Compile(t, filepath.Join(testc.CorpusDir(), "funcs_incons_a.c"), v)
	b := testc.Compile(t, filepath.Join(testc.CorpusDir(), "funcs_incons_b.c"), v)
	elf := filepath.Join(t.TempDir(), "ab.elf")
	testc.Run(t, "ld", "-o", elf, "-e", "0", a, b)

	plain, err := EncodeFile(elf, Options{Features: DefaultFeatures, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	merged, err := EncodeFile(elf, Options{Features: DefaultFeatures, Jobs: 2, NoDedup: true})
	if err != nil {
		t.Fatal(err)
	}
	var st Stats
	timed, err := EncodeFile(elf, Options{Features: DefaultFeatures, Jobs: 2, Stats: &st})
	if err != nil {
		t.Fatal(err)
	}
	if string(timed.Marshal(nil)) != string(plain.Marshal(nil)) {
		t.Fatal("the BTF differs with Stats")
	}
	if st.Units != 2 || st.Workers != 2 {
		t.Errorf("%d units, %d workers; want 2, 2", st.Units, st.Workers)
	}
	if st.Types != merged.NumTypes() || st.Out != plain.NumTypes() {
		t.Errorf("types %d in, %d out; want %d, %d", st.Types, st.Out, merged.NumTypes(), plain.NumTypes())
	}
	for _, s := range st.Stages() {
		if s.Wall <= 0 {
			t.Errorf("stage %s: wall time %v", s.Name, s.Wall)
		}
	}
	if st.DedupPhases.Struct.Wall <= 0 || st.DedupPhases.Total().Wall > st.Dedup.Wall {
		t.Errorf("dedup phases %+v within a dedup of %v", st.DedupPhases, st.Dedup.Wall)
	}
	if st.WalkWall <= 0 {
		t.Errorf("walk elapsed %v", st.WalkWall)
	}
}
