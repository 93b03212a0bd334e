package elfx

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyElfxOpensELF holds the repository to "one way into ELF files":
// no non-test Go file outside elfx opens or parses an ELF file with
// debug/elf (elf.Open, elf.NewFile), maps a file (syscall.Mmap,
// unix.Mmap), or checks the ELF magic itself (elf.ELFMAG, a "\x7fELF"
// literal). They go through elfx.Open, elfx.ReadSection, elfx.Map.
// Nor does one decode a symbol table (checkSymtab): symbols come from
// elfx (File.Symbols, File.SymbolTable).
func TestOnlyElfxOpensELF(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("%s does not look like the repository root: %v", root, err)
	}
	checked := 0
	var bad []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			base := d.Name()
			// internal/testsupport/testelf writes ELF images for tests and never
			// reads one; internal/offheap maps anonymous memory, no file.
			if rel == "elfx" || rel == "internal/testsupport/testelf" || rel == "internal/offheap" || base == "testdata" || (strings.HasPrefix(base, ".") && rel != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		bad = append(bad, checkFile(fset, f)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked only %d files under %s", checked, root)
	}
	for _, b := range bad {
		t.Errorf("%s: only elfx opens, maps, recognises or decodes ELF files", b)
	}
}

// forbidden are the names a file outside elfx may not use, by package:
// opening, mapping and recognising ELF files, and debug/elf's symbol
// table entries and sections.
var forbidden = map[string]map[string]bool{
	"debug/elf": {"Open": true, "NewFile": true, "ELFMAG": true,
		"Sym32": true, "Sym64": true, "Sym32Size": true, "Sym64Size": true,
		"ErrNoSymbols": true, "SHT_SYMTAB": true, "SHT_DYNSYM": true, "SHT_SYMTAB_SHNDX": true},
	"syscall":               {"Mmap": true},
	"golang.org/x/sys/unix": {"Mmap": true},
}

// symtabSections are the sections a symbol table and its names live in.
var symtabSections = map[string]bool{".symtab": true, ".dynsym": true, ".strtab": true, ".dynstr": true, ".symtab_shndx": true}

// checkFile returns what f, a non-test file outside elfx, does that only
// elfx may do.
func checkFile(fset *token.FileSet, f *ast.File) []string {
	var bad []string
	// The file's names for the packages that matter.
	names := map[string]string{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if forbidden[p] == nil {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = p
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && forbidden[names[id.Name]][n.Sel.Name] {
				bad = append(bad, fset.Position(n.Pos()).String()+": "+names[id.Name]+"."+n.Sel.Name)
			}
			if why := checkSymtab(n); why != "" {
				bad = append(bad, fset.Position(n.Pos()).String()+": "+why)
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "SymbolTable" {
				return true
			}
			for _, a := range n.Args {
				if s, ok := symtabLiteral(a); ok {
					bad = append(bad, fset.Position(a.Pos()).String()+": reads section "+s)
				}
			}
		case *ast.BinaryExpr:
			for _, a := range []ast.Expr{n.X, n.Y} {
				if s, ok := symtabLiteral(a); ok && (n.Op == token.EQL || n.Op == token.NEQ) {
					bad = append(bad, fset.Position(a.Pos()).String()+": looks for section "+s)
				}
			}
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				if s, err := strconv.Unquote(n.Value); err == nil && strings.HasPrefix(s, "\x7fELF") {
					bad = append(bad, fset.Position(n.Pos()).String()+": the ELF magic")
				}
			}
		}
		return true
	})
	return bad
}

// checkSymtab says how the selector e decodes a symbol table, if it does:
// an entry size (sh_entsize: of the sections that have one, only symbol
// tables are read), or debug/elf's symbol readers, reached through
// elfx.File's *elf.File (f.File.Symbols) or any *elf.File.
func checkSymtab(e *ast.SelectorExpr) string {
	switch e.Sel.Name {
	case "Entsize":
		return "reads a section's entry size (a symbol table's entries are elfx's)"
	case "DynamicSymbols", "ImportedSymbols", "ImportedLibraries":
		return "debug/elf's " + e.Sel.Name + " (use elfx.File.SymbolTable)"
	case "Symbols":
		if x, ok := e.X.(*ast.SelectorExpr); ok && x.Sel.Name == "File" {
			return "debug/elf's Symbols through elfx.File's *elf.File (use elfx.File.Symbols)"
		}
	}
	return ""
}

// symtabLiteral is a string literal naming a symbol table section.
func symtabLiteral(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil && symtabSections[s]
}

// TestOnlyElfxRules: checkFile finds what it is for (the symbol table
// decoding pfunct --symtab once did by hand among them) and leaves alone
// what reads symbols through elfx.
func TestOnlyElfxRules(t *testing.T) {
	for _, c := range []struct {
		name, src string
		bad       bool
	}{
		{"open", `import "debug/elf"; func f() { elf.Open("x") }`, true},
		{"magic", `func f() bool { return string(b[:4]) == "\x7fELF" }`, true},
		{"sym64", `import "debug/elf"; var s elf.Sym64`, true},
		{"symtab type", `import "debug/elf"; func f(s *elf.Section) bool { return s.Type == elf.SHT_SYMTAB }`, true},
		{"by hand", `func f(sec *elf.Section, raw []byte) int { return int(sec.Size / sec.Entsize) }`, true},
		{"debug/elf Symbols", `func f(x *elfx.File) { x.File.Symbols() }`, true},
		{"dynamic", `func f(x *elf.File) { x.DynamicSymbols() }`, true},
		{"section bytes", `func f(x *elfx.File) { x.SectionData(".symtab") }`, true},
		{"section by name", `func f(s *elf.Section) bool { return s.Name == ".dynsym" }`, true},
		{"elfx symbols", `func f(x *elfx.File) { x.Symbols() }`, false},
		{"elfx symbol table", `import "debug/elf"; func f(x *elfx.File) { s, _, _ := x.SymbolTable(".symtab"); _ = elf.ST_TYPE(s[0].Info) == elf.STT_FUNC }`, false},
		{"default name", `func f() string { v := ".symtab"; return v }`, false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, c.name+".go", "package p; "+c.src, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := checkFile(fset, f); (len(got) > 0) != c.bad {
			t.Errorf("%s: %q, want bad=%v", c.name, got, c.bad)
		}
	}
}
