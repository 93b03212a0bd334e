package main

// `btfkit pahole --prettify=FILE|-`: pahole's command line for printing raw
// data with types, mapped onto `btfkit pretty` (the pretty package with
// TextWriter, byte-identical to pahole 1.32):
//
//	pahole [-F dwarf|btf] [--btf_base=B] [TYPES] -C 'TYPE(ARGS)' [--header_type=T]
//	       [--seek_bytes=N|'$header.M'] [--size_bytes=N|'$header.M'] [--range=M]
//	       [--count=N] [--skip=N] [--hex] [-V] --prettify=FILE|-
//
// paholeMain hands any command line with --prettify (or a long prefix of
// it, --pret...) to paholePrettify, which parses it itself: pahole's
// options relevant here, GNU-style unique prefixes of long options
// (--header is --header_type), and pahole's other options accepted and
// ignored as pahole ignores them when pretty printing. Errors are pahole's
// messages where pahole has one; bad data is an error naming its offset,
// with exit status 1.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/pretty"
)

// paholePrettifyRequested reports whether a pahole command line asks for
// --prettify: the option or a prefix of it long enough to be unique among
// pahole's options ("--pre" is also --prefix_filter's).
func paholePrettifyRequested(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if strings.HasPrefix(a, "--") && len(name) >= 4 && strings.HasPrefix("prettify", name) {
			return true
		}
	}
	return false
}

// paholePrettifyConfig is a parsed pahole --prettify command line.
type paholePrettifyConfig struct {
	input, classes, header       string
	seekBytes, sizeBytes, rangeM string
	count, skip                  string
	formats, base                string
	hex, verbose                 bool
	files                        []string
	encode                       bool
}

// paholePrettifyFlags are the options only --prettify reads, with their
// argument names and help: newPaholePrettifyFlags binds them, and
// newPaholeFlags lists them in --help and lets layout printing take and
// ignore them, as pahole does.
var paholePrettifyFlags = []struct {
	name, arg, help string
	val             func(c *paholePrettifyConfig) *string
}{
	{"prettify", "PATH", "Path to the raw data to pretty print (- for stdin)", func(c *paholePrettifyConfig) *string { return &c.input }},
	{"header_type", "TYPE", "File header type", func(c *paholePrettifyConfig) *string { return &c.header }},
	{"seek_bytes", "BYTES", "Start at this offset in the data (a number or '$header.MEMBER')", func(c *paholePrettifyConfig) *string { return &c.seekBytes }},
	{"size_bytes", "BYTES", "Read only this number of bytes from this point onwards (a number or '$header.MEMBER')", func(c *paholePrettifyConfig) *string { return &c.sizeBytes }},
	{"range", "STRUCT", "Data struct with 'offset' and 'size' fields to determine --seek_bytes and --size_bytes", func(c *paholePrettifyConfig) *string { return &c.rangeM }},
	{"count", "COUNT", "Print only COUNT input records", func(c *paholePrettifyConfig) *string { return &c.count }},
	{"skip", "COUNT", "Skip COUNT input records", func(c *paholePrettifyConfig) *string { return &c.skip }},
}

