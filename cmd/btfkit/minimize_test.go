package main

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/minimize"
	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// coreFixture is the BPF program with CO-RE relocations of every kind.
func coreFixture(t *testing.T) string {
	return filepath.Join(testenv.Root(t), "btf", "minimize", "testdata", "core.bpf.c")
}

// compileCORE compiles the CO-RE fixture with clang -g -O2 -target bpf
// (part "" for the whole program, "1" or "2" for its halves) and turns
// its TYPE_EXISTS relocations of ___m types into TYPE_MATCHES ones,
// which Debian 12's clang 14 cannot write.
func compileCORE(t *testing.T, dir, part string) string {
	t.Helper()
	testc.Require(t, "clang")
	if _, err := os.Stat("/usr/include/bpf/bpf_core_read.h"); err != nil {
		testenv.SkipOrFail(t, "libbpf-dev headers not installed: %v", err)
	}
	name := "core"
	args := []string{"-g", "-O2", "-target", "bpf", "-I/usr/include/x86_64-linux-gnu", "-Werror"}
	if part != "" {
		name += "-part" + part
		args = append(args, "-DPART="+part)
	}
	obj := filepath.Join(dir, name+".bpf.o")
	testc.Run(t, "clang", append(args, "-c", "-o", obj, coreFixture(t))...)
	if n := patchTypeMatches(t, obj); part != "1" && n == 0 {
		t.Fatalf("%s: no TYPE_EXISTS relocation of a ___m type to turn into TYPE_MATCHES", obj)
	}
	return obj
}

