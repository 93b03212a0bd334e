package encode

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/kmod"
)

// splitModulesDir is the Debian package's module directory.
func splitModulesDir(t testing.TB) string {
	t.Helper()
	_, dir := testenv.KernelInputs(t)
	return dir
}

// splitReference unpacks pahole 1.32's module BTFs (against
// vmlinux132) into a temporary directory and returns it (NAME.btf for
// each module).
func splitReference(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	tarball := reference(t, "modules-pahole-1.32.tar.xz")
	if out, err := exec.Command("tar", "-xJf", tarball, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	return filepath.Join(dir, "btf")
}

// TestModulesMatchPahole132 encodes every module of the Debian package
// against pahole 1.32's BTF of the vmlinux in one batch and compares each
// with pahole 1.32's split BTF for it (the reference tarball, made by
// pahole-basefix: see testdata/README.md): no semantic difference
// (btf/diff, as 'btfkit diff --base'), the same bytes, and each passes
// Check.
func TestModulesMatchPahole132(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: all 1,121 modules (-short)")
	}
	modDir := splitModulesDir(t)
	refDir := splitReference(t)
	base, err := LoadBase(vmlinux132(t))
	if err != nil {
		t.Fatal(err)
	}
	mods, err := kmod.Find([]string{modDir})
	if err != nil {
		t.Fatal(err)
	}
	refs, _ := filepath.Glob(filepath.Join(refDir, "*.btf"))
	if len(mods) != len(refs) {
		t.Errorf("%d modules, %d reference BTFs", len(mods), len(refs))
	}
	var mu sync.Mutex
	total, refTotal := 0, 0
	var differ, bytesDiffer []string
	t0 := time.Now()
	failed := EncodeBatch(mods, base, BatchOptions{Options: Options{Features: DefaultFeatures}}, func(r BatchResult) error {
		if r.Err != nil {
			t.Errorf("%s: %v", r.Module.Name, r.Err)
			return nil
		}
		refRaw, err := os.ReadFile(filepath.Join(refDir, r.Module.Name+".btf"))
		if err != nil {
			t.Errorf("%s: reference: %v", r.Module.Name, err)
			return nil
		}
		ref, err := btf.Parse(refRaw, base.Spec())
		if err != nil {
			t.Errorf("%s: reference: %v", r.Module.Name, err)
			return nil
		}
		res := diff.Compare(r.Spec, ref, diff.Options{})
		sameBytes := bytes.Equal(r.Spec.Marshal(nil), refRaw)
		cerr := r.Spec.Check()
		mu.Lock()
		defer mu.Unlock()
		total += r.Spec.NumTypes()
		refTotal += ref.NumTypes()
		if !res.Equal() {
			differ = append(differ, r.Module.Name)
			t.Errorf("%s: differs from pahole 1.32 (%d differences): %s", r.Module.Name, len(res.Diffs), strings.Join(res.Diffs[:min(5, len(res.Diffs))], "; "))
		} else if !sameBytes {
			bytesDiffer = append(bytesDiffer, r.Module.Name)
		}
		if cerr != nil {
			t.Errorf("%s: Check: %v", r.Module.Name, cerr)
		}
		return nil
	})
	if failed > 0 {
		t.Errorf("%d modules failed", failed)
	}
	sort.Strings(differ)
	sort.Strings(bytesDiffer)
	t.Logf("%d modules in %v: %d types (pahole 1.32: %d); %d differ %v", len(mods), time.Since(t0).Round(time.Millisecond), total, refTotal, len(differ), differ)
	if len(bytesDiffer) > 0 {
		t.Errorf("%d modules are equal to pahole 1.32's but not byte for byte: %v", len(bytesDiffer), bytesDiffer[:min(20, len(bytesDiffer))])
	}
	if total != refTotal {
		t.Errorf("%d types in all, pahole 1.32 has %d", total, refTotal)
	}
}

