package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/btfgen"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// rebaseModules are the Debian 6.1 modules the rebase tests move: none has
// .BTF_ids (rebase refuses those; TestRebaseRefused).
var rebaseModules = []string{"fuse", "8021q", "vxlan", "bonding", "sctp"}

// encodeRebaseInputs encodes modules against base (pahole 1.32's BTF of
// the Debian vmlinux) into dir three ways: raw split BTF (raw/NAME.btf),
// .ko copies with .BTF in place (plain/NAME.ko), and with a distilled base
// (dist/NAME.ko, .BTF split against .BTF.base).
func encodeRebaseInputs(t *testing.T, bin, base, dir string, names []string) (raw, plain, dist []string) {
	t.Helper()
	var srcs []string
	for _, n := range names {
		srcs = append(srcs, testenv.Module(t, n))
	}
	for _, d := range []string{"raw", "plain", "dist"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	for i, n := range names {
		raw = append(raw, filepath.Join(dir, "raw", n+".btf"))
		plain = append(plain, filepath.Join(dir, "plain", n+".ko"))
		dist = append(dist, filepath.Join(dir, "dist", n+".ko"))
		copyFile(t, srcs[i], plain[i])
		copyFile(t, srcs[i], dist[i])
	}
	for _, args := range [][]string{
		append([]string{"encode", "-q", "--base", base, "--out-dir", filepath.Join(dir, "raw")}, srcs...),
		append([]string{"encode", "-q", "--base", base, "--in-place"}, plain...),
		append([]string{"encode", "-q", "--base", base, "--features=+distilled_base", "--in-place"}, dist...),
	} {
		if _, stderr, code := runCmd(t, bin, args...); code != 0 {
			t.Fatalf("btfkit %v: %d: %s", args, code, stderr)
		}
	}
	return raw, plain, dist
}

// flattenSplit is btfgen.Flatten, failing the test on error.
func flattenSplit(t *testing.T, split *btf.Spec) []byte {
	t.Helper()
	b, err := btfgen.Flatten(split)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRebase moves modules encoded against pahole 1.32's BTF of the Debian
// 6.1 vmlinux (OLD) onto three other BTFs of that vmlinux whose type IDs
// differ from OLD's: OLD sorted by name (btfkit sort: every ID moved), an
// encoding with other features (pahole 1.24's set: no ENUM64, no
// optimized_func; 43 types more) and Debian's own .BTF (pahole 1.24, read
// from the vmlinux ELF). Each by three routes: .ko with .BTF.base (no
// --old-base), .ko and raw .btf with --old-base OLD; five modules in one
// run, -j 2. Oracles, for each output: (a) btfkit check --base NEW
// accepts it, while the module before rebase, read against NEW, is
// refused (the negative control); (b) the running kernel's verifier
// (BPF_BTF_LOAD) accepts NEW joined with it as one BTF; (c) btfkit diff
// finds it the same as the module deduplicated against OLD by btfkit
// dedup, and for the sorted base bpftool 7.8's C dump of NEW with it is
// OLD's with that module, line for line. The three routes give the same BTF, byte for byte; -j 1 gives the
// same files as -j 2; a .ko keeps every other section (objcopy without
// .BTF and .BTF.base makes the same bytes of input and output) and loses
// .BTF.base. In place, the default, rewrites the file itself.
func TestRebase(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: encodes the Debian vmlinux and five modules, about a minute (-short)")
	}
	testc.Require(t, "objcopy", "readelf")
	old := modBase(t)
	vmlinux, _ := testenv.KernelInputs(t)
	bin := testenv.Btfkit(t)
	dir := t.TempDir()

	sorted := filepath.Join(dir, "sorted.btf")
	features := filepath.Join(dir, "features.btf")
	for _, args := range [][]string{
		{"sort", "-o", sorted, old},
		{"encode", "-q", "--features=var,float,decl_tag,type_tag", "-o", features, vmlinux},
	} {
		if _, stderr, code := runCmd(t, bin, args...); code != 0 {
			t.Fatalf("btfkit %v: %d: %s", args, code, stderr)
		}
	}
	raw, plain, dist := encodeRebaseInputs(t, bin, old, filepath.Join(dir, "in"), rebaseModules)
	// What rebase is compared with: each module deduplicated against OLD
	// again by btfkit dedup, which folds the copies of vmlinux types the
	// encoder left in some modules (struct module in 8021q, as pahole
	// 1.32 leaves it) into OLD's, as rebase's deduplication against NEW
	// does; no distilling or relocating on this side.
	var ref []string
	for _, r := range raw {
		ref = append(ref, strings.TrimSuffix(r, ".btf")+".dedup.btf")
		if _, stderr, code := runCmd(t, bin, "dedup", "--base", old, "-o", ref[len(ref)-1], r); code != 0 {
			t.Fatalf("btfkit dedup: %s", stderr)
		}
	}
	bpftool := filepath.Join(testenv.SidBin(), "bpftool")
	if _, err := os.Stat(bpftool); err != nil {
		testenv.SkipPartOrFail(t, "no bpftool 7.8 (%v; scripts/sid-tools): C dumps not compared", err)
		bpftool = ""
	}
	oldSpec, err := input.LoadBase(old)
	if err != nil {
		t.Fatal(err)
	}

	kernelOK := true
	if err := kernload.Load(oldSpec.Marshal(nil)); errors.Is(err, kernload.ErrNotPermitted) {
		kernelOK = false
		testenv.SkipPartOrFail(t, "bpf(BPF_BTF_LOAD) not permitted (%v): the kernel's verdict is not asked", err)
	} else if err != nil {
		t.Fatalf("the kernel refuses OLD itself: %v", err)
	}

	for _, nb := range []struct{ name, path string }{
		{"sorted", sorted}, {"features", features}, {"pahole-1.24", vmlinux},
	} {
		t.Run(nb.name, func(t *testing.T) {
			newSpec, err := input.LoadBase(nb.path)
			if err != nil {
				t.Fatal(err)
			}
			if kernelOK {
				if err := kernload.Load(newSpec.Marshal(nil)); err != nil {
					t.Fatalf("the kernel refuses NEW itself: %v", err)
				}
			}
			// The negative control: not rebased, the module does
			// not fit NEW.
			for _, in := range []string{raw[0], plain[0]} {
				if out, _, code := runCmd(t, bin, "check", "--base", nb.path, in); code != 1 {
					t.Errorf("check --base NEW %s before rebase: status %d, want 1:\n%s", in, code, out)
				}
			}
			outs := map[string][]string{}
			for _, r := range []struct {
				route string
				ins   []string
				args  []string
			}{
				{"dist", dist, nil},
				{"plain", plain, []string{"--old-base", old}},
				{"raw", raw, []string{"--old-base", old}},
			} {
				od := filepath.Join(dir, nb.name+"-"+r.route)
				args := append(append([]string{"rebase", "-j", "2", "--base", nb.path, "--out-dir", od}, r.args...), r.ins...)
				_, stderr, code := runCmd(t, bin, args...)
				if code != 0 {
					t.Fatalf("%v: %d: %s", args, code, stderr)
				}
				if !strings.Contains(stderr, "5 modules, 5 written, 0 failed") {
					t.Errorf("rebase's summary: %q", stderr)
				}
				for _, in := range r.ins {
					outs[r.route] = append(outs[r.route], filepath.Join(od, filepath.Base(in)))
				}
			}
			for i, name := range rebaseModules {
				// The same BTF whatever the route.
				want, err := os.ReadFile(outs["raw"][i])
				if err != nil {
					t.Fatal(err)
				}
				for _, ko := range []string{outs["dist"][i], outs["plain"][i]} {
					got, err := elfx.ReadSection(ko, ".BTF")
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%s: the .BTF of %s (%d bytes) is not the raw route's (%d bytes)", name, ko, len(got), len(want))
					}
					if _, err := elfx.ReadSection(ko, ".BTF.base"); !errors.Is(err, elfx.ErrNoSection) {
						t.Errorf("%s still has .BTF.base (%v)", ko, err)
					}
				}
				for j, ko := range []string{outs["dist"][i], outs["plain"][i]} {
					in := []string{dist[i], plain[i]}[j]
					a, _, ca := runCmd(t, "objcopy", "-R", ".BTF", "-R", ".BTF.base", in, ko+".in.stripped")
					b, _, cb := runCmd(t, "objcopy", "-R", ".BTF", "-R", ".BTF.base", ko, ko+".stripped")
					if ca != 0 || cb != 0 || fileHash(t, ko+".in.stripped") != fileHash(t, ko+".stripped") {
						t.Errorf("%s: other sections differ from %s's (objcopy: %s %s)", ko, in, a, b)
					}
				}
				// (a) btfkit check against NEW.
				for _, o := range []string{outs["raw"][i], outs["dist"][i]} {
					if out, _, code := runCmd(t, bin, "check", "--base", nb.path, o); code != 0 {
						t.Errorf("check --base %s %s: %d:\n%s", nb.name, o, code, out)
					}
				}
				// (c) the same types as before.
				if out, _, code := runCmd(t, bin, "diff", "--base", old, "--base-b", nb.path, ref[i], outs["raw"][i]); code != 0 {
					if bad := unexplainedDiff(out, newSpec); bad != "" {
						t.Errorf("%s: btfkit diff before and after rebase onto %s: %s\n%s", name, nb.name, bad, out)
					}
				}
				if nb.name == "sorted" && bpftool != "" {
					// bpftool 7.8 orders a C dump by name, so the
					// dumps of OLD and of sorted OLD with the module
					// are comparable line for line.
					c1, e1, k1 := runCmd(t, bpftool, "-B", old, "btf", "dump", "file", ref[i], "format", "c")
					c2, e2, k2 := runCmd(t, bpftool, "-B", nb.path, "btf", "dump", "file", outs["raw"][i], "format", "c")
					if k1 != 0 || k2 != 0 || c1 == "" || c1 != c2 {
						t.Errorf("%s: bpftool's C dumps differ (or fail: %s %s)", name, e1, e2)
					}
				}
				// (b) the kernel's verifier.
				if kernelOK {
					s, err := btf.LoadFile(outs["raw"][i], newSpec)
					if err != nil {
						t.Fatal(err)
					}
					if err := kernload.Load(flattenSplit(t, s)); err != nil {
						t.Errorf("%s rebased onto %s, joined with it: %v", name, nb.name, err)
					}
				}
			}
		})
	}

	// -j 1 writes what -j 2 wrote.
	od := filepath.Join(dir, "j1")
	if _, stderr, code := runCmd(t, bin, append([]string{"rebase", "-q", "-j", "1", "--base", sorted, "--old-base", old, "--out-dir", od}, raw...)...); code != 0 {
		t.Fatalf("rebase -j 1: %s", stderr)
	}
	for _, in := range raw {
		if fileHash(t, filepath.Join(od, filepath.Base(in))) != fileHash(t, filepath.Join(dir, "sorted-raw", filepath.Base(in))) {
			t.Errorf("%s: -j 1 and -j 2 write other bytes", filepath.Base(in))
		}
	}

	// In place, the default: the file itself, as --out-dir wrote it.
	ko := filepath.Join(dir, "inplace.ko")
	copyFile(t, dist[0], ko)
	if _, stderr, code := runCmd(t, bin, "rebase", "--base", sorted, ko); code != 0 {
		t.Fatalf("rebase in place: %s", stderr)
	}
	if fileHash(t, ko) != fileHash(t, filepath.Join(dir, "sorted-dist", filepath.Base(dist[0]))) {
		t.Errorf("rebased in place, %s differs from the --out-dir output", ko)
	}
}

