package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestSortCommand: btfkit sort on the 6.18 kernel's BTF writes BTF in
// libbpf's sorted order that btfkit diff finds equal to the input (empty
// diff), and
// sorting it again changes no byte; a module moved onto the sorted base
// (--base, --onto) is sorted and passes check against it.
func TestSortCommand(t *testing.T) {
	dir := t.TempDir()
	in := testenv.Reference(t, "host-6.18/vmlinux.btf")
	a, b := filepath.Join(dir, "a.btf"), filepath.Join(dir, "b.btf")
	for _, args := range [][]string{{"sort", "-o", a, in}, {"sort", "-o", b, a}} {
		if out, errOut, code := btfkit(t, args...); code != 0 {
			t.Fatalf("btfkit %q: status %d: %s%s", args, code, out, errOut)
		}
	}
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if !bytes.Equal(ab, bb) {
		t.Error("sorting the sorted BTF changed it")
	}
	s, err := btf.LoadFile(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := btf.SortedByName(s); !ok {
		t.Error("btfkit sort's output is not sorted")
	}
	// Equal BTF: status 0 and only the per-kind count table, no count
	// marked '*' as different.
	if out, errOut, code := btfkit(t, "diff", in, a); code != 0 || strings.Contains(out, "*") {
		t.Errorf("btfkit diff input sorted: status %d:\n%.2000s%s", code, out, errOut)
	}

	testc.Require(t, "tar", "xz")
	base := testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf")
	sbase := filepath.Join(dir, "base.sorted.btf")
	testc.Run(t, "tar", "-xJf", testenv.Reference(t, "debian-6.1.0-57-cloud/modules-pahole-1.32.tar.xz"), "-C", dir, "btf/nf_tables.btf")
	mod, smod := filepath.Join(dir, "btf", "nf_tables.btf"), filepath.Join(dir, "nf_tables.sorted.btf")
	for _, args := range [][]string{{"sort", "-o", sbase, base}, {"sort", "--base", base, "--onto", sbase, "-o", smod, mod}} {
		if out, errOut, code := btfkit(t, args...); code != 0 {
			t.Fatalf("btfkit %q: status %d: %s%s", args, code, out, errOut)
		}
	}
	if out, errOut, code := btfkit(t, "check", "--base", sbase, smod); code != 0 {
		t.Errorf("btfkit check of the sorted module against the sorted base: status %d: %s%s", code, out, errOut)
	}
	sb, _ := btf.LoadFile(sbase, nil)
	sm, err := btf.LoadFile(smod, sb)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := btf.SortedByName(sm); !ok {
		t.Error("the module is not sorted")
	}
	if _, _, code := btfkit(t, "sort", "--onto", sbase, "-o", smod, mod); code == 0 {
		t.Error("--onto without --base: status 0")
	}
}

// TestDowngradeCommand: btfkit downgrade --target-kernel 6.1 of the 6.18
// BTF passes btfkit check --target-kernel 6.1, which the input does not;
// encode --target-kernel and --sort give what downgrade and sort give.
func TestDowngradeCommand(t *testing.T) {
	dir := t.TempDir()
	in := testenv.Reference(t, "host-6.18/vmlinux.btf")
	out := filepath.Join(dir, "for61.btf")
	if o, e, code := btfkit(t, "downgrade", "--target-kernel", "6.1", "-o", out, in); code != 0 || !strings.Contains(e, "tag-kind-flag: 1 changes") {
		t.Fatalf("btfkit downgrade: status %d: %s%s", code, o, e)
	}
	if o, e, code := btfkit(t, "check", "--target-kernel", "6.1", out); code != 0 {
		t.Errorf("check --target-kernel 6.1 of the output: status %d: %s%s", code, o, e)
	}
	if o, _, code := btfkit(t, "check", "--target-kernel", "6.1", in); code != 1 || !strings.Contains(o, "kind-flag") {
		t.Errorf("check --target-kernel 6.1 of the input: status %d: %s", code, o)
	}
	if o, _, code := btfkit(t, "downgrade", "--list"); code != 0 || !strings.Contains(o, "layout         7.1") {
		t.Errorf("downgrade --list: status %d: %s", code, o)
	}

	obj := paholeFixture(t, "types.c")
	plain, post := filepath.Join(dir, "plain.btf"), filepath.Join(dir, "post.btf")
	sorted, down := filepath.Join(dir, "sorted.btf"), filepath.Join(dir, "down.btf")
	for _, args := range [][]string{
		{"encode", "--features", "default,layout", "-o", plain, obj},
		{"encode", "--features", "default,layout", "--target-kernel", "6.1", "--sort", "-o", post, obj},
		{"downgrade", "--target-kernel", "6.1", "-o", down, plain},
		{"sort", "-o", sorted, down},
	} {
		if o, e, code := btfkit(t, args...); code != 0 {
			t.Fatalf("btfkit %q: status %d: %s%s", args, code, o, e)
		}
	}
	pb, _ := os.ReadFile(post)
	sb, _ := os.ReadFile(sorted)
	if len(pb) == 0 || !bytes.Equal(pb, sb) {
		t.Errorf("encode --target-kernel 6.1 --sort (%d bytes) differs from downgrade then sort (%d bytes)", len(pb), len(sb))
	}
}
