package main

// pahole without -J: struct and union layouts (package layout), with
// pahole 1.32's command line, messages and exit statuses:
//
//	pahole [-F dwarf|btf|btf,dwarf] [-C NAMES] [--hex] [-c SIZE] [--btf_base BASE] [FILE...]
//
// pahole's layout options are plumbed through a registry so that each can
// live in its own file: a file that implements options calls
// registerPaholeLayoutFlags from an init function with the flags' pahole
// names, short letters, argument names and an apply function that sets
// layout.Options (and, for `btfkit layout`, adds its native flag to
// layoutCmd in the same init) and takes the option out of
// paholeUnsupported, the options refused with a clear message
// (TestPaholeUnsupportedRefused checks that none is both). This file registers -C, -c,
// --hex and --skip_missing; -F and --btf_base are pahole.go's flags,
// read here.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/layout"
)

// paholeLayoutFlag is one of pahole's options for printing layouts.
type paholeLayoutFlag struct {
	short, name string
	arg         string // the argument's name in --help; "" for a switch
	help        string
	// apply records the option's value ("true" for a switch).
	apply func(l *paholeLayout, value string) error
}

var paholeLayoutFlags []paholeLayoutFlag

// registerPaholeLayoutFlags adds options to pahole's command line for
// layouts; call it from an init function.
func registerPaholeLayoutFlags(flags ...paholeLayoutFlag) {
	paholeLayoutFlags = append(paholeLayoutFlags, flags...)
}

// paholeLayoutFlagNamed reports whether a long option is registered.
func paholeLayoutFlagNamed(name string) bool {
	for _, f := range paholeLayoutFlags {
		if f.name == name {
			return true
		}
	}
	return false
}

// paholeLayout is a pahole command line that prints layouts.
type paholeLayout struct {
	opts       layout.Options
	classNames string // -C, the last one given (pahole keeps one)
	hasClasses bool
	formats    string // -F, the last one given
	base       string // --btf_base
	jobs       int    // -j: DWARF units converted in parallel
	files      []string
	set        []string // registered options given, in order
	tableStats bool     // --ptr_table_stats (pahole_stats.go)
}

// paholeAtoi is C's atoi: leading blanks, a sign, digits; 0 otherwise.
func paholeAtoi(s string) int {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, _ := strconv.Atoi(s[:end])
	return n
}

func init() {
	registerPaholeLayoutFlags(
		paholeLayoutFlag{short: "C", name: "class_name", arg: "CLASS_NAME", help: "Show just this class",
			apply: func(l *paholeLayout, v string) error { l.classNames, l.hasClasses = v, true; return nil }},
		paholeLayoutFlag{short: "c", name: "cacheline_size", arg: "SIZE", help: "set cacheline size to SIZE",
			apply: func(l *paholeLayout, v string) error { l.opts.CachelineSize = paholeAtoi(v); return nil }},
		paholeLayoutFlag{name: "hex", help: "Print offsets and sizes in hexadecimal",
			apply: func(l *paholeLayout, v string) error { l.opts.Hex = true; return nil }},
		paholeLayoutFlag{name: "skip_missing", help: "skip missing types passed to -C rather than stop",
			apply: func(l *paholeLayout, v string) error { l.opts.SkipMissing = true; return nil }},
	)
}

// paholeLayoutValue feeds a registered option's value to its apply.
type paholeLayoutValue struct {
	f *paholeLayoutFlag
	l *paholeLayout
}

func (v paholeLayoutValue) String() string { return "" }
func (v paholeLayoutValue) Set(s string) error {
	v.l.set = append(v.l.set, v.f.name)
	return v.f.apply(v.l, s)
}
func (v paholeLayoutValue) Type() string {
	if v.f.arg == "" {
		return "bool"
	}
	return "string"
}

// addPaholeLayoutFlags adds the registered options to fs and returns the
// command line they fill.
func addPaholeLayoutFlags(fs *pflag.FlagSet) *paholeLayout {
	l := &paholeLayout{}
	for i := range paholeLayoutFlags {
		f := &paholeLayoutFlags[i]
		fl := fs.VarPF(paholeLayoutValue{f, l}, f.name, f.short, f.help)
		if f.arg == "" {
			fl.NoOptDefVal = "true"
		}
	}
	return l
}