// unexplainedDiff returns the first line of btfkit diff's output that is
// not a module's FUNC gone because newBase has a FUNC of that name: the
// module's copy of a function vmlinux has too (jhash, a static inline
// function both emit) is then one type with newBase's, as deduplication
// against newBase makes it (libbpf's btf__dedup; encoding the module
// against newBase gives the same). OLD, pahole 1.32's, leaves such
// functions out of vmlinux (inconsistent prototypes); pahole 1.24's BTF
// has them.
func unexplainedDiff(out string, newBase *btf.Spec) string {
	funcs := map[string]bool{}
	for id := btf.TypeID(1); id < newBase.NextID(); id++ {
		if t := newBase.Type(id); t.Kind() == btf.KindFunc {
			funcs[t.Name()] = true
		}
	}
	for _, l := range strings.Split(out, "\n") {
		switch {
		case l == "", strings.HasPrefix(l, "# count FUNC:"), strings.HasPrefix(l, "# count FUNC_PROTO:"):
		case strings.HasPrefix(l, "- FUNC ") && funcs[strings.TrimPrefix(l, "- FUNC ")]:
		case strings.HasPrefix(l, "kind "), len(strings.Fields(l)) == 3 || len(strings.Fields(l)) == 4 && strings.Fields(l)[3] == "*":
			// the table of counts
		default:
			return l
		}
	}
	return ""
}

