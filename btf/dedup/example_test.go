package dedup_test

import (
	"fmt"
	"os"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/cdump"
)

// Two compilation units each describe the types they use: both have int,
// one defines struct node, the other only declares it (a FWD) and points
// at it. Merged and deduplicated, each type is left once and the FWD
// resolves to the struct.
func ExampleDedup() {
	u1 := btf.NewSpec()
	i := u1.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	next := u1.Add("", btf.KindPtr, 0, false, 3) // to struct node, [3]
	u1.Add("node", btf.KindStruct, 2, false, 16,
		u1.AddString("v"), uint32(i), 0,
		u1.AddString("next"), uint32(next), 64)

	u2 := btf.NewSpec()
	u2.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	fwd := u2.Add("node", btf.KindFwd, 0, false, 0) // struct node;
	p := u2.Add("", btf.KindPtr, 0, false, uint32(fwd))
	u2.Add("list", btf.KindStruct, 1, false, 8, u2.AddString("head"), uint32(p), 0)

	units := []*btf.Spec{u1, u2}
	merged, err := dedup.Merge(units...) // u2's types follow u1's: IDs 4 to 7
	if err != nil {
		panic(err)
	}
	out, m, err := dedup.Dedup(merged, dedup.Options{})
	if err != nil {
		panic(err)
	}
	if err := cdump.WriteRaw(os.Stdout, out); err != nil {
		panic(err)
	}
	// Where u2's FWD went: its ID in the merged Spec, then in the output.
	first := dedup.FirstIDs(nil, units)
	id := m.Map(first[1] + fwd - u2.FirstID())
	fmt.Printf("u2's FWD node is now [%d] %s\n", id, out.Type(id).Kind())
	// Output:
	// [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
	// [2] PTR '(anon)' type_id=3
	// [3] STRUCT 'node' size=16 vlen=2
	// 	'v' type_id=1 bits_offset=0
	// 	'next' type_id=2 bits_offset=64
	// [4] STRUCT 'list' size=8 vlen=1
	// 	'head' type_id=2 bits_offset=0
	// u2's FWD node is now [3] STRUCT
}

// A kernel's modules are deduplicated against its vmlinux: the base is
// prepared once, then each module's BTF (here standalone, as an encoder
// makes it, numbered from 1) is deduplicated onto it, concurrently if
// wanted. Types the base has are dropped for the base's IDs; the result
// is split BTF holding only the module's own types.
func ExamplePrepareBase() {
	vmlinux := btf.NewSpec()
	i := vmlinux.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	vmlinux.Add("task", btf.KindStruct, 1, false, 4, vmlinux.AddString("pid"), uint32(i), 0)
	base, err := dedup.PrepareBase(vmlinux)
	if err != nil {
		panic(err)
	}

	mod := btf.NewSpec()
	mi := mod.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	task := mod.Add("task", btf.KindStruct, 1, false, 4, mod.AddString("pid"), uint32(mi), 0)
	p := mod.Add("", btf.KindPtr, 0, false, uint32(task))
	mod.Add("mod_data", btf.KindStruct, 1, false, 8, mod.AddString("owner"), uint32(p), 0)

	out, _, err := dedup.Dedup(mod, dedup.Options{Base: base})
	if err != nil {
		panic(err)
	}
	fmt.Println("split against vmlinux:", out.Base() == vmlinux, "first own ID:", out.FirstID())
	if err := cdump.WriteRaw(os.Stdout, out); err != nil {
		panic(err)
	}
	// Output:
	// split against vmlinux: true first own ID: 3
	// [3] PTR '(anon)' type_id=2
	// [4] STRUCT 'mod_data' size=8 vlen=1
	// 	'owner' type_id=3 bits_offset=0
}

// A Builder takes types from any source, here written out by hand, with
// its own IDs (from 1, in the order added) and the offsets of its
// String, and deduplicates them without a Spec made first: the second
// "int" and the pointer to it go.
func ExampleBuilder() {
	b := dedup.NewBuilder(4, 4, 64)
	intInfo := btf.Info(btf.KindInt, 0, false)
	i1 := b.AddRaw(b.String("int"), intInfo, 4, btf.IntSigned<<24|32)
	p1 := b.AddRaw(0, btf.Info(btf.KindPtr, 0, false), uint32(i1))
	i2 := b.AddRaw(b.String("int"), intInfo, 4, btf.IntSigned<<24|32)
	p2 := b.AddRaw(0, btf.Info(btf.KindPtr, 0, false), uint32(i2))
	out, m, err := b.Dedup(dedup.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.NumTypes(), "types")
	fmt.Println("second pointer is now", m.Map(p2), "like the first,", m.Map(p1))
	// Output:
	// 2 types
	// second pointer is now 2 like the first, 2
}
