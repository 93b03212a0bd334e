package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestEncodeVerboseSkipReport: `btfkit encode -v` prints each function
// left out as "NAME: REASON", then "# COUNT REASON". The fixture's fi_dup
// has two prototypes (int in one unit, long in the other), which pahole's
// consistent_func rule leaves out.
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
// 1.32 accepts (its --supported_btf_features, asked at test time), in its
// order, and "layout", which sid's pahole, linked with libbpf 1.7, leaves
// out (it needs libbpf 1.8's kind layout section); unknown names are
// refused.
func TestEncodeFeatureNames(t *testing.T) {
	testc.Require(t, "pahole")
	out, code := runBtfkit(t, nil, "encode", "--supported-features")
	if code != 0 {
		t.Fatalf("status %d: %s", code, out)
	}
	want := strings.Split(strings.TrimSpace(string(testc.Output(t, "pahole", "--supported_btf_features"))), ",")
	var got []string
	layout := false
	for _, f := range strings.Fields(out) {
		if f == "layout" {
			layout = true
			continue
		}
		got = append(got, f)
	}
	if !layout || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("--supported-features: %q; want pahole 1.32's %q and layout", strings.Fields(out), want)
	}
	if len(encode.FeatureNames) != len(want)+1 {
		t.Errorf("%d feature names, pahole 1.32 has %d and layout", len(encode.FeatureNames), len(want))
	}
	out, code = runBtfkit(t, nil, "encode", "--features=default,no_such_feature", "-o", filepath.Join(t.TempDir(), "x.btf"), "/dev/null")
	if code == 0 || !strings.Contains(out, "no_such_feature") {
		t.Errorf("unknown feature: status %d, output %q", code, out)
	}
}
