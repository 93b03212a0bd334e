package btf

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// A testInput is one BTF the oracle tests run over: a file and, for split
// BTF, the file of its base.
type testInput struct {
	name string // subtest name
	path string
	base string // "" for base BTF
}

// debianModules are the modules the split-BTF tests read: a spread of sizes
// and subsystems.
var debianModules = []string{
	"sctp", "xfs", "mlx5_core", "btrfs", "kvm", "kvm-intel", "cifs", "nf_tables",
	"vxlan", "nf_conntrack", "8021q", "iptable_filter", "vfat", "bonding", "tun",
	"virtio_net", "nfsd", "ib_core", "dm-mod", "fuse",
}

// referenceInputs are the reference .btf files and the running kernel's
// own BTF (vmlinux and any loaded module).
func referenceInputs(t testing.TB) []testInput {
	t.Helper()
	var ins []testInput
	for _, f := range referenceBTFFiles(t) {
		ins = append(ins, testInput{name: filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f), path: f})
	}
	return ins
}

// sysfsInputs are /sys/kernel/btf/vmlinux and up to five module BTFs of the
// running kernel (split against vmlinux).
func sysfsInputs(t testing.TB) []testInput {
	vm := filepath.Join(SysfsDir, "vmlinux")
	if _, err := os.Stat(vm); err != nil {
		testenv.SkipPartOrFail(t, "%s: %v", vm, err)
		return nil
	}
	ins := []testInput{{name: "sysfs/vmlinux", path: vm}}
	ents, _ := os.ReadDir(SysfsDir)
	var mods []string
	for _, e := range ents {
		if e.Name() != "vmlinux" {
			mods = append(mods, e.Name())
		}
	}
	sort.Strings(mods)
	if len(mods) == 0 {
		// Not SkipPartOrFail: CI's kernel, like this machine's, may be
		// one without loadable modules.
		t.Logf("SKIP: no module BTF under %s (no modules loaded)", SysfsDir)
	}
	if len(mods) > 5 {
		mods = mods[:5]
	}
	for _, m := range mods {
		ins = append(ins, testInput{name: "sysfs/" + m, path: filepath.Join(SysfsDir, m), base: vm})
	}
	return ins
}

// debianInputs are the Debian vmlinux (ELF) and the 20 modules split
// against it; they skip (fail in CI) when not installed.
func debianInputs(t testing.TB) []testInput {
	vmlinux, _ := testenv.KernelInputs(t)
	ins := []testInput{{name: "debian/vmlinux", path: vmlinux}}
	for _, m := range debianModules {
		ins = append(ins, testInput{name: "debian/" + m + ".ko", path: testenv.Module(t, m), base: vmlinux})
	}
	return ins
}

// objectInputs are objects compiled from the C corpus with BTF: gcc -gbtf
// at -O0 and -O2, and clang --target=bpf for the sources it accepts (it
// writes the TYPE_TAG and DECL_TAG kinds gcc 12 does not).
func objectInputs(t testing.TB) []testInput {
	t.Helper()
	var ins []testInput
	for _, src := range testc.CorpusFiles(t) {
		base := strings.TrimSuffix(filepath.Base(src), ".c")
		for _, opt := range []string{"-O0", "-O2"} {
			o := testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-gbtf", opt}})
			ins = append(ins, testInput{name: "gcc" + opt + "/" + base + ".o", path: o})
		}
	}
	if testc.Have(testc.Clang) {
		src := filepath.Join(testc.CorpusDir(), "tags.c")
		o := testc.Compile(t, src, testc.Variant{CC: testc.Clang, Flags: []string{"--target=bpf", "-g", "-O2"}})
		ins = append(ins, testInput{name: "clang-bpf/tags.o", path: o})
	}
	return ins
}

