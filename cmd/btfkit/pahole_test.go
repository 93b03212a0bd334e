package main

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/cdump"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

func runPahole(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = paholeMain(args, &o, &e)
	return o.String(), e.String(), code
}

// paholeReference returns what pahole 1.32 (sid's, first on the test's
// PATH) prints for --version and --supported_btf_features, the latter
// with "layout" added before force_cu_merging: the feature of libbpf
// v1.8's kind layout section, which btfkit writes and sid's pahole,
// linked with libbpf 1.7, cannot (the place upstream pahole with its
// bundled libbpf 1.8 lists it).
func paholeReference(t *testing.T) (version, features string) {
	t.Helper()
	testc.Require(t, "pahole")
	version = string(testc.Output(t, "pahole", "--version"))
	list := strings.Split(strings.TrimSpace(string(testc.Output(t, "pahole", "--supported_btf_features"))), ",")
	if i := slices.Index(list, "force_cu_merging"); i >= 0 && !slices.Contains(list, "layout") {
		list = slices.Insert(list, i, "layout")
	}
	return version, strings.Join(list, ",") + "\n"
}

func TestPaholeVersionAndFeatures(t *testing.T) {
	version, features := paholeReference(t)
	numeric := strings.Replace(strings.Replace(strings.TrimSpace(version), "v", "", 1), ".", "", 1)
	for _, c := range []struct{ arg, want string }{
		{"--version", version},
		{"--supported_btf_features", features},
		{"--numeric_version", numeric + "\n"},
	} {
		out, errOut, code := runPahole(t, c.arg)
		if code != 0 || errOut != "" || out != c.want {
			t.Errorf("pahole %s: status %d, stdout %q, stderr %q; want %q", c.arg, code, out, errOut, c.want)
		}
	}
	// sid's pahole says which build it is (v1.32-tarball-gSHA); btfkit is
	// none of pahole's builds and says the release, a form pahole's
	// numeric_version.sh accepts.
	if out, _, code := runPahole(t, "--devel_version"); code != 0 || out != "v1.32\n" {
		t.Errorf("pahole --devel_version: status %d, %q", code, out)
	}
	// The kernel's scripts/pahole-version.sh: sed -E 's/v([0-9]+)\.([0-9]+)/\1\2/'
	out, _, _ := runPahole(t, "--version")
	if v := strings.Replace(strings.Replace(strings.TrimSpace(out), "v", "", 1), ".", "", 1); v != "132" {
		t.Errorf("pahole-version.sh would read %q", v)
	}
}