// patchTypeMatches rewrites, in the object file, the kind of every
// TYPE_EXISTS relocation whose local type's name ends in ___m to
// TYPE_MATCHES, returning how many it rewrote.
func patchTypeMatches(t *testing.T, obj string) int {
	t.Helper()
	f, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	sec, extSec := f.Section(".BTF"), f.Section(".BTF.ext")
	if sec == nil || extSec == nil {
		t.Fatalf("%s: no .BTF or .BTF.ext", obj)
	}
	data, _ := sec.Data()
	ext, _ := extSec.Data()
	extOff := extSec.Offset
	f.Close()
	s, err := btf.Parse(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	relos, err := btf.ParseCORERelos(ext, s)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range relos {
		if r.Kind == btf.CORETypeExists && strings.HasSuffix(s.Type(r.TypeID).Name(), "___m") {
			binary.LittleEndian.PutUint32(raw[int(extOff)+r.Offset+12:], uint32(btf.CORETypeMatches))
			n++
		}
	}
	if err := os.WriteFile(obj, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return n
}

// bpftools are the oracles: Debian 12's bpftool (7.1, libbpf 1.1) and
// Debian sid's (7.8, libbpf 1.8, scripts/sid-tools).
func bpftools(t *testing.T) map[string]string {
	t.Helper()
	tools := map[string]string{}
	if p, err := exec.LookPath("bpftool"); err == nil {
		tools["debian12"] = p
	} else {
		testenv.SkipOrFail(t, "bpftool not found on PATH; run scripts/install-test-deps")
	}
	sid := filepath.Join(testenv.SidDir(), "bin", "bpftool")
	if _, err := os.Stat(sid); err == nil {
		tools["sid"] = sid
	} else {
		testenv.SkipPartOrFail(t, "Debian sid's bpftool 7.8 (%s) is missing; run scripts/sid-tools", sid)
	}
	return tools
}

// TestMinimizeAgainstBpftool: btfkit minimize of the Debian 6.1 and 6.12
// vmlinux BTF for the CO-RE fixture (one object, and its two halves as two
// objects) is what bpftool gen min_core_btf writes, for both bpftools:
// 'btfkit diff' finds nothing, and the bytes are Debian 12's bpftool's
// (bpftool 7.8's libbpf writes a 32-byte header, the same types and
// strings).
func TestMinimizeAgainstBpftool(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: compiles and reads kernel-size inputs")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	kernels := []string{vmlinux}
	if v := testenv.Vmlinux612(t); v != "" {
		kernels = append(kernels, v)
	}
	tools := bpftools(t)
	dir := t.TempDir()
	whole := compileCORE(t, dir, "")
	halves := []string{compileCORE(t, dir, "1"), compileCORE(t, dir, "2")}
	for ki, k := range kernels {
		for oi, objs := range [][]string{{whole}, halves} {
			ours := filepath.Join(dir, "ours.btf")
			args := append([]string{"minimize", "--base", k, "-o", ours}, objs...)
			if _, stderr, code := btfkit(t, args...); code != 0 {
				t.Fatalf("btfkit %v: exit %d: %s", args, code, stderr)
			}
			got, _ := os.ReadFile(ours)
			for _, name := range []string{"debian12", "sid"} {
				tool, ok := tools[name]
				if !ok {
					continue
				}
				want := filepath.Join(dir, name+".btf")
				testc.Run(t, tool, append([]string{"gen", "min_core_btf", k, want}, objs...)...)
				s, err := btf.LoadFile(want, nil)
				if err != nil {
					t.Fatal(err)
				}
				// The fixture must keep something of every kind of
				// relocation: bpftool's output is far from empty.
				if s.NumTypes() < 20 {
					t.Fatalf("kernel %d, objects %d: bpftool %s kept only %d types", ki, oi, name, s.NumTypes())
				}
				if stdout, stderr, code := btfkit(t, "diff", want, ours); code != 0 {
					t.Errorf("kernel %s, objects %v: btfkit diff against bpftool %s: exit %d\n%s%s", k, objs, name, code, stdout, stderr)
				}
				if name == "debian12" {
					if w, _ := os.ReadFile(want); !bytes.Equal(w, got) {
						t.Errorf("kernel %s, objects %v: not bpftool 7.1's bytes", k, objs)
					}
				}
			}
		}
	}
}

// TestMinimizeModules: with kvm's and nf_conntrack's split BTF, btfkit
// minimize writes a minimized vmlinux BTF and one split BTF per module
// against it that 'btfkit check --base' accepts, and that resolve every
// relocation of the module fixture (CO-RE relocations against types of
// both modules and of vmlinux, compiled at test time) as the full BTFs
// do: the same target type, in the same module, the same value (but for
// type IDs, which are renumbered). Without the modules' output the
// relocations against module types find nothing.
func TestMinimizeModules(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: compiles and reads kernel-size inputs")
	}
	testc.Require(t, "clang")
	if _, err := os.Stat("/usr/include/bpf/bpf_core_read.h"); err != nil {
		testenv.SkipOrFail(t, "libbpf-dev headers not installed: %v", err)
	}
	vmlinux, _ := testenv.KernelInputs(t)
	modPaths := []string{testenv.Module(t, "kvm"), testenv.Module(t, "nf_conntrack")}
	dir := t.TempDir()
	obj := filepath.Join(dir, "module.bpf.o")
	src := filepath.Join(testenv.Root(t), "btf", "minimize", "testdata", "module.bpf.c")
	testc.Run(t, "clang", "-g", "-O2", "-target", "bpf", "-I/usr/include/x86_64-linux-gnu", "-Werror", "-c", "-o", obj, src)

	out := filepath.Join(dir, "min")
	args := []string{"minimize", "--base", vmlinux, "-o", out}
	for _, m := range modPaths {
		args = append(args, "--module", m)
	}
	if _, stderr, code := btfkit(t, append(args, obj)...); code != 0 {
		t.Fatalf("btfkit %v: exit %d: %s", args, code, stderr)
	}
	minBase := filepath.Join(out, "vmlinux")
	minMods := []string{filepath.Join(out, "kvm"), filepath.Join(out, "nf_conntrack")}
	if stdout, stderr, code := btfkit(t, append([]string{"check", "--base", minBase}, minMods...)...); code != 0 {
		t.Fatalf("btfkit check --base: exit %d\n%s%s", code, stdout, stderr)
	}

	// Minimizing the minimized BTF into its own directory would replace
	// its inputs: refused, nothing written.
	before, _ := os.ReadFile(minMods[1])
	if _, stderr, code := btfkit(t, "minimize", "--base", minBase, "--module", minMods[1], "-o", out, obj); code != 1 || !strings.Contains(stderr, "would replace the input") {
		t.Errorf("-o the inputs' directory: exit %d, stderr %q", code, stderr)
	}
	if after, _ := os.ReadFile(minMods[1]); !bytes.Equal(before, after) {
		t.Errorf("an input was replaced")
	}

	o, err := minimize.LoadObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	load := func(basePath string, mods []string) []minimize.Resolution {
		t.Helper()
		base, err := input.LoadBase(basePath)
		if err != nil {
			t.Fatal(err)
		}
		var specs []*btf.Spec
		for _, m := range mods {
			s, err := input.Load(m, base)
			if err != nil {
				t.Fatal(err)
			}
			if s.NumTypes() == 0 {
				t.Errorf("%s: no types", m)
			}
			specs = append(specs, s)
		}
		res, err := minimize.Resolve(base, specs, o)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	full := load(vmlinux, modPaths)
	small := load(minBase, minMods)
	inMods := 0
	for i, f := range full {
		s := small[i]
		if !f.Found {
			t.Errorf("relocation %+v: no target in the full BTF (the fixture is written for this kernel)", f.Relo)
			continue
		}
		if f.Module >= 0 {
			inMods++
		}
		if f.Relo.Kind == btf.CORETypeIDTarget {
			f.Value, s.Value = 0, 0
		}
		if s != f {
			t.Errorf("relocation at .BTF.ext offset 0x%x (%s): minimized BTF gives %+v, the full BTF %+v", f.Relo.Offset, f.Relo.Kind, s, f)
		}
	}
	if inMods < 4 {
		t.Errorf("only %d relocations resolve to module types; the fixture has more", inMods)
	}
	for _, r := range load(minBase, nil) {
		if r.Found && r.Target != "" && strings.Contains("STRUCT kvm_io_device STRUCT nf_conn_acct STRUCT nf_conn_tstamp ENUM ip_conntrack_events", r.Target) {
			t.Errorf("relocation at .BTF.ext offset 0x%x resolves to %s in the minimized vmlinux BTF alone", r.Relo.Offset, r.Target)
		}
	}
}

// TestMinimizeKernelDir: a directory of kernel BTFs in, one minimized BTF
// per kernel out, each the bytes of minimizing that kernel alone, for any
// -j; a kernel that fails is named, the others are written, and the
// status is 1.
func TestMinimizeKernelDir(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: compiles and reads kernel-size inputs")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	dir := t.TempDir()
	obj := compileCORE(t, dir, "")
	kernels := filepath.Join(dir, "kernels")
	os.Mkdir(kernels, 0o755)
	if err := os.Symlink(vmlinux, filepath.Join(kernels, "6.1")); err != nil {
		t.Fatal(err)
	}
	if v := testenv.Vmlinux612(t); v != "" {
		os.Symlink(v, filepath.Join(kernels, "6.12"))
		if _, stderr, code := btfkit(t, "downgrade", "--target-kernel", "5.15", "-o", filepath.Join(kernels, "6.12-for-5.15"), v); code != 0 {
			t.Fatalf("downgrade: exit %d: %s", code, stderr)
		}
	}
	modObj := filepath.Join(dir, "module.bpf.o")
	testc.Run(t, "clang", "-g", "-O2", "-target", "bpf", "-I/usr/include/x86_64-linux-gnu", "-c", "-o", modObj,
		filepath.Join(testenv.Root(t), "btf", "minimize", "testdata", "module.bpf.c"))
	names, _ := os.ReadDir(kernels)
	want := map[string][]byte{}
	for _, e := range names {
		o := filepath.Join(dir, "one.btf")
		if _, stderr, code := btfkit(t, "minimize", "--base", filepath.Join(kernels, e.Name()), "-o", o, obj, modObj); code != 0 {
			t.Fatalf("minimize %s: exit %d: %s", e.Name(), code, stderr)
		}
		want[e.Name()], _ = os.ReadFile(o)
	}
	// A kernel with modules, laid out as /sys/kernel/btf is: the same
	// outputs as --module gives, for the module fixture.
	withMods := filepath.Join(kernels, "6.1-with-modules")
	os.Mkdir(withMods, 0o755)
	os.Symlink(vmlinux, filepath.Join(withMods, "vmlinux"))
	modArgs := []string{"minimize", "--base", vmlinux, "-o", filepath.Join(dir, "mods")}
	for _, m := range []string{"kvm", "nf_conntrack"} {
		p := testenv.Module(t, m)
		os.Symlink(p, filepath.Join(withMods, m))
		modArgs = append(modArgs, "--module", p)
	}
	if _, stderr, code := btfkit(t, append(modArgs, obj, modObj)...); code != 0 {
		t.Fatalf("minimize --module: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"vmlinux", "kvm", "nf_conntrack"} {
		want[filepath.Join("6.1-with-modules", f)], _ = os.ReadFile(filepath.Join(dir, "mods", f))
	}
	for _, j := range []string{"1", "2", "8"} {
		out := filepath.Join(dir, "out-j"+j)
		if _, stderr, code := btfkit(t, "minimize", "-j", j, "-v", "--base", kernels, "-o", out, obj, modObj); code != 0 {
			t.Fatalf("minimize -j %s: exit %d: %s", j, code, stderr)
		}
		for name, w := range want {
			if got, err := os.ReadFile(filepath.Join(out, name)); err != nil || !bytes.Equal(got, w) {
				t.Errorf("-j %s: %s differs from minimizing it alone (%v)", j, name, err)
			}
		}
	}
	// A bad kernel: named, the others written, exit 1.
	os.WriteFile(filepath.Join(kernels, "0-broken"), []byte("\x9f\xeb\x01\x00\x18\x00\x00\x00garbage"), 0o644)
	out := filepath.Join(dir, "out-bad")
	_, stderr, code := btfkit(t, "minimize", "--base", kernels, "-o", out, obj, modObj)
	if code != 1 || !strings.Contains(stderr, "0-broken") {
		t.Errorf("a broken kernel: exit %d, stderr %q: want 1 and its name", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "0-broken")); err == nil {
		t.Errorf("output written for the broken kernel")
	}
	if got, _ := os.ReadFile(filepath.Join(out, "6.1")); !bytes.Equal(got, want["6.1"]) {
		t.Errorf("the good kernels' outputs were not written beside the broken one")
	}
}

// TestMinimizeBadInput: what is not a BPF object with CO-RE relocations,
// or has broken records, is an error naming the file (and the .BTF.ext
// offset of a broken record), exit 1, and the output file stays as it
// was.
func TestMinimizeBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: compiles and reads kernel-size inputs")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	dir := t.TempDir()
	obj := compileCORE(t, dir, "")
	raw, _ := os.ReadFile(obj)
	f, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	extSec := f.Section(".BTF.ext")
	ext, _ := extSec.Data()
	btfData, _ := f.Section(".BTF").Data()
	f.Close()
	s, _ := btf.Parse(btfData, nil)
	relos, err := btf.ParseCORERelos(ext, s)
	if err != nil || len(relos) < 10 {
		t.Fatalf("fixture: %d relocations, %v", len(relos), err)
	}
	// patched writes a copy of the object with the word at offset off
	// of its record i (0 insn_off, 4 type_id, 8 access_str_off, 12 kind)
	// set to v.
	patched := func(name string, i, off int, v uint32) string {
		b := append([]byte(nil), raw...)
		binary.LittleEndian.PutUint32(b[int(extSec.Offset)+relos[i].Offset+off:], v)
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	noExt := filepath.Join(dir, "noext.bpf.o")
	testc.Run(t, "llvm-objcopy", "--remove-section=.BTF.ext", obj, noExt)
	text := filepath.Join(dir, "text.o")
	os.WriteFile(text, []byte("not an object\n"), 0o644)
	// An access string of another relocation's kind: a type relocation
	// takes "0" only.
	var fieldStr uint32
	for _, r := range relos {
		if s.String(r.AccessStrOff) != "0" {
			fieldStr = r.AccessStrOff
		}
	}
	typeRelo := -1
	for i, r := range relos {
		if r.Kind == btf.CORETypeSize {
			typeRelo = i
		}
	}
	cases := []struct {
		name, obj string
		want      []string
	}{
		{"text", text, []string{"text.o", "not a BPF object"}},
		{"x86 object", filepath.Join(testenv.Root(t), "testdata", "sample.o"), []string{"sample.o", "not a BPF object"}},
		{"no .BTF.ext", noExt, []string{"noext.bpf.o", "no .BTF.ext"}},
		{"type ID", patched("typeid.bpf.o", 3, 4, 1<<30), []string{"typeid.bpf.o", fmt.Sprintf("section .BTF.ext+0x%x", relos[3].Offset+4), "type ID"}},
		{"kind", patched("kind.bpf.o", 2, 12, 99), []string{"kind.bpf.o", fmt.Sprintf("section .BTF.ext+0x%x", relos[2].Offset+12), "unknown kind 99"}},
		{"access string", patched("access.bpf.o", 1, 8, 1<<30), []string{"access.bpf.o", fmt.Sprintf("+0x%x", relos[1].Offset+8), "access string"}},
		{"access string of a type relocation", patched("typeaccess.bpf.o", typeRelo, 8, fieldStr), []string{"typeaccess.bpf.o", fmt.Sprintf("offset 0x%x", relos[typeRelo].Offset), "access string"}},
	}
	out := filepath.Join(dir, "out.btf")
	for _, c := range cases {
		os.WriteFile(out, []byte("old"), 0o644)
		_, stderr, code := btfkit(t, "minimize", "--base", vmlinux, "-o", out, c.obj)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1 (stderr %q)", c.name, code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr %q lacks %q", c.name, stderr, w)
			}
		}
		if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine") {
			t.Errorf("%s: %s", c.name, stderr)
		}
		if got, _ := os.ReadFile(out); string(got) != "old" {
			t.Errorf("%s: output file changed", c.name)
		}
	}
	// A bad kernel BTF, and -o naming an input.
	bad := filepath.Join(dir, "bad.btf")
	os.WriteFile(bad, []byte("\x9f\xeb\x01\x00\x18\x00\x00\x00garbage"), 0o644)
	if _, stderr, code := btfkit(t, "minimize", "--base", bad, "-o", out, obj); code != 1 || !strings.Contains(stderr, "bad.btf") {
		t.Errorf("bad kernel BTF: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code := btfkit(t, "minimize", "--base", vmlinux, "-o", obj, obj); code != 1 || !strings.Contains(stderr, "names an input") {
		t.Errorf("-o naming the object: exit %d, stderr %q", code, stderr)
	}
}

