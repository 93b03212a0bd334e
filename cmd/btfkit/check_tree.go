package main

// btfkit check --tree: every module of a kernel's module tree checked as
// the target kernel's module loader would take it (package modcheck).

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/kmod"
	"github.com/btfkit/btfkit/modcheck"
	"github.com/spf13/cobra"
)

func runCheckTree(cmd *cobra.Command) error {
	st, err := os.Stat(checkOpts.tree)
	if err != nil {
		return fmt.Errorf("--tree: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("--tree %s: not a directory", checkOpts.tree)
	}
	var opts modcheck.Options
	if checkOpts.target != "" {
		v, err := btf.ParseKernelVersion(checkOpts.target)
		if err != nil {
			return err
		}
		opts.Kernel = v
	}
	opts.Jobs = checkOpts.jobs
	opts.MaxProblems = checkOpts.max
	mods, err := kmod.FindAll([]string{checkOpts.tree})
	if err != nil {
		return err
	}
	fromTree := ""
	if checkOpts.target == "" {
		if v, dir, ok := treeRelease(mods[0].Path); ok {
			opts.Kernel, fromTree = v, " (from "+dir+")"
		}
	}
	basePath := checkOpts.base
	if basePath == "" {
		if basePath, err = findVmlinux(checkOpts.tree); err != nil {
			return err
		}
	}
	base, err := modcheck.LoadBase(basePath)
	if err != nil {
		return fmt.Errorf("base: %w", err)
	}

	out := bufio.NewWriter(cmd.OutOrStdout())
	prog := newProgress(cmd.ErrOrStderr(), len(mods), "modules", checkOpts.quiet)
	var nProblems, nBad, nNoBTF, nDistilled int
	modcheck.Run(base, mods, opts, func(r modcheck.Result) {
		prog.step()
		if !r.HasBTF && len(r.Problems) == 0 {
			nNoBTF++
		}
		if r.Distilled {
			nDistilled++
		}
		if len(r.Problems) > 0 {
			nBad++
			nProblems += len(r.Problems)
		}
		for _, p := range r.Problems {
			fmt.Fprintf(out, "%s: %s\n", r.Module.Path, problemLine(p))
		}
	})
	prog.done()
	target := "the newest kernel's rules"
	if !opts.Kernel.IsZero() {
		target = "Linux " + opts.Kernel.String() + "'s rules" + fromTree
	}
	fmt.Fprintf(out, "%d module%s checked against %s by %s (%d without BTF, %d with a distilled base): %d problem%s in %d module%s\n",
		len(mods), plural(len(mods)), basePath, target, nNoBTF, nDistilled, nProblems, plural(nProblems), nBad, plural(nBad))
	if err := out.Flush(); err != nil {
		return err
	}
	if nProblems > 0 {
		return exitError{1}
	}
	return nil
}

// problemLine is a module problem as check prints it: the type when
// there is one, the detail, the rule.
func problemLine(p btf.Problem) string {
	if p.ID == 0 && p.Name != "" {
		return fmt.Sprintf("%s '%s': %s (%s)", p.Kind, p.Name, p.Detail, p.Rule)
	}
	return p.String()
}

// findVmlinux finds the one vmlinux of an unpacked kernel package: an ELF
// file named vmlinux or vmlinux-* under dir.
func findVmlinux(dir string) (string, error) {
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		n := d.Name()
		if d.IsDir() || n != "vmlinux" && !strings.HasPrefix(n, "vmlinux-") {
			return nil
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() { // a symlink to a file too
			if f, err := os.Open(p); err == nil {
				head := make([]byte, 4)
				_, _ = f.Read(head)
				f.Close()
				if elfx.IsELF(head) {
					found = append(found, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("--tree %s: no vmlinux in it; give the modules' vmlinux (or its BTF) with --base", dir)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("--tree %s: %d vmlinux files in it (%s, %s, ...); choose one with --base", dir, len(found), found[0], found[1])
}

// treeRelease is the release of a module under lib/modules/VERSION (a
// module tree's layout: /lib/modules/6.1.0-57-cloud-amd64/kernel/...),
// whose rules --tree applies when --target-kernel is not given.
func treeRelease(module string) (v btf.KernelVersion, dir string, ok bool) {
	parts := strings.Split(filepath.ToSlash(module), "/")
	for i := len(parts) - 2; i >= 1; i-- {
		if parts[i-1] != "modules" || parts[i] == "" || parts[i][0] < '0' || parts[i][0] > '9' {
			continue
		}
		if v, err := btf.ParseKernelVersion(parts[i]); err == nil {
			return v, "modules/" + parts[i], true
		}
	}
	return v, "", false
}