func TestPaholeParse(t *testing.T) {
	kernelList := "encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs"
	kernelFeats, _, _ := encode.ParseFeatures(kernelList)
	for _, c := range []struct {
		args     []string
		jobs     int
		feats    encode.Features
		detached string
		base     string
		file     string
		langs    int
	}{
		// What the 6.12 kernel passes (scripts/Makefile.btf, link-vmlinux.sh).
		{[]string{"-J", "-j", "--btf_features=" + kernelList, "-j", "--lang_exclude=rust", ".tmp_vmlinux1"}, 0, kernelFeats, "", "", ".tmp_vmlinux1", 1},
		{[]string{"-J", "-j", "--btf_features=" + kernelList, "-j", "--btf_features=+reproducible_build", "vmlinux"}, 0, kernelFeats | encode.FeatReproducibleBuild, "", "", "vmlinux", 0},
		{[]string{"-J", "-j", "--btf_features=" + kernelList, "--btf_features=distilled_base", "--btf_base", "vmlinux", "m.ko"}, 0, kernelFeats | encode.FeatDistilledBase, "", "vmlinux", "m.ko", 0},
		{[]string{"-J", "-j4", "--btf_features=default", "--btf_encode_detached=OUT", "vmlinux"}, 4, encode.DefaultFeatures, "OUT", "", "vmlinux", 0},
		{[]string{"-J", "--jobs=3", "--btf_encode_detached", "OUT", "vmlinux"}, 3, encode.LegacyFeatures, "OUT", "", "vmlinux", 0},
		{[]string{"-Jj7", "vmlinux"}, 7, encode.LegacyFeatures, "", "", "vmlinux", 0},
		{[]string{"-j", "vmlinux", "-J"}, 0, encode.LegacyFeatures, "", "", "vmlinux", 0},
		{[]string{"--btf_encode", "--btf_base=base.btf", "m.ko"}, 0, encode.LegacyFeatures, "", "base.btf", "m.ko", 0},
		// pahole 1.24/1.25 era flags.
		{[]string{"-J", "--btf_gen_floats", "--skip_encoding_btf_inconsistent_proto", "--btf_gen_optimized", "-j", "f.o"}, 0,
			encode.LegacyFeatures | encode.FeatFloat | encode.FeatConsistentFunc | encode.FeatOptimizedFunc, "", "", "f.o", 0},
		{[]string{"-J", "--skip_encoding_btf_vars", "--skip_encoding_btf_enum64", "--skip_encoding_btf_decl_tag", "--skip_encoding_btf_type_tag", "f.o"}, 0, 0, "", "", "f.o", 0},
		// pahole 1.32: --btf_gen_all is --btf_features=all, every
		// feature but force_cu_merging (TestPaholeGenAll).
		{[]string{"-J", "--btf_gen_all", "--btf_encode_force", "-F", "dwarf", "f.o"}, 0, encode.AllListed, "", "", "f.o", 0},
		{[]string{"-J", "--btf_gen_all", "--btf_features=force_cu_merging", "f.o"}, 0, encode.AllFeatures, "", "", "f.o", 0},
		{[]string{"-J", "--btf_gen_all", "--skip_encoding_btf_vars", "f.o"}, 0, encode.AllListed &^ encode.FeatVar, "", "", "f.o", 0},
		{[]string{"-J", "--btf_features=float,,var", "f.o"}, 0, encode.FeatFloat | encode.FeatVar, "", "", "f.o", 0},
		// pahole 1.32's --features is --btf_features; the lists add up.
		{[]string{"-J", "--features=float", "--btf_features=var", "--fea=enum64", "f.o"}, 0, encode.FeatFloat | encode.FeatVar | encode.FeatEnum64, "", "", "f.o", 0},
		{[]string{"-J", "--btf_features=float,nonexistent", "f.o"}, 0, encode.FeatFloat, "", "", "f.o", 0},
		{[]string{"-J", "--btf_features_strict=default,global_var", "f.o"}, 0, encode.DefaultFeatures | encode.FeatGlobalVar, "", "", "f.o", 0},
		{[]string{"--btf_encode_detached=OUT", "--lang_exclude=rust,c++", "f.o"}, 0, encode.LegacyFeatures, "OUT", "", "f.o", 2},
	} {
		c1, _, err := parsePahole(c.args)
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if !c1.encode || c1.jobs != c.jobs || c1.features != c.feats || c1.detached != c.detached || c1.base != c.base || c1.file != c.file || len(c1.langExclude) != c.langs {
			t.Errorf("%q: got encode=%v jobs=%d features=%v detached=%q base=%q file=%q langs=%v; want jobs=%d features=%v detached=%q base=%q file=%q langs=%d",
				c.args, c1.encode, c1.jobs, c1.features, c1.detached, c1.base, c1.file, c1.langExclude,
				c.jobs, c.feats, c.detached, c.base, c.file, c.langs)
		}
	}
}

