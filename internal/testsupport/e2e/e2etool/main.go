// Command e2etool is scripts/kernel-e2e's host-side helper, for the
// negative control:
//
//	e2etool corrupt IN.btf OUT.btf         corrupt one FUNC_PROTO (see e2e.CorruptFuncProto)
//	e2etool patch-section ELF NAME DATA    overwrite section NAME of ELF in place with DATA (same size)
//
// and for the module checks (modules.go):
//
//	e2etool corrupt-name IN.btf OUT.btf              corrupt one name offset (see e2e.CorruptName)
//	e2etool relocate SPLIT DIST_BASE VMLINUX OUT     the BTF the kernel holds for a module with a distilled base
//	e2etool distill SPLIT VMLINUX OUT_SPLIT OUT_BASE what distilled_base writes as .BTF and .BTF.base
//	e2etool module-types VMLINUX FILE...             per module BTF, a type only it defines, and its ID
//	e2etool break KIND IN OUT [BASE]                 IN broken one way (func-name, datasec-overlap,
//	                                                 base-struct-size, grow-base; see breakBTF)
//	e2etool set-section ELF NAME DATA                set (or add) section NAME of ELF to DATA, any size
//	e2etool route-causes DWARF_BTF ARCHIVE_BTF DWARF_REPORT ARCHIVE_REPORT ELF [ARCHIVE_ELF]
//	                                                 the differences of the DWARF and BTF-archive routes, by cause;
//	                                                 ELF has the DWARF, ARCHIVE_ELF (default ELF) the .BTF archive
package main

import (
	"debug/elf"
	"fmt"
	"os"

	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/internal/testsupport/e2e"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "e2etool: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: e2etool corrupt IN OUT | patch-section ELF NAME DATA | corrupt-name IN OUT | relocate SPLIT DIST_BASE VMLINUX OUT | distill SPLIT VMLINUX OUT_SPLIT OUT_BASE | module-types VMLINUX FILE... | break KIND IN OUT [BASE] | set-section ELF NAME DATA | route-causes DWARF_BTF ARCHIVE_BTF DWARF_REPORT ARCHIVE_REPORT ELF [ARCHIVE_ELF]")
	}
	switch {
	case args[0] == "corrupt" && len(args) == 3:
		in, err := os.ReadFile(args[1])
		if err != nil {
			return err
		}
		out, id, err := e2e.CorruptFuncProto(in)
		if err != nil {
			return fmt.Errorf("%s: %v", args[1], err)
		}
		if err := os.WriteFile(args[2], out, 0o644); err != nil {
			return err
		}
		fmt.Printf("corrupted FUNC_PROTO [%d]: its first parameter now refers to a type that does not exist\n", id)
		return nil
	case args[0] == "patch-section" && len(args) == 4:
		return patchSection(args[1], args[2], args[3])
	case args[0] == "corrupt-name" && len(args) == 3:
		return corruptName(args[1], args[2])
	case args[0] == "relocate" && len(args) == 5:
		return relocate(args[1], args[2], args[3], args[4])
	case args[0] == "distill" && len(args) == 5:
		return distillCmd(args[1], args[2], args[3], args[4])
	case args[0] == "module-types" && len(args) >= 3:
		return moduleTypes(args[1], args[2:])
	case args[0] == "break" && (len(args) == 4 || len(args) == 5):
		base := ""
		if len(args) == 5 {
			base = args[4]
		}
		return breakBTF(args[1], args[2], args[3], base)
	case args[0] == "set-section" && len(args) == 4:
		data, err := os.ReadFile(args[3])
		if err != nil {
			return err
		}
		return elfx.WriteSection(args[1], args[2], data)
	case args[0] == "route-causes" && (len(args) == 6 || len(args) == 7):
		archiveELF := args[5]
		if len(args) == 7 {
			archiveELF = args[6]
		}
		return routeCauses(args[1], args[2], args[3], args[4], args[5], archiveELF)
	}
	return fmt.Errorf("bad arguments %q", args)
}

func patchSection(path, name, dataPath string) error {
	data, err := os.ReadFile(dataPath)
	if err != nil {
		return err
	}
	f, err := elfx.Open(path)
	if err != nil {
		return err
	}
	s := f.Section(name)
	f.Close()
	if s == nil {
		return &elfx.Error{Path: path, Section: name, Err: elfx.ErrNoSection}
	}
	if s.Type == elf.SHT_NOBITS || s.FileSize != uint64(len(data)) {
		return fmt.Errorf("%s: section %s has %d bytes in the file, %s has %d", path, name, s.FileSize, dataPath, len(data))
	}
	w, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := w.WriteAt(data, int64(s.Offset)); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