// ambiguityProg reads task_struct's pid; with -DSIZE it also asks for
// its size.
const ambiguityProg = `#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct task_struct {
	int pid;
} __attribute__((preserve_access_index));

SEC("tp/sched/sched_switch")
int f(struct task_struct *t)
{
	int v = BPF_CORE_READ(t, pid);
#ifdef SIZE
	v += bpf_core_type_size(struct task_struct);
#endif
	return v;
}

char LICENSE[] SEC("license") = "GPL";
`

// TestMinimizeCandidates: kernels with two candidates for one local type
// (task_struct and task_struct___v2, or two task_structs), written here,
// where bpftool and btfkit must agree: the same output when both
// candidates give the same offsets and sizes (only the first is kept),
// an error when they do not (libbpf's "ambiguity").
func TestMinimizeCandidates(t *testing.T) {
	testc.Require(t, "clang")
	if _, err := os.Stat("/usr/include/bpf/bpf_core_read.h"); err != nil {
		testenv.SkipOrFail(t, "libbpf-dev headers not installed: %v", err)
	}
	tools := bpftools(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "amb.bpf.c")
	os.WriteFile(src, []byte(ambiguityProg), 0o644)
	objs := map[bool]string{}
	for _, size := range []bool{false, true} {
		obj := filepath.Join(dir, fmt.Sprintf("amb-%v.bpf.o", size))
		args := []string{"-g", "-O2", "-target", "bpf", "-I/usr/include/x86_64-linux-gnu", "-c", "-o", obj, src}
		if size {
			args = append(args, "-DSIZE")
		}
		testc.Run(t, "clang", args...)
		objs[size] = obj
	}
	// kernel writes a BTF of int and two structs named names[i] of sizes
	// sizes[i] whose member pid is at byte pidAt[i] (after a member x
	// when not 0), and a struct "unrelated".
	kernel := func(name string, names []string, sizes, pidAt []uint32) string {
		s := btf.NewSpec()
		intID := s.Add("int", btf.KindInt, 0, false, 4, uint32(btf.IntSigned)<<24|32)
		for i, n := range names {
			var ext []uint32
			if pidAt[i] != 0 {
				ext = append(ext, s.AddString("x"), uint32(intID), 0)
			}
			ext = append(ext, s.AddString("pid"), uint32(intID), pidAt[i]*8)
			s.Add(n, btf.KindStruct, len(ext)/3, false, sizes[i], ext...)
		}
		s.Add("unrelated", btf.KindStruct, 0, false, 4)
		p := filepath.Join(dir, name)
		os.WriteFile(p, s.Marshal(nil), 0o644)
		return p
	}
	cases := []struct {
		name   string
		kernel string
		size   bool
		fails  bool
	}{
		{"flavor, same offset", kernel("same", []string{"task_struct", "task_struct___v2"}, []uint32{8, 8}, []uint32{0, 0}), false, false},
		{"flavor first, same offset", kernel("same2", []string{"task_struct___v2", "task_struct"}, []uint32{8, 8}, []uint32{0, 0}), false, false},
		{"two offsets", kernel("offsets", []string{"task_struct", "task_struct"}, []uint32{8, 8}, []uint32{0, 4}), false, true},
		{"two sizes", kernel("sizes", []string{"task_struct", "task_struct___v2"}, []uint32{8, 16}, []uint32{0, 0}), true, true},
		{"one matches", kernel("one", []string{"task_struct___v2", "task_struct"}, []uint32{8, 8}, []uint32{0, 0}), true, false},
	}
	for _, c := range cases {
		obj := objs[c.size]
		ours := filepath.Join(dir, "ours.btf")
		os.Remove(ours)
		_, stderr, code := btfkit(t, "minimize", "--base", c.kernel, "-o", ours, obj)
		for name, tool := range tools {
			want := filepath.Join(dir, name+".btf")
			os.Remove(want)
			cmd := exec.Command(tool, "gen", "min_core_btf", c.kernel, want, obj)
			out, err := cmd.CombinedOutput()
			if (err != nil) != c.fails {
				t.Fatalf("%s: bpftool %s: %v, want failure %v\n%s", c.name, name, err, c.fails, out)
			}
			if c.fails {
				continue
			}
			if code != 0 {
				t.Fatalf("%s: btfkit minimize: exit %d: %s", c.name, code, stderr)
			}
			if stdout, _, dcode := btfkit(t, "diff", want, ours); dcode != 0 {
				t.Errorf("%s: btfkit diff against bpftool %s: exit %d\n%s", c.name, name, dcode, stdout)
			}
			if s, err := btf.LoadFile(want, nil); err != nil || s.NumTypes() < 2 {
				t.Errorf("%s: bpftool %s kept too little (%v)", c.name, name, err)
			}
		}
		if c.fails {
			if code != 1 || !strings.Contains(stderr, "ambiguity") || !strings.Contains(stderr, obj) {
				t.Errorf("%s: btfkit minimize: exit %d, stderr %q: want 1 and the ambiguity named", c.name, code, stderr)
			}
			if _, err := os.Stat(ours); err == nil {
				t.Errorf("%s: output written despite the error", c.name)
			}
		}
	}
}
