package pfunct

import (
	"debug/elf"
	"fmt"
	"io"

	"github.com/btfkit/btfkit/elfx"
)

// symtabs is pfunct --symtab: for each file, the function symbols of the
// symbol table called name, as elf_symtab__show prints them.
func symtabs(w io.Writer, files []string, name string) error {
	for _, path := range files {
		if err := symtab(w, path, name); err != nil {
			return err
		}
	}
	return nil
}

// ErrNoSymtab is a file without the symbol table --symtab asked for;
// pfunct exits with status 1 and says nothing.
var ErrNoSymtab = fmt.Errorf("no such symbol table")

type sym struct {
	index       int
	name        string
	value, size uint64
}

func symtab(w io.Writer, path, name string) error {
	f, err := elfx.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	all, found, err := f.SymbolTable(name)
	if !found {
		return ErrNoSymtab
	}
	if err != nil {
		return elfx.NamingFile(path, err)
	}
	n := len(all)
	var syms []sym
	longest := 0
	for i, s := range all {
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || s.NameOff == 0 || s.Section == elf.SHN_UNDEF {
			continue
		}
		syms = append(syms, sym{index: i, name: s.Name, value: s.Value, size: s.Size})
		longest = max(longest, len(s.Name))
	}
	longest = min(longest, 32)
	spacing := 0
	for k := n; k != 0; k /= 10 {
		spacing++
	}
	var out buf
	for _, s := range syms {
		out.PadLeft(fmt.Sprint(s.index), spacing)
		out.Str(": ")
		out.PadRight(s.name, longest)
		out.Byte(' ')
		out.Hex(s.value)
		out.Byte(' ')
		out.PadLeft(fmt.Sprint(uint32(s.size)), 5)
		out.Byte('\n')
	}
	_, err = w.Write(out)
	return err
}
