package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/finalize"
	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// The modules the tree tests start from: small ones, one with .BTF_ids
// (a BTF_SET8 of functions), one with a DATASEC of several entries.
var treeModules = []string{"tcp_dctcp", "speedstep-centrino", "af_key", "nf_nat", "cast_common"}

// copyInto copies src to dst, making dst's directory.
func copyInto(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, src, dst)
}

// patchBTF rewrites the .BTF of the module ELF at path in place: parsed
// against base, changed by fn, written back at the same size.
func patchBTF(t *testing.T, path string, base *btf.Spec, fn func(s *btf.Spec)) {
	t.Helper()
	f, err := elfx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var off uint64
	for _, s := range f.Sections {
		if s.Name == ".BTF" {
			off = s.Offset
		}
	}
	raw, err := f.SectionCopy(".BTF")
	f.Close()
	if err != nil || off == 0 {
		t.Fatalf("%s: no .BTF: %v", path, err)
	}
	s, err := btf.Parse(raw, base)
	if err != nil {
		t.Fatal(err)
	}
	fn(s)
	out := s.Marshal(binary.LittleEndian)
	if len(out) != len(raw) {
		t.Fatalf("patched .BTF is %d bytes, was %d", len(out), len(raw))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	copy(data[off:], out)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// patchBytes replaces every occurrence of old (which must occur) in the
// file by new, of the same length.
func patchBytes(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != len(new) || !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s: cannot replace %q", path, old)
	}
	if err := os.WriteFile(path, bytes.ReplaceAll(data, []byte(old), []byte(new)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// standalone is a module's split BTF made whole with its base (base
// types, then the module's, one string table), which BPF_BTF_LOAD takes.
func standalone(t *testing.T, path string, base *btf.Spec) []byte {
	t.Helper()
	raw, err := elfx.ReadSection(path, ".BTF")
	if err != nil {
		t.Fatal(err)
	}
	split, err := btf.Parse(raw, base)
	if err != nil {
		t.Fatal(err)
	}
	s := btf.NewSpec()
	for id := btf.TypeID(1); id < split.NextID(); id++ {
		n, i, st, ext := split.RawType(id)
		s.AddRaw(n, i, st, ext...)
	}
	s.SetRawStrings(append(append([]byte(nil), base.RawStrings()...), split.RawStrings()...))
	return s.Marshal(binary.LittleEndian)
}

// kernelVerdict loads BTF into the running kernel: "" when accepted,
// its log when rejected; ok is false when the kernel cannot be asked.
func kernelVerdict(t *testing.T, raw []byte) (log string, ok bool) {
	t.Helper()
	err := kernload.Load(raw)
	var rej *kernload.RejectedError
	switch {
	case err == nil:
		return "", true
	case errors.Is(err, kernload.ErrNotPermitted):
		testenv.SkipPartOrFail(t, "bpf(BPF_BTF_LOAD) not permitted here: %v", err)
		return "", false
	case errors.As(err, &rej):
		return rej.Log, true
	}
	t.Fatalf("BPF_BTF_LOAD: %v", err)
	return "", false
}

var problemRe = regexp.MustCompile(`^(.*?): (.*) \(([a-z0-9-]+)\)$`)

// treeProblems runs check --tree and returns its problem lines by module
// base name (compression suffix cut), its summary and exit status.
func treeProblems(t *testing.T, args ...string) (probs map[string][]string, summary string, code int) {
	t.Helper()
	stdout, stderr, code := btfkit(t, append([]string{"check"}, args...)...)
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	if len(lines) == 0 || !strings.Contains(lines[len(lines)-1], " checked against ") {
		t.Fatalf("check %v: no summary line:\n%s\n%s", args, stdout, stderr)
	}
	probs = map[string][]string{}
	for _, l := range lines[:len(lines)-1] {
		m := problemRe.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("check %v: line %q is not MODULE: ... (rule)", args, l)
		}
		name := filepath.Base(m[1])
		name = name[:strings.Index(name, ".ko")]
		probs[name] = append(probs[name], m[3]+": "+m[2])
	}
	return probs, lines[len(lines)-1], code
}

func rulesOf(lines []string) []string {
	var rs []string
	for _, l := range lines {
		rs = append(rs, l[:strings.IndexByte(l, ':')])
	}
	sort.Strings(rs)
	return rs
}

func TestCheckTree(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads the Debian kernel's modules")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	base, err := input.LoadBase(vmlinux)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean")
	for _, m := range treeModules {
		src := testenv.Module(t, m)
		copyInto(t, src, filepath.Join(clean, "kernel", filepath.Base(filepath.Dir(src)), filepath.Base(src)))
	}

	t.Run("clean", func(t *testing.T) {
		probs, summary, code := treeProblems(t, "--base", vmlinux, "--tree", clean, "--target-kernel", "6.1")
		if code != 0 || len(probs) != 0 || !strings.Contains(summary, fmt.Sprintf("%d modules checked", len(treeModules))) || !strings.HasSuffix(summary, ": 0 problems in 0 modules") {
			t.Fatalf("clean tree: exit %d, %v, %q", code, probs, summary)
		}
		// The kernel takes each clean module's BTF, made whole with its
		// base: the controls for the verdicts below.
		for _, m := range []string{"af_key", "speedstep-centrino"} {
			if log, ok := kernelVerdict(t, standalone(t, testenv.Module(t, m), base)); ok && log != "" {
				t.Fatalf("kernel rejects clean %s:\n%s", m, log)
			}
		}
	})

	broken := filepath.Join(dir, "broken")
	mod := func(name string) string { return filepath.Join(broken, "kernel", name+".ko") }
	want := map[string][]string{} // module: its rules, sorted

	// A module built against another vmlinux: the 6.12 one.
	if v612 := testenv.Vmlinux612(t); v612 != "" {
		copyInto(t, testenv.Module(t, "af_key"), mod("other-base"))
		if _, stderr, code := btfkit(t, "encode", "--base", v612, "--in-place", mod("other-base")); code != 0 {
			t.Fatalf("encode against 6.12: %s", stderr)
		}
		want["other-base"] = []string{"base-mismatch"}
	}

	// A name offset moved onto a base string that is no identifier (an
	// INT's name: BTF's INTs may have any name, structs may not).
	secName, ok := base.FindString("long int")
	if !ok {
		t.Fatal("the base has no 'long int'")
	}
	copyInto(t, testenv.Module(t, "af_key"), mod("bad-name"))
	var renamed btf.TypeID
	patchBTF(t, mod("bad-name"), base, func(s *btf.Spec) {
		for id := s.FirstID(); id < s.NextID(); id++ {
			if n, info, st, ext := s.RawType(id); btf.KindOf(info) == btf.KindStruct && n != 0 {
				s.SetRaw(id, secName, info, st, ext...)
				renamed = id
				return
			}
		}
		t.Fatal("af_key has no named struct")
	})
	want["bad-name"] = []string{"name-invalid"}

	// Two DATASEC entries at one offset.
	copyInto(t, testenv.Module(t, "speedstep-centrino"), mod("overlap"))
	patchBTF(t, mod("overlap"), base, func(s *btf.Spec) {
		for id := s.FirstID(); id < s.NextID(); id++ {
			if n, info, st, ext := s.RawType(id); btf.KindOf(info) == btf.KindDatasec && btf.VlenOf(info) >= 2 {
				ext = append([]uint32(nil), ext...)
				ext[3+1] = ext[1] // entry 1's offset is entry 0's
				s.SetRaw(id, n, info, st, ext...)
				return
			}
		}
		t.Fatal("no DATASEC with two entries")
	})
	want["overlap"] = []string{"datasec"}

	// A .BTF_ids entry naming a function the BTF lacks: one letter of
	// its symbol's name changed.
	copyInto(t, testenv.Module(t, "tcp_dctcp"), mod("unresolved"))
	patchBytes(t, mod("unresolved"), "__BTF_ID__func__dctcp_init__", "__BTF_ID__func__dctcp_inix__")
	// Two problems: the entry names no FUNC, and the set's word the
	// build wrote for it holds the ID of a FUNC no entry of the set names.
	want["unresolved"] = []string{"btf-ids", "btf-ids"}

	// A distilled module (pahole's and btfkit's distilled_base), clean
	// against the base it was encoded on.
	copyInto(t, testenv.Module(t, "af_key"), mod("distilled")) // no .BTF_ids, whose IDs would need resolve_btfids again
	if _, stderr, code := btfkit(t, "encode", "--base", vmlinux, "--features=+distilled_base", "--in-place", mod("distilled")); code != 0 {
		t.Fatalf("encode distilled: %s", stderr)
	}
	for _, m := range treeModules {
		if m != "cast_common" { // in a tree of broken modules, clean ones
			copyInto(t, testenv.Module(t, m), mod(m))
		}
	}

	check := func(t *testing.T, tree string, args ...string) string {
		probs, summary, code := treeProblems(t, append([]string{"--base", vmlinux, "--tree", tree, "--target-kernel", "6.1"}, args...)...)
		if code != 1 {
			t.Fatalf("exit %d, want 1: %s", code, summary)
		}
		got := map[string][]string{}
		for m, lines := range probs {
			got[m] = rulesOf(lines)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("rules by module:\n got %v\nwant %v\nlines: %v", got, want, probs)
		}
		if !strings.Contains(summary, "1 with a distilled base") {
			t.Fatalf("summary %q", summary)
		}
		if l := probs["bad-name"][0]; !strings.Contains(l, fmt.Sprintf("type [%d] STRUCT 'long int'", renamed)) {
			t.Fatalf("bad-name: %s", l)
		}
		if l := probs["unresolved"][0]; !strings.Contains(l, "'dctcp_inix'") {
			t.Fatalf("unresolved: %s", l)
		}
		return fmt.Sprint(probs)
	}
	var plain string
	t.Run("broken", func(t *testing.T) {
		plain = check(t, broken)
		// The same output line for line at any -j.
		a, _, _ := btfkit(t, "check", "--base", vmlinux, "--tree", broken, "-j1")
		b, _, _ := btfkit(t, "check", "--base", vmlinux, "--tree", broken, "-j3")
		if a != b {
			t.Fatalf("-j1 and -j3 differ:\n%s\n%s", a, b)
		}
	})

	t.Run("kernel", func(t *testing.T) {
		// The module encoded against 6.12: the kernel takes it made whole
		// with 6.12's BTF, and refuses it with 6.1's, the base checked.
		if _, ok := want["other-base"]; ok {
			b612, err := input.LoadBase(testenv.Vmlinux612(t))
			if err != nil {
				t.Fatal(err)
			}
			if log, ok := kernelVerdict(t, standalone(t, mod("other-base"), b612)); !ok {
				return
			} else if log != "" {
				t.Fatalf("kernel rejects other-base with its own base:\n%s", log)
			}
			if log, _ := kernelVerdict(t, standalone(t, mod("other-base"), base)); log == "" {
				t.Error("kernel takes other-base with the 6.1 base")
			}
		}
		// The kernel's verdicts on the broken modules made whole.
		for m, msg := range map[string]string{"bad-name": "Invalid name", "overlap": "Invalid offset"} {
			log, ok := kernelVerdict(t, standalone(t, mod(m), base))
			if !ok {
				return
			}
			if !strings.Contains(log, msg) {
				t.Errorf("%s: kernel log does not say %q:\n%s", m, msg, log)
			}
		}
	})

	t.Run("compressed", func(t *testing.T) {
		for _, z := range [][]string{{"xz", "-k"}, {"zstd", "-q", "-k"}, {"gzip", "-k"}} {
			if _, err := exec.LookPath(z[0]); err != nil {
				testenv.SkipPartOrFail(t, "%s not installed", z[0])
				continue
			}
			tree := filepath.Join(dir, z[0])
			if err := os.CopyFS(tree, os.DirFS(broken)); err != nil {
				t.Fatal(err)
			}
			files, _ := filepath.Glob(filepath.Join(tree, "kernel", "*.ko"))
			cmd := exec.Command(z[0], append(z[1:], files...)...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", z[0], err, out)
			}
			for _, f := range files {
				os.Remove(f)
			}
			if got := check(t, tree); got != plain {
				t.Fatalf("%s tree:\n%s\nplain:\n%s", z[0], got, plain)
			}
		}
	})

	t.Run("relocation", func(t *testing.T) {
		// The distilled module against a base in which one of the
		// types its .BTF.base names is called otherwise.
		distRaw, err := elfx.ReadSection(mod("distilled"), ".BTF.base")
		if err != nil {
			t.Fatal(err)
		}
		dist, err := btf.Parse(distRaw, nil)
		if err != nil {
			t.Fatal(err)
		}
		var name string
		for id := btf.TypeID(1); id < dist.NextID() && name == ""; id++ {
			if ty := dist.Type(id); ty.Kind() == btf.KindStruct && len(ty.Name()) > 3 {
				name = ty.Name()
			}
		}
		off, _ := base.FindString(name)
		strs := append([]byte(nil), base.RawStrings()...)
		strs[off] ^= 0x20 // sock -> Sock: another name, same length
		changed := btf.NewSpec()
		for id := btf.TypeID(1); id < base.NextID(); id++ {
			n, i, st, ext := base.RawType(id)
			changed.AddRaw(n, i, st, ext...)
		}
		changed.SetRawStrings(strs)
		changedPath := filepath.Join(dir, "changed-base.btf")
		if err := os.WriteFile(changedPath, changed.Marshal(binary.LittleEndian), 0o644); err != nil {
			t.Fatal(err)
		}
		tree := filepath.Join(dir, "distilled-only")
		copyInto(t, mod("distilled"), filepath.Join(tree, "distilled.ko"))
		probs, _, code := treeProblems(t, "--base", changedPath, "--tree", tree)
		if code != 1 || len(probs["distilled"]) != 1 || !strings.HasPrefix(probs["distilled"][0], "relocation: ") || !strings.Contains(probs["distilled"][0], fmt.Sprintf("%q", name)) {
			t.Fatalf("distilled module against a base without %s: exit %d, %v", name, code, probs)
		}
		if probs, _, code := treeProblems(t, "--base", vmlinux, "--tree", tree); code != 0 || len(probs) != 0 {
			t.Fatalf("distilled module against its base: exit %d, %v", code, probs)
		}
	})
}

// TestCheckTreeKfuncTags: a module whose BTF_SET8 says BTF_SET8_KFUNCS
// (Linux 6.9's flag) and whose BTF, built by Debian 6.1's pahole, has no
// bpf_kfunc tags: a problem for kernels whose build adds the tags (6.11
// on), none for older ones; the functions reported are those pahole 1.32
// with the flags of 6.12's scripts/Makefile.btf tags in the same module.
func TestCheckTreeKfuncTags(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads the Debian kernel's modules")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	dir := t.TempDir()
	ko := filepath.Join(dir, "tree", "kfunc.ko")
	copyInto(t, testenv.Module(t, "tcp_dctcp"), ko)
	ids, err := finalize.ReadIDs(ko)
	if err != nil || ids == nil {
		t.Fatalf("tcp_dctcp's .BTF_ids: %v", err)
	}
	f, err := elfx.Open(ko)
	if err != nil {
		t.Fatal(err)
	}
	var secOff uint64
	for _, s := range f.Sections {
		if s.Name == elfx.IDsSection {
			secOff = s.Offset
		}
	}
	f.Close()
	data, err := os.ReadFile(ko)
	if err != nil {
		t.Fatal(err)
	}
	sets := 0
	for _, e := range ids.Entries {
		if e.Kind == finalize.IDSet8 {
			binary.LittleEndian.PutUint32(data[secOff+e.Addrs[0]-ids.Addr+4:], 1) // BTF_SET8_KFUNCS
			sets++
		}
	}
	if sets == 0 {
		t.Fatal("tcp_dctcp has no BTF_SET8")
	}
	if err := os.WriteFile(ko, data, 0o644); err != nil {
		t.Fatal(err)
	}
	tree := filepath.Dir(ko)

	if probs, _, code := treeProblems(t, "--base", vmlinux, "--tree", tree, "--target-kernel", "6.10"); code != 0 || len(probs) != 0 {
		t.Fatalf("for 6.10: exit %d, %v", code, probs)
	}
	probs, _, code := treeProblems(t, "--base", vmlinux, "--tree", tree, "--target-kernel", "6.11")
	var got []string
	for _, l := range probs["kfunc"] {
		m := regexp.MustCompile(`^kfunc-tag: type \[\d+\] FUNC '(\w+)'`).FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("for 6.11: %s", l)
		}
		got = append(got, m[1])
	}
	sort.Strings(got)
	if code != 1 || len(got) == 0 {
		t.Fatalf("for 6.11: exit %d, %v", code, probs)
	}

	// The oracle: pahole 1.32 with decl_tag_kfuncs on the same file.
	pahole, err := exec.LookPath("pahole")
	if err != nil {
		testenv.SkipOrFail(t, "pahole not installed")
	}
	if v, _ := exec.Command(pahole, "--version").Output(); !strings.HasPrefix(string(v), "v1.32") {
		testenv.SkipOrFail(t, "pahole is %s, not 1.32 (scripts/sid-tools)", bytes.TrimSpace(v))
	}
	out := filepath.Join(dir, "kfunc.btf")
	cmd := exec.Command(pahole, "--btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs",
		"--btf_base", vmlinux, "--btf_encode_detached="+out, ko)
	if o, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pahole: %v\n%s", err, o)
	}
	dump, stderr, code := btfkit(t, "dump", "--base", vmlinux, out)
	if code != 0 {
		t.Fatal(stderr)
	}
	funcs := map[string]string{} // [ID] -> name
	for _, m := range regexp.MustCompile(`(?m)^\[(\d+)\] FUNC '(\w+)'`).FindAllStringSubmatch(dump, -1) {
		funcs[m[1]] = m[2]
	}
	var tagged []string
	for _, m := range regexp.MustCompile(`(?m)^\[\d+\] DECL_TAG 'bpf_kfunc' type_id=(\d+) component_idx=-1`).FindAllStringSubmatch(dump, -1) {
		tagged = append(tagged, funcs[m[1]])
	}
	sort.Strings(tagged)
	if fmt.Sprint(got) != fmt.Sprint(tagged) {
		t.Fatalf("kfunc-tag problems for %v; pahole 1.32 tags %v", got, tagged)
	}
}

// TestCheckTreeBadInput: what cannot be checked is said, naming the
// file, with exit status 1 and no panic.
func TestCheckTreeBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads the Debian kernel's modules")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	tree := filepath.Join(dir, "tree")
	copyInto(t, testenv.Module(t, "tcp_dctcp"), filepath.Join(tree, "a.ko"))
	data, _ := os.ReadFile(filepath.Join(tree, "a.ko"))
	os.WriteFile(filepath.Join(tree, "truncated.ko"), data[:3000], 0o644)
	os.WriteFile(filepath.Join(tree, "text.ko"), []byte("not a module\n"), 0o644)
	os.WriteFile(filepath.Join(tree, "bad.ko.xz"), []byte("\xfd7zXZ\x00garbage"), 0o644)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--base", vmlinux, "--tree", empty}, empty + ": no kernel modules"},
		{[]string{"--base", vmlinux, "--tree", filepath.Join(dir, "missing")}, "no such file"},
		{[]string{"--tree", tree}, "no vmlinux in it; give the modules' vmlinux"},
		{[]string{"--base", vmlinux, "--tree", tree, "x.ko"}, "give no FILE with it"},
		{[]string{"--base", vmlinux, "-j", "2", "x.ko"}, "-j and -q apply to --tree only"},
		{[]string{"--base", filepath.Join(tree, "a.ko"), "--tree", tree}, "this is split BTF"},
	} {
		stdout, stderr, code := btfkit(t, append([]string{"check"}, c.args...)...)
		if code != 1 || !strings.Contains(stdout+stderr, c.want) || strings.Contains(stderr, "panic") {
			t.Errorf("check %v: exit %d, want 1 and %q:\n%s%s", c.args, code, c.want, stdout, stderr)
		}
	}

	// Unreadable modules are problems of their own (rule read), the
	// others are still checked.
	probs, summary, code := treeProblems(t, "--base", vmlinux, "--tree", tree)
	if code != 1 || len(probs["a"]) != 0 || !strings.HasSuffix(summary, "3 problems in 3 modules") {
		t.Fatalf("exit %d, %q, %v", code, summary, probs)
	}
	for _, m := range []string{"truncated", "text", "bad"} {
		if len(probs[m]) != 1 || !strings.HasPrefix(probs[m][0], "read: ") {
			t.Errorf("%s: %v", m, probs[m])
		}
	}
}

