package encode

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// Fixtures whose expected BTF is pahole 1.32's (Debian sid's package,
// scripts/sid-tools), committed in testdata/clangsig/pahole-1.32.txt: for each build of a fixture, the
// compiler that made it (the first unit's DW_AT_producer), the SHA-256 of
// the .BTF pahole wrote, and bpftool's raw dump of it. The test builds the
// same files, encodes them, and requires the same bytes and the same dump.
// The DWARF, and so the BTF, depends on the compiler's version: a build
// whose producer is not the committed one is not compared (a skip, a
// failure under CI=true); scripts/encode-clang-testdata remakes the file
// with the compilers at hand (it runs these tests with -pahole132).
//
// The builds:
//
//   - clang true_signature (TestClang132TrueSignature): agg_pieces.c,
//     agg_shapes.c and scalars.c, each compiled as pahole's clang_parm_*
//     tests compile theirs (clang -g -O2, into an executable), through
//     clang's assembly: "as-is", and "nocall" with DW_AT_calling_convention
//     DW_CC_nocall added to the static functions (markNoCall), which is how
//     newer clang marks a function whose signature it changed and what
//     pahole's true_signature acts on (clang 14 changes the signatures but
//     does not say so). Encoded with --btf_features=default,true_signature:
//     struct arguments of which one member is passed become that member,
//     named param__member; dead parameters are dropped.
//   - LTO (TestLTO132): lto_a.c and lto_b.c compiled with -flto and linked
//     into a shared object, by clang with lld (-fuse-ld=lld) and by gcc
//     (whose out-of-line instances have their abstract origins in other
//     units), encoded with --btf_features=default and
//     default,true_signature.

var pahole132 = flag.String("pahole132", "", "`PATH` of pahole 1.32: remake testdata/clangsig/pahole-1.32.txt with it (scripts/encode-clang-testdata)")

const clangGolden = "testdata/clangsig/pahole-1.32.txt"

// goldenBuild is one build's pahole 1.32 output as committed.
type goldenBuild struct {
	producer string
	sha      string // "sha256 N": of pahole's .BTF, N its size
	dump     string // bpftool btf dump file
}

// clangGoldens reads the committed outputs, keyed by "build features".
// With -pahole132 they are being remade: it returns an empty map, and
// saveClangGoldens writes what the tests recorded.
func clangGoldens(t *testing.T) map[string]*goldenBuild {
	t.Helper()
	out := map[string]*goldenBuild{}
	if *pahole132 != "" {
		return out
	}
	data, err := os.ReadFile(clangGolden)
	if err != nil {
		t.Fatal(err)
	}
	var cur *goldenBuild
	for _, line := range strings.SplitAfter(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "### "):
			cur = &goldenBuild{}
			out[strings.TrimSpace(line[4:])] = cur
		case cur == nil:
		case strings.HasPrefix(line, "# producer: "):
			cur.producer = strings.TrimSpace(strings.TrimPrefix(line, "# producer: "))
		case strings.HasPrefix(line, "# sha256: "):
			cur.sha = strings.TrimSpace(strings.TrimPrefix(line, "# sha256: "))
		default:
			cur.dump += line
		}
	}
	return out
}

// recorded collects the outputs -pahole132 remakes, in test order.
var recorded struct {
	keys   []string
	builds map[string]*goldenBuild
	header map[string]string // build -> how it was made
}