func TestPaholeErrors(t *testing.T) {
	try := "\nTry `pahole --help' or `pahole --usage' for more information.\n"
	for _, c := range []struct {
		args   []string
		code   int
		stderr string // exact when it ends in \n, else a substring
	}{
		{[]string{"--nonsense=3", "-J", "f.o"}, 64, "pahole: unrecognized option '--nonsense=3'" + try},
		{[]string{"--nonsense", "f.o"}, 64, "pahole: unrecognized option '--nonsense'" + try},
		{[]string{"-J", "-k", "f.o"}, 64, "pahole: invalid option -- 'k'" + try},
		{[]string{"-J", "f.o", "--btf_base"}, 64, "pahole: option '--btf_base' requires an argument" + try},
		{[]string{"-J", "--jobs=x", "f.o"}, 64, "invalid argument"},
		{[]string{"-J", "--btf_features_strict=float,nonexistent", "f.o"}, 1, "Feature 'nonexistent' in 'float,nonexistent' is not supported."},
		{[]string{"-J", "--lang_exclude=klingon", "f.o"}, 1, "unknown language"},
		{[]string{"-J", "-X", "drivers/", "vmlinux"}, 1, "pahole: option '--cu_exclude' leaves units out of what -J encodes; btfkit pahole does not implement it with -J"},
		{[]string{"-J", "--lang=c89", "vmlinux"}, 1, "pahole: option '--lang' leaves units out"},
		{[]string{"--f", "x", "vmlinux"}, 64, "pahole: option '--f' is ambiguous; possibilities: '--find_pointers_to' '--format_path' '--flat_arrays' '--fixup_silly_bitfields' '--first_obj_only' '--features'" + try},
		{[]string{"--hashbits=8", "vmlinux"}, 1, "pahole: option '--hashbits' is pahole's, but btfkit pahole does not implement it yet"},
		{[]string{"--c", "32", "vmlinux"}, 64, "pahole: option '--c' is ambiguous; possibilities: '--cacheline_size' '--class_name' '--count' '--contains' '--contains_enumerator' '--class_name_len' '--cu_exclude' '--ctf_encode' '--classes_as_structs' '--compile'" + try},
		{[]string{"--hex=1", "vmlinux"}, 64, "pahole: option '--hex' doesn't allow an argument" + try},
		{[]string{"-C"}, 64, "pahole: option requires an argument -- 'C'" + try},
		{[]string{"-J"}, 1, "needs an input file"},
		{[]string{"-J", "a", "b"}, 1, "one input file"},
		{[]string{"-J", "-F", "ctf", "f.o"}, 1, "from DWARF (-F dwarf) or from a .BTF archive (-F btf)"},
		{[]string{"-J", "/nonexistent/f.o"}, 1, "no such file"},
		{[]string{"-J", "--btf_encode_detached=f.o", "f.o"}, 1, "pahole: f.o: --btf_encode_detached names an input"},
		{[]string{"--btf_encode_detached", "./b.btf", "--btf_base", "b.btf", "m.ko"}, 1, "pahole: ./b.btf: --btf_encode_detached names an input"},
	} {
		out, errOut, code := runPahole(t, c.args...)
		ok := code == c.code && out == ""
		if strings.HasSuffix(c.stderr, "\n") {
			ok = ok && errOut == c.stderr
		} else {
			ok = ok && strings.Contains(errOut, c.stderr)
		}
		if !ok {
			t.Errorf("pahole %q: status %d, stdout %q, stderr %q; want status %d, stderr %q", c.args, code, out, errOut, c.code, c.stderr)
		}
	}
}

// paholeFixture compiles one corpus file with gcc.
func paholeFixture(t *testing.T, name string) string {
	t.Helper()
	return testc.Compile(t, filepath.Join(testc.CorpusDir(), name), testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})
}

func paholeCopyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPaholeMatchesEncode: `btfkit pahole -J ... --btf_encode_detached`
// writes the bytes the matching `btfkit encode` call writes.
func TestPaholeMatchesEncode(t *testing.T) {
	encCmd, _, err := rootCmd.Find([]string{"encode"})
	if err != nil || encCmd.Name() != "encode" {
		t.Fatalf("no 'btfkit encode' command: %v", err)
	}
	// The encode command runs in this process: leave its flags as found
	// for other tests.
	t.Cleanup(func() {
		encCmd.Flags().VisitAll(func(f *pflag.Flag) {
			f.Value.Set(f.DefValue)
			f.Changed = false
		})
		rootCmd.SetArgs(nil)
	})
	dir := t.TempDir()
	for _, src := range testc.CorpusFiles(t) {
		obj := paholeFixture(t, filepath.Base(src))
		for _, c := range []struct{ paholeFeats, encodeFeats string }{
			{"default", "default"},
			{"encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs", "encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs"},
			{"float", "float"},
		} {
			name := strings.TrimSuffix(filepath.Base(obj), ".o")
			p := filepath.Join(dir, name+".pahole.btf")
			e := filepath.Join(dir, name+".encode.btf")
			if _, errOut, code := runPahole(t, "-J", "-j", "--btf_features="+c.paholeFeats, "--lang_exclude=rust", "--btf_encode_detached="+p, obj); code != 0 {
				t.Fatalf("pahole: status %d: %s", code, errOut)
			}
			rootCmd.SetArgs([]string{"encode", "-j", "2", "--features", c.encodeFeats, "--lang-exclude", "rust", "-o", e, obj})
			if err := rootCmd.Execute(); err != nil {
				t.Fatalf("btfkit encode: %v", err)
			}
			pb, _ := os.ReadFile(p)
			eb, _ := os.ReadFile(e)
			if len(pb) == 0 || !bytes.Equal(pb, eb) {
				t.Errorf("%s --btf_features=%s: pahole wrote %d bytes, encode %d, not equal", name, c.paholeFeats, len(pb), len(eb))
			}
		}
	}
}

