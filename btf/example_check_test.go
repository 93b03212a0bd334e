package btf_test

import (
	"errors"
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// Check a Spec by the kernel's rules and list what is wrong.
func ExampleSpec_Check() {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	// struct pair { int a; int b; } declared 4 bytes long instead of 8.
	s.Add("pair", btf.KindStruct, 2, false, 4,
		s.AddString("a"), uint32(i), 0,
		s.AddString("b"), uint32(i), 32)
	s.Add("", btf.KindTypedef, 0, false, uint32(i)) // a typedef needs a name

	var ce *btf.CheckError
	if err := s.Check(); errors.As(err, &ce) {
		for _, p := range ce.Problems {
			fmt.Println(p)
		}
	}
	// Output:
	// type [2] STRUCT 'pair': member 1 'b' at bit 32 of 32 bits past struct size 4 bytes (member-bounds)
	// type [3] TYPEDEF '': TYPEDEF must be named (name-required)
}

// Validate raw BTF, header and section layout included, as BPF_BTF_LOAD
// would.
func ExampleCheckRaw() {
	s := btf.NewSpec()
	s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	raw := s.Marshal(nil)
	raw = append(raw, 0, 0, 0, 0) // trailing bytes the kernel does not accept

	_, err := btf.CheckRaw(raw, nil)
	var ce *btf.CheckError
	if errors.As(err, &ce) {
		for _, p := range ce.Problems {
			fmt.Println(p)
		}
	}
	// Output:
	// 4 bytes of unknown data after the sections (sections)
	// string section [0x10,0x15) is not at the end of the data (0x19) (sections)
}
