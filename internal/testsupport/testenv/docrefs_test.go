package testenv

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocReferences: what docs/*.md, README.md and the package docs
// (every doc.go's comments, and a package comment in any other file, such
// as cmd/btfkit's) cite exists. The rules, chosen so that a
// citation is recognized without guessing at English:
//
// Files and directories. A word is a path when it contains a slash and
// its first element is an entry of the repository's top directory
// (cmd/btfkit/pahole.go, encode/internal/funcvar, testdata/reference/host-6.18,
// scripts/fuzz): it must exist relative to the top directory, after a
// trailing ":LINE" or ":NAME" is cut off; one with * must match
// something. Paths that start elsewhere (/sys/kernel/btf/vmlinux,
// kernel/bpf/btf.c, a Debian package's files) are not the repository's
// and are not checked. A file name without a slash ending in .go, .md,
// .c, .h, .sh or .txt (names.go, pahole.go) must exist in the citing
// file's directory or, failing that, anywhere in the repository.
// Markdown links [text](target) to a relative target are paths too. In
// Markdown the words are those in backquotes and links; in doc.go, every
// word of its comments.
//
// Go names. PKG.NAME, where PKG is the name of one of the repository's
// packages (btf, dedup, encode, layout, funcvar, testenv, ...) or its
// path (btf/dedup), must be declared at the package's top level (a
// func, type, var or const, tests included: pretty.FuzzDecode);
// PKG.TYPE.NAME must be a method or field of that type. TYPE.NAME where
// TYPE is no package but a type declared in the repository (Staged.Finish,
// strTab.add) must be one of its methods or fields. In Markdown these are
// checked in backquotes; in doc.go's comments anywhere, as [PKG.NAME]
// doc links are. A bare name in backquotes, NAME or NAME(...), is checked
// when it is Go's spelling of a name and no other's: camelCase with a
// lower-case letter then an upper-case one (walkUnitFast, EncodeSplit,
// paholeUnsupported), or a capitalized name called (NextID(),
// ForKernel(v)); it must be declared somewhere in the repository (top
// level, method or field). Other single words (Finish, Type), C names
// with underscores (param__member, e_shoff) and names of other
// packages (io.Reader: io is not the repository's) are not checked.
func TestDocReferences(t *testing.T) {
	root := Root(t)
	decls := repoDecls(t, root)

	var docs []string
	mds, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, mds...)
	docs = append(docs, filepath.Join(root, "README.md"))
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && p != root {
			return filepath.SkipDir
		}
		if d.Name() == "doc.go" || (strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") && hasPackageDoc(p)) {
			docs = append(docs, p)
		}
		return nil
	})
	if len(docs) < 10 {
		t.Fatalf("found %d documents to check", len(docs))
	}
	checked := 0
	for _, doc := range docs {
		rel, _ := filepath.Rel(root, doc)
		words, idents := docWords(t, doc)
		for _, w := range words {
			if msg := checkPath(root, filepath.Dir(doc), w.text); msg != "" {
				t.Errorf("%s:%d: %s", rel, w.line, msg)
			} else {
				checked++
			}
		}
		for _, w := range idents {
			if msg := decls.check(w.text); msg != "" {
				t.Errorf("%s:%d: %s", rel, w.line, msg)
			} else {
				checked++
			}
		}
	}
	if checked < 200 {
		t.Errorf("only %d citations checked: the rules found too few to be working", checked)
	}
	t.Logf("%d citations in %d documents checked", checked, len(docs))
}

// hasPackageDoc reports whether a Go file has a package comment.
func hasPackageDoc(path string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly|parser.ParseComments)
	return err == nil && f.Doc != nil
}

// docWord is a word of a document and its line.
type docWord struct {
	text string
	line int
}

var (
	backquoted = regexp.MustCompile("`([^`\n]+)`")
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	docLink    = regexp.MustCompile(`\[\*?([A-Za-z_][\w/]*\.[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\]`)
	pathWord   = regexp.MustCompile(`/?[A-Za-z0-9_.*-]+(?:/[A-Za-z0-9_.*+-]+)+/?|[A-Za-z0-9_-]+\.(?:go|md|c|h|sh|txt)\b`)
	qualified  = regexp.MustCompile(`\b[A-Za-z_][\w/]*\.[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?\b`)
	bareIdent  = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9]*)(?:\(.*\))?$`)
	camelCase  = regexp.MustCompile(`[a-z][A-Z]`)
)

// docWords returns the candidate paths and the candidate Go names of a
// document: a Markdown file's backquoted spans and links, a doc.go's
// comments.
func docWords(t *testing.T, path string) (paths, idents []docWord) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if strings.HasSuffix(path, ".go") {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, b, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		comments := f.Comments
		if filepath.Base(path) != "doc.go" {
			comments = []*ast.CommentGroup{f.Doc}
		}
		for _, cg := range comments {
			for _, c := range cg.List {
				line := fset.Position(c.Pos()).Line
				for i, l := range strings.Split(c.Text, "\n") {
					for _, w := range pathWord.FindAllString(l, -1) {
						paths = append(paths, docWord{strings.TrimRight(w, ".,;:)"), line + i})
					}
					for _, w := range qualified.FindAllString(l, -1) {
						idents = append(idents, docWord{w, line + i})
					}
					for _, m := range backquoted.FindAllStringSubmatch(l, -1) {
						if bareIdent.MatchString(m[1]) {
							idents = append(idents, docWord{m[1], line + i})
						}
					}
				}
			}
		}
		return paths, idents
	}
	inFence := false
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range backquoted.FindAllStringSubmatch(l, -1) {
			span := m[1]
			first := strings.Fields(span)
			if len(first) == 0 {
				continue
			}
			if pathWord.MatchString(first[0]) && pathWord.FindString(first[0]) == first[0] {
				paths = append(paths, docWord{first[0], i + 1})
			}
			if qualified.FindString(span) == span || bareIdent.MatchString(span) {
				idents = append(idents, docWord{span, i + 1})
			}
		}
		for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			paths = append(paths, docWord{"./" + target, i + 1})
		}
	}
	return paths, idents
}

// sourceExt are the extensions of file names, which are not Go names.
var sourceExt = []string{".go", ".md", ".c", ".h", ".sh", ".txt"}

// checkedExt are the extensions a bare file name is checked by.
var checkedExt = []string{".go", ".md"}

// checkPath checks a candidate path cited in a document in dir; "" when
// it exists or is not the repository's.
func checkPath(root, dir, w string) string {
	if strings.HasPrefix(w, "./") { // a Markdown link, relative to the document
		p := filepath.Join(dir, w)
		if _, err := os.Stat(p); err != nil {
			return "links to " + w[2:] + ", which does not exist"
		}
		return ""
	}
	w, _, _ = strings.Cut(w, ":")
	if w == "" || strings.HasPrefix(w, "/") || strings.HasPrefix(w, ".") {
		return ""
	}
	if !strings.Contains(w, "/") {
		ok := false
		for _, e := range checkedExt {
			ok = ok || strings.HasSuffix(w, e)
		}
		if !ok {
			return ""
		}
		if _, err := os.Stat(filepath.Join(dir, w)); err == nil {
			return ""
		}
		found := false
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || found {
				return filepath.SkipDir
			}
			if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
				return filepath.SkipDir
			}
			found = d.Name() == w
			return nil
		})
		if !found {
			return "cites " + w + ", which is no file of the repository"
		}
		return ""
	}
	first, _, _ := strings.Cut(w, "/")
	if strings.ContainsAny(first, "*") {
		return ""
	}
	if _, err := os.Stat(filepath.Join(root, first)); err != nil {
		return "" // not the repository's
	}
	if strings.Contains(w, "*") {
		if m, _ := filepath.Glob(filepath.Join(root, w)); len(m) == 0 {
			return "cites " + w + ", which matches no file"
		}
		return ""
	}
	if _, err := os.Stat(filepath.Join(root, w)); err != nil {
		return "cites " + w + ", which does not exist"
	}
	return ""
}

// declSet is what the repository's Go files declare.
type declSet struct {
	pkgs    map[string][]string        // package name or path -> directories
	top     map[string]map[string]bool // directory -> top-level names
	members map[string]map[string]bool // type name -> its methods and fields (any package)
	all     map[string]bool            // every top-level name, method and field
}

// repoDecls parses every Go file of the repository but testdata's.
func repoDecls(t *testing.T, root string) *declSet {
	d := &declSet{pkgs: map[string][]string{}, top: map[string]map[string]bool{}, members: map[string]map[string]bool{}, all: map[string]bool{}}
	seenPkg := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, de os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if de.IsDir() {
			if p != root && (strings.HasPrefix(de.Name(), ".") || de.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.Dir(p)
		name := strings.TrimSuffix(f.Name.Name, "_test")
		if !seenPkg[dir+" "+name] {
			seenPkg[dir+" "+name] = true
			rel, _ := filepath.Rel(root, dir)
			d.pkgs[name] = append(d.pkgs[name], dir)
			if rel != name {
				d.pkgs[filepath.ToSlash(rel)] = append(d.pkgs[filepath.ToSlash(rel)], dir)
			}
		}
		if d.top[dir] == nil {
			d.top[dir] = map[string]bool{}
		}
		addMember := func(typ, name string) {
			if d.members[typ] == nil {
				d.members[typ] = map[string]bool{}
			}
			d.members[typ][name] = true
			d.all[name] = true
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv != nil && len(decl.Recv.List) == 1 {
					addMember(recvType(decl.Recv.List[0].Type), decl.Name.Name)
					continue
				}
				d.top[dir][decl.Name.Name] = true
				d.all[decl.Name.Name] = true
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						d.top[dir][spec.Name.Name] = true
						d.all[spec.Name.Name] = true
						if d.members[spec.Name.Name] == nil {
							d.members[spec.Name.Name] = map[string]bool{}
						}
						switch st := spec.Type.(type) {
						case *ast.StructType:
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									addMember(spec.Name.Name, n.Name)
								}
								if len(fl.Names) == 0 { // embedded: its name
									addMember(spec.Name.Name, recvType(fl.Type))
								}
							}
						case *ast.InterfaceType:
							for _, fl := range st.Methods.List {
								for _, n := range fl.Names {
									addMember(spec.Name.Name, n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							d.top[dir][n.Name] = true
							d.all[n.Name] = true
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// recvType is the name of a receiver's or an embedded field's type.
func recvType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.SelectorExpr:
			return x.Sel.Name
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// check checks a candidate Go name; "" when it is declared or is not
// checked by the rules.
func (d *declSet) check(w string) string {
	if m := bareIdent.FindStringSubmatch(w); m != nil {
		name := m[1]
		call := strings.HasSuffix(w, ")") && name[0] >= 'A' && name[0] <= 'Z'
		if !(camelCase.MatchString(name) || call) || d.all[name] {
			return ""
		}
		return "cites " + w + ", which nothing in the repository declares"
	}
	w, _, _ = strings.Cut(w, "(")
	parts := strings.Split(w, ".")
	if len(parts) < 2 {
		return ""
	}
	// The package is the longest prefix that names one; file names
	// (pahole.go, Makefile.btf) are paths' business.
	last := parts[len(parts)-1]
	for _, e := range sourceExt {
		if "."+last == e {
			return ""
		}
	}
	if dirs, ok := d.pkgs[parts[0]]; ok {
		name := parts[1]
		for _, dir := range dirs {
			if !d.top[dir][name] {
				continue
			}
			if len(parts) == 2 || d.members[name][parts[2]] {
				return ""
			}
		}
		return "cites " + w + ", which package " + parts[0] + " does not declare"
	}
	if members, ok := d.members[parts[0]]; ok && len(parts) == 2 {
		if members[parts[1]] {
			return ""
		}
		return "cites " + w + ", but type " + parts[0] + " has no method or field " + parts[1]
	}
	return ""
}

// TestDocReferenceRules: the rules of TestDocReferences catch what they
// are for and leave alone what is not the repository's.
func TestDocReferenceRules(t *testing.T) {
	root := Root(t)
	d := repoDecls(t, root)
	for _, c := range []struct {
		name string
		bad  bool
	}{
		{"btf.Spec", false}, {"btf.Spec.Check", false}, {"dedup.Stream", false},
		{"encode/internal/funcvar.ReadELF", false}, {"testenv.SkipOrFail", false}, {"SkipOrFail", false},
		{"io.Reader", false}, {"Finish", false}, {"param__member", false}, {"e.g", false},
		{"btf.NoSuchThing", true}, {"btf.Spec.NoSuchMethod", true}, {"testenv.skipOrFail", true},
		{"SkipOrFails", true}, {"declSet.nosuch", true}, {"declSet.check", false},
		{"Root(t)", false}, {"Nosuchfunc()", true}, {"sizeof(x)", false},
	} {
		if msg := d.check(c.name); (msg != "") != c.bad {
			t.Errorf("%s: %q, want bad=%v", c.name, msg, c.bad)
		}
	}
	here := filepath.Join(root, "internal", "testsupport", "testenv")
	for _, c := range []struct {
		path string
		bad  bool
	}{
		{"internal/testsupport/testenv/root.go", false}, {"cmd/btfkit", false}, {"cmd/btfkit/", false},
		{"cmd/btfkit/*.go", false}, {"cmd/btfkit/pahole.go:12", false}, {"root.go", false}, {"pahole.go", false},
		{"/sys/kernel/btf/vmlinux", false}, {"kernel/bpf/btf.c", false}, {"vmlinux.h", false},
		{"cmd/btfkit/nosuch.go", true}, {"cmd/nosuch/*.go", true}, {"nosuch.go", true}, {"./nosuch.md", true}, {"./doc.go", false},
	} {
		if msg := checkPath(root, here, c.path); (msg != "") != c.bad {
			t.Errorf("%s: %q, want bad=%v", c.path, msg, c.bad)
		}
	}
}
