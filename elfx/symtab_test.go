package elfx

import (
	"testing"
)

// TestSymbolTable: SymbolTable reads .symtab as debug/elf's Symbols does
// (which leaves out the null symbol), index for index; a missing table
// is not found.
func TestSymbolTable(t *testing.T) {
	f, err := Open("../testdata/sample.o")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, found, err := f.SymbolTable(".symtab")
	if err != nil || !found {
		t.Fatalf("SymbolTable(.symtab): found %v, %v", found, err)
	}
	want, err := f.File.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want)+1 {
		t.Fatalf("%d symbols, debug/elf reads %d and the null symbol", len(got), len(want))
	}
	if got[0] != (Symbol{}) {
		t.Errorf("symbol 0 is %+v, want the null symbol", got[0])
	}
	for i, w := range want {
		g := got[i+1]
		if g.Name != w.Name || g.Info != w.Info || g.Other != w.Other || g.Section != w.Section || g.Value != w.Value || g.Size != w.Size {
			t.Errorf("symbol %d: %+v, debug/elf reads %+v", i+1, g, w)
		}
		if (g.NameOff == 0) != (g.Name == "") {
			t.Errorf("symbol %d: name offset %d for %q", i+1, g.NameOff, g.Name)
		}
	}
	if _, found, err := f.SymbolTable(".dynsym"); found || err != nil {
		t.Errorf("SymbolTable(.dynsym) of an object: found %v, %v", found, err)
	}
}
