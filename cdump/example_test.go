package cdump_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/cdump"
)

// nodeSpec builds BTF for
//
//	struct node { int value; struct node *next; };
func nodeSpec() *btf.Spec {
	s := btf.NewSpec()
	intID := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	nodeID := intID + 1
	ptrID := nodeID + 1
	s.Add("node", btf.KindStruct, 2, false, 16,
		s.AddString("value"), uint32(intID), 0,
		s.AddString("next"), uint32(ptrID), 64)
	s.Add("", btf.KindPtr, 0, false, uint32(nodeID))
	return s
}

func ExampleWrite() {
	// Bare leaves out the vmlinux.h include guard and pragma block.
	if err := cdump.Write(os.Stdout, nodeSpec(), cdump.Options{Bare: true}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// struct node {
	// 	int value;
	// 	struct node *next;
	// };
}

func ExampleWriteFile() {
	dir, _ := os.MkdirTemp("", "cdump-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "vmlinux.h")

	// A kernel's BTF would come from btf.LoadKernel() or btf.LoadFile.
	spec := nodeSpec()
	for i := 0; i < 2; i++ {
		changed, err := cdump.WriteFile(path, spec, cdump.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("changed:", changed)
	}
	// Output:
	// changed: true
	// changed: false
}
