package btf_test

import (
	"fmt"
	"os"

	"github.com/btfkit/btfkit/btf"
)

// Build BTF in memory, write it as raw BTF and read it back.
func ExampleParse() {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	s.Add("", btf.KindPtr, 0, false, uint32(i))
	raw := s.Marshal(nil) // little endian

	back, err := btf.Parse(raw, nil)
	if err != nil {
		panic(err)
	}
	for id := back.FirstID(); id < back.NextID(); id++ {
		t := back.Type(id)
		fmt.Printf("[%d] %s %q ref/size %d\n", id, t.Kind(), t.Name(), t.SizeType())
	}
	// A 24-byte header, INT's 12-byte record and 4-byte encoding word,
	// PTR's 12-byte record, and the strings "\x00int\x00".
	fmt.Println(len(raw), "bytes")
	// Output:
	// [1] INT "int" ref/size 4
	// [2] PTR "" ref/size 1
	// 57 bytes
}

// Walk a struct's members through the Type view, which decodes the
// trailing words on demand.
func ExampleSpec_Type() {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	// struct flags { int mode: 3; int on: 1; int count; }, with the
	// kind_flag set: offsets carry the bitfield sizes.
	st := s.Add("flags", btf.KindStruct, 3, true, 8,
		s.AddString("mode"), uint32(i), 3<<24|0,
		s.AddString("on"), uint32(i), 1<<24|3,
		s.AddString("count"), uint32(i), 32)

	t := s.Type(st)
	fmt.Println(t.Kind(), t.Name(), t.Size(), "bytes")
	for m := 0; m < t.Vlen(); m++ {
		mem := t.Member(m)
		off, bits := t.MemberBits(m)
		fmt.Printf("  %s %s at bit %d, %d bits wide\n",
			s.Type(mem.Type).Name(), s.String(mem.NameOff), off, bits)
	}
	// Output:
	// STRUCT flags 8 bytes
	//   int mode at bit 0, 3 bits wide
	//   int on at bit 3, 1 bits wide
	//   int count at bit 32, 0 bits wide
}

// A module's BTF is split BTF: its IDs and string offsets continue after
// its base's, and its types may refer to the base's.
func ExampleNewSplitSpec() {
	base := btf.NewSpec()
	i := base.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)

	mod := btf.NewSplitSpec(base)
	p := mod.Add("", btf.KindPtr, 0, false, uint32(i))
	off := mod.AddString("int") // already in the base: the base's offset
	fmt.Println("first own ID:", mod.FirstID(), "pointer:", p)
	fmt.Println("\"int\" at", off, "in both:", off == base.Type(i).NameOff())
	fmt.Println("through the module:", mod.Type(mod.Type(p).Ref()).Name())

	raw := mod.Marshal(nil) // only the module's own types and strings
	back, err := btf.Parse(raw, base)
	if err != nil {
		panic(err)
	}
	fmt.Println("read back:", back.NumTypes(), "own type(s)")
	// Output:
	// first own ID: 2 pointer: 2
	// "int" at 1 in both: true
	// through the module: int
	// read back: 1 own type(s)
}

// Take a type's info word apart: the kind, vlen and kind_flag fields
// that Info packs.
func ExampleKindOf() {
	info := btf.Info(btf.KindEnum, 3, true) // a signed enum of 3 values
	fmt.Println(btf.KindOf(info), btf.VlenOf(info), btf.KindFlagOf(info))
	fmt.Printf("0x%08x\n", info)
	// Output:
	// ENUM 3 true
	// 0x86000003
}

// Read the running kernel's BTF, or any file holding BTF: raw BTF, an ELF
// file's .BTF section (vmlinux, a module, an object), a BTF archive's
// first member. (No output is shown: it depends on the machine.)
func ExampleLoadFile() {
	vmlinux, err := btf.LoadFile("/sys/kernel/btf/vmlinux", nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	// A loaded module's BTF is split against vmlinux.
	xfs, err := btf.LoadFile("/sys/kernel/btf/xfs", vmlinux)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Println(vmlinux.NumTypes(), "types in vmlinux,", xfs.NumTypes(), "in xfs")
}
