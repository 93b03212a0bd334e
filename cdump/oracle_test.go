package cdump

import (
	"bytes"
	"fmt"
	"github.com/btfkit/btfkit/internal/refdata"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testc"
)

// The oracle for every header this package prints is the installed
// bpftool (Debian's 7.1), run at test time on the same input.

// skipOrFail skips the test visibly, or fails it when CI=true (CI installs
// every input and tool).
func skipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s", msg)
	}
	t.Skipf("SKIP: %s", msg)
}

// referenceDir holds the reference BTF files: $BTFKIT_REFERENCE, else
// shared/reference beside the repository.
func referenceDir() string {
	if d := os.Getenv("BTFKIT_REFERENCE"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "reference")
}

// bpftoolC runs 'bpftool [-B base] btf dump file path format c'.
func bpftoolC(t testing.TB, path, base string) []byte {
	t.Helper()
	testc.Require(t, "bpftool")
	args := []string{"btf", "dump", "file", path, "format", "c"}
	if base != "" {
		args = append([]string{"-B", base}, args...)
	}
	return testc.Output(t, "bpftool", args...)
}

// elfPtrSize is what libbpf takes as the pointer size of BTF read from an
// ELF file: its class. 0 (guess) for raw BTF.
func elfPtrSize(path string) int {
	b := make([]byte, 5)
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	if n, _ := f.Read(b); n < 5 || string(b[:4]) != "\x7fELF" {
		return 0
	}
	return 4 * int(b[4])
}

var specCache sync.Map // path -> *btf.Spec (base specs only)

func loadBase(t testing.TB, path string) *btf.Spec {
	t.Helper()
	if s, ok := specCache.Load(path); ok {
		return s.(*btf.Spec)
	}
	s, err := btf.LoadFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	specCache.Store(path, s)
	return s
}

// ourC prints the header for path (split against base when not "").
func ourC(t testing.TB, path, base string) []byte {
	t.Helper()
	var b *btf.Spec
	if base != "" {
		b = loadBase(t, base)
	}
	s, err := btf.LoadFile(path, b)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Bytes(s, Options{PointerSize: elfPtrSize(path)})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// sameHeader fails the test with the first differing lines when got and
// want differ.
func sameHeader(t testing.TB, name string, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	lo := max(0, i-5)
	ctx := func(l []string) string {
		hi := min(len(l), i+5)
		if lo >= hi {
			return "(end)"
		}
		return strings.Join(l[lo:hi], "\n")
	}
	t.Errorf("%s: header differs from bpftool's at line %d (ours %d bytes, bpftool %d bytes)\n--- bpftool:\n%s\n--- ours:\n%s",
		name, i+1, len(got), len(want), ctx(w), ctx(g))
}

type oracleInput struct {
	name, path, base string
}

func referenceInputs(t *testing.T) []oracleInput {
	files, _ := filepath.Glob(filepath.Join(referenceDir(), "*", "*.btf"))
	sort.Strings(files)
	if len(files) == 0 {
		t.Run("reference", func(t *testing.T) {
			skipOrFail(t, "no reference BTF under %s", referenceDir())
		})
	}
	var ins []oracleInput
	for _, f := range files {
		ins = append(ins, oracleInput{filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f), f, ""})
	}
	return ins
}

// kernelInputs returns the Debian vmlinux with debug info and its module
// directory, from $VMLINUX and $MODULES or from the shared kernel-inputs
// tool (which prints VMLINUX=... MODULES=...); it skips visibly (fails
// with CI=true) when they are not installed.
func kernelInputs(t testing.TB) (vmlinux, modules string) {
	t.Helper()
	vmlinux, modules, err := refdata.KernelInputs()
	if err != nil {
		skipOrFail(t, "Debian kernel inputs not available: %v", err)
	}
	return vmlinux, modules
}

// debianModules are the modules the split tests dump with their base.
var debianModules = []string{
	"sctp", "xfs", "mlx5_core", "btrfs", "kvm", "kvm-intel", "cifs", "nf_tables",
	"vxlan", "nf_conntrack", "8021q", "iptable_filter", "vfat", "bonding", "tun",
	"virtio_net", "nfsd", "ib_core", "dm-mod", "fuse",
}

// modulePaths finds the given modules (NAME.ko) under dir.
func modulePaths(t testing.TB, dir string, names []string) []string {
	t.Helper()
	found := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ko") {
			found[strings.TrimSuffix(d.Name(), ".ko")] = p
		}
		return nil
	})
	var out []string
	for _, n := range names {
		p, ok := found[n]
		if !ok {
			t.Fatalf("module %s.ko not found under %s", n, dir)
		}
		out = append(out, p)
	}
	return out
}

