package layout_test

import (
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/layout"
)

// TestMalformedLoops: BTF whose types refer to themselves (which no
// compiler makes, but a corrupt file can hold) is printed without
// exhausting the stack or hanging.
func TestMalformedLoops(t *testing.T) {
	s := btf.NewSpec()
	intID := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	// 2: a pointer to itself; 3: a const of itself; 4: an array of itself;
	// 5: a typedef of itself.
	s.Add("", btf.KindPtr, 0, false, 2)
	s.Add("", btf.KindConst, 0, false, 3)
	s.Add("", btf.KindArray, 0, false, 0, 4, uint32(intID), 2)
	s.Add("loop_t", btf.KindTypedef, 0, false, 5)
	// 6: a struct that contains itself, and members of the loops above.
	var members []uint32
	for i, typ := range []btf.TypeID{2, 3, 4, 5, 6} {
		members = append(members, s.AddString(string(rune('a'+i))), uint32(typ), uint32(i*64))
	}
	s.Add("loopy", btf.KindStruct, 5, false, 40, members...)
	for _, o := range []layout.Options{{}, {ClassNames: []string{"loopy", "loop_t"}}} {
		got, _ := listBTF(t, s, o)
		if !strings.HasPrefix(got, "struct loopy {") {
			t.Errorf("%+v: %q", o, got)
		}
	}
}
