package encode

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// Fixtures for pahole 1.32's DWARF loader additions around dwz
// (DW_TAG_imported_unit of partial units, DW_FORM_GNU_ref_alt into a dwz
// alternate file) and its merge decision, compiled at test time and
// compared byte for byte with what pahole 1.32 writes for them.

// dwzHeader is shared by the units of the dwz fixtures, so that dwz moves
// its types into partial units.
const dwzHeader = `struct shared_s { int a; long b; struct shared_s *next; char name[16]; };
typedef struct shared_s shared_t;
enum shared_e { SE_A, SE_B = 5, SE_C };
union shared_u { int i; float f; };
struct big { shared_t s; enum shared_e e; union shared_u u; int arr[2][3]; };
`

// dwzUnit is unit i of the dwz fixtures: the shared header, a struct of
// its own, a variable and a function.
func dwzUnit(i string) string {
	return `#include "hdr.h"
struct local` + i + ` { int x` + i + `; struct big *b; };
struct big g` + i + `;
__attribute__((noinline)) int f` + i + `(struct local` + i + ` *l, shared_t *s) { return l->x` + i + ` + s->a + g` + i + `.e; }
`
}

// writeSources writes name -> text into dir.
func writeSources(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// paholeOutput is pahole 1.32's BTF of file with --btf_features=features.
func paholeOutput(t *testing.T, file, features string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "pahole.btf")
	testc.Run(t, "pahole", "-J", "--btf_features="+features, "--btf_encode_detached="+out, file)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// samePahole requires our BTF of file (default features, -j1 and -j2) to
// be pahole 1.32's byte for byte.
func samePahole(t *testing.T, name, file string) {
	t.Helper()
	want := paholeOutput(t, file, "default")
	for _, j := range []int{1, 2} {
		s, err := EncodeFile(file, Options{Features: DefaultFeatures, Jobs: j})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := s.Marshal(nil)
		if !bytes.Equal(got, want) {
			ws, err := btf.Parse(want, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Errorf("%s -j%d: %d bytes, pahole 1.32 wrote %d; listings:\n%s", name, j, len(got), len(want), listingDiff(s, ws))
			return
		}
	}
}

// listingDiff is the first lines where the two Specs' types differ, by ID.
func listingDiff(a, b *btf.Spec) string {
	var out []string
	for id := btf.TypeID(1); id < max(a.NextID(), b.NextID()) && len(out) < 20; id++ {
		var x, y string
		if id < a.NextID() {
			x = a.Type(id).Kind().String() + " " + a.Type(id).Name()
		}
		if id < b.NextID() {
			y = b.Type(id).Kind().String() + " " + b.Type(id).Name()
		}
		if x != y {
			out = append(out, "["+strconv.Itoa(int(id))+"] ours "+x+", pahole's "+y)
		}
	}
	if len(out) == 0 {
		return "(same kinds and names in the same order: other bytes)"
	}
	return strings.Join(out, "\n")
}

// importFacts counts, in file's DWARF (and its alternate file's), the
// partial units, the top-level DW_TAG_imported_units of partial units
// (one partial unit importing another), those that import a unit placed
// after the importing one, and the imports into the alternate file.
type importFacts struct {
	partial, fromPartial, forward, alt int
}

func dwarfImports(t *testing.T, file string) importFacts {
	t.Helper()
	d, err := dwarf.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var f importFacts
	r := d.NewReader()
	units := d.Units()
	for i := range units {
		u := &units[i]
		if err := r.Reset(u); err != nil {
			t.Fatal(err)
		}
		var e dwarf.Entry
		partial := false // by the root's tag: DWARF 4 headers do not say
		for {
			ok, err := r.Next(&e)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			if e.Depth == 0 && e.Tag == dwarf.TagPartialUnit {
				partial = true
				f.partial++
			}
			if e.Depth != 1 || e.Tag != dwarf.TagImportedUnit {
				continue
			}
			for _, fl := range e.Fields {
				if fl.Attr != dwarf.AttrImport {
					continue
				}
				switch {
				case fl.Class == dwarf.ClassReferenceAlt:
					f.alt++
				case partial:
					f.fromPartial++
					if fl.Val > uint64(u.End) {
						f.forward++
					}
				}
			}
		}
	}
	return f
}

// TestDwzPartialUnits: dwz on a program of three units that share a
// header moves the shared types into partial units of the same file,
// which the units import (DW_TAG_imported_unit, DW_AT_import in
// DW_FORM_ref_addr), one partial unit importing another placed after it.
// pahole 1.32 reads such a file as one unit, the imported partial unit's
// types where the import is (merged.go); gcc's and clang's builds (clang
// with DWARF 4: dwz 0.15 does not read clang's DWARF 5) must give its
// bytes, and so must the program before dwz.
func TestDwzPartialUnits(t *testing.T) {
	testc.Require(t, "dwz", "pahole", "gcc", "clang")
	for _, cc := range []struct{ name, cc, dwarfFlag string }{
		{"gcc", "gcc", "-gdwarf-5"},
		{"clang", "clang", "-gdwarf-4"},
	} {
		t.Run(cc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeSources(t, dir, map[string]string{
				"hdr.h": dwzHeader, "u1.c": dwzUnit("1"), "u2.c": dwzUnit("2"), "u3.c": dwzUnit("3"),
				"main.c": "int main(void) { return 0; }\n",
			})
			prog := filepath.Join(dir, "prog")
			args := []string{cc.dwarfFlag, "-O2", "-o", prog}
			for _, s := range []string{"u1.c", "u2.c", "u3.c", "main.c"} {
				args = append(args, filepath.Join(dir, s))
			}
			testc.Run(t, cc.cc, args...)
			samePahole(t, "before dwz", prog)
			dwz := prog + ".dwz"
			testc.Run(t, "cp", prog, dwz)
			testc.Run(t, "dwz", dwz)
			f := dwarfImports(t, dwz)
			if f.partial < 2 || f.fromPartial == 0 || f.forward == 0 {
				t.Fatalf("dwz made %d partial units, %d imports by partial units, %d of a later unit: the fixture tests less than it should", f.partial, f.fromPartial, f.forward)
			}
			samePahole(t, "dwz", dwz)
		})
	}
}

// TestDwzAlternateFile: `dwz -m` on three programs built from pairs of
// three sources (and one more sharing the dwz header) moves what they
// share into an alternate file (.gnu_debugaltlink), which their units
// import and refer to with DW_FORM_GNU_ref_alt and DW_FORM_GNU_strp_alt.
// pahole 1.32 reads the alternate file's imported units first, then the
// program's, as one unit; the alternate file has a unit the first
// program does not import, whose types it leaves out. Each program's BTF
// must be pahole's, byte for byte. Without the alternate file pahole
// writes BTF with members of type void (and warns); btfkit refuses the
// input, naming the file it looked for.
func TestDwzAlternateFile(t *testing.T) {
	testc.Require(t, "dwz", "pahole", "gcc")
	dir := t.TempDir()
	writeSources(t, dir, map[string]string{
		"a.c":    "struct ta { int a1; long a2; };\nstruct ta ga;\n",
		"b.c":    "struct tb { short b1; struct tb *next; };\nstruct tb gb;\n",
		"c.c":    "struct tc { unsigned char c1; double c2; };\nstruct tc gc;\n",
		"hdr.h":  dwzHeader,
		"u1.c":   dwzUnit("1"),
		"u2.c":   dwzUnit("2"),
		"main.c": "int main(void) { return 0; }\n",
	})
	src := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(dir, n))
		}
		return out
	}
	progs := map[string][]string{
		"P1": src("a.c", "b.c", "main.c"),
		"P2": src("b.c", "c.c", "main.c"),
		"P3": src("a.c", "c.c", "main.c"),
		"P4": src("u1.c", "u2.c", "b.c", "main.c"),
		"P5": src("u2.c", "c.c", "main.c"),
	}
	names := []string{"P1", "P2", "P3", "P4", "P5"}
	var files []string
	for _, n := range names {
		p := filepath.Join(dir, n)
		testc.Run(t, "gcc", append([]string{"-gdwarf-5", "-O2", "-o", p}, progs[n]...)...)
		files = append(files, p)
	}
	alt := filepath.Join(dir, "common.debug")
	testc.Run(t, "dwz", append([]string{"-m", alt, "-M", alt}, files...)...)
	altImports := 0
	for i, p := range files {
		f := dwarfImports(t, p)
		altImports += f.alt
		samePahole(t, names[i], p)
	}
	if altImports == 0 {
		t.Fatal("no unit imports a unit of the alternate file: the fixture tests nothing")
	}
	// P1 does not import the unit of c.c's struct.
	if s, err := EncodeFile(files[0], Options{Features: DefaultFeatures}); err != nil {
		t.Fatal(err)
	} else {
		for id := btf.TypeID(1); id < s.NextID(); id++ {
			if s.Type(id).Name() == "tc" {
				t.Errorf("P1 has struct tc, from a unit of the alternate file it does not import")
			}
		}
	}

	if err := os.Rename(alt, alt+".away"); err != nil {
		t.Fatal(err)
	}
	_, err := EncodeFile(files[3], Options{Features: DefaultFeatures})
	if err == nil || !strings.Contains(err.Error(), alt) {
		t.Errorf("without the alternate file: %v; want an error naming %s", err, alt)
	}
}

