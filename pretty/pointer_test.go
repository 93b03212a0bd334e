package pretty_test

import (
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/pretty"
)

// TestPointerSizeGuessed: without a pointer size (raw BTF, no ELF class),
// pointers are as wide as C's long in the types, as pahole's BTF loader
// takes libbpf's guess. pahole 1.32 -F btf --prettify on the raw .BTF of
// gcc -m32's struct rec { void *p; int x; long l; } prints
// ".p = 0x01 0x00 0x00 0x00," then ".x = 2,".
func TestPointerSizeGuessed(t *testing.T) {
	s := btf.NewSpec()
	intT := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	long := s.Add("long int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	ptr := s.Add("", btf.KindPtr, 0, false, 0)
	s.Add("rec", btf.KindStruct, 3, false, 12,
		s.AddString("p"), uint32(ptr), 0, s.AddString("x"), uint32(intT), 32, s.AddString("l"), uint32(long), 64)
	data := []byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}
	for _, c := range []struct {
		ptrSize int
		want    string
	}{
		{0, "\t.p = 0x01 0x00 0x00 0x00,\n\t.x = 2,\n"},
		{8, "\t.p = 0x01 0x00 0x00 0x00 0x02 0x00 0x00 0x00,\n\t.x = 2,\n"}, // as given: offsets stay BTF's
	} {
		text, _, err := decode(t, s, pretty.Options{Classes: []pretty.Class{{Name: "rec"}}, PointerSize: c.ptrSize}, data)
		if err != nil || !strings.Contains(text, c.want) {
			t.Errorf("pointer size %d: %v\n%s\nwant %q", c.ptrSize, err, text, c.want)
		}
	}
}