// TestCheckTreeDebian: the Debian 6.1 package's 1,121 modules, built
// against its vmlinux (the kernel loads them), have no problem against
// it, and every one of them is a base mismatch against Debian's 6.12
// vmlinux, which they were not built against.
func TestCheckTreeDebian(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads every Debian module")
	}
	vmlinux, modules := testenv.KernelInputs(t)
	n := len(testenv.Modules(t))
	probs, summary, code := treeProblems(t, "--base", vmlinux, "--tree", modules, "--target-kernel", "6.1")
	if code != 0 || len(probs) != 0 || !strings.HasPrefix(summary, fmt.Sprintf("%d modules checked", n)) || !strings.HasSuffix(summary, ": 0 problems in 0 modules") {
		t.Fatalf("exit %d, %q, %d modules with problems", code, summary, len(probs))
	}
	v612 := testenv.Vmlinux612(t)
	if v612 == "" {
		return
	}
	probs, summary, code = treeProblems(t, "--base", v612, "--tree", modules)
	if code != 1 || len(probs) != n {
		t.Fatalf("against 6.12: exit %d, %q, %d modules with problems of %d", code, summary, len(probs), n)
	}
	for m, lines := range probs {
		if len(lines) != 1 || !strings.HasPrefix(lines[0], "base-mismatch: ") {
			t.Fatalf("against 6.12: %s: %v", m, lines)
		}
	}
}

