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
func TestOnlyElfxOpensELF(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("%s does not look like the repository root: %v", root, err)
	}
	forbidden := map[string]map[string]bool{
		"debug/elf":             {"Open": true, "NewFile": true, "ELFMAG": true},
		"syscall":               {"Mmap": true},
		"golang.org/x/sys/unix": {"Mmap": true},
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
			// internal/testelf writes ELF images for tests and never
			// reads one; internal/offheap maps anonymous memory, no file.
			if rel == "elfx" || rel == "internal/testelf" || rel == "internal/offheap" || base == "testdata" || (strings.HasPrefix(base, ".") && rel != ".") {
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
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					if s, err := strconv.Unquote(n.Value); err == nil && strings.HasPrefix(s, "\x7fELF") {
						bad = append(bad, fset.Position(n.Pos()).String()+": the ELF magic")
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked only %d files under %s", checked, root)
	}
	for _, b := range bad {
		t.Errorf("%s: only elfx opens, maps or recognises ELF files", b)
	}
}