// newPaholePrettifyFlags returns pahole's options as the --prettify mode
// knows them, bound to c: paholePrettifyFlags, those printing layouts
// shares, and every other option of pahole's command line (newPaholeFlags)
// accepted with no effect on pretty printing, as pahole ignores them.
func newPaholePrettifyFlags(c *paholePrettifyConfig) *pflag.FlagSet {
	fs := pflag.NewFlagSet("pahole", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(true)
	for _, p := range paholePrettifyFlags {
		fs.StringVar(p.val(c), p.name, "", p.help)
	}
	fs.StringVarP(&c.classes, "class_name", "C", "", "Show just these classes")
	fs.StringVarP(&c.formats, "format_path", "F", "", "List of debugging formats to try")
	fs.StringVar(&c.base, "btf_base", "", "Path to the base BTF file")
	fs.BoolVar(&c.hex, "hex", false, "Print numbers in hexadecimal")
	fs.BoolVarP(&c.verbose, "verbose", "V", false, "be verbose")
	fs.BoolVarP(&c.encode, "btf_encode", "J", false, "Encode as BTF")
	fs.String("btf_encode_detached", "", "")
	var strs []string
	all := newPaholeFlags(&paholeConfig{}, &strs, &strs, &strs, &strs, map[string]*bool{}, map[string]*bool{})
	all.VisitAll(func(f *pflag.Flag) {
		if fs.Lookup(f.Name) != nil {
			return
		}
		short := f.Shorthand
		if short != "" && fs.ShorthandLookup(short) != nil {
			short = ""
		}
		isBool := f.Value.Type() == "bool"
		nf := fs.VarPF(&paholeIgnored{isBool}, f.Name, short, "")
		nf.NoOptDefVal = f.NoOptDefVal
		if isBool {
			nf.NoOptDefVal = "true"
		}
	})
	return fs
}

// paholeIgnored is an option --prettify takes and ignores: a switch or an
// option with a value, as pahole's.
type paholeIgnored struct{ isBool bool }

func (p *paholeIgnored) String() string   { return "" }
func (p *paholeIgnored) Set(string) error { return nil }
func (p *paholeIgnored) Type() string {
	if p.isBool {
		return "bool"
	}
	return "string"
}

// paholePrettify runs a pahole --prettify command line and returns the
// exit status.
func paholePrettify(args []string, stdout, stderr io.Writer) int {
	fail := func(err error) int { return reportError(stderr, "pahole", err) }
	c := &paholePrettifyConfig{}
	fs := newPaholePrettifyFlags(c)
	args, err := paholeLongPrefixes(fs, args)
	if err != nil {
		return fail(err)
	}
	if err := fs.Parse(paholeOptionalArgs(fs, args)); err != nil {
		return fail(paholeParseError(err, args))
	}
	if c.encode || fs.Changed("btf_encode_detached") {
		return fail(errors.New("--prettify pretty prints data; it does not go with BTF encoding (-J)"))
	}
	c.files = fs.Args()
	if len(c.files) > 1 {
		return fail(fmt.Errorf("--prettify takes the types from one file, got %d: %s", len(c.files), strings.Join(c.files, " ")))
	}
	opts := pretty.Options{Header: c.header, SeekBytes: c.seekBytes, SizeBytes: c.sizeBytes, Range: c.rangeM}
	for _, n := range []struct {
		flag, val string
		dst       *uint64
	}{{"count", c.count, &opts.Count}, {"skip", c.skip, &opts.Skip}} {
		if n.val == "" {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSpace(n.val), 10, 32)
		if err != nil {
			return fail(paholeUsageError("--%s=%s: not a count", n.flag, n.val))
		}
		*n.dst = v
	}

	in, name, closeIn, err := openPrettyData(c.input)
	if err != nil {
		msg := err.Error()
		if u := errors.Unwrap(err); u != nil {
			msg = u.Error()
		}
		if msg != "" {
			msg = strings.ToUpper(msg[:1]) + msg[1:] // as strerror spells it
		}
		return fail(&paholeError{1, fmt.Sprintf("Failed to read input '%s': %s", c.input, msg)})
	}
	defer closeIn()

	// The verbose messages and the records share stdout, in order.
	tw := (*pretty.TextWriter)(nil)
	var pending []string
	say := func(msg string) {
		if tw != nil {
			tw.WriteString(msg + "\n")
		} else {
			pending = append(pending, msg)
		}
	}
	if c.classes != "" {
		if opts.Classes, err = paholeClasses(c.classes, c.verbose, say); err != nil {
			return fail(err)
		}
	}
	formats := input.PaholeFormats(c.formats)
	file := ""
	if len(c.files) == 1 {
		file = c.files[0]
	}
	spec, ptrSize, err := loadTypeSource(file, formats, c.base)
	if err != nil {
		return fail(err)
	}
	opts.PointerSize = ptrSize
	if c.verbose {
		opts.Verbose = say
	}
	dec, err := pretty.NewDecoder(spec, opts)
	if err != nil {
		return fail(err)
	}
	tw = pretty.NewTextWriter(stdout, dec, pretty.TextOptions{Hex: c.hex, Verbose: c.verbose})
	for _, msg := range pending {
		tw.WriteString(msg + "\n")
	}
	derr := dec.Decode(in, tw.Write)
	if err := tw.Flush(); err != nil && derr == nil {
		derr = err
	}
	if derr != nil {
		return fail(fmt.Errorf("%s: %w", name, derr))
	}
	return 0
}

// paholeClasses parses -C: entries separated by commas, "file://PATH"
// entries naming a file of one entry per line. With -V it says what each
// argument was taken as, in pahole's words.
func paholeClasses(expr string, verbose bool, say func(string)) ([]pretty.Class, error) {
	entries, err := pretty.SplitClasses(expr)
	if err != nil {
		return nil, err
	}
	var out []pretty.Class
	for _, e := range entries {
		lines := []string{e}
		if path, ok := strings.CutPrefix(e, "file://"); ok {
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			lines = nil
			for _, l := range strings.Split(string(data), "\n") {
				if l = strings.TrimSpace(l); l != "" {
					lines = append(lines, l)
				}
			}
		}
		for _, l := range lines {
			cl, err := pretty.ParseClass(l)
			if err != nil {
				return nil, err
			}
			if verbose {
				for _, a := range cl.Args {
					what := map[string]string{
						"sizeof": "sizeof_operator", "type": "type member", "type_enum": "type enum",
						"filter": "filter", "range": "range",
					}[a.Key]
					say(fmt.Sprintf("pahole: %s for '%s' is '%s'", what, cl.Name, a.Value))
				}
			}
			out = append(out, cl)
		}
	}
	return out, nil
}
