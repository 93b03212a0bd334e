package encode

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// sectionNames lays out names as a .debug_str does (each NUL-terminated,
// after a leading empty string) and returns the section and each name as
// a view of it.
func sectionNames(names []string) ([]byte, []string) {
	sec := []byte{0}
	offs := make([]int, len(names))
	for i, s := range names {
		offs[i] = len(sec)
		sec = append(append(sec, s...), 0)
	}
	views := make([]string, len(names))
	for i, s := range names {
		views[i] = unsafe.String(&sec[offs[i]], len(s))
	}
	return sec, views
}

func strPtr(s string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(s))) }

// TestKnownStrs: a name is found (with its merged offset) once published
// and only by its place in the section and its length; names the
// table cannot hold are never found, so the merge's own lookups keep
// them; growing keeps every entry.
func TestKnownStrs(t *testing.T) {
	long := strings.Repeat("x", 1<<knownLenBits)
	sec, v := sectionNames([]string{"list_head", "next", "prev", long, "far"})
	var k knownStrs
	if off := k.find(strPtr(v[0]), uint32(len(v[0]))); off != 0 {
		t.Fatalf("a table never opened found %q at %d", v[0], off)
	}
	var nilK *knownStrs
	if nilK.find(strPtr(v[0]), uint32(len(v[0]))) != 0 {
		t.Fatal("a nil table found a name")
	}
	nilK.publish(strPtr(v[0]), uint32(len(v[0])), 1) // no effect, no panic
	k.open(sec)
	find := func(s string) uint32 { return k.find(strPtr(s), uint32(len(s))) }
	if off := find(v[0]); off != 0 {
		t.Fatalf("%q found at %d before it was published", v[0], off)
	}
	k.publish(strPtr(v[0]), uint32(len(v[0])), 7)
	k.publish(strPtr(v[1]), uint32(len(v[1])), 17)
	if got := find(v[0]); got != 7 {
		t.Errorf("%q: %d, want 7", v[0], got)
	}
	if got := find(v[1]); got != 17 {
		t.Errorf("%q: %d, want 17", v[1], got)
	}
	if got := find(v[2]); got != 0 {
		t.Errorf("%q (not published): %d, want 0", v[2], got)
	}
	// Same place, other length: another string.
	if got := find(v[0][:4]); got != 0 {
		t.Errorf("%q (a prefix of a published name): %d, want 0", v[0][:4], got)
	}
	// Same bytes elsewhere (a copy, an inline name): not this table's.
	if got := find(strings.Clone(v[1])); got != 0 {
		t.Errorf("a copy of %q: %d, want 0", v[1], got)
	}
	// Too long for an entry, a merged offset too large for one, offset 0.
	k.publish(strPtr(v[3]), uint32(len(v[3])), 9)
	if got := find(v[3]); got != 0 {
		t.Errorf("a name of %d bytes was published (%d)", len(v[3]), got)
	}
	k.publish(strPtr(v[4]), uint32(len(v[4])), 1<<knownValBits)
	k.publish(strPtr(v[2]), uint32(len(v[2])), 0)
	if got := find(v[4]); got != 0 {
		t.Errorf("merged offset 1<<%d was published (%d)", knownValBits, got)
	}
	if got := find(v[2]); got != 0 {
		t.Errorf("merged offset 0 was published (%d)", got)
	}

	// Growing: more names than the first table holds at half load.
	n := minKnown
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("name_%d", i)
	}
	sec, v = sectionNames(names)
	k = knownStrs{}
	k.open(sec)
	first := k.tab.Load()
	for i, s := range v {
		k.publish(strPtr(s), uint32(len(s)), uint32(i+1))
	}
	if k.tab.Load() == first {
		t.Fatalf("%d names left the table at %d slots", n, len(first.slots))
	}
	for i, s := range v {
		if got := find(s); got != uint32(i+1) {
			t.Fatalf("%q after growing: %d, want %d", s, got, i+1)
		}
	}
}