// TestPaholeInPlace: without --btf_encode_detached the .BTF goes into the
// file itself, readable by readelf, bpftool and debug/elf, and equal to the
// detached output.
func TestPaholeInPlace(t *testing.T) {
	dir := t.TempDir()
	obj := paholeFixture(t, "types.c")
	det := filepath.Join(dir, "det.btf")
	args := []string{"-J", "-j", "--btf_features=default"}
	if _, errOut, code := runPahole(t, append(args, "--btf_encode_detached="+det, obj)...); code != 0 {
		t.Fatalf("pahole detached: status %d: %s", code, errOut)
	}
	want, _ := os.ReadFile(det)

	// An object file and, linked from it, an executable.
	inObj := filepath.Join(dir, "in.o")
	paholeCopyFile(t, obj, inObj)
	inExe := filepath.Join(dir, "in.exe")
	if out, err := exec.Command("gcc", "-nostdlib", "-static", "-Wl,-e,0", "-o", inExe, obj).CombinedOutput(); err != nil {
		testenv.SkipPartOrFail(t, "executable: gcc link: %v\n%s", err, out)
		inExe = ""
	}
	for _, f := range []string{inObj, inExe} {
		if f == "" {
			continue
		}
		for round := 0; round < 2; round++ { // add, then replace
			if _, errOut, code := runPahole(t, append(args, f)...); code != 0 {
				t.Fatalf("pahole -J %s: status %d: %s", f, code, errOut)
			}
			ef, err := elf.Open(f)
			if err != nil {
				t.Fatalf("debug/elf: %v", err)
			}
			s := ef.Section(".BTF")
			if s == nil {
				t.Fatalf("%s: no .BTF after pahole -J", f)
			}
			got, _ := s.Data()
			ef.Close()
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: .BTF has %d bytes, detached output %d", f, len(got), len(want))
			}
			if b, _, err := btf.ReadBTFBytes(f); err != nil || !bytes.Equal(b, want) {
				t.Fatalf("btf.ReadBTFBytes(%s): %v", f, err)
			}
		}
		testc.Require(t, "readelf", "bpftool")
		out := testc.Output(t, "readelf", "-S", "-W", f)
		if !bytes.Contains(out, []byte(" .BTF ")) || bytes.Contains(out, []byte("Warning")) {
			t.Errorf("readelf -S %s:\n%s", f, out)
		}
		dumpIn := testc.Output(t, "bpftool", "btf", "dump", "file", f)
		dumpDet := testc.Output(t, "bpftool", "btf", "dump", "file", det)
		if len(dumpIn) == 0 || !bytes.Equal(dumpIn, dumpDet) {
			t.Errorf("bpftool btf dump of %s differs from that of the detached BTF", f)
		}
	}

	// On error the file is left untouched.
	notELF := filepath.Join(dir, "not-elf.o")
	os.WriteFile(notELF, []byte("not an ELF file"), 0o644)
	if _, _, code := runPahole(t, append(args, notELF)...); code != 1 {
		t.Errorf("pahole -J on a non-ELF file: status %d, want 1", code)
	}
	if b, _ := os.ReadFile(notELF); string(b) != "not an ELF file" {
		t.Errorf("non-ELF input was modified")
	}
}

// TestPaholeSymlink: the btfkit binary run through a symlink named pahole
// is pahole.
func TestPaholeSymlink(t *testing.T) {
	version, _ := paholeReference(t)
	link := filepath.Join(t.TempDir(), "pahole")
	if err := os.Symlink(testenv.Btfkit(t), link); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(link, "--version").Output()
	if err != nil || string(out) != version {
		t.Errorf("pahole --version via symlink: %q, %v; want %q", out, err, version)
	}
	cmd := exec.Command(link, "--nonsense")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 64 || !strings.HasPrefix(stderr.String(), "pahole: unrecognized option '--nonsense'") {
		t.Errorf("pahole --nonsense via symlink: %v, stderr %q", err, stderr.String())
	}
}

