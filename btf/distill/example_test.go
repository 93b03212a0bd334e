package distill_test

import (
	"fmt"
	"os"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/distill"
	"github.com/btfkit/btfkit/cdump"
)

// kernel builds a vmlinux BTF with int and struct task (of size bytes),
// extra types coming first.
func kernel(size uint32, extra ...string) *btf.Spec {
	s := btf.NewSpec()
	for _, name := range extra {
		s.Add(name, btf.KindInt, 0, false, 1, btf.IntSigned<<24|8)
	}
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	s.Add("task", btf.KindStruct, 1, false, size, s.AddString("pid"), uint32(i), 0)
	return s
}

// A module built against one kernel is used with another: its BTF is
// distilled (the base it refers to reduced to what identifies each type)
// and relocated onto the other kernel's BTF, where int and struct task
// have other IDs and struct task has grown (a module that only points at
// it does not mind).
func ExampleDistill() {
	vmlinux := kernel(4, "long")
	intID, taskID := uint32(2), uint32(3)
	// The module: struct mod_data { struct task *t; int n; }.
	mod := btf.NewSplitSpec(vmlinux)
	ptr := mod.Add("", btf.KindPtr, 0, false, taskID)
	mod.Add("mod_data", btf.KindStruct, 2, false, 16,
		mod.AddString("t"), uint32(ptr), 0,
		mod.AddString("n"), intID, 64)

	base, split, err := distill.Distill(mod)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("distilled base:")
	cdump.WriteRaw(os.Stdout, base)
	fmt.Println("split against it:")
	cdump.WriteRaw(os.Stdout, split)

	other := kernel(8, "char", "short")
	moved, err := distill.Relocate(split, other)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("relocated:")
	cdump.WriteRaw(os.Stdout, moved)
	// Output:
	// distilled base:
	// [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
	// [2] STRUCT 'task' size=4 vlen=0
	// split against it:
	// [3] PTR '(anon)' type_id=2
	// [4] STRUCT 'mod_data' size=16 vlen=2
	// 	't' type_id=3 bits_offset=0
	// 	'n' type_id=1 bits_offset=64
	// relocated:
	// [5] PTR '(anon)' type_id=4
	// [6] STRUCT 'mod_data' size=16 vlen=2
	// 	't' type_id=5 bits_offset=0
	// 	'n' type_id=3 bits_offset=64
}