// allInputs is every input of the oracle tests; Debian ones only when
// installed (a visible SKIP line otherwise, a failure with CI=true).
//
// With -short (the race-detector run) only the objects and three small
// Debian modules are used: the vmlinux-sized inputs take minutes under -race.
func allInputs(t *testing.T) []testInput {
	t.Helper()
	var ins []testInput
	if !testing.Short() {
		ins = append(ins, referenceInputs(t)...)
		ins = append(ins, sysfsInputs(t)...)
		ins = append(ins, tarballInputs(t)...)
	}
	ins = append(ins, objectInputs(t)...)
	ok := t.Run("debian-inputs", func(t *testing.T) {
		deb := debianInputs(t)
		if testing.Short() {
			t.Logf("-short: only 3 Debian modules, no vmlinux-sized inputs")
			var small []testInput
			for _, in := range deb {
				switch filepath.Base(in.path) {
				case "vfat.ko", "tun.ko", "8021q.ko":
					small = append(small, in)
				}
			}
			deb = small
		}
		ins = append(ins, deb...)
	})
	if !ok && testenv.InCI() {
		t.FailNow()
	}
	return ins
}

var specCache sync.Map // testInput.path+base -> *Spec

// loadInput loads an input (and its base) with LoadFile, caching Specs.
func loadInput(t testing.TB, in testInput) *Spec {
	t.Helper()
	key := in.path + "\x00" + in.base
	if s, ok := specCache.Load(key); ok {
		return s.(*Spec)
	}
	var base *Spec
	if in.base != "" {
		base = loadInput(t, testInput{path: in.base})
	}
	s, err := LoadFile(in.path, base)
	if err != nil {
		t.Fatal(err)
	}
	specCache.Store(key, s)
	return s
}

// bpftoolDump runs `bpftool [-B base] btf dump file path` and returns its output.
func bpftoolDump(t testing.TB, path, base string) []byte {
	t.Helper()
	testc.Require(t, "bpftool")
	var args []string
	if base != "" {
		args = append(args, "-B", base)
	}
	args = append(args, "btf", "dump", "file", path)
	return testc.Output(t, "bpftool", args...)
}

// firstDiff describes where two listings first differ.
func firstDiff(got, want []byte) string {
	gl := bytes.Split(got, []byte("\n"))
	wl := bytes.Split(want, []byte("\n"))
	for i := 0; i < len(gl) && i < len(wl); i++ {
		if !bytes.Equal(gl[i], wl[i]) {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl[i], wl[i])
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(gl), len(wl))
}

// tarballInputs unpacks the reference tarballs of module BTF made by pahole
// 1.32: every 40th of the Debian modules' split BTF (against the reference
// pahole-1.32/debian-6.1.0-57-cloud.btf; the whole set of 1121 agrees with bpftool too, but
// takes minutes), and the 20 modules with distilled base BTF (X.BTF split
// against X.BTF.base, and X.BTF.base itself).
func tarballInputs(t *testing.T) []testInput {
	t.Helper()
	mods := testenv.Reference(t, "debian-6.1.0-57-cloud/modules-pahole-1.32.tar.xz")
	dist := testenv.Reference(t, "debian-6.1.0-57-cloud/distilled-pahole-1.32.tar.xz")
	base := testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf")
	testc.Require(t, "tar", "xz")
	out := t.TempDir()
	testc.Run(t, "tar", "-xJf", mods, "-C", out)
	testc.Run(t, "tar", "-xJf", dist, "-C", out)

	var ins []testInput
	m, _ := filepath.Glob(filepath.Join(out, "btf", "*.btf"))
	sort.Strings(m)
	for i := 0; i < len(m); i += 40 {
		ins = append(ins, testInput{name: "pahole-modules/" + filepath.Base(m[i]), path: m[i], base: base})
	}
	d, _ := filepath.Glob(filepath.Join(out, "*.BTF"))
	sort.Strings(d)
	for _, f := range d {
		ins = append(ins,
			testInput{name: "distilled/" + filepath.Base(f), path: f, base: f + ".base"},
			testInput{name: "distilled/" + filepath.Base(f) + ".base", path: f + ".base"})
	}
	if len(m) == 0 || len(d) == 0 {
		t.Fatalf("reference tarballs unpacked to %d module and %d distilled BTFs", len(m), len(d))
	}
	return ins
}
