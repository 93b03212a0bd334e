package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testc"
)

// TestEncodeVerboseSkipReport: `btfkit encode -v` prints each function
// left out as "NAME: REASON", then "# COUNT REASON". The fixture's fi_dup
// has two prototypes (int in one unit, long in the other), which pahole
// 1.31's consistent_func rule leaves out.
func TestEncodeVerboseSkipReport(t *testing.T) {
	testc.Require(t, "ld")
	v := testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}}
	a := testc.Compile(t, filepath.Join(testc.CorpusDir(), "funcs_incons_a.c"), v)
	b := testc.Compile(t, filepath.Join(testc.CorpusDir(), "funcs_incons_b.c"), v)
	dir := t.TempDir()
	elf := filepath.Join(dir, "ab.elf")
	testc.Run(t, "ld", "-o", elf, "-e", "0", a, b)
	out, code := runBtfkit(t, nil, "encode", "-v", "-o", filepath.Join(dir, "ab.btf"), elf)
	if code != 0 {
		t.Fatalf("status %d: %s", code, out)
	}
	for _, want := range []string{"fi_dup: inconsistent prototype\n", "# 1 inconsistent prototype\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Without consistent_func, nothing is left out.
	out, code = runBtfkit(t, nil, "encode", "-v", "--features=var,float,decl_tag,type_tag,enum64", "-o", filepath.Join(dir, "ab2.btf"), elf)
	if code != 0 || strings.Contains(out, "fi_dup:") {
		t.Errorf("without consistent_func: status %d, output:\n%s", code, out)
	}
}

// TestEncodeFeatureNames: --supported-features lists every name pahole
// 1.32 accepts, and unknown names are refused.
func TestEncodeFeatureNames(t *testing.T) {
	out, code := runBtfkit(t, nil, "encode", "--supported-features")
	if code != 0 {
		t.Fatalf("status %d: %s", code, out)
	}
	pahole132 := "encode_force var float decl_tag type_tag enum64 optimized_func consistent_func decl_tag_kfuncs reproducible_build distilled_base global_var attributes true_signature layout force_cu_merging"
	// What pahole 1.32 itself prints for --supported_btf_features (with
	// layout, which sid's build cannot write; paholeReference).
	_, features := paholeReference(t)
	if want := strings.ReplaceAll(strings.TrimSpace(features), ",", " "); want != pahole132 {
		t.Errorf("pahole 1.32 lists %q, the test %q", want, pahole132)
	}
	if got := strings.Join(strings.Fields(out), " "); got != pahole132 {
		t.Errorf("--supported-features: %q, want %q", got, pahole132)
	}
	if len(encode.FeatureNames) != 16 {
		t.Errorf("%d feature names", len(encode.FeatureNames))
	}
	out, code = runBtfkit(t, nil, "encode", "--features=default,no_such_feature", "-o", filepath.Join(t.TempDir(), "x.btf"), "/dev/null")
	if code == 0 || !strings.Contains(out, "no_such_feature") {
		t.Errorf("unknown feature: status %d, output %q", code, out)
	}
}