// TestKnownStrsConcurrent: workers read the table while the merge
// publishes and grows it; a name found is found with its own offset
// (run with -race, as go test -race ./encode/ does).
func TestKnownStrsConcurrent(t *testing.T) {
	n := 3 * minKnown
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("n%d", i)
	}
	sec, v := sectionNames(names)
	var k knownStrs
	k.open(sec)
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 4; round++ {
				for i := w; i < n; i += 2 {
					if got := k.find(strPtr(v[i]), uint32(len(v[i]))); got != 0 && got != uint32(i+1) {
						errs <- fmt.Errorf("%q found at %d, published at %d", v[i], got, i+1)
						return
					}
				}
			}
		}()
	}
	for i, s := range v {
		k.publish(strPtr(s), uint32(len(s)), uint32(i+1))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// knownSrc is one unit of a linked program: every unit has the same
// struct, whose names the merge has from the first unit on, and a
// function and struct of its own (UNIT), which it does not.
const knownSrc = `struct shared_list { struct shared_list *next, *prev; };
struct shared_node { struct shared_list link; long shared_key; const char *shared_name; };
struct CAT(own_, UNIT) { int CAT(own_field_, UNIT); struct shared_node node; };
`

// TestKnownNamesSameMerge: gcc compiles three units and links them (one
// .debug_str, merged by the linker); the units are converted one after
// another, each after the one before is merged, with the names the merge
// holds given to the converter and without. The later units must refer
// to the shared names by merged offset, and the merged types and strings
// must be the same bytes either way.
func TestKnownNamesSameMerge(t *testing.T) {
	testc.Require(t, "gcc")
	dir := t.TempDir()
	var objs []string
	for u := 0; u < 3; u++ {
		src := filepath.Join(dir, fmt.Sprintf("u%d.c", u))
		text := "#define CAT_(a, b) a##b\n#define CAT(a, b) CAT_(a, b)\n" + knownSrc +
			fmt.Sprintf("long f%d(struct CAT(own_, UNIT) *p) { return p->node.shared_key + p->CAT(own_field_, UNIT); }\n", u)
		if u == 0 {
			text += "int main(void) { return 0; }\n"
		}
		if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		obj := filepath.Join(dir, fmt.Sprintf("u%d.o", u))
		testc.Run(t, "gcc", "-g", "-O2", "-c", fmt.Sprintf("-DUNIT=%d", u), "-o", obj, src)
		objs = append(objs, obj)
	}
	prog := filepath.Join(dir, "prog")
	testc.Run(t, "gcc", append([]string{"-o", prog}, objs...)...)

	merge := func(useKnown bool) (raw []byte, mergedRefs int) {
		f, err := elfx.Open(prog)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		info, err := funcvar.ReadELF(f, funcOptions(DefaultFeatures))
		if err != nil {
			t.Fatal(err)
		}
		if info.Relocatable() {
			t.Fatal("the linked program is relocatable")
		}
		d, err := dwarf.FromELF(f)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		m := newMerger()
		m.funcs = funcvar.NewSelection(info, funcOptions(DefaultFeatures))
		var known knownStrs
		if useKnown {
			known.open(d.Sections().Str)
			m.known = &known
		}
		c := newUnitConv(Options{Features: DefaultFeatures}, d.Sections().BigEndian)
		c.strs.known = m.known
		fu := funcvar.NewUnit(info, funcOptions(DefaultFeatures))
		r := d.NewReader()
		units := d.Units()
		for i := range units {
			u := &units[i]
			if u.Type != dwarf.UTCompile {
				continue
			}
			if err := r.Reset(u); err != nil {
				t.Fatal(err)
			}
			if err := walkUnitFast(r, c, fu); err != nil {
				t.Fatal(err)
			}
			fr := c.emit()
			if !c.skip {
				fu.Finish(c, &fr.funcs)
			}
			for _, h := range fr.hdrs {
				if h.name&funcvar.MergedRef != 0 {
					mergedRefs++
				}
			}
			if err := m.add(fr); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.funcs.Finish(m.out, m.intern, nil); err != nil {
			t.Fatal(err)
		}
		return m.finish().Marshal(binary.LittleEndian), mergedRefs
	}
	with, refs := merge(true)
	without, none := merge(false)
	if none != 0 {
		t.Fatalf("without the table, %d names were referred to by merged offset", none)
	}
	// struct shared_list and shared_node, in units 1 and 2.
	if refs < 4 {
		t.Errorf("%d type names referred to by merged offset, want at least 4 (units 1 and 2's shared structs)", refs)
	}
	if !bytes.Equal(with, without) {
		t.Errorf("the merge differs with the names given by merged offset (%d bytes vs %d)", len(with), len(without))
	}
}
