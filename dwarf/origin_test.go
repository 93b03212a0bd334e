package dwarf

import (
	godwarf "debug/dwarf"
	"debug/elf"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestName checks Data.Name on every subprogram, inlined subroutine and
// formal parameter of optimised corpus objects against names resolved by
// hand through debug/dwarf (following DW_AT_abstract_origin and
// DW_AT_specification).
func TestName(t *testing.T) {
	n := 0
	for _, v := range []testc.Variant{{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}}, {CC: testc.Clang, Flags: []string{"-gdwarf-4", "-O2"}}} {
		for _, src := range testc.CorpusFiles(t) {
			obj := testc.Compile(t, src, v)
			ef, err := elf.Open(obj)
			if err != nil {
				t.Fatal(err)
			}
			gd, err := ef.DWARF()
			if err != nil {
				t.Fatal(err)
			}
			goName := func(off godwarf.Offset) string {
				for hop := 0; hop < 16; hop++ {
					r := gd.Reader()
					r.Seek(off)
					e, err := r.Next()
					if err != nil || e == nil {
						t.Fatalf("debug/dwarf at 0x%x: %v", off, err)
					}
					if s, ok := e.Val(godwarf.AttrName).(string); ok {
						return s
					}
					o, ok := e.Val(godwarf.AttrAbstractOrigin).(godwarf.Offset)
					if !ok {
						o, ok = e.Val(godwarf.AttrSpecification).(godwarf.Offset)
					}
					if !ok {
						return ""
					}
					off = o
				}
				return ""
			}
			d, err := Open(obj)
			if err != nil {
				t.Fatal(err)
			}
			r := d.NewReader()
			var e Entry
			for i := range d.Units() {
				r.Reset(&d.Units()[i])
				for {
					ok, err := r.Next(&e)
					if err != nil {
						t.Fatal(err)
					}
					if !ok {
						break
					}
					switch e.Tag {
					case TagSubprogram, TagInlinedSubroutine, TagFormalParameter, TagVariable:
					default:
						continue
					}
					got, err := d.Name(&e)
					if err != nil {
						t.Fatal(err)
					}
					if want := goName(godwarf.Offset(e.Offset)); got != want {
						t.Errorf("%s: DIE 0x%x %v: name %q, debug/dwarf chain %q", obj, e.Offset, e.Tag, got, want)
					}
					n++
				}
			}
			d.Close()
			ef.Close()
		}
	}
	if n == 0 {
		t.Fatal("no DIEs checked")
	}
}
