package btf_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
)

// Load BTF from a file and look a type up by name. The file here is raw
// BTF written from testdata/sample.o's DWARF (encode.EncodeFile); LoadFile
// reads an ELF file's .BTF section or /sys/kernel/btf/vmlinux the same
// way. A Spec is a table indexed by ID: a lookup by name scans it (or, in
// BTF sorted by name, bisects it: SortByName, FindSorted).
func ExampleLoadFile_lookup() {
	enc, err := encode.EncodeFile("../testdata/sample.o", encode.Options{Features: encode.DefaultFeatures})
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "btf-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "sample.btf")
	if err := os.WriteFile(path, enc.Marshal(nil), 0o644); err != nil {
		fmt.Println(err)
		return
	}

	spec, err := btf.LoadFile(path, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for id := spec.FirstID(); id < spec.NextID(); id++ {
		t := spec.Type(id)
		if t.Kind() != btf.KindStruct || t.Name() != "list_head" {
			continue
		}
		fmt.Printf("[%d] struct %s, %d bytes\n", id, t.Name(), t.Size())
		for m := 0; m < t.Vlen(); m++ {
			mem := t.Member(m)
			off, _ := t.MemberBits(m)
			mt := spec.Type(mem.Type)
			fmt.Printf("  %s: %s to [%d], at byte %d\n", spec.String(mem.NameOff), mt.Kind(), mt.SizeType(), off/8)
		}
	}
	// Output:
	// [47] struct list_head, 16 bytes
	//   next: PTR to [47], at byte 0
	//   prev: PTR to [47], at byte 8
}
