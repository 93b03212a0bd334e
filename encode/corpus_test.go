package encode

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// paholeModes pairs pahole's old command-line switches (before
// --btf_features, still accepted by pahole 1.32) with the features that
// mean the same.
var paholeModes = []struct {
	name  string
	flags []string
	feat  Features
}{
	{"legacy", nil, LegacyFeatures},
	{"floats", []string{"--btf_gen_floats"}, LegacyFeatures | FeatFloat},
	{"noenum64", []string{"--skip_encoding_btf_enum64"}, LegacyFeatures &^ FeatEnum64},
	{"notags", []string{"--skip_encoding_btf_type_tag", "--skip_encoding_btf_decl_tag"}, LegacyFeatures &^ (FeatTypeTag | FeatDeclTag)},
}

// paholeJ runs pahole -J (pahole 1.32: testenv puts it first on PATH) on
// obj and returns its BTF, or the error output when pahole refuses the
// input: pahole 1.32 then may exit 0 having written no file.
func paholeJ(t *testing.T, obj string, flags []string) ([]byte, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(obj)+".btf")
	args := append([]string{"-J", "--btf_encode_detached=" + out}, flags...)
	args = append(args, obj)
	cmd := exec.Command("pahole", args...)
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Run(); err != nil {
		return nil, msg.String()
	}
	data, err := os.ReadFile(out)
	if os.IsNotExist(err) && msg.Len() > 0 {
		return nil, msg.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return data, ""
}

// TestCorpusMatchesPahole encodes every C fixture, compiled by gcc and
// clang, DWARF 4 and 5, -O0 and -O2, and compares our types with pahole
// 1.32's for the same object, in each of its old encoding modes.
// Functions and variables are left out of the comparison (next issue).
func TestCorpusMatchesPahole(t *testing.T) {
	testc.Require(t, "pahole", "bpftool")
	for _, src := range testc.CorpusFiles(t) {
		for _, v := range testc.DWARFVariants() {
			if !testc.Have(v.CC) {
				testc.Require(t, string(v.CC))
			}
			name := strings.TrimSuffix(filepath.Base(src), ".c") + "/" + v.Name()
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				obj := testc.Compile(t, src, v)
				for _, m := range paholeModes {
					ref, msg := paholeJ(t, obj, m.flags)
					if ref == nil {
						// Known pahole limitation: with floats on it refuses
						// complex types ("Complex, interval and imaginary
						// float types are not supported"); we encode them
						// as INT as it does with floats off.
						if m.feat.Has(FeatFloat) && strings.Contains(msg, "not supported") {
							t.Logf("%s: pahole 1.32 refuses this object (%s); skipped", m.name, strings.TrimSpace(msg))
							continue
						}
						t.Fatalf("%s: pahole failed: %s", m.name, msg)
					}
					want, err := btf.Parse(ref, nil)
					if err != nil {
						t.Fatal(err)
					}
					got, err := EncodeFile(obj, Options{Features: m.feat, Jobs: 2})
					if err != nil {
						t.Fatalf("%s: %v", m.name, err)
					}
					// Functions and variables have tests of their own (funcs_test.go).
					r := diff.Compare(withoutFuncs(got), withoutFuncs(want), diff.Options{})
					if !r.Equal() {
						t.Errorf("%s: our BTF (A) differs from pahole 1.32's (B):\n%s", m.name, diffText(r))
					}
					validate(t, m.name, got.Marshal(nil))
				}
			})
		}
	}
}
