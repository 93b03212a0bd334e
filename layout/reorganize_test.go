package layout_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/layout"
)

// -R/--reorganize, -S/--show_reorg_steps and -P/--packable against the
// pahole on PATH (1.32) on testdata/reorg.c compiled by gcc and clang at
// test time. (Debian's pahole 1.24 crashes on -S after the first move;
// 1.31 and 1.32 do not.)
//
// Where pahole's reorganized struct is larger than the original (its
// "saved -N bytes"; grows, tail_unaligned and with_enum here), btfkit
// prints the original instead: the expected text is pahole's with that
// struct replaced by its plain layout (`pahole -C NAME`), which is
// what pahole prints for a struct it cannot make smaller.

// reorgNames are the fixture's types, a union and a typedef among them
// (-R prints nothing for those).
var reorgNames = "holes,tail,tail_unaligned,bits,grows,small_hole,anon,explicit_align,tight,arrays,outer,many,with_enum,reorg_union,holes_t"

// reorgStepNames are the types of the -S outputs: a move each way, the
// padding message, bitfields, anonymous members ("(null)"), structs
// pahole makes larger after moves and without any, and a union.
var reorgStepNames = "holes,tail_unaligned,bits,anon,small_hole,with_enum,reorg_union"

// reorgGrown is how many of the fixture's structs pahole makes larger.
const reorgGrown = 3

