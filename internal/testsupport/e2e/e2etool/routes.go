package main

// e2etool route-causes: the differences between the DWARF route's and the
// BTF-archive route's BTF of one kernel, by cause (internal/routediff).

import (
	"fmt"
	"os"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/internal/routediff"
)

// routeCauses compares the two routes' BTF and prints, for the types
// (every kind but FUNC, FUNC_PROTO, VAR, DATASEC) and for the functions
// and variables (FUNC, VAR, DATASEC), one "GROUP\tN\tCAUSE" line per
// cause; GROUP\t0\tno difference when a group has none. The lines no
// cause explains go to stderr, and make it fail.
func routeCauses(dwarfPath, archivePath, dwarfReport, archiveReport, elfPath, archiveELF string) error {
	a, err := btf.LoadFile(dwarfPath, nil)
	if err != nil {
		return err
	}
	b, err := btf.LoadFile(archivePath, nil)
	if err != nil {
		return err
	}
	in := routediff.Inputs{DWARF: a, Archive: b}
	if in.DWARFReport, err = readReport(dwarfReport); err != nil {
		return err
	}
	if in.ArchiveReport, err = readReport(archiveReport); err != nil {
		return err
	}
	if in.MultiDefined, err = routediff.MultiDefined(archiveELF); err != nil {
		return err
	}
	if in.Local, err = routediff.LocalTypes(elfPath); err != nil {
		return err
	}
	funcKinds := []btf.Kind{btf.KindFunc, btf.KindFuncProto, btf.KindVar, btf.KindDatasec}
	groups := []struct {
		name string
		opts diff.Options
	}{
		{"types", diff.Options{ExcludeKinds: funcKinds}},
		{"funcs", diff.Options{Kinds: []btf.Kind{btf.KindFunc, btf.KindVar, btf.KindDatasec}}},
	}
	var unexplained []string
	for _, g := range groups {
		r := diff.Compare(a, b, g.opts)
		if r.Equal() {
			fmt.Printf("%s\t0\tno difference\n", g.name)
			continue
		}
		res := routediff.Classify(r.Diffs, in)
		for _, line := range res.Summary() {
			n, cause, _ := strings.Cut(line, " ")
			fmt.Printf("%s\t%s\t%s\n", g.name, n, cause)
		}
		for _, u := range res.Unexplained {
			unexplained = append(unexplained, g.name+": "+u)
		}
	}
	if len(unexplained) > 0 {
		for _, u := range unexplained {
			fmt.Fprintln(os.Stderr, u)
		}
		return fmt.Errorf("%d differences no known cause explains", len(unexplained))
	}
	return nil
}

// readReport reads btfkit encode -v's "NAME: REASON" lines.
func readReport(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if name, why, ok := strings.Cut(l, ": "); ok && !strings.HasPrefix(l, "#") {
			m[name] = why
		}
	}
	return m, nil
}
