package kmod

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// suffixes are the endings of module file names, longest first.
var suffixes = []string{".ko.xz", ".ko.zst", ".ko.gz", ".ko"}

// Module is a kernel module file, plain or compressed.
type Module struct {
	Path string // the file
	Name string // its base name without the .ko (and compression) suffix
}

// Name returns the module name of a file name (a/b/mod.ko.xz -> mod), or
// the base name unchanged when it has no module suffix.
func Name(path string) string {
	b := filepath.Base(path)
	for _, s := range suffixes {
		if strings.HasSuffix(b, s) && len(b) > len(s) {
			return b[:len(b)-len(s)]
		}
	}
	return b
}

// IsModule reports whether the file name is a module's: it ends in .ko,
// .ko.xz, .ko.zst or .ko.gz after a non-empty name.
func IsModule(path string) bool { return Name(path) != filepath.Base(path) }

// IsCompressed reports whether the file name is a compressed module's
// (.ko.xz, .ko.zst, .ko.gz).
func IsCompressed(path string) bool { return IsModule(path) && !strings.HasSuffix(path, ".ko") }

// Find expands inputs into modules: a file is taken as it is, whatever
// its name; a directory is searched recursively for module files
// (IsModule). The result is in input order, each directory's modules
// sorted by path. A directory without modules and two modules of the same
// name (their outputs would have the same name) are errors.
func Find(inputs []string) ([]Module, error) { return find(inputs, true) }

// FindAll is Find for readers that write nothing per module (btfkit
// check --tree): two modules of the same name are both kept.
func FindAll(inputs []string) ([]Module, error) { return find(inputs, false) }

func find(inputs []string, unique bool) ([]Module, error) {
	var mods []Module
	seen := map[string]string{}
	add := func(p string) error {
		m := Module{Path: p, Name: Name(p)}
		if prev, dup := seen[m.Name]; dup && unique {
			return fmt.Errorf("two modules named %s: %s and %s", m.Name, prev, p)
		}
		seen[m.Name] = p
		mods = append(mods, m)
		return nil
	}
	for _, in := range inputs {
		st, err := os.Stat(in)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			if err := add(in); err != nil {
				return nil, err
			}
			continue
		}
		var found []string
		err = filepath.WalkDir(in, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && IsModule(p) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no kernel modules (*.ko, *.ko.xz, *.ko.zst, *.ko.gz) in it", in)
		}
		sort.Strings(found)
		for _, p := range found {
			if err := add(p); err != nil {
				return nil, err
			}
		}
	}
	return mods, nil
}
