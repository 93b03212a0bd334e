package cdump

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// The oracle for every header this package prints is the installed
// bpftool (Debian's 7.1), run at test time on the same input.

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

// referenceInputs are the reference BTF files (testdata/reference/*/*.btf).
func referenceInputs(t *testing.T) []oracleInput {
	names := testenv.ReferenceNames(t, "*/*.btf")
	if len(names) == 0 {
		t.Fatal("no reference BTF files in testdata/reference")
	}
	var ins []oracleInput
	for _, n := range names {
		ins = append(ins, oracleInput{n, testenv.Reference(t, n), ""})
	}
	return ins
}

// debianModules are the modules the split tests dump with their base.
var debianModules = []string{
	"sctp", "xfs", "mlx5_core", "btrfs", "kvm", "kvm-intel", "cifs", "nf_tables",
	"vxlan", "nf_conntrack", "8021q", "iptable_filter", "vfat", "bonding", "tun",
	"virtio_net", "nfsd", "ib_core", "dm-mod", "fuse",
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
		t.Run("sysfs", func(t *testing.T) { testenv.SkipOrFail(t, "/sys/kernel/btf/vmlinux: %v", err) })
	}
	ins = append(ins, fixtureInputs(t)...)
	t.Run("debian", func(t *testing.T) {
		vmlinux, _ := testenv.KernelInputs(t)
		ins = append(ins, oracleInput{"debian/vmlinux", vmlinux, ""})
		for _, m := range debianModules {
			ins = append(ins, oracleInput{"debian/" + m + ".ko", testenv.Module(t, m), vmlinux})
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
			testenv.SkipPartOrFail(t, "pahole not installed: no pahole -J fixtures")
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