// splitSubset returns n modules of the Debian package spread over it.
func splitSubset(t testing.TB, n int) []kmod.Module {
	mods, err := kmod.Find([]string{splitModulesDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	var out []kmod.Module
	for i := 0; i < len(mods) && len(out) < n; i += max(1, len(mods)/n) {
		out = append(out, mods[i])
	}
	return out
}

// TestBatchEqualsOneByOne: a batch's outputs are byte for byte what
// EncodeSplit gives for each module alone, for -j1, -j2, -j8 and -j32
// (also under the race detector, on 8 modules with -short), and the same
// after compressing the modules (xz, zstd, gzip).
func TestBatchEqualsOneByOne(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 8
	}
	mods := splitSubset(t, n)
	base, err := LoadBase(reference(t, "embedded.btf"))
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Features: DefaultFeatures, Jobs: 1}
	want := map[string][]byte{}
	for _, m := range mods {
		s, err := EncodeSplit(m.Path, base, o)
		if err != nil {
			t.Fatal(err)
		}
		want[m.Name] = s.Marshal(nil)
	}
	run := func(name string, mods []kmod.Module, jobs int) {
		var mu sync.Mutex
		got := map[string][]byte{}
		failed := EncodeBatch(mods, base, BatchOptions{Options: o, Jobs: jobs}, func(r BatchResult) error {
			if r.Err != nil {
				t.Errorf("%s: %v", name, r.Err)
				return nil
			}
			mu.Lock()
			got[r.Module.Name] = r.Spec.Marshal(nil)
			mu.Unlock()
			return nil
		})
		if failed != 0 {
			t.Errorf("%s: %d failed", name, failed)
		}
		for m, w := range want {
			if !bytes.Equal(got[m], w) {
				t.Errorf("%s: %s differs from the module encoded alone", name, m)
			}
		}
	}
	for _, j := range []int{1, 2, 8, 32} {
		run(fmt.Sprintf("-j%d", j), mods, j)
	}

	// Compressed copies of a few of them.
	dir := t.TempDir()
	var comp []kmod.Module
	for i, m := range mods[:min(6, len(mods))] {
		raw, err := os.ReadFile(m.Path)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		var ext string
		switch i % 3 {
		case 0:
			ext = ".ko.xz"
			w, _ := xz.NewWriter(&buf)
			w.Write(raw)
			w.Close()
		case 1:
			ext = ".ko.zst"
			w, _ := zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.SpeedFastest))
			w.Write(raw)
			w.Close()
		case 2:
			ext = ".ko.gz"
			w, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
			w.Write(raw)
			w.Close()
		}
		p := filepath.Join(dir, m.Name+ext)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		comp = append(comp, kmod.Module{Path: p, Name: m.Name})
	}
	found, err := kmod.Find([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != len(comp) {
		t.Errorf("kmod.Find found %d compressed modules, want %d", len(found), len(comp))
	}
	sub := map[string][]byte{}
	for _, m := range comp {
		sub[m.Name] = want[m.Name]
	}
	saved := want
	want = sub
	run("compressed", found, runtime.NumCPU())
	want = saved
}

// TestBatchFailures: a module that cannot be encoded fails alone, with
// its name in the error; the others are still encoded.
func TestBatchFailures(t *testing.T) {
	mods := splitSubset(t, 3)
	base, err := LoadBase(reference(t, "embedded.btf"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.ko")
	os.WriteFile(bad, []byte("not an ELF file at all"), 0o644)
	badXZ := filepath.Join(dir, "corrupt.ko.xz")
	os.WriteFile(badXZ, []byte("\xfd7zXZ\x00garbage"), 0o644)
	all := append([]kmod.Module{{Path: bad, Name: "broken"}, {Path: badXZ, Name: "corrupt"}}, mods...)
	var mu sync.Mutex
	ok := map[string]bool{}
	errs := map[string]string{}
	failed := EncodeBatch(all, base, BatchOptions{Options: Options{Features: DefaultFeatures}, Jobs: 2}, func(r BatchResult) error {
		mu.Lock()
		defer mu.Unlock()
		if r.Err != nil {
			errs[r.Module.Name] = r.Err.Error()
		} else {
			ok[r.Module.Name] = true
		}
		return nil
	})
	if failed != 2 {
		t.Errorf("%d failed, want 2", failed)
	}
	for _, name := range []string{"broken", "corrupt"} {
		if !strings.Contains(errs[name], name+".ko") {
			t.Errorf("error for %s does not name the file: %q", name, errs[name])
		}
	}
	for _, m := range mods {
		if !ok[m.Name] {
			t.Errorf("%s was not encoded", m.Name)
		}
	}
}
