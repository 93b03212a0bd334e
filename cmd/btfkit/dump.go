package main

// btfkit dump: print BTF in a chosen format.
//
// Adding a format (the hook): a format lives in its own file and registers
// itself from that file's init function:
//
//	func init() {
//		registerDumpFormat("c", dumpFormat{
//			Help:    "C header (vmlinux.h style), like 'bpftool btf dump file F format c'",
//			Heading: func(label string) string { return "/* " + label + " */\n" },
//			Dump:    func(w io.Writer, s *btf.Spec) error { return cdump.Write(w, s) },
//		})
//		// Format-specific flags, if any, go on dumpCmd.Flags() here too.
//	}
//
// The command loads every input (raw BTF, ELF .BTF, /sys/kernel/btf/...,
// archives; --base applied to each), then calls Dump once per Spec with a
// writer that needs no extra buffering from the format. When more than one
// Spec is printed (several FILEs, or a BTF archive's members), each listing
// is preceded by Heading(label), so a format can make headings that are
// comments in its own syntax. A format's Dump must write only the Spec's own
// types for a split Spec; base types are reachable through s.Base().
// A format that needs the whole command (one output for all inputs, its own
// flags) may wrap dumpCmd.RunE from its init and fall back to the previous
// RunE for other formats, as dumpc.go does for "c".

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/cdump"
	"github.com/btfkit/btfkit/input"
	"github.com/spf13/cobra"
)

// dumpFormat is one output format of 'btfkit dump'.
type dumpFormat struct {
	// Help is a one-line description for --help.
	Help string
	// Heading returns the line(s) that introduce one listing when several
	// are printed, label being "FILE" or "FILE: archive member N of M".
	Heading func(label string) string
	// Dump writes one Spec.
	Dump func(w io.Writer, s *btf.Spec) error
}

// dumpFormats holds the registered formats by name; see registerDumpFormat.
var dumpFormats = map[string]dumpFormat{}

// registerDumpFormat adds a format to 'btfkit dump --format'. It is meant to
// be called from init functions and panics on a duplicate name.
func registerDumpFormat(name string, f dumpFormat) {
	if _, dup := dumpFormats[name]; dup {
		panic("btfkit: dump format " + name + " registered twice")
	}
	dumpFormats[name] = f
}

func init() {
	registerDumpFormat("raw", dumpFormat{
		Help:    "one line per type and per member, byte-identical to 'bpftool btf dump file FILE'",
		Heading: func(label string) string { return "# " + label + "\n" },
		Dump:    cdump.WriteRaw,
	})
}

var dumpOpts struct {
	base   string
	format string
}

var dumpCmd = &cobra.Command{
	Use:   "dump [--base FILE] [--format raw] FILE...",
	Short: "Print BTF as a raw listing (bpftool's format) or another registered format",
	Example: `  # The running kernel's BTF, as 'bpftool btf dump file /sys/kernel/btf/vmlinux' prints it
  btfkit dump /sys/kernel/btf/vmlinux

  # A loaded module's split BTF (its base, /sys/kernel/btf/vmlinux, is found automatically)
  btfkit dump /sys/kernel/btf/xfs

  # A module file's split BTF against the vmlinux it was built with (ELF or raw BTF)
  btfkit dump --base /usr/lib/debug/boot/vmlinux-$(uname -r) xfs.ko

  # An object from 'gcc -gbtf -c', or a 'ld -r' link of several (a BTF archive)
  btfkit dump prog.o`,
	Args: cobra.MinimumNArgs(1),
	RunE: runDump,
}

func dumpLong() string {
	names := make([]string, 0, len(dumpFormats))
	for n := range dumpFormats {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(`Print the types of each FILE.

FILE may be raw BTF, an ELF file with a .BTF section (vmlinux, a module .ko,
an object .o), /sys/kernel/btf/vmlinux or /sys/kernel/btf/MODULE. A module's
BTF is split BTF: it needs its base, given with --base (raw BTF or ELF), which
for /sys/kernel/btf/MODULE defaults to /sys/kernel/btf/vmlinux. For split BTF
only the split's own types are printed, as 'bpftool -B BASE btf dump file F'
does.

The raw format is byte-identical to bpftool's 'btf dump file FILE' (7.1).

A BTF archive (several BTF blobs back to back, as 'ld -r' leaves the .BTF
sections of objects compiled with 'gcc -gbtf') is printed member by member,
each listing under a heading line "# FILE: archive member N of M" (N from 0),
each member numbering its types from 1 (or after --base). bpftool instead
prints only the first member and ignores the rest without a warning. With
several FILEs each listing is preceded by "# FILE". A single plain FILE gets
no heading, so its output is exactly bpftool's.

Formats:
`)
	for _, n := range names {
		fmt.Fprintf(&b, "  %-6s %s\n", n, dumpFormats[n].Help)
	}
	return strings.TrimRight(b.String(), "\n")
}

func init() {
	f := dumpCmd.Flags()
	f.StringVar(&dumpOpts.base, "base", "", "base BTF `FILE` for split BTF inputs (raw BTF or ELF: vmlinux)")
	f.StringVar(&dumpOpts.format, "format", "raw", "output `format` (see Formats above)")
	rootCmd.AddCommand(dumpCmd)
	// Long lists the formats, which register from init functions in any
	// order: build it when help is shown.
	help := dumpCmd.HelpFunc()
	dumpCmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		c.Long = dumpLong()
		help(c, args)
	})
}

// dumpItem is one Spec to print and its heading label.
type dumpItem struct {
	label string
	spec  *btf.Spec
}

func runDump(cmd *cobra.Command, args []string) error {
	format, ok := dumpFormats[dumpOpts.format]
	if !ok {
		names := make([]string, 0, len(dumpFormats))
		for n := range dumpFormats {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Errorf("unknown format %q (known: %s)", dumpOpts.format, strings.Join(names, ", "))
	}
	var base *btf.Spec
	if dumpOpts.base != "" {
		b, err := input.LoadBase(dumpOpts.base)
		if err != nil {
			return fmt.Errorf("base: %w", err)
		}
		base = b
	}

	out := bufio.NewWriterSize(cmd.OutOrStdout(), 256<<10)
	headings := len(args) > 1
	for _, path := range args {
		items, err := loadDumpItems(path, base)
		if err != nil {
			out.Flush()
			return err
		}
		for _, it := range items {
			if headings || len(items) > 1 {
				if _, err := out.WriteString(format.Heading(it.label)); err != nil {
					return err
				}
			}
			if err := format.Dump(out, it.spec); err != nil {
				return fmt.Errorf("%s: %w", it.label, err)
			}
		}
	}
	return out.Flush()
}

// loadDumpItems reads one input (package input): a single Spec, or every
// member of a BTF archive.
func loadDumpItems(path string, base *btf.Spec) ([]dumpItem, error) {
	ms, err := input.Members(path, base)
	if err != nil {
		return nil, err
	}
	items := make([]dumpItem, len(ms))
	for i, m := range ms {
		s, err := m.Spec()
		if err != nil {
			return nil, err
		}
		items[i] = dumpItem{path, s}
		if len(ms) > 1 {
			items[i].label = fmt.Sprintf("%s: archive member %d of %d", path, i, len(ms))
		}
	}
	return items, nil
}