// TestCheckTreePackage: an unpacked kernel package (boot/vmlinux-VER
// beside lib/modules/VER) needs no --base; a base given as raw BTF is
// the same base.
func TestCheckTreePackage(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads the Debian kernel's modules")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	if _, err := exec.LookPath("objcopy"); err != nil {
		testenv.SkipOrFail(t, "objcopy not installed")
	}
	pkg := t.TempDir()
	boot := filepath.Join(pkg, "boot", "vmlinux-6.1.0-57-cloud-amd64")
	os.MkdirAll(filepath.Dir(boot), 0o755)
	// The vmlinux's .BTF alone keeps the package small.
	if out, err := exec.Command("objcopy", "--only-section=.BTF", vmlinux, boot).CombinedOutput(); err != nil {
		t.Fatalf("objcopy: %v\n%s", err, out)
	}
	for _, m := range treeModules {
		copyInto(t, testenv.Module(t, m), filepath.Join(pkg, "lib", "modules", "6.1.0-57-cloud-amd64", "kernel", m+".ko"))
	}
	probs, summary, code := treeProblems(t, "--tree", pkg)
	if code != 0 || len(probs) != 0 || !strings.Contains(summary, "checked against "+boot+" by Linux 6.1's rules (from modules/6.1.0-57-cloud-amd64)") {
		t.Fatalf("package: exit %d, %q, %v", code, summary, probs)
	}
	if _, summary, _ := treeProblems(t, "--tree", pkg, "--target-kernel", "6.12"); !strings.Contains(summary, "by Linux 6.12's rules (0 without") {
		t.Fatalf("--target-kernel 6.12 on a 6.1 tree: %q", summary)
	}
	raw, err := elfx.ReadSection(vmlinux, ".BTF")
	if err != nil {
		t.Fatal(err)
	}
	rawPath := filepath.Join(t.TempDir(), "vmlinux.btf")
	os.WriteFile(rawPath, raw, 0o644)
	if probs, summary, code := treeProblems(t, "--base", rawPath, "--tree", pkg); code != 0 || len(probs) != 0 {
		t.Fatalf("raw base: exit %d, %q, %v", code, summary, probs)
	}
	// Two vmlinux files: which one is not guessed.
	copyInto(t, boot, boot+".old")
	os.Rename(boot+".old", filepath.Join(pkg, "boot", "vmlinux-6.1.0-56-cloud-amd64"))
	if _, stderr, code := btfkit(t, "check", "--tree", pkg); code != 1 || !strings.Contains(stderr, "2 vmlinux files in it") {
		t.Fatalf("two vmlinux: exit %d, %s", code, stderr)
	}
}