// reorgBlocks splits a -R listing after each line that closes a struct
// printed on its own ("}" at the start of a line): a -S step, or a
// reorganized struct with what precedes it.
func reorgBlocks(s string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		cur.WriteString(line)
		if strings.HasPrefix(line, "}") {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

var structHeader = regexp.MustCompile(`(?m)^struct (\S+) \{$`)

// blockStruct is the name of the struct a block prints.
func blockStruct(block string) string {
	if m := structHeader.FindStringSubmatch(block); m != nil {
		return m[1]
	}
	return ""
}

// grown reports whether a block is a reorganized struct pahole made
// larger.
func grown(block string) bool {
	lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	return strings.Contains(lines[len(lines)-1], "/* saved -")
}

// keepOriginals is pahole's -R output with each struct pahole made larger
// replaced by original(name), the struct as it is, which btfkit prints;
// it returns how many it replaced.
func keepOriginals(t *testing.T, out string, original func(name string) string) (string, int) {
	t.Helper()
	var b strings.Builder
	n := 0
	for _, block := range reorgBlocks(out) {
		if grown(block) {
			name := blockStruct(block)
			if name == "" {
				t.Fatalf("no struct in a block of pahole's output:\n%s", block)
			}
			block = original(name)
			n++
		}
		b.WriteString(block)
	}
	return b.String(), n
}

// reorgFixture is testdata/reorg.c compiled one way, with the BTF pahole
// -J makes of it.
type reorgFixture struct {
	variant testc.Variant
	obj     string    // with DWARF
	btfObj  string    // a copy with .BTF
	spec    *btf.Spec // its BTF
}

func reorgFixtures(t *testing.T, variants []testc.Variant) []reorgFixture {
	t.Helper()
	testc.Require(t, "pahole")
	src, err := filepath.Abs(filepath.Join("testdata", "reorg.c"))
	if err != nil {
		t.Fatal(err)
	}
	var out []reorgFixture
	for _, v := range variants {
		f := reorgFixture{variant: v, obj: testc.Compile(t, src, v)}
		f.btfObj = filepath.Join(t.TempDir(), "btf.o")
		b, err := os.ReadFile(f.obj)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.btfObj, b, 0o644); err != nil {
			t.Fatal(err)
		}
		testc.Run(t, "pahole", "-J", f.btfObj)
		if f.spec, err = btf.LoadFile(f.btfObj, nil); err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

// list is btfkit's listing of the fixture, from DWARF or from BTF.
func (f reorgFixture) list(t *testing.T, dwarf bool, o layout.Options) string {
	t.Helper()
	if dwarf {
		got, _ := listDWARF(t, f.obj, o)
		return got
	}
	got, _ := listBTF(t, f.spec, o)
	return got
}

// format names the input read.
func format(dwarf bool) string {
	if dwarf {
		return "dwarf"
	}
	return "btf"
}

// input is the pahole arguments that read the fixture's DWARF or BTF.
func (f reorgFixture) input(dwarf bool) []string {
	if dwarf {
		return []string{f.obj}
	}
	return []string{"-F", "btf", f.btfObj}
}

// original is `pahole [args] -C name` by the pahole on PATH, without the
// empty line -C prints after the type (-R -C does not print it).
func (f reorgFixture) original(t *testing.T, dwarf bool, args []string) func(string) string {
	return func(name string) string {
		out := paholeOut(t, "pahole", append(append(append([]string{}, args...), "-C", name), f.input(dwarf)...)...)
		return strings.TrimSuffix(out, "\n\n") + "\n"
	}
}

// TestReorganizeFixtures: -R with -C, also with --hex and -c, from DWARF
// (gcc and clang, DWARF 4 and 5, -O0 and -O2) and from the BTF pahole -J
// made of it, against the pahole on PATH.
func TestReorganizeFixtures(t *testing.T) {
	names := strings.Split(reorgNames, ",")
	for _, f := range reorgFixtures(t, testc.DWARFVariants()) {
		for _, dwarf := range []bool{true, false} {
			for _, c := range []struct {
				args []string
				opts layout.Options
			}{
				{nil, layout.Options{CachelineSize: 64}},
				{[]string{"--hex", "-c", "32"}, layout.Options{Hex: true, CachelineSize: 32}},
			} {
				args := append(append([]string{}, c.args...), "-R", "-C", reorgNames)
				c.opts.Reorganize, c.opts.ClassNames = true, names
				t.Run(f.variant.Name()+"/"+format(dwarf)+"/"+strings.Join(args, " "), func(t *testing.T) {
					out := paholeOut(t, "pahole", append(args, f.input(dwarf)...)...)
					want, n := keepOriginals(t, out, f.original(t, dwarf, c.args))
					if n != reorgGrown {
						t.Errorf("pahole made %d structs larger, want %d (grows, tail_unaligned, with_enum)", n, reorgGrown)
					}
					if strings.Count(want, "/* saved ") < 5 {
						t.Errorf("pahole saved bytes on fewer than 5 structs:\n%s", want)
					}
					if got := f.list(t, dwarf, c.opts); got != want {
						t.Errorf("pahole %s: %s", strings.Join(args, " "), diffBlocks(got, want))
					}
				})
			}
		}
	}
}

// TestReorganizeStepsFixtures: -R -S, from DWARF (also with --hex, which
// the steps do not use) and BTF, against the pahole on PATH.
func TestReorganizeStepsFixtures(t *testing.T) {
	names := strings.Split(reorgStepNames, ",")
	for _, f := range reorgFixtures(t, testc.DWARFVariants()) {
		for _, c := range []struct {
			name  string
			dwarf bool
			args  []string
			opts  layout.Options
		}{
			{"dwarf-S", true, nil, layout.Options{}},
			{"dwarf-hex-S", true, []string{"--hex"}, layout.Options{Hex: true}},
			{"btf-S", false, nil, layout.Options{}},
		} {
			t.Run(f.variant.Name()+"/"+c.name, func(t *testing.T) {
				args := append(append([]string{}, c.args...), "-R", "-S", "-C", reorgStepNames)
				out := paholeOut(t, "pahole", append(args, f.input(c.dwarf)...)...)
				want, n := keepOriginals(t, out, f.original(t, c.dwarf, c.args))
				if n != 2 {
					t.Errorf("pahole made %d structs larger, want 2 (tail_unaligned, with_enum)", n)
				}
				if strings.Count(want, "/* Moving ") < 8 || !strings.Contains(want, "to the padding */") {
					t.Errorf("pahole %s shows fewer moves than the fixture makes:\n%s", strings.Join(args, " "), want)
				}
				c.opts.CachelineSize = 64
				c.opts.Reorganize, c.opts.ShowReorgSteps, c.opts.ClassNames = true, true, names
				if got := f.list(t, c.dwarf, c.opts); got != want {
					t.Errorf("pahole %s: %s", strings.Join(args, " "), diffBlocks(got, want))
				}
			})
		}
	}
}

// TestPackableFixtures: -P lists the structs -R makes smaller (name, size,
// reorganized size, bytes saved), also with -c; with -C it prints the
// named types as without -P. Against the pahole on PATH.
func TestPackableFixtures(t *testing.T) {
	for _, f := range reorgFixtures(t, testc.DWARFVariants()) {
		for _, dwarf := range []bool{true, false} {
			for _, c := range []optionCase{
				{"P", []string{"-P"}, layout.Options{Packable: true}},
				{"P-cacheline32", []string{"-P", "-c", "32"}, layout.Options{Packable: true, CachelineSize: 32}},
				{"P-C", []string{"-P", "-C", "holes,tight"}, layout.Options{Packable: true, ClassNames: []string{"holes", "tight"}}},
			} {
				t.Run(f.variant.Name()+"/"+format(dwarf)+"/"+c.name, func(t *testing.T) {
					want, _ := pahole(t, c, f.input(dwarf)...)
					if c.opts.ClassNames == nil && strings.Count(want, "\n") < 5 {
						t.Errorf("pahole -P listed fewer than 5 structs:\n%s", want)
					}
					if got := f.list(t, dwarf, c.opts); got != want {
						t.Errorf("pahole %s: got\n%s\nwant\n%s", strings.Join(c.args, " "), got, want)
					}
				})
			}
		}
	}
}

// diffBlocks reports the first block (a struct, or a -S step) that
// differs between got and want.
func diffBlocks(got, want string) string {
	g, w := reorgBlocks(got), reorgBlocks(want)
	for i := 0; i < max(len(g), len(w)); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "block " + strconv.Itoa(i) + " differs:\n--- got\n" + a + "\n--- want\n" + b
		}
	}
	return "same blocks"
}