// TestPaholeBase: with --btf_base the output is split BTF over the base:
// its IDs continue the base's, types the base has are not repeated, and
// bpftool reads it with -B.
func TestPaholeBase(t *testing.T) {
	dir := t.TempDir()
	files := testc.CorpusFiles(t)
	if len(files) < 2 {
		t.Fatalf("the C corpus has %d files, the test needs two", len(files))
	}
	baseObj := paholeFixture(t, filepath.Base(files[0]))
	obj := paholeFixture(t, filepath.Base(files[1]))
	baseBTF := filepath.Join(dir, "base.btf")
	full := filepath.Join(dir, "full.btf")
	split := filepath.Join(dir, "split.btf")
	for _, c := range [][]string{
		{"--btf_encode_detached=" + baseBTF, baseObj},
		{"--btf_encode_detached=" + full, obj},
		{"--btf_base", baseBTF, "--btf_encode_detached=" + split, obj},
	} {
		if _, errOut, code := runPahole(t, append([]string{"-J", "-j", "--btf_features=default"}, c...)...); code != 0 {
			t.Fatalf("pahole %q: status %d: %s", c, code, errOut)
		}
	}
	base, err := btf.LoadFile(baseBTF, nil)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := btf.LoadFile(full, nil)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := btf.LoadFile(split, base)
	if err != nil {
		t.Fatalf("split output does not read over its base: %v", err)
	}
	if ss.FirstID() != base.NextID() {
		t.Errorf("split starts at ID %d, base ends at %d", ss.FirstID(), base.NextID())
	}
	if ss.NumTypes() >= fs.NumTypes() {
		t.Errorf("split has %d types, the full encoding %d: nothing was deduplicated against the base", ss.NumTypes(), fs.NumTypes())
	}
	t.Logf("base %d types, full %d, split %d", base.NumTypes(), fs.NumTypes(), ss.NumTypes())

	// In place, into a copy of the object: the same bytes.
	in := filepath.Join(dir, "in.o")
	paholeCopyFile(t, obj, in)
	if _, errOut, code := runPahole(t, "-J", "-j", "--btf_features=default", "--btf_base", baseBTF, in); code != 0 {
		t.Fatalf("pahole -J --btf_base in place: status %d: %s", code, errOut)
	}
	got, _, err := btf.ReadBTFBytes(in)
	want, _ := os.ReadFile(split)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("in-place split BTF differs from the detached one (%v)", err)
	}
	testc.Require(t, "bpftool")
	testc.Output(t, "bpftool", "-B", baseBTF, "btf", "dump", "file", in)

	if _, errOut, code := runPahole(t, "-J", "--btf_features=default,distilled_base", "--btf_base", baseBTF, "--btf_encode_detached="+split, obj); code != 1 || !strings.Contains(errOut, "distilled_base") {
		t.Errorf("distilled_base: status %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runPahole(t, "-J", "--btf_base", filepath.Join(dir, "missing.btf"), "--btf_encode_detached="+split, obj); code != 1 || !strings.Contains(errOut, "--btf_base") {
		t.Errorf("missing base: status %d, stderr %q", code, errOut)
	}
}

