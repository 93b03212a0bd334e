package main

import (
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestPaholeLayoutsLTO: pahole prints the types of a file whose units
// refer to each other (an LTO link) as one unit, every reference
// resolved, whatever unit it points into; so does btfkit pahole. Oracle:
// the pahole on PATH (1.32) at test time, on the LTO fixtures of encode/testdata/clangsig linked by clang
// -flto with lld and by gcc -flto. Before units were merged, a member
// whose type lay in another unit printed as "<ERROR: type not found>".
func TestPaholeLayoutsLTO(t *testing.T) {
	testc.Require(t, "pahole")
	root := testenv.Root(t)
	srcs := []string{filepath.Join(root, "encode/testdata/clangsig/lto_a.c"), filepath.Join(root, "encode/testdata/clangsig/lto_b.c")}
	for _, b := range []struct {
		name, cc string
		link     []string
	}{
		{"clang-lld", "clang", []string{"-fuse-ld=lld"}},
		{"gcc", "gcc", nil},
	} {
		testc.Require(t, b.cc)
		if b.cc == "clang" {
			testc.Require(t, "ld.lld")
		}
		dir := t.TempDir()
		flags := []string{"-g", "-O2", "-flto", "-fPIC"}
		var objs []string
		for i, src := range srcs {
			o := filepath.Join(dir, []string{"a.o", "b.o"}[i])
			testc.Run(t, b.cc, append(append(append([]string{}, flags...), "-c", "-o", o), src)...)
			objs = append(objs, o)
		}
		so := filepath.Join(dir, "lto.so")
		testc.Run(t, b.cc, append(append(append(append([]string{}, flags...), b.link...), "-shared", "-nostdlib", "-o", so), objs...)...)
		for _, args := range [][]string{{"-F", "dwarf"}, {"-F", "dwarf", "-I"}, {"-F", "dwarf", "-E"}, {"-F", "dwarf", "--sizes"}} {
			want := string(testc.Output(t, "pahole", append(args, so)...))
			got, stderr, code := btfkit(t, append(append([]string{"pahole"}, args...), so)...)
			if code != 0 {
				t.Fatalf("%s: btfkit pahole %v: exit %d\n%s", b.name, args, code, stderr)
			}
			if got != want {
				t.Errorf("%s: btfkit pahole %v differs from pahole 1.32:\n--- btfkit\n%s\n--- pahole\n%s", b.name, args, got, want)
			}
		}
	}
}