func saveClangGoldens(t *testing.T) {
	t.Helper()
	if *pahole132 == "" || len(recorded.keys) == 0 {
		return
	}
	ver, err := exec.Command(*pahole132, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# pahole %s (Debian sid's dwarves, scripts/sid-tools) on the fixtures of this directory:\n", strings.TrimSpace(string(ver)))
	b.WriteString("# encode/clang132_test.go builds them and compares; scripts/encode-clang-testdata\n")
	b.WriteString("# remakes this file (go test ./encode -run 'Test(Clang|LTO)132' -pahole132 PAHOLE).\n")
	b.WriteString("# Each build: pahole -J --btf_features=FEATURES --btf_encode_detached=OUT.btf BUILD,\n")
	b.WriteString("# then bpftool btf dump file OUT.btf (Debian's bpftool 7.1). Builds:\n")
	seen := map[string]bool{}
	for _, k := range recorded.keys {
		build, _, _ := strings.Cut(k, " ")
		if !seen[build] {
			seen[build] = true
			fmt.Fprintf(&b, "#   %s: %s\n", build, recorded.header[build])
		}
	}
	for _, k := range recorded.keys {
		g := recorded.builds[k]
		fmt.Fprintf(&b, "### %s\n# producer: %s\n# sha256: %s\n%s", k, g.producer, g.sha, g.dump)
	}
	if err := os.WriteFile(clangGolden, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstProducer is the DW_AT_producer of the file's first unit.
func firstProducer(t *testing.T, path string) string {
	t.Helper()
	d, err := dwarf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	units := d.Units()
	if len(units) == 0 {
		t.Fatalf("%s: no units", path)
	}
	r := d.NewReader()
	if err := r.Reset(&units[0]); err != nil {
		t.Fatal(err)
	}
	return strings.Clone(r.Producer()) // a view of the mapping, gone after Close
}

// bpftoolDump is bpftool's raw dump of the BTF file at path.
func bpftoolDump(t *testing.T, path string) string {
	t.Helper()
	return string(testc.Output(t, "bpftool", "btf", "dump", "file", path))
}

func shaOf(data []byte) string {
	h := sha256.Sum256(data)
	return fmt.Sprintf("%s %d", hex.EncodeToString(h[:]), len(data))
}

// compare132 encodes the built file with features and compares the BTF
// with pahole 1.32's committed output for "build features" (with
// -pahole132: runs that pahole and records its output instead).
func compare132(t *testing.T, goldens map[string]*goldenBuild, build, how, bin, features string) {
	t.Helper()
	key := build + " " + features
	producer := firstProducer(t, bin)
	if *pahole132 != "" {
		out := filepath.Join(t.TempDir(), "pahole.btf")
		testc.Run(t, *pahole132, "-J", "--btf_features="+features, "--btf_encode_detached="+out, bin)
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if recorded.builds == nil {
			recorded.builds, recorded.header = map[string]*goldenBuild{}, map[string]string{}
		}
		recorded.keys = append(recorded.keys, key)
		recorded.builds[key] = &goldenBuild{producer: producer, sha: shaOf(data), dump: bpftoolDump(t, out)}
		recorded.header[build] = how
		return
	}
	want, ok := goldens[key]
	if !ok {
		t.Fatalf("%s has no %q: remake it with scripts/encode-clang-testdata", clangGolden, key)
	}
	if producer != want.producer {
		testenv.SkipOrFail(t, "%s: built by %q, the committed pahole 1.32 output is of a build by %q: remake %s with scripts/encode-clang-testdata", build, producer, want.producer, clangGolden)
	}
	feat, unknown, err := ParseFeatures(features)
	if err != nil || len(unknown) > 0 {
		t.Fatalf("features %q: %v %v", features, unknown, err)
	}
	s, err := EncodeFile(bin, Options{Features: feat, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	data := s.Marshal(nil)
	validate(t, key, data)
	out := filepath.Join(t.TempDir(), "btfkit.btf")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := bpftoolDump(t, out); got != want.dump {
		t.Errorf("%s: bpftool dumps of our BTF and pahole 1.32's differ:\n%s", key, lineDiff(got, want.dump))
	} else if got := shaOf(data); got != want.sha {
		t.Errorf("%s: same dump as pahole 1.32's, but other bytes: sha256 %s, pahole's %s", key, got, want.sha)
	}
}

// lineDiff lists the lines only in a ("-") or only in b ("+"), in order,
// at most 40 of them.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	in := func(ls []string) map[string]int {
		m := map[string]int{}
		for _, l := range ls {
			m[l]++
		}
		return m
	}
	am, bm := in(al), in(bl)
	var out []string
	for _, l := range al {
		if bm[l] > 0 {
			bm[l]--
			continue
		}
		out = append(out, "- ours:    "+l)
	}
	for _, l := range bl {
		if am[l] > 0 {
			am[l]--
			continue
		}
		out = append(out, "+ pahole:  "+l)
	}
	if len(out) > 40 {
		out = append(out[:40], "...")
	}
	return strings.Join(out, "\n")
}

// clangSigFixtures are the true_signature fixtures of testdata/clangsig.
var clangSigFixtures = []string{"agg_pieces", "agg_shapes", "scalars"}

// TestClang132TrueSignature: see the comment at the top of this file.
func TestClang132TrueSignature(t *testing.T) {
	testc.Require(t, "clang", "bpftool")
	goldens := clangGoldens(t)
	defer saveClangGoldens(t)
	dir := t.TempDir()
	for _, name := range clangSigFixtures {
		src := fixturePath(t, "clangsig/"+name+".c")
		asm := filepath.Join(dir, name+".s")
		testc.Run(t, "clang", "-g", "-O2", "-S", "-o", asm, src)
		text, err := os.ReadFile(asm)
		if err != nil {
			t.Fatal(err)
		}
		marked, n := markNoCall(string(text))
		if n == 0 {
			t.Fatalf("%s: clang's assembly has no abbreviation of a static function definition to mark", name)
		}
		nocallAsm := filepath.Join(dir, name+".nocall.s")
		if err := os.WriteFile(nocallAsm, []byte(marked), 0o644); err != nil {
			t.Fatal(err)
		}
		plain, nocall := filepath.Join(dir, name), filepath.Join(dir, name+".nocall")
		testc.Run(t, "clang", "-o", plain, asm)
		testc.Run(t, "clang", "-o", nocall, nocallAsm)
		compare132(t, goldens, name+"/as-is", "clang -g -O2 -S "+name+".c; clang -o BUILD "+name+".s", plain, "default,true_signature")
		compare132(t, goldens, name+"/nocall", "as "+name+"/as-is, with DW_AT_calling_convention DW_CC_nocall (DW_FORM_implicit_const) added to the abbreviations of the static function definitions in "+name+".s", nocall, "default,true_signature")
	}
}

// fixturePath is the absolute path of a file under testdata.
func fixturePath(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLTO132: see the comment at the top of this file. Each build must
// refer across units (DW_FORM_ref_addr), or it tests nothing.
func TestLTO132(t *testing.T) {
	testc.Require(t, "bpftool")
	goldens := clangGoldens(t)
	defer saveClangGoldens(t)
	srcs := []string{fixturePath(t, "clangsig/lto_a.c"), fixturePath(t, "clangsig/lto_b.c")}
	for _, b := range []struct {
		name, cc string
		link     []string
	}{
		{"lto-clang-lld", "clang", []string{"-fuse-ld=lld"}},
		{"lto-gcc", "gcc", nil},
	} {
		if b.cc == "clang" {
			testc.Require(t, "clang", "ld.lld")
		} else {
			testc.Require(t, "gcc")
		}
		dir := t.TempDir()
		flags := []string{"-g", "-O2", "-flto", "-fPIC"}
		var objs []string
		for _, src := range srcs {
			o := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), ".c")+".o")
			testc.Run(t, b.cc, append(append(append([]string{}, flags...), "-c", "-o", o), src)...)
			objs = append(objs, o)
		}
		so := filepath.Join(dir, "lto.so")
		link := append(append(append(append([]string{}, flags...), b.link...), "-shared", "-nostdlib", "-o", so), objs...)
		testc.Run(t, b.cc, link...)
		if n := refAddrUnits(t, so); n == 0 {
			t.Fatalf("%s: no unit refers to another (DW_FORM_ref_addr); the fixture tests nothing", b.name)
		}
		how := fmt.Sprintf("%s %s -c lto_a.c, lto_b.c; %s %s lto_a.o lto_b.o", b.cc, strings.Join(flags, " "), b.cc, strings.Join(link[:len(link)-len(objs)], " "))
		how = strings.ReplaceAll(how, so, "BUILD")
		for _, features := range []string{"default", "default,true_signature"} {
			compare132(t, goldens, b.name, how, so, features)
		}
	}
}

// refAddrUnits counts the units of the file whose abbreviations declare
// DW_FORM_ref_addr.
func refAddrUnits(t *testing.T, path string) int {
	t.Helper()
	d, err := dwarf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	n := 0
	units := d.Units()
	for i := range units {
		uses, err := d.UsesForm(&units[i], dwarf.FormRefAddr)
		if err != nil {
			t.Fatal(err)
		}
		if uses {
			n++
		}
	}
	return n
}