// TestMergeDecision: pahole 1.32 reads a file's units as one when the
// Linux LTO note says LTO, and otherwise when some abbreviation declares
// DW_FORM_ref_addr, a note saying "no LTO" included (pahole 1.31 stopped
// at such a note). An LTO build (cross-unit references) given a note
// saying no LTO, and a plain multi-unit program given a note saying LTO,
// must each give pahole 1.32's bytes; so must both without a note.
func TestMergeDecision(t *testing.T) {
	testc.Require(t, "pahole", "gcc", "objcopy")
	lto := buildLTO(t)
	if n := refAddrUnits(t, lto); n == 0 {
		t.Fatal("the LTO build has no DW_FORM_ref_addr: the fixture tests nothing")
	}
	dir := t.TempDir()
	writeSources(t, dir, map[string]string{
		"hdr.h": dwzHeader, "u1.c": dwzUnit("1"), "u2.c": dwzUnit("2"),
		"main.c": "int main(void) { return 0; }\n",
	})
	plain := filepath.Join(dir, "plain")
	testc.Run(t, "gcc", "-gdwarf-5", "-O2", "-o", plain, filepath.Join(dir, "u1.c"), filepath.Join(dir, "u2.c"), filepath.Join(dir, "main.c"))
	if n := refAddrUnits(t, plain); n != 0 {
		t.Fatalf("the plain program has %d units with DW_FORM_ref_addr", n)
	}
	note := func(lto uint32) string {
		desc := binary.LittleEndian.AppendUint32(nil, lto)
		b := binary.LittleEndian.AppendUint32(nil, 6) // "Linux\0"
		b = binary.LittleEndian.AppendUint32(b, uint32(len(desc)))
		b = binary.LittleEndian.AppendUint32(b, linuxLTONote)
		b = append(b, "Linux\x00\x00\x00"...)
		b = append(b, desc...)
		p := filepath.Join(dir, "note"+strconv.Itoa(int(lto)))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	withNote := func(in string, lto uint32) string {
		out := in + ".note" + strconv.Itoa(int(lto))
		testc.Run(t, "objcopy", "--add-section", ".note.lto="+note(lto), in, out)
		return out
	}
	for _, c := range []struct {
		name, file string
		merged     bool
	}{
		{"LTO build", lto, true},
		{"LTO build, note: no LTO", withNote(lto, 0), true},
		{"plain program", plain, false},
		{"plain program, note: LTO", withNote(plain, 1), true},
	} {
		samePahole(t, c.name, c.file)
		f, err := elfx.Open(c.file)
		if err != nil {
			t.Fatal(err)
		}
		d, err := dwarf.FromELF(f)
		if err != nil {
			t.Fatal(err)
		}
		merged, err := mergesUnits(f, d)
		d.Close()
		f.Close()
		if err != nil || merged != c.merged {
			t.Errorf("%s: merged %v (%v), want %v", c.name, merged, err, c.merged)
		}
	}
}

// inlineSrc has inline expansions of every shape: an always_inline
// function inlined into an inline function inlined in turn (nested
// DW_TAG_inlined_subroutines), types defined in the inline function's
// body (a struct, and a union in a lexical block), a function both
// inlined and called through a pointer (so also out of line), and an
// out-of-line static function with an unused parameter.
const inlineSrc = `struct pair { long a, b; };
static inline __attribute__((always_inline)) long inl_sum(struct pair *p, int k)
{
	struct local_acc { long acc; int n; } la = { p->a, k };
	for (int i = 0; i < la.n; i++) {
		union { long l; int h[2]; } u = { .l = p->b + i };
		la.acc += u.h[0] ^ u.h[1];
	}
	return la.acc;
}
static inline long inl_twice(struct pair *p, int k) { return inl_sum(p, k) + inl_sum(p, k + 1); }
static long __attribute__((noinline)) outer_static(struct pair *p, int k, int unused) { return inl_twice(p, k) * 2; }
long use_one(struct pair *p) { return inl_sum(p, 3) + outer_static(p, 4, 0); }
long use_two(struct pair *p, int k) { return inl_twice(p, k) - outer_static(p, k, 1); }
long use_three(struct pair *p, int k) { long (*f)(struct pair *, int) = inl_twice; return f(p, k); }
`

// TestInlineExpansions: pahole 1.32 no longer loads inline expansions
// (DW_TAG_inlined_subroutine) when it encodes BTF; btfkit never read
// them for BTF. On a fixture full of them, by gcc and clang at -O1 and
// -O2, as an object and as a shared object, the BTF is pahole 1.32's
// byte for byte, the types defined in the inline functions' bodies
// included.
func TestInlineExpansions(t *testing.T) {
	testc.Require(t, "pahole", "gcc", "clang")
	dir := t.TempDir()
	src := filepath.Join(dir, "inl.c")
	if err := os.WriteFile(src, []byte(inlineSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cc := range []string{"gcc", "clang"} {
		for _, opt := range []string{"-O1", "-O2"} {
			obj := filepath.Join(dir, cc+opt+".o")
			so := filepath.Join(dir, cc+opt+".so")
			testc.Run(t, cc, "-g", opt, "-c", "-o", obj, src)
			testc.Run(t, cc, "-g", opt, "-shared", "-nostdlib", "-fPIC", "-o", so, src)
			for _, f := range []string{obj, so} {
				if n := countTag(t, f, dwarf.TagInlinedSubroutine); n < 4 {
					t.Fatalf("%s: %d inline expansions: the fixture tests nothing", filepath.Base(f), n)
				}
				samePahole(t, filepath.Base(f), f)
				s, err := EncodeFile(f, Options{Features: DefaultFeatures})
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for id := btf.TypeID(1); id < s.NextID(); id++ {
					found = found || s.Type(id).Name() == "local_acc"
				}
				if !found {
					t.Errorf("%s: no struct local_acc", filepath.Base(f))
				}
			}
		}
	}
}

// countTag counts the entries with tag in file's DWARF.
func countTag(t *testing.T, file string, tag dwarf.Tag) int {
	t.Helper()
	d, err := dwarf.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r := d.NewReader()
	units := d.Units()
	n := 0
	for i := range units {
		if err := r.Reset(&units[i]); err != nil {
			t.Fatal(err)
		}
		var e dwarf.Entry
		for {
			ok, err := r.Next(&e)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			if e.Tag == tag {
				n++
			}
		}
	}
	return n
}