// TestPaholeDetachedTargets: a symbolic link is followed, not replaced; a
// FIFO (like /dev/stdout on a pipe) is written through.
func TestPaholeDetachedTargets(t *testing.T) {
	dir := t.TempDir()
	obj := paholeFixture(t, "types.c")
	want := filepath.Join(dir, "want.btf")
	if _, errOut, code := runPahole(t, "-J", "--btf_features=default", "--btf_encode_detached="+want, obj); code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	wb, _ := os.ReadFile(want)

	target := filepath.Join(dir, "target.btf")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.btf")
	os.Symlink("target.btf", link)
	if _, errOut, code := runPahole(t, "-J", "--btf_features=default", "--btf_encode_detached="+link, obj); code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced")
	}
	if b, _ := os.ReadFile(target); !bytes.Equal(b, wb) {
		t.Errorf("the link's target holds %d bytes, want %d", len(b), len(wb))
	}

	fifo := filepath.Join(dir, "fifo")
	if err := exec.Command("mkfifo", fifo).Run(); err != nil {
		testenv.SkipOrFail(t, "mkfifo: %v", err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	if _, errOut, code := runPahole(t, "-J", "--btf_features=default", "--btf_encode_detached="+fifo, obj); code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	if b := <-got; !bytes.Equal(b, wb) {
		t.Errorf("read %d bytes from the FIFO, want %d", len(b), len(wb))
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced")
	}
}

// TestPaholeGenAll: pahole 1.32 reads --btf_gen_all as --btf_features=all
// and enables with "all" every feature but force_cu_merging (1.31's "all"
// enabled none; pahole 1.24 took --btf_gen_all to mean floats), also
// inside a list ("default,all"). The types btfkit encodes are sid's pahole
// 1.32's, listed as bpftool lists them (cdump.WriteRaw); the bytes differ
// only by the kind layout section of the "layout" feature, which sid's
// pahole, linked with libbpf 1.7, cannot write.
func TestPaholeGenAll(t *testing.T) {
	testc.Require(t, "pahole", "ld")
	dir, objs := verboseObjects(t)
	src := filepath.Join(dir, "genall.c")
	if err := os.WriteFile(src, []byte(`struct s { float f; double d; int a; };
enum big { B1 = 1, B2 = 0x100000000ULL };
int fn(struct s *p, enum big b) { return p->a + b; }
`), 0o644); err != nil {
		t.Fatal(err)
	}
	objs = append(objs, testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}}))
	list := func(run func(args ...string) (string, string, int), args ...string) string {
		t.Helper()
		out := filepath.Join(dir, "out.btf")
		os.Remove(out)
		args = append(args[:len(args):len(args)], "--btf_encode_detached="+out)
		if _, errOut, code := run(args...); code != 0 {
			t.Fatalf("pahole %q: status %d: %s", args, code, errOut)
		}
		s, err := btf.LoadFile(out, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := cdump.WriteRaw(&b, s); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	sid := func(args ...string) (string, string, int) { return runPaholeTool(t, "pahole", "", args...) }
	own := func(args ...string) (string, string, int) { return runPahole(t, args...) }
	for _, obj := range objs {
		for _, flags := range [][]string{{"--btf_gen_all"}, {"--btf_features=all"}, {"--btf_features=default,all"}, {"--btf_gen_all", "--btf_features=float"}} {
			args := append(append([]string{}, flags...), obj)
			want, got := list(sid, args...), list(own, args...)
			if got != want {
				t.Errorf("pahole %q: the types differ from pahole 1.32's:\n%s", args, lineDiff(want, got))
			}
		}
	}
	// The legacy set of a plain -J is not "all".
	plain := list(own, objs[2])
	if all := list(own, "--btf_gen_all", objs[2]); !strings.Contains(all, "FLOAT") || strings.Contains(plain, "FLOAT") {
		t.Errorf("--btf_gen_all should add FLOATs to what a plain -J encodes")
	}
}

// TestPaholeEncodeIgnoresLayoutOptions: with -J pahole accepts the
// options for printing layouts and encodes as without them
// (btf_encode_options passes --skip_emitting_atomic_typedefs); btfkit
// writes the same bytes as sid's pahole 1.32 with each of them.
func TestPaholeEncodeIgnoresLayoutOptions(t *testing.T) {
	testc.Require(t, "pahole", "ld")
	dir, objs := verboseObjects(t)
	out := filepath.Join(dir, "out.btf")
	encodeWith := func(run func(args ...string) (string, string, int), args ...string) []byte {
		t.Helper()
		os.Remove(out)
		args = append(append([]string{"--btf_features=default", "--btf_encode_detached=" + out}, args...), objs[0])
		if _, e, code := run(args...); code != 0 {
			t.Fatalf("pahole %q: status %d: %s", args, code, e)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	sid := func(args ...string) (string, string, int) { return runPaholeTool(t, "pahole", "", args...) }
	own := func(args ...string) (string, string, int) { return runPahole(t, args...) }
	plain := encodeWith(sid)
	for _, opts := range [][]string{
		{"--skip_emitting_atomic_typedefs"}, {"-s"}, {"-T"}, {"-q"}, {"-E", "-p", "--compile"},
		{"--first_obj_only"}, {"--hashbits=4"}, {"-u"}, {"-m"}, {"--sort"}, {"-I", "-R"},
	} {
		if got := encodeWith(own, opts...); !bytes.Equal(got, plain) {
			t.Errorf("pahole -J %q: %d bytes, not sid's pahole 1.32's %d", opts, len(got), len(plain))
		}
	}
}
