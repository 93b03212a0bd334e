package cdump_test

import (
	"os"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/cdump"
)

// Print a BTF's raw listing as `bpftool btf dump file` does.
func ExampleWriteRaw() {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	p := s.Add("", btf.KindPtr, 0, false, uint32(i))
	s.Add("pair", btf.KindStruct, 2, false, 16,
		s.AddString("n"), uint32(i), 0,
		s.AddString("next"), uint32(p), 64)
	if err := cdump.WriteRaw(os.Stdout, s); err != nil {
		panic(err)
	}
	// Output:
	// [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
	// [2] PTR '(anon)' type_id=1
	// [3] STRUCT 'pair' size=16 vlen=2
	// 	'n' type_id=1 bits_offset=0
	// 	'next' type_id=2 bits_offset=64
}

// Print one type, here a base type looked up through a module's split BTF.
func ExampleAppendRaw() {
	base := btf.NewSpec()
	i := base.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	mod := btf.NewSplitSpec(base)
	c := mod.Add("", btf.KindConst, 0, false, uint32(i))
	os.Stdout.Write(cdump.AppendRaw(nil, mod, i))
	os.Stdout.Write(cdump.AppendRaw(nil, mod, c))
	// Output:
	// [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
	// [2] CONST '(anon)' type_id=1
}