// paholeLayoutArg is the argument a registered option shows in --help.
func paholeLayoutArg(name string) string {
	for _, f := range paholeLayoutFlags {
		if f.name == name && f.arg != "" {
			return "=" + f.arg
		}
	}
	return ""
}

// paholeLayoutParsed finishes a layout command line: formats and files.
func paholeLayoutParsed(c *paholeConfig, fs *pflag.FlagSet, formats []string) (*paholeConfig, *pflag.FlagSet, error) {
	l := c.layout
	// pahole 1.32's message (1.31 named the option --class).
	if fs.Changed("nr_methods") && l.hasClasses {
		return nil, fs, &paholeError{1, "pahole: -m/nr_methods doesn't work with --class_name/-C, it shows all classes and the number of its methods"}
	}
	for _, u := range paholeUnsupported {
		if fs.Changed(u.name) {
			return nil, fs, &paholeError{1, fmt.Sprintf("pahole: option '--%s' is pahole's, but btfkit pahole does not implement it yet", u.name)}
		}
	}
	if len(formats) > 0 {
		l.formats = formats[len(formats)-1]
	}
	l.base = c.base
	l.jobs = c.jobs
	l.files = fs.Args()
	c.layoutMode = true
	return c, fs, nil
}

// paholeEncodeChangers are the layout options that change what pahole -J
// encodes: they filter the units before the encoder sees them (pahole's
// cu__filter). btfkit pahole does not implement them with -J.
var paholeEncodeChangers = []string{"cu_exclude", "lang"}

// paholeEncodeIgnoresLayout: with -J pahole accepts every option for
// printing layouts and ignores it (the encoder takes each unit before
// they are looked at), so btfkit does too, except paholeEncodeChangers,
// refused with a message.
func paholeEncodeIgnoresLayout(fs *pflag.FlagSet) error {
	for _, name := range paholeEncodeChangers {
		if fs.Changed(name) {
			return &paholeError{1, fmt.Sprintf("pahole: option '--%s' leaves units out of what -J encodes; btfkit pahole does not implement it with -J", name)}
		}
	}
	return nil
}

// paholeClassNames splits a -C list as pahole does: commas separate names
// except inside parentheses, a trailing comma ends the list, and
// file://PATH (or @PATH) reads names from PATH, one a line.
func paholeClassNames(list string) ([]string, error) {
	var names []string
	add := func(s string) error {
		file, ok := strings.CutPrefix(s, "file://")
		if !ok {
			file, ok = strings.CutPrefix(s, "@")
		}
		if !ok {
			names = append(names, s)
			return nil
		}
		more, err := layoutClassNames("@" + file)
		if err != nil {
			return err
		}
		names = append(names, more...)
		return nil
	}
	s := list
	for {
		sep := strings.IndexByte(s, ',')
		if sep < 0 {
			break
		}
		if p := strings.IndexByte(s, '('); p >= 0 && p < sep {
			q := strings.IndexByte(s[p:], ')')
			if q < 0 {
				return nil, fmt.Errorf("Unterminated '(' in '%s'", list)
			}
			if p+q > sep {
				sep = p + q + 1
				if sep >= len(s) {
					break
				}
			}
		}
		if err := add(s[:sep]); err != nil {
			return nil, err
		}
		if sep+1 == len(s) {
			return names, nil
		}
		s = s[sep+1:]
	}
	return names, add(s)
}

// paholeVmlinuxPaths are where pahole looks for the running kernel's
// vmlinux with DWARF (its vmlinux_path), %s the release.
var paholeVmlinuxPaths = []string{
	"vmlinux",
	"/boot/vmlinux",
	"/boot/vmlinux-%s",
	"/usr/lib/debug/boot/vmlinux-%s",
	"/lib/modules/%s/build/vmlinux",
	"/usr/lib/debug/lib/modules/%s/vmlinux",
	"/usr/lib/debug/boot/vmlinux-%s.debug",
}

