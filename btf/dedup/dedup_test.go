package dedup

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testc/libbpfdedup"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// embedded returns the path and bytes of the Debian vmlinux's .BTF, the
// base the reference module BTFs are split against.
func embedded(t testing.TB) (string, []byte) {
	t.Helper()
	path := testenv.Reference(t, "debian-6.1.0-57-cloud/embedded.btf")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data
}

// vmlinux132 is pahole 1.32's BTF of the Debian vmlinux, the base of the
// module BTFs in modules-pahole-1.32.tar.xz: its path and its bytes.
func vmlinux132(t testing.TB) (string, []byte) {
	t.Helper()
	path := testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data
}

// writeTemp writes data to a file in the test's temp dir.
func writeTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustParse(t testing.TB, data []byte, base *btf.Spec) *btf.Spec {
	t.Helper()
	s, err := btf.Parse(data, base)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func dedupFiles(t testing.TB, paths []string, base *btf.Spec, jobs int, opts Options) *btf.Spec {
	t.Helper()
	specs, err := LoadMembers(paths, base, jobs)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Merge(specs...)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := Dedup(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func requireSemanticEqual(t testing.TB, what string, a, b *btf.Spec, opts diff.Options) {
	t.Helper()
	res := diff.Compare(a, b, opts)
	if !res.Equal() {
		var buf bytes.Buffer
		res.Write(&buf)
		out := buf.String()
		if len(out) > 8000 {
			out = out[:8000] + "\n..."
		}
		t.Errorf("%s: semantic difference:\n%s", what, out)
	}
}

// TestEmbeddedTwice: an archive of two copies of a real vmlinux BTF
// dedups back to exactly its types; with libbpf's VAR handling the output
// is byte-identical to libbpf's btf__dedup on the same archive; the kernel
// accepts the output; the bytes do not depend on load parallelism.
func TestEmbeddedTwice(t *testing.T) {
	if testing.Short() {
		// scripts/test runs -short under the race detector only, where this
		// takes minutes; the archives of TestGCCArchive and
		// TestLoadMembersParallel take the same goroutines (parallel member
		// loading, the staged tail) there, and the full run runs this.
		t.Skip("-short: two copies of the vmlinux BTF under the race detector take minutes; the full run runs this")
	}
	_, data := embedded(t)
	in := mustParse(t, data, nil)
	archive := writeTemp(t, "2x.btf", append(append([]byte(nil), data...), data...))

	start := time.Now()
	out := dedupFiles(t, []string{archive}, nil, 2, Options{})
	t.Logf("load+merge+dedup of 2 x %d types: %v", in.NumTypes(), time.Since(start))
	if out.NumTypes() != in.NumTypes() {
		t.Errorf("got %d types, want %d", out.NumTypes(), in.NumTypes())
	}
	requireSemanticEqual(t, "dedup(2x embedded) vs embedded", out, in, diff.Options{})
	raw := out.Marshal(nil)

	t.Run("deterministic", func(t *testing.T) {
		for _, jobs := range []int{1, 2, 8, 32} {
			o := dedupFiles(t, []string{archive, archive}, nil, jobs, Options{})
			o2 := dedupFiles(t, []string{archive}, nil, jobs, Options{})
			if o.NumTypes() != in.NumTypes() {
				t.Errorf("jobs=%d, 4 copies: %d types, want %d", jobs, o.NumTypes(), in.NumTypes())
			}
			if !bytes.Equal(o2.Marshal(nil), raw) {
				t.Errorf("jobs=%d: output differs from jobs=2", jobs)
			}
		}
	})

	t.Run("libbpf", func(t *testing.T) {
		lib := libbpfdedup.Dedup(t, archive, "")
		keep := dedupFiles(t, []string{archive}, nil, 2, Options{KeepDuplicateVars: true})
		if got := keep.Marshal(nil); !bytes.Equal(got, lib) {
			ls := mustParse(t, lib, nil)
			t.Errorf("KeepDuplicateVars output (%d types, %d bytes) differs from libbpf's (%d types, %d bytes)",
				keep.NumTypes(), len(got), ls.NumTypes(), len(lib))
		}
		ls := mustParse(t, lib, nil)
		if out.NumTypes() > ls.NumTypes() {
			t.Errorf("ours %d types > libbpf's %d", out.NumTypes(), ls.NumTypes())
		}
		t.Logf("types: ours %d, libbpf %d (libbpf keeps duplicate VAR/DATASEC)", out.NumTypes(), ls.NumTypes())
	})

	t.Run("kernel", func(t *testing.T) {
		err := kernload.Load(raw)
		if errors.Is(err, kernload.ErrNotPermitted) {
			testenv.SkipOrFail(t, "%v", err)
		}
		if err != nil {
			t.Fatalf("kernel rejected the dedup output: %v", err)
		}
	})
}

// gccArchive compiles n generated sources sharing headers and the C
// corpus with gcc -gbtf and links them with ld -r, which concatenates
// their .BTF sections into an archive; it returns the linked object.
func gccArchive(t *testing.T, n int) string {
	t.Helper()
	testc.Require(t, "gcc", "ld")
	dir := t.TempDir()
	srcs := writeGenSources(t, dir, n)
	srcs = append(srcs, testc.CorpusFiles(t)...)
	v := testc.Variant{CC: testc.GCC, Flags: []string{"-gbtf", "-O2"}}
	var objs []string
	for _, src := range srcs {
		objs = append(objs, testc.Compile(t, src, v, "-I", dir, "-Wno-attributes"))
	}
	linked := filepath.Join(dir, "linked.o")
	// --allow-multiple-definition: corpus files may define the same
	// global (each is also compiled alone); the .BTF sections are what
	// matters here.
	testc.Run(t, "ld", append([]string{"-r", "--allow-multiple-definition", "-o", linked}, objs...)...)
	return linked
}

// gccMembers returns the members of gccArchive(t, n), parsed: at least
// n of them.
func gccMembers(t *testing.T, n int) []*btf.Spec {
	t.Helper()
	members, err := LoadMembers([]string{gccArchive(t, n)}, nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(members) < n {
		t.Fatalf("archive has %d members, want >= %d", len(members), n)
	}
	return members
}

// TestGCCArchive: 50+ objects compiled by gcc -gbtf from sources sharing
// headers, linked with ld -r (which concatenates their .BTF sections into
// an archive), deduped by us and by libbpf.
func TestGCCArchive(t *testing.T) {
	linked := gccArchive(t, 52)
	data, _, err := btf.ReadBTFBytes(linked)
	if err != nil {
		t.Fatal(err)
	}
	members, err := LoadMembers([]string{linked}, nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	// gcc 12 leaves garbage in a FWD's unused type word, which libbpf
	// takes for a type ID (and we zero): give both sides a sanitized copy
	// so that the comparison is about dedup.
	oursRaw := dedupFiles(t, []string{linked}, nil, 2, Options{})
	var clean []byte
	for _, m := range members {
		for id := m.FirstID(); id < m.NextID(); id++ {
			if name, info, st, ext := m.RawType(id); btf.KindOf(info) == btf.KindFwd && st != 0 {
				m.SetRaw(id, name, info, 0, ext...)
			}
		}
		clean = append(clean, m.Marshal(nil)...)
	}
	archive := writeTemp(t, "archive.btf", clean)
	_ = data
	if len(members) < 50 {
		t.Fatalf("archive has %d members, want >= 50", len(members))
	}
	in := 0
	for _, m := range members {
		in += m.NumTypes()
	}

	ours := dedupFiles(t, []string{archive}, nil, 2, Options{})
	if !bytes.Equal(ours.Marshal(nil), oursRaw.Marshal(nil)) {
		t.Errorf("dedup of the sanitized archive differs from dedup of the object's own .BTF")
	}
	lib := mustParse(t, libbpfdedup.Dedup(t, archive, ""), nil)
	t.Logf("%d members, %d types in; out: ours %d, libbpf %d", len(members), in, ours.NumTypes(), lib.NumTypes())
	if ours.NumTypes() > lib.NumTypes() {
		t.Errorf("ours %d types > libbpf's %d", ours.NumTypes(), lib.NumTypes())
	}
	// Apart from the VARs and DATASECs we merge, the same types.
	requireSemanticEqual(t, "ours vs libbpf (no VAR/DATASEC)", ours, lib, diff.Options{ExcludeKinds: []btf.Kind{btf.KindVar, btf.KindDatasec}})
	keep := dedupFiles(t, []string{archive}, nil, 1, Options{KeepDuplicateVars: true})
	requireSemanticEqual(t, "ours (KeepDuplicateVars) vs libbpf", keep, lib, diff.Options{})
	if !bytes.Equal(keep.Marshal(nil), lib.Marshal(nil)) {
		t.Errorf("KeepDuplicateVars output is not byte-identical to libbpf's")
	}
	// FWDs with exactly one definition of their name and kind are
	// resolved (the corpus may add FWDs without a definition).
	defs := map[string]int{}
	for id := ours.FirstID(); id < ours.NextID(); id++ {
		if ty := ours.Type(id); ty.Kind() == btf.KindStruct || ty.Kind() == btf.KindUnion {
			defs[ty.Kind().String()+" "+ty.Name()]++
		}
	}
	for id := ours.FirstID(); id < ours.NextID(); id++ {
		if ty := ours.Type(id); ty.Kind() == btf.KindFwd {
			k := "STRUCT "
			if ty.KindFlag() {
				k = "UNION "
			}
			if defs[k+ty.Name()] == 1 {
				t.Errorf("FWD %q unresolved though its definition is unique", ty.Name())
			}
		}
	}

	// No kernel check here: gcc 12's DATASECs have size 0, which the
	// kernel rejects (loaders fix them up from the ELF).
}

// TestLoadMembersParallel runs the parallel loader with many workers over
// many small members (for -race) and checks the order is the input's.
func TestLoadMembersParallel(t *testing.T) {
	var units []unit
	var archive []byte
	for i := 0; i < 40; i++ {
		u := cyclicUnit(i)
		u.Add("marker", btf.KindInt, 0, false, uint32(i%8+1), uint32(i%8+1)*8)
		units = append(units, u)
		archive = append(archive, u.Marshal(nil)...)
	}
	p := writeTemp(t, "many.btf", archive)
	var first []byte
	for _, jobs := range []int{1, 3, 16} {
		specs, err := LoadMembers([]string{p, p}, nil, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if len(specs) != 80 {
			t.Fatalf("jobs=%d: %d members, want 80", jobs, len(specs))
		}
		for i, s := range specs {
			if !bytes.Equal(s.Marshal(nil), units[i%40].Marshal(nil)) {
				t.Fatalf("jobs=%d: member %d out of place", jobs, i)
			}
		}
		m, err := Merge(specs...)
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := Dedup(m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = out.Marshal(nil)
		} else if !bytes.Equal(first, out.Marshal(nil)) {
			t.Errorf("jobs=%d: different output", jobs)
		}
	}
}
