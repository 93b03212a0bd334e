package layout_test

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/layout"
)

// TestListFiles: ListFiles reads a file as pahole's loader does, in the
// first format of the list it has, and prints pahole 1.32's listing of
// it (the pahole on PATH, run with the same -F); the files it cannot
// read give a *NoInfoError saying why.
func TestListFiles(t *testing.T) {
	testc.Require(t, "pahole")
	obj := testc.Compile(t, filepath.Join("testdata", "agree.c"), testc.Variant{CC: testc.GCC, Flags: []string{"-g"}})
	for _, fp := range []string{"dwarf", "ctf,dwarf", "btf,dwarf"} {
		var b bytes.Buffer
		l := layout.NewListing(layout.Options{ClassNames: strings.Split(agreeNames, ",")})
		if err := l.ListFiles(&b, []string{obj}, layout.Inputs{Formats: input.PaholeFormats(fp)}); err != nil {
			t.Fatalf("-F %s: %v", fp, err)
		}
		want := paholeOut(t, "pahole", "-F", fp, "-C", agreeNames, obj)
		if b.String() != want {
			t.Errorf("-F %s: %s", fp, diffTypes(b.String(), want))
		}
	}

	list := func(paths []string, fs input.Formats) error {
		var b bytes.Buffer
		return layout.NewListing(layout.Options{}).ListFiles(&b, paths, layout.Inputs{Formats: fs})
	}
	missing := filepath.Join(t.TempDir(), "missing.o")
	err := list([]string{missing}, nil)
	var ni *layout.NoInfoError
	if !errors.As(err, &ni) || ni.Path != missing || ni.Missing == nil || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	err = list([]string{obj}, input.Formats{input.BTF})
	if !errors.As(err, &ni) || ni.Missing != nil || ni.Unsupported || !strings.Contains(err.Error(), obj+": no btf type information") {
		t.Errorf("-F btf of a file without BTF: %v", err)
	}
	err = list([]string{obj}, input.PaholeFormats("foo,dwarf"))
	if !errors.As(err, &ni) || !ni.Unsupported {
		t.Errorf("-F foo,dwarf: %v; want Unsupported (pahole stops at a format it has no loader for)", err)
	}
	if err := list(nil, input.Formats{input.DWARF}); err == nil || !strings.Contains(err.Error(), "needs -F btf") {
		t.Errorf("no files with -F dwarf: %v", err)
	}
}