func paholeRunningVmlinux() string {
	rel, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	r := strings.TrimSpace(string(rel))
	for _, p := range paholeVmlinuxPaths {
		if strings.Contains(p, "%s") {
			p = fmt.Sprintf(p, r)
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// run prints the layouts and returns pahole's exit status.
func (l *paholeLayout) run(stdout, stderr io.Writer) int {
	if l.opts.NrDefinitions && l.hasClasses {
		// pahole 1.32 refuses it (1.31 crashed).
		fmt.Fprintln(stderr, "pahole: -T/nr_definitions doesn't work with --class_name/-C, it shows all classes and the number of times they are defined")
		return 1
	}
	fp := l.formats
	if l.base != "" {
		fp = "btf" // pahole reads only BTF when given a base
	}
	formats := input.PaholeFormats(fp)
	files := l.files
	classes := l.classNames
	hasClasses := l.hasClasses
	for {
		o := l.opts
		o.ExpansionsCut = expansionsCutNote(stderr, 0)
		if hasClasses {
			names, err := paholeClassNames(classes)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
			o.ClassNames = names
		}
		var tables *tableStats
		if l.tableStats {
			tables = &tableStats{w: stderr}
		}
		listing := layout.NewListing(o)
		err := paholeListFiles(stdout, listing, files, fp, layoutFileInputs(formats, l.base, l.jobs, stderr, tables))
		var ni *layout.NoInfoError
		switch {
		case err == nil:
			if name, ok := listing.Missing(); ok {
				fmt.Fprintf(stderr, "pahole: type '%s' not found\n", name)
			} else if name, ok := listing.Unfound(); ok {
				// pahole 1.32 says nothing (--sort); its status, 0, is kept.
				fmt.Fprintf(stderr, "pahole: type '%s' not found (btfkit's note: pahole 1.32 prints nothing here)\n", name)
			}
			return 0
		case errors.As(err, &ni) && !hasClasses && len(files) > 0:
			// pahole: a FILE it cannot read is a type name to look
			// for in the running kernel.
			if _, serr := os.Stat(ni.Path); serr == nil {
				if ni.Reason != nil {
					fmt.Fprintf(stderr, "pahole: %v\n", ni.Reason)
				}
				what := fp
				if what == "" {
					what = "supported"
				}
				fmt.Fprintf(stderr, "pahole: file '%s' has no %s type information.\n", ni.Path, what)
				return 1
			}
			classes, hasClasses, files = ni.Path, true, nil
			continue
		case errors.As(err, &ni) && len(files) == 0:
			if fp != "" {
				fp = " " + fp
			}
			fmt.Fprintf(stderr, "pahole: couldn't find any%s debug information on this system.\n", fp)
			return 1
		case errors.As(err, &ni) && ni.Unsupported:
			// -F named a format pahole has no loader for.
			fmt.Fprintf(stderr, "pahole: %s: Operation not supported\n", ni.Path)
			return 1
		case errors.As(err, &ni):
			fmt.Fprintf(stderr, "pahole: %s: Invalid argument\n", ni.Path)
			return 1
		default:
			fmt.Fprintf(stderr, "pahole: %v\n", err)
			return 1
		}
	}
}

// paholeListFiles is ListFiles with pahole's choice of input when there
// is no FILE: the running kernel's BTF, then its vmlinux with DWARF. A
// choice that has none of its format lists nothing, so the next one
// starts the same listing afresh.
func paholeListFiles(w io.Writer, l *layout.Listing, files []string, formatPath string, in layout.Inputs) error {
	if len(files) > 0 {
		return l.ListFiles(w, files, in)
	}
	sysfs := filepath.Join(btf.SysfsDir, "vmlinux")
	if formatPath == "" || strings.Contains(formatPath, "btf") {
		if _, err := os.Stat(sysfs); err == nil {
			in.Formats = input.Formats{input.BTF}
			err := l.ListFiles(w, []string{sysfs}, in)
			var ni *layout.NoInfoError
			if err == nil || !errors.As(err, &ni) {
				return err
			}
		}
		if formatPath == "btf" {
			return &layout.NoInfoError{Path: sysfs, Formats: input.Formats{input.BTF}}
		}
	}
	vmlinux := paholeRunningVmlinux()
	if vmlinux == "" {
		return &layout.NoInfoError{Formats: input.Formats{input.DWARF}}
	}
	in.Formats = input.Formats{input.DWARF}
	return l.ListFiles(w, []string{vmlinux}, in)
}
