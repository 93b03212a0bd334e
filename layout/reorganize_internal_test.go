package layout

import (
	"fmt"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// checkReorganized reorganizes every struct of a unit as -R does and
// reports the first that got larger or is no layout: members out of
// order, overlapping, or past the end. It returns how many structs it
// checked and how many the reorganization made smaller.
func checkReorganized(spec *btf.Spec, facts *dwarffacts.Facts) (checked, smaller int, err error) {
	u := newUnit(spec, facts, 64)
	for id := btf.TypeID(1); id < spec.NextID(); id++ {
		if spec.Type(id).Kind() != btf.KindStruct {
			continue
		}
		orig := u.class(id)
		r := u.reorganized(orig, reorgQuiet, nil)
		checked++
		if r.size > orig.size {
			return checked, smaller, fmt.Errorf("struct %s [%d]: reorganized to %d bytes from %d", orig.name, id, r.size, orig.size)
		}
		if r.size < orig.size {
			smaller++
		}
		if msg := misplacedMember(r); msg != "" {
			return checked, smaller, fmt.Errorf("struct %s [%d] reorganized: %s", orig.name, id, msg)
		}
	}
	return checked, smaller, nil
}

// misplacedMember checks that the members' bits are in increasing,
// disjoint ranges within the struct's size.
func misplacedMember(c *class) string {
	var end uint64
	for i := range c.members {
		m := &c.members[i]
		start := uint64(m.byteOffset) * 8
		e := start + m.byteSize*8
		if m.bitfieldSize != 0 {
			start = uint64(m.bitOffset)
			e = start + uint64(m.bitfieldSize)
		}
		if start < end {
			return fmt.Sprintf("member %q at bit %d overlaps the member before it, which ends at bit %d", m.name, start, end)
		}
		end = e
	}
	if end > uint64(c.size)*8 {
		return fmt.Sprintf("its members end at bit %d, past its %d bytes", end, c.size)
	}
	return ""
}

// TestReorganizeNeverLargerBTF: --reorganize makes no struct of the
// Debian kernel's BTF larger (pahole 1.31 and 1.32 make 350 of them larger), and
// every result is a layout; some get smaller.
func TestReorganizeNeverLargerBTF(t *testing.T) {
	s, err := btf.LoadFile(testenv.Reference(t, "debian-6.1.0-57-cloud/embedded.btf"), nil)
	if err != nil {
		t.Fatal(err)
	}
	checked, smaller, err := checkReorganized(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d structs, %d made smaller", checked, smaller)
	if checked < 8000 || smaller < 500 {
		t.Errorf("%d structs checked, %d made smaller: want more than 8,000 and 500", checked, smaller)
	}
}

// TestReorganizeNeverLargerDWARF: the same for every struct of every
// compile unit of the Debian vmlinux's DWARF.
func TestReorganizeNeverLargerDWARF(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: converts the whole vmlinux DWARF")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	var checked, smaller int
	err := encode.EachUnit(vmlinux, encode.Options{Features: encode.DefaultFeatures}, func(u encode.Unit) error {
		c, s, err := checkReorganized(u.Spec, u.Facts)
		checked += c
		smaller += s
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d structs, %d made smaller", checked, smaller)
	if checked < 100000 || smaller < 10000 {
		t.Errorf("%d structs checked, %d made smaller: want more than 100,000 and 10,000", checked, smaller)
	}
}
