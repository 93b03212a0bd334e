package layout_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/layout"
)

// listDWARF is what `pahole FILE` prints from the DWARF of an ELF file,
// printed with the library as btfkit pahole prints it: every compile
// unit converted and prepared in parallel (a layout.Batch) and written in
// order.
func listDWARF(t *testing.T, path string, o layout.Options) (out string, missing string) {
	t.Helper()
	return listDWARFJobs(t, path, o, 0)
}

// listDWARFJobs is listDWARF converting jobs units at a time.
func listDWARFJobs(t *testing.T, path string, o layout.Options, jobs int) (out string, missing string) {
	t.Helper()
	outs, missings := listDWARFBatches(t, path, []layout.Options{o}, jobs)
	return outs[0], missings[0]
}

// listDWARFBatches lists the DWARF of path once per set of options, in
// one walk over its units, each listing through a layout.Batch.
func listDWARFBatches(t *testing.T, path string, opts []layout.Options, jobs int) (outs, missing []string) {
	t.Helper()
	ls := make([]*layout.Listing, len(opts))
	batches := make([]*layout.Batch, len(opts))
	bufs := make([]bytes.Buffer, len(opts))
	stopped := make([]bool, len(opts))
	eo := encode.Options{Features: encode.DefaultFeatures, Jobs: jobs}
	for i, o := range opts {
		ls[i] = layout.NewListing(o)
		batches[i] = ls[i].NewBatch()
		eo.DeclInfo = eo.DeclInfo || o.ShowDeclInfo || o.DeclExcludePrefix != nil || (o.Packable && o.AnonInclude)
	}
	errStop := fmt.Errorf("stop")
	err := encode.MapUnits(path, eo, func(u encode.Unit) ([]*layout.Prepared, error) {
		ps := make([]*layout.Prepared, len(batches))
		for i, b := range batches {
			ps[i] = b.Prepare(u.Index, u.Name, u.Spec, u.Facts)
		}
		return ps, nil
	}, func(ps []*layout.Prepared) error {
		left := 0
		for i, b := range batches {
			if stopped[i] {
				continue
			}
			stop, err := b.Write(&bufs[i], ps[i])
			if err != nil {
				return err
			}
			stopped[i] = stop
			if !stop {
				left++
			}
		}
		if left == 0 {
			return errStop
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		t.Fatalf("%s: %v", path, err)
	}
	for i, l := range ls {
		if err := l.Finish(&bufs[i]); err != nil {
			t.Fatal(err)
		}
		m, _ := l.Missing()
		outs = append(outs, bufs[i].String())
		missing = append(missing, m)
	}
	return outs, missing
}

// listBTF is what `pahole -F btf FILE` prints from one BTF Spec.
func listBTF(t *testing.T, s *btf.Spec, o layout.Options) (out string, missing string) {
	t.Helper()
	return listBTFFile(t, s, "", o)
}

// listBTFFile is listBTF for the BTF of the file path (the unit's name,
// which -I prints).
func listBTFFile(t *testing.T, s *btf.Spec, path string, o layout.Options) (out string, missing string) {
	t.Helper()
	l := layout.NewListing(o)
	var b bytes.Buffer
	if _, err := l.NamedUnit(&b, path, s, nil); err != nil {
		t.Fatal(err)
	}
	missing, _ = l.Missing()
	return b.String(), missing
}

// paholeOut runs a pahole binary and returns its standard output; the
// test fails if it exits with an error.
func paholeOut(t *testing.T, pahole string, args ...string) string {
	t.Helper()
	cmd := exec.Command(pahole, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", pahole, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// diffTypes reports the first type whose text differs between got and
// want (both pahole listings), with both texts, and how many differ.
func diffTypes(got, want string) string {
	g, w := splitTypes(got), splitTypes(want)
	n, first := 0, ""
	for i := 0; i < max(len(g), len(w)); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			if n == 0 {
				first = fmt.Sprintf("type %d differs:\n--- got\n%s\n--- want\n%s", i, a, b)
			}
			n++
		}
	}
	return fmt.Sprintf("%d of %d types differ (want %d); %s", n, len(g), len(w), first)
}

// splitTypes splits a listing at each line that starts a top-level type.
func splitTypes(s string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" && line[0] != '\t' && line[0] != '}' && line[0] != '\n' && cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
		cur.WriteString(line)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