// withStruct writes to path a copy of base (a complete BTF) in which
// struct name is changed by edit (its raw name offset, size and members'
// words), and returns path.
func withStruct(t *testing.T, base *btf.Spec, name, path string, edit func(s *btf.Spec, nameOff, size *uint32, ext []uint32)) string {
	t.Helper()
	c := btf.NewSpec()
	c.SetHeaderLen(base.HeaderLen())
	c.SetRawStrings(append([]byte(nil), base.RawStrings()...))
	found := false
	for id := btf.TypeID(1); id < base.NextID(); id++ {
		nameOff, info, size, ext := base.RawType(id)
		ext = append([]uint32(nil), ext...)
		if t := base.Type(id); t.Kind() == btf.KindStruct && t.Name() == name && !found {
			found = true
			edit(c, &nameOff, &size, ext)
		}
		c.AddRaw(nameOff, info, size, ext...)
	}
	if !found {
		t.Fatalf("no struct %s in the base", name)
	}
	if err := os.WriteFile(path, c.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRebaseRefused: a new base in which a struct the module holds by
// value (fuse's struct fuse_conn holds struct list_head) is larger, is
// missing (renamed), or keeps its size with its members' offsets swapped.
// rebase refuses the first two by either route, as btf__relocate does,
// naming the type and why, exit status 1, the module untouched and no
// temporary file left; the swap it refuses only with --old-base, which
// knows the members (a .BTF.base records names, kinds and sizes only, and
// the kernel relocates such a module as well). A module with .BTF_ids,
// compressed modules, a raw BTF without --old-base, and --old-base that is
// not the module's base are refused too.
func TestRebaseRefused(t *testing.T) {
	old := modBase(t)
	bin := testenv.Btfkit(t)
	dir := t.TempDir()
	raw, _, dist := encodeRebaseInputs(t, bin, old, filepath.Join(dir, "in"), []string{"fuse"})
	oldSpec, err := input.LoadBase(old)
	if err != nil {
		t.Fatal(err)
	}
	grown := withStruct(t, oldSpec, "list_head", filepath.Join(dir, "grown.btf"), func(_ *btf.Spec, _, size *uint32, _ []uint32) { *size += 8 })
	renamed := withStruct(t, oldSpec, "list_head", filepath.Join(dir, "renamed.btf"), func(s *btf.Spec, nameOff, _ *uint32, _ []uint32) { *nameOff = s.AddString("list_head_renamed") })
	swapped := withStruct(t, oldSpec, "list_head", filepath.Join(dir, "swapped.btf"), func(_ *btf.Spec, _, _ *uint32, ext []uint32) { ext[2], ext[5] = ext[5], ext[2] })

	for _, c := range []struct {
		base, route string
		want        []string // in the error; nil: rebased
	}{
		{grown, "dist", []string{`struct "list_head" (16 bytes)`, "struct [", "of 24 bytes", "holds it by value"}},
		{grown, "raw", []string{`struct "list_head" (16 bytes)`, "of 24 bytes", "holds it by value"}},
		{renamed, "dist", []string{`struct "list_head"`, "the new base has no type of that name"}},
		{renamed, "raw", []string{`struct "list_head"`, "the new base has no type of that name"}},
		{swapped, "raw", []string{`struct "list_head", held by value in the module's struct`, `member "next" is at bit 0 in the old base, bit 64 in the new`}},
		{swapped, "dist", nil},
	} {
		in, args := dist[0], []string{"rebase", "--base", c.base}
		if c.route == "raw" {
			in, args = raw[0], append(args, "--old-base", old)
		}
		work := filepath.Join(dir, "work-"+filepath.Base(c.base)+"-"+c.route+filepath.Ext(in))
		copyFile(t, in, work)
		before := fileHash(t, work)
		_, stderr, code := runCmd(t, bin, append(args, work)...)
		if c.want == nil {
			if code != 0 {
				t.Errorf("%s by %s: status %d: %s", filepath.Base(c.base), c.route, code, stderr)
			}
			continue
		}
		if code != 1 || !strings.HasPrefix(stderr, "btfkit rebase: "+work+": ") {
			t.Errorf("%s by %s: status %d, want 1 and an error naming the file: %s", filepath.Base(c.base), c.route, code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s by %s: error without %q: %s", filepath.Base(c.base), c.route, w, stderr)
			}
		}
		if fileHash(t, work) != before {
			t.Errorf("%s by %s: the module changed although rebase failed", filepath.Base(c.base), c.route)
		}
	}

	// Inputs refused before anything is moved.
	sorted := filepath.Join(dir, "sorted.btf")
	if _, stderr, code := runCmd(t, bin, "sort", "-o", sorted, old); code != 0 {
		t.Fatalf("btfkit sort: %s", stderr)
	}
	bbr := filepath.Join(dir, "tcp_bbr.ko")
	copyFile(t, testenv.Module(t, "tcp_bbr"), bbr)
	xz := filepath.Join(dir, "fuse.ko.xz")
	testc.Require(t, "xz")
	if out, stderr, code := runCmd(t, "sh", "-c", `xz -c "$1" > "$2"`, "sh", dist[0], xz); code != 0 {
		t.Fatalf("xz: %s %s", out, stderr)
	}
	for _, c := range []struct {
		args []string
		in   string
		want string
	}{
		{[]string{"--old-base", old}, bbr, "has .BTF_ids"},
		{nil, xz, "compressed module"},
		{nil, raw[0], "no .BTF.base: give the BTF it was made against with --old-base"},
		{[]string{"--old-base", sorted}, raw[0], "does not fit the base it is read against (--old-base " + sorted},
		{nil, old, "not split BTF"},
	} {
		before := fileHash(t, c.in)
		_, stderr, code := runCmd(t, bin, append(append([]string{"rebase", "--base", old}, c.args...), c.in)...)
		if code != 1 || !strings.Contains(stderr, c.in+": ") || !strings.Contains(stderr, c.want) {
			t.Errorf("rebase %v %s: status %d, want 1 and %q: %s", c.args, c.in, code, c.want, stderr)
		}
		if fileHash(t, c.in) != before {
			t.Errorf("%s changed", c.in)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"rebase", "--base", old, "-o", filepath.Join(dir, "x"), raw[0], dist[0]}, "-o writes one file"},
		{[]string{"rebase", "--base", old, "-o", raw[0], "--old-base", old, raw[0]}, "-o names an input"},
		{[]string{"rebase", dist[0]}, `"base" not set`},
	} {
		if _, stderr, code := runCmd(t, bin, c.args...); code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: status %d, want 1 and %q: %s", c.args, code, c.want, stderr)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*btfkit*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestRebaseBadInputs: every bad BTF and ELF input of TestBadInputs given
// to rebase (as a module, raw or .ko) exits with status 1 naming the file,
// without a crash, and writes nothing, unless, read as split BTF, it is
// good (then what rebase writes checks); and eight small modules rebased
// -j 4 give the bytes -j 1 gives. It runs in the race run too, with a
// btfkit built with -race then (the modules are rebased on goroutines).
func TestRebaseBadInputs(t *testing.T) {
	bin := testenv.Btfkit(t)
	if raceEnabled {
		bin = testenv.BtfkitRace(t)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.btf")
	base := goodBTF()
	if err := os.WriteFile(good, base.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := append(badBTF(), badELF(t)...)
	for _, c := range cases {
		p := filepath.Join(dir, c.file)
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out")
		os.Remove(out)
		_, stderr, code := runCmd(t, bin, "rebase", "--base", good, "--old-base", good, "-o", out, p)
		switch {
		case isCrash(stderr):
			t.Errorf("%s: btfkit rebase crashed:\n%s", c.name, tail(stderr))
		case code == 0:
			// Bad as complete BTF, good as split BTF of good.btf (a
			// typedef of itself, strings not starting with NUL, a
			// pointer loop: read as split, the IDs land in the base).
			if o, _, code := runCmd(t, bin, "check", "--base", good, out); code != 0 {
				t.Errorf("%s: rebased, but btfkit check refuses the output:\n%s", c.name, o)
			}
		case code != 1 || !strings.Contains(stderr, p):
			t.Errorf("%s: btfkit rebase: exit status %d, want 1 and a message naming the file:\n%s", c.name, code, tail(stderr))
		default:
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s: %s written although rebase failed", c.name, out)
			}
		}
		os.Remove(p)
	}

	// A module of base: a struct holding base's struct s by value and
	// pointing to its int. The new base has them in another order.
	split := btf.NewSplitSpec(base)
	ptr := split.Add("", btf.KindPtr, 0, false, 1)
	split.Add("m", btf.KindStruct, 2, false, 24, split.AddString("s"), 3, 0, split.AddString("p"), uint32(ptr), 128)
	moved := btf.NewSpec()
	moved.Add("s_t", btf.KindTypedef, 0, false, 4)                                                                   // 1
	moved.Add("", btf.KindPtr, 0, false, 4)                                                                          // 2
	i := moved.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)                                            // 3
	moved.Add("s", btf.KindStruct, 2, false, 16, moved.AddString("a"), uint32(i), 0, moved.AddString("next"), 2, 64) // 4
	newPath := filepath.Join(dir, "new.btf")
	if err := os.WriteFile(newPath, moved.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	var mods []string
	for k := 0; k < 8; k++ {
		mods = append(mods, filepath.Join(dir, "in", string(rune('a'+k))+".btf"))
	}
	os.MkdirAll(filepath.Join(dir, "in"), 0o755)
	for _, m := range mods {
		if err := os.WriteFile(m, split.Marshal(nil), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, j := range []string{"1", "4"} {
		args := append([]string{"rebase", "-q", "-j", j, "--base", newPath, "--old-base", good, "--out-dir", filepath.Join(dir, "j"+j)}, mods...)
		if _, stderr, code := runCmd(t, bin, args...); code != 0 {
			t.Fatalf("%v: %d: %s", args, code, stderr)
		}
	}
	for _, m := range mods {
		a := filepath.Join(dir, "j1", filepath.Base(m))
		if fileHash(t, a) != fileHash(t, filepath.Join(dir, "j4", filepath.Base(m))) {
			t.Errorf("%s: -j 4 writes other bytes than -j 1", filepath.Base(m))
		}
		s, err := btf.LoadFile(a, moved)
		if err != nil {
			t.Fatal(err)
		}
		// m holds moved's struct s ([4]) and points to its int ([3]).
		if mt := s.Type(s.NextID() - 1); mt.Name() != "m" || mt.Member(0).Type != 4 || s.Type(mt.Member(1).Type).Ref() != 3 {
			t.Errorf("%s: rebased struct m refers to [%d] and [%d]", filepath.Base(m), mt.Member(0).Type, s.Type(mt.Member(1).Type).Ref())
		}
	}
}
