package dedup

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestPreparedBaseEqualsDedup: a prepared base gives Dedup's result byte for
// byte, and the same Mapping, on real module BTF (pahole 1.32's split BTF
// of the Debian modules against its vmlinux BTF): each module alone (16
// of them with -short) and, for every 8th, two neighbours merged (so that
// there is real work: every type of the second one has a twin in the
// first or in the base), with and without KeepDuplicateVars, with two
// goroutines sharing the Base.
func TestPreparedBaseEqualsDedup(t *testing.T) {
	_, data := vmlinux132(t)
	tarball := testenv.Reference(t, "debian-6.1.0-57-cloud/modules-pahole-1.32.tar.xz")
	dir := t.TempDir()
	if out, err := exec.Command("tar", "-xJf", tarball, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "btf", "*.btf"))
	sort.Strings(paths)
	if len(paths) < 2 {
		t.Fatalf("only %d module BTFs in %s", len(paths), tarball)
	}
	if testing.Short() {
		paths = paths[:16]
	}
	base := mustParse(t, data, nil)
	pb, err := PrepareBase(base)
	if err != nil {
		t.Fatal(err)
	}
	mods := make([]*btf.Spec, len(paths))
	for i, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		mods[i] = mustParse(t, raw, base)
	}

	check := func(name string, in *btf.Spec, opts Options) error {
		want, wm, err := Dedup(in, opts)
		if err != nil {
			return fmt.Errorf("%s: Dedup: %v", name, err)
		}
		onto := opts
		onto.Base = pb
		got, gm, err := Dedup(in, onto)
		if err != nil {
			return fmt.Errorf("%s: Dedup with a prepared base: %v", name, err)
		}
		if !bytes.Equal(got.Marshal(nil), want.Marshal(nil)) {
			return fmt.Errorf("%s: Dedup with a prepared base gives %d types, Dedup %d, and the bytes differ", name, got.NumTypes(), want.NumTypes())
		}
		for id := in.FirstID(); id < in.NextID(); id++ {
			if gm.Map(id) != wm.Map(id) {
				return fmt.Errorf("%s: type %d maps to %d, Dedup maps it to %d", name, id, gm.Map(id), wm.Map(id))
			}
		}
		return nil
	}

	var wg sync.WaitGroup
	errs := make([]error, len(mods))
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(mods); i += 2 {
				name := filepath.Base(paths[i])
				if err := check(name, mods[i], Options{KeepDuplicateVars: true}); err != nil {
					errs[i] = err
					continue
				}
				if !testing.Short() && i%8 != 0 {
					continue // pairs of every 8th module (Dedup is the slow side)
				}
				j := (i + 1) % len(mods)
				pair, err := MergeOnto(base, mods[i], mods[j])
				if err != nil {
					errs[i] = err
					continue
				}
				pname := name + "+" + filepath.Base(paths[j])
				if err := check(pname, pair, Options{}); err != nil {
					errs[i] = err
					continue
				}
				errs[i] = check(pname, pair, Options{KeepDuplicateVars: true})
			}
		}()
	}
	wg.Wait()
	bad := 0
	for _, err := range errs {
		if err != nil {
			bad++
			if bad <= 10 {
				t.Error(err)
			}
		}
	}
	if bad > 10 {
		t.Errorf("... %d failures in all", bad)
	}
	t.Logf("%d modules, alone and paired", len(mods))
}

// TestPreparedBaseStandalone: a standalone BTF (a whole vmlinux BTF, pahole
// 1.32's, which differs from the base, Debian's own by pahole 1.24, in
// its functions and in its arrays of arrays) deduplicated onto the
// prepared base gives what Dedup gives for it merged onto the base.
func TestPreparedBaseStandalone(t *testing.T) {
	_, data := embedded(t)
	_, raw := vmlinux132(t)
	base := mustParse(t, data, nil)
	pb, err := PrepareBase(base)
	if err != nil {
		t.Fatal(err)
	}
	in := mustParse(t, raw, nil)
	merged, err := MergeOnto(base, in)
	if err != nil {
		t.Fatal(err)
	}
	want, wm, err := Dedup(merged, Options{KeepDuplicateVars: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // the second time on reused memory
		got, gm, err := Dedup(in, Options{KeepDuplicateVars: true, Base: pb})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Marshal(nil), want.Marshal(nil)) {
			t.Fatalf("run %d: %d types, Dedup of the merged input %d; the bytes differ", i, got.NumTypes(), want.NumTypes())
		}
		for id := merged.FirstID(); id < merged.NextID(); id++ {
			if gm.Map(id) != wm.Map(id) {
				t.Fatalf("run %d: type %d maps to %d, Dedup maps it to %d", i, id, gm.Map(id), wm.Map(id))
			}
		}
	}
	t.Logf("%d types onto a base of %d: %d left", in.NumTypes(), base.NumTypes(), want.NumTypes())
}

// TestPreparedBaseWrongBase: an input split against another base is refused.
func TestPreparedBaseWrongBase(t *testing.T) {
	a := btf.NewSpec()
	a.Add("int", btf.KindInt, 0, false, 4, 0x01000020)
	b := btf.NewSpec()
	b.Add("int", btf.KindInt, 0, false, 4, 0x01000020)
	pb, err := PrepareBase(a)
	if err != nil {
		t.Fatal(err)
	}
	in := btf.NewSplitSpec(b)
	in.Add("long", btf.KindInt, 0, false, 8, 0x01000040)
	if _, _, err := Dedup(in, Options{Base: pb}); err == nil {
		t.Error("Dedup with a prepared base accepted a Spec split against another base")
	}
	if _, err := PrepareBase(in); err == nil {
		t.Error("PrepareBase accepted split BTF")
	}
}
