package layout_test

import (
	"fmt"
	"os"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/layout"
)

// Print a struct's layout as `pahole -C list_node` does from BTF: the
// members with their offsets and sizes, the hole the compiler left and
// the summary. The BTF is made here; any btf.Spec will do (btf.LoadFile,
// package input, encode.EncodeFile).
func ExampleListing() {
	spec := btf.NewSpec()
	i := spec.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	node := spec.NextID() + 1 // the struct, after its pointer
	p := spec.Add("", btf.KindPtr, 0, false, uint32(node))
	spec.Add("list_node", btf.KindStruct, 2, false, 16,
		spec.AddString("value"), uint32(i), 0, // offsets in bits
		spec.AddString("next"), uint32(p), 64)

	l := layout.NewListing(layout.Options{CachelineSize: 64, ClassNames: []string{"list_node"}})
	if _, err := l.Unit(os.Stdout, spec, nil); err != nil {
		fmt.Println(err)
		return
	}
	if name, missing := l.Missing(); missing {
		fmt.Println("no such type:", name)
	}
	// Output:
	// struct list_node {
	// 	int                        value;                /*     0     4 */
	//
	// 	/* XXX 4 bytes hole, try to pack */
	//
	// 	struct list_node *         next;                 /*     8     8 */
	//
	// 	/* size: 16, cachelines: 1, members: 2 */
	// 	/* sum members: 12, holes: 1, sum holes: 4 */
	// 	/* last cacheline: 16 bytes */
	// };
}

// Encode an object file's DWARF and print one of its structs, as
// `pahole -C tree -F btf` prints it from the object's BTF. A nil
// *dwarffacts.Facts prints what BTF alone says; encode.EachUnit hands
// the facts DWARF adds (alignment attributes, array dimensions).
func ExampleListing_encoded() {
	spec, err := encode.EncodeFile("../testdata/sample.o", encode.Options{Features: encode.DefaultFeatures})
	if err != nil {
		fmt.Println(err)
		return
	}
	l := layout.NewListing(layout.Options{CachelineSize: 64, ClassNames: []string{"tree"}})
	if _, err := l.Unit(os.Stdout, spec, nil); err != nil {
		fmt.Println(err)
	}
	// Output:
	// struct tree {
	// 	struct node *              root;                 /*     0     8 */
	// 	struct list_head           lh;                   /*     8    16 */
	//
	// 	/* size: 24, cachelines: 1, members: 2 */
	// 	/* last cacheline: 24 bytes */
	// };
}