// TestMatchesBpftool compares our header with bpftool's for the reference
// BTF files, the running kernel's BTF, the Debian vmlinux ELF and 20 of its
// modules (split BTF dumped with their base, as 'bpftool -B' does), and
// objects compiled from the C corpus and this package's layout fixtures.
func TestMatchesBpftool(t *testing.T) {
	testc.Require(t, "bpftool")
	ins := referenceInputs(t)
	if testing.Short() {
		// -short (the race-detector run): the fixtures and one kernel BTF.
		var keep []oracleInput
		for _, in := range ins {
			if strings.HasPrefix(in.name, "host-6.18/") {
				keep = append(keep, in)
			}
		}
		t.Logf("SKIP: -short: only %d of %d reference files, no sysfs or Debian inputs", len(keep), len(ins))
		ins = append(keep, fixtureInputs(t)...)
		for _, in := range ins {
			t.Run(in.name, func(t *testing.T) {
				sameHeader(t, in.name, ourC(t, in.path, in.base), bpftoolC(t, in.path, in.base))
			})
		}
		return
	}
	if _, err := os.Stat("/sys/kernel/btf/vmlinux"); err == nil {
		ins = append(ins, oracleInput{"sysfs/vmlinux", "/sys/kernel/btf/vmlinux", ""})
	} else {
		t.Run("sysfs", func(t *testing.T) { skipOrFail(t, "/sys/kernel/btf/vmlinux: %v", err) })
	}
	ins = append(ins, fixtureInputs(t)...)
	t.Run("debian", func(t *testing.T) {
		vmlinux, modules := kernelInputs(t)
		ins = append(ins, oracleInput{"debian/vmlinux", vmlinux, ""})
		for _, p := range modulePaths(t, modules, debianModules) {
			ins = append(ins, oracleInput{"debian/" + filepath.Base(p), p, vmlinux})
		}
	})
	compared := 0
	for _, in := range ins {
		t.Run(in.name, func(t *testing.T) {
			want := bpftoolC(t, in.path, in.base)
			got := ourC(t, in.path, in.base)
			sameHeader(t, in.name, got, want)
			compared++
		})
	}
	t.Logf("compared %d headers with bpftool's", compared)
}

// fixtureInputs compiles the C corpus and testdata/*.c to BTF three ways:
// gcc -gbtf, and pahole -J over gcc -g and clang -g objects.
func fixtureInputs(t *testing.T) []oracleInput {
	t.Helper()
	srcs := testc.CorpusFiles(t)
	more, _ := filepath.Glob(filepath.Join("testdata", "*.c"))
	for _, m := range more {
		abs, _ := filepath.Abs(m)
		srcs = append(srcs, abs)
	}
	var ins []oracleInput
	for _, o := range fixtureObjects(t, srcs) {
		ins = append(ins, oracleInput{o.name, o.path, ""})
	}
	return ins
}

type fixtureObject struct {
	name, src, path string
}

// fixtureObjects builds, for each source, a gcc -gbtf object and, when
// pahole is installed, copies of gcc -g and clang -g objects with a .BTF
// section pahole -J added.
func fixtureObjects(t *testing.T, srcs []string) []fixtureObject {
	t.Helper()
	var objs []fixtureObject
	dir := t.TempDir()
	for _, src := range srcs {
		base := strings.TrimSuffix(filepath.Base(src), ".c")
		o := testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-gbtf", "-O2"}})
		objs = append(objs, fixtureObject{"gcc-gbtf/" + base + ".o", src, o})
		if _, err := exec.LookPath("pahole"); err != nil {
			t.Logf("SKIP: pahole not installed: no pahole -J fixtures")
			continue
		}
		for _, cc := range []testc.Compiler{testc.GCC, testc.Clang} {
			if !testc.Have(cc) {
				continue
			}
			g := testc.Compile(t, src, testc.Variant{CC: cc, Flags: []string{"-g", "-O2"}})
			cp := filepath.Join(dir, fmt.Sprintf("%s-%s.o", base, cc))
			data, err := os.ReadFile(g)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cp, data, 0o644); err != nil {
				t.Fatal(err)
			}
			testc.Run(t, "pahole", "-J", cp)
			objs = append(objs, fixtureObject{"pahole-" + string(cc) + "/" + base + ".o", src, cp})
		}
	}
	return objs
}
