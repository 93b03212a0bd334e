package layout_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/layout"
)

// --compile (compile.go): the output compiles with gcc and clang, and is
// pahole 1.32's (the pahole on PATH at test time; for the Debian kernel's
// whole .BTF and its vmlinux's DWARF, which take it longer, committed by
// scripts/layout-testdata) but for the one line btfkit leaves out so that
// clang compiles it too: the kernel's typedef of the compiler's
// __builtin_va_list.

// compiles checks that C text compiles with gcc and clang (-c).
func compiles(t *testing.T, name, text string) {
	t.Helper()
	src := filepath.Join(t.TempDir(), name+".c")
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cc := range []string{"gcc", "clang"} {
		testc.Run(t, cc, "-c", "-o", os.DevNull, src)
	}
}

// TestCompileEmbedded: `pahole -F btf --compile embedded.btf`, every
// struct and union of the Debian kernel with what it needs.
func TestCompileEmbedded(t *testing.T) {
	_, s := embeddedBTF(t)
	got, _ := listBTF(t, s, layout.Options{CachelineSize: 64, Compile: true})
	want := readFile(t, testenv.Reference(t, refDir+"compile-btf-pahole-1.32.txt"))
	const builtin = "typedef struct __va_list_tag       __builtin_va_list[1];\n"
	if strings.Count(want, builtin) != 1 {
		t.Fatalf("pahole 1.32's output has %d lines %q, want 1", strings.Count(want, builtin), builtin)
	}
	if want = strings.Replace(want, builtin, "", 1); got != want {
		t.Errorf("pahole -F btf --compile embedded.btf: %s", diffTypes(got, want))
	}
	compiles(t, "embedded", got)
}

// TestCompileLargest: --compile of the Debian kernel's 50 largest structs
// (testdata/largest-structs.txt), from its .BTF and from the vmlinux's
// DWARF, where they are in different compile units (--skip_missing).
func TestCompileLargest(t *testing.T) {
	names := strings.Fields(readFile(t, filepath.Join("testdata", "largest-structs.txt")))
	if len(names) != 50 {
		t.Fatalf("testdata/largest-structs.txt has %d names, want 50", len(names))
	}
	t.Run("btf", func(t *testing.T) {
		testc.Require(t, "pahole")
		embedded, s := embeddedBTF(t)
		got, missing := listBTF(t, s, layout.Options{CachelineSize: 64, Compile: true, ClassNames: names})
		want := paholeOut(t, "pahole", "-F", "btf", "--compile", "-C", strings.Join(names, ","), embedded)
		if got != want || missing != "" {
			t.Errorf("pahole -F btf --compile -C LARGEST embedded.btf: missing %q; %s", missing, diffTypes(got, want))
		}
		compiles(t, "largest-btf", got)
	})
	t.Run("dwarf", func(t *testing.T) {
		if testing.Short() {
			t.Skip("SKIP: -short: reads the vmlinux's DWARF")
		}
		vmlinux, _ := testenv.KernelInputs(t)
		got, missing := listDWARF(t, vmlinux, layout.Options{CachelineSize: 64, Compile: true, SkipMissing: true, ClassNames: names})
		want := readFile(t, testenv.Reference(t, refDir+"compile-largest-dwarf-pahole-1.32.txt"))
		if got != want || missing != "" {
			t.Errorf("pahole --compile --skip_missing -C LARGEST vmlinux: missing %q; %s", missing, diffTypes(got, want))
		}
		compiles(t, "largest-dwarf", got)
	})
}

// TestCompileFixtures: the --compile output of the layout fixtures, from
// every compilation's BTF and from gcc's DWARF, compiles. (Not from
// clang's DWARF: clang defines a struct's anonymous types in its body,
// and pahole 1.32, like btfkit, prints them there and again in place,
// which declares their members and enumerators twice;
// TestPrintOptions holds the output to pahole's.)
func TestCompileFixtures(t *testing.T) {
	testc.Require(t, "pahole")
	for _, file := range []string{"print.c", "agree.c", "differ.c"} {
		objs := fixtureObjects(t, file)
		for _, v := range testc.DWARFVariants() {
			obj := objs[v.Name()]
			t.Run(file+"/"+v.Name(), func(t *testing.T) {
				o := layout.Options{CachelineSize: 64, Compile: true}
				if v.CC == testc.GCC {
					got, _ := listDWARF(t, obj, o)
					compiles(t, "dwarf", got)
				}
				_, s := btfObject(t, obj)
				got, _ := listBTF(t, s, o)
				compiles(t, "btf", got)
			})
		}
	}
}

// TestCompileShadow: a struct, a union and an enum of one name from
// different compile units (testdata/shadow*.c linked into one object):
// pahole renames the later ones NAME__1, from DWARF across units and from
// the BTF that merges them; the output of them all compiles. Against the
// pahole on PATH.
func TestCompileShadow(t *testing.T) {
	testc.Require(t, "pahole", "ld")
	var objs []string
	for _, f := range []string{"shadow1.c", "shadow2.c", "shadow3.c"} {
		src, err := filepath.Abs(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-g", "-O2"}}))
	}
	linked := filepath.Join(t.TempDir(), "shadow.o")
	testc.Run(t, "ld", append([]string{"-r", "-o", linked}, objs...)...)
	cp, s := btfObject(t, linked)
	for _, format := range []string{"dwarf", "btf"} {
		for _, args := range []string{"--compile", "--compile --skip_missing -C user4,user2,user1,user3"} {
			input := []string{linked}
			if format == "btf" {
				input = []string{"-F", "btf", cp}
			}
			w := paholeOut(t, "pahole", append(strings.Fields(args), input...)...)
			if !strings.Contains(w, "shadow__1 {") {
				t.Fatalf("pahole %s %s renames no shadow:\n%s", args, strings.Join(input, " "), w)
			}
			o := printOpts(t, strings.Fields(args))
			var got string
			if format == "dwarf" {
				got, _ = listDWARF(t, linked, o)
			} else {
				got, _ = listBTFFile(t, s, cp, o)
			}
			if got != w {
				t.Errorf("%s: pahole %s: %s", format, args, diffTypes(got, w))
			}
			// With -C user4 first, pahole prints struct shadow2 before
			// enum shadow2, and an enum it does not rename: that
			// output does not compile, pahole's neither.
			if args == "--compile" {
				compiles(t, "shadow", got)
			}
		}
	}
}