// TestCheckTreeDistilledIDs: an out-of-tree module's .BTF_ids number its
// types as split against its .BTF.base (resolve_btfids resolves such a
// module against that section; the kernel maps the IDs when it relocates
// the BTF). tcp_dctcp's BTF finalized as a 7.x build finalizes an
// out-of-tree module (btfkit finalize --distill-base, byte for byte the
// kernel's resolve_btfids in scripts/finalize-check), with the .BTF_ids
// it resolves, is clean; with the IDs the in-tree build wrote (vmlinux's
// numbering) it is not.
func TestCheckTreeDistilledIDs(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads the Debian kernel's modules")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	if _, err := exec.LookPath("objcopy"); err != nil {
		testenv.SkipOrFail(t, "objcopy not installed")
	}
	dir := t.TempDir()
	at := func(n string) string { return filepath.Join(dir, n) }
	objcopy := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("objcopy", args...).CombinedOutput(); err != nil {
			t.Fatalf("objcopy %v: %v\n%s", args, err, out)
		}
	}
	ko := at("fresh/tcp_dctcp.ko")
	copyInto(t, testenv.Module(t, "tcp_dctcp"), ko)
	// The module as the linker left it: .BTF_ids all zero.
	objcopy("--dump-section", ".BTF_ids="+at("ids.built"), "--dump-section", ".BTF="+at("in.btf"), ko)
	built, err := os.ReadFile(at("ids.built"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(at("ids.zero"), make([]byte, len(built)), 0o644)
	objcopy("--update-section", ".BTF_ids="+at("ids.zero"), ko)
	if _, stderr, code := btfkit(t, "finalize", "--base", vmlinux, "--distill-base", "-o", at("out.btf"),
		"--ids-out", at("out.ids"), "--base-out", at("out.base"), at("in.btf"), ko); code != 0 {
		t.Fatalf("finalize: %s", stderr)
	}
	objcopy("--update-section", ".BTF="+at("out.btf"), "--add-section", ".BTF.base="+at("out.base"),
		"--update-section", ".BTF_ids="+at("out.ids"), ko)
	probs, summary, code := treeProblems(t, "--base", vmlinux, "--tree", filepath.Dir(ko))
	if code != 0 || len(probs) != 0 || !strings.Contains(summary, "1 with a distilled base") {
		t.Fatalf("finalized module: exit %d, %q, %v", code, summary, probs)
	}

	// Another module's .BTF.base in a distilled af_key: its BTF does not
	// fit the section.
	swapped := at("swapped/af_key.ko")
	copyInto(t, testenv.Module(t, "af_key"), swapped)
	if _, stderr, code := btfkit(t, "encode", "--base", vmlinux, "--features=+distilled_base", "--in-place", swapped); code != 0 {
		t.Fatalf("encode distilled: %s", stderr)
	}
	objcopy("--update-section", ".BTF.base="+at("out.base"), swapped)
	probs, _, code = treeProblems(t, "--base", vmlinux, "--tree", filepath.Dir(swapped))
	if code != 1 || len(probs["af_key"]) != 1 || !strings.HasPrefix(probs["af_key"][0], "base-mismatch: ") || !strings.Contains(probs["af_key"][0], "does not fit its .BTF.base") {
		t.Fatalf("swapped .BTF.base: exit %d, %v", code, probs)
	}

	stale := at("stale/tcp_dctcp.ko")
	copyInto(t, ko, stale)
	objcopy("--update-section", ".BTF_ids="+at("ids.built"), stale)
	probs, _, code = treeProblems(t, "--base", vmlinux, "--tree", filepath.Dir(stale))
	if code != 1 || len(probs["tcp_dctcp"]) == 0 {
		t.Fatalf("stale IDs: exit %d, %v", code, probs)
	}
	for _, l := range probs["tcp_dctcp"] {
		if !strings.HasPrefix(l, "btf-ids: ") {
			t.Fatalf("stale IDs: %s", l)
		}
	}
}
