package main

// btfkit pretty: raw data decoded with the types that describe it, the
// pretty package over a type source (pretty_types.go) and a data stream.
// `btfkit pahole --prettify` (pahole_prettify.go) is pahole's spelling of
// the same.

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/pretty"
)

var prettyOpts struct {
	class, header      string
	seekBytes, size    string
	rangeMember        string
	count, skip        uint64
	hex, verbose       bool
	format, from, base string
	noHeader           bool
	maxRecord          int
}

var prettyCmd = &cobra.Command{
	Use:   "pretty -C 'TYPE(ARGS)' [flags] [TYPES] DATA|-",
	Short: "Print raw data as C initializers or JSON lines, with BTF or DWARF types (pahole --prettify)",
	Long: `pretty reads DATA (a file, or - for standard input) as a stream of records and
prints each one with the type that describes it, as 'pahole --prettify' does:
a C initializer per record (--format text, byte-identical to pahole 1.32) or
one JSON object per record (--format json: integers past 2^53-1, which jq
1.6 and JavaScript would round, are strings of their decimal digits, e.g.
"addr":"18446744072099471360"; jq reads them exactly as strings, JavaScript
with BigInt("...")). TYPES is an ELF file with DWARF
or BTF, a raw BTF file, a BTF archive or a /sys/kernel/btf file; without it
the running kernel's BTF is used.

-C takes pahole's expression: type names separated by commas, decoded one
after the other, each with optional arguments:
  sizeof[=MEMBER]     the member holding each record's size (default: size)
  type[=MEMBER]       the member holding each record's type (default: type)
  type_enum=E1[+E2]   enums naming the type values; the enumerator picks the
                      struct of its lower-cased name (PERF_RECORD_MMAP:
                      struct perf_record_mmap)
  filter=M==VALUE     only records whose member M is VALUE: a number, or an
                      enumerator of type_enum with or without its common
                      prefix (type==MMAP); "M==VALUE" alone means the same
  range=MEMBER        the --header member with offset and size members
                      that say where this type's records are

With --header, the header struct is read first (and printed first), and
--seek-bytes, --size-bytes and --range may use its members ($header.a.b).
Memory does not grow with the data: records are read one at a time.`,
	Example: `  # The ELF header of a vmlinux, with the kernel's BTF
  btfkit pretty -C elf64_hdr --count 1 vmlinux.btf vmlinux

  # The records of a perf.data file, with types from a program built with -g
  btfkit pretty --header perf_file_header --range data \
      -C 'perf_event_header(sizeof,type,type_enum=perf_event_type+perf_user_event_type)' \
      perf-types.o perf.data

  # The same as JSON lines, only the COMM records
  btfkit pretty --format json --header perf_file_header --range data \
      -C 'perf_event_header(sizeof,type,type_enum=perf_event_type+perf_user_event_type,type==COMM)' \
      perf-types.o perf.data | jq .members.comm`,
	Args: cobra.RangeArgs(1, 2),
	RunE: func(cmd *cobra.Command, args []string) error {
		o := prettyOpts
		if o.format != "text" && o.format != "json" {
			return fmt.Errorf("--format %s: use text or json", o.format)
		}
		var classes []pretty.Class
		if o.class != "" {
			var err error
			if classes, err = pretty.ParseClasses(o.class); err != nil {
				return fmt.Errorf("-C: %w", err)
			}
		} else if o.header == "" {
			return fmt.Errorf("give the type of the records with -C TYPE (or a --header)")
		}
		types, data := "", args[0]
		if len(args) == 2 {
			types, data = args[0], args[1]
		}
		formats, err := input.ParseFormats(o.from)
		if err != nil {
			return err
		}
		spec, ptrSize, err := loadTypeSource(types, formats, o.base)
		if err != nil {
			return err
		}
		opts := pretty.Options{
			Classes: classes, Header: o.header,
			SeekBytes: o.seekBytes, SizeBytes: o.size, Range: o.rangeMember,
			Count: o.count, Skip: o.skip,
			HeaderRecord: !o.noHeader, PointerSize: ptrSize, MaxRecordSize: o.maxRecord,
		}
		if o.verbose {
			opts.Verbose = func(msg string) { fmt.Fprintln(os.Stderr, msg) }
		}
		dec, err := pretty.NewDecoder(spec, opts)
		if err != nil {
			return err
		}
		in, name, closeIn, err := openPrettyData(data)
		if err != nil {
			return err
		}
		defer closeIn()
		out := bufio.NewWriterSize(os.Stdout, 256<<10)
		var write func(*pretty.Record) error
		var flush func() error
		if o.format == "json" {
			jw := pretty.NewJSONWriter(out, dec)
			write, flush = jw.Write, jw.Flush
		} else {
			tw := pretty.NewTextWriter(out, dec, pretty.TextOptions{Hex: o.hex, Verbose: o.verbose})
			write, flush = tw.Write, tw.Flush
		}
		derr := dec.Decode(in, write)
		ferr := flush()
		if ferr == nil {
			ferr = out.Flush()
		}
		if derr != nil {
			return fmt.Errorf("%s: %w", name, derr)
		}
		return ferr
	},
}

// openPrettyData opens the data to decode: a file, or standard input for
// "-". It returns the name errors use and a close function.
func openPrettyData(path string) (io.Reader, string, func(), error) {
	if path == "-" {
		return os.Stdin, "<stdin>", func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, path, nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, path, nil, fmt.Errorf("%s: is a directory", path)
	}
	return f, path, func() { f.Close() }, nil
}

func init() {
	f := prettyCmd.Flags()
	f.SortFlags = false
	f.StringVarP(&prettyOpts.class, "class", "C", "", "the `TYPE(ARGS)` of the records, several separated by commas (see above)")
	f.StringVar(&prettyOpts.header, "header", "", "a `TYPE` read (and printed) first, whose members other options may use as $header.MEMBER")
	f.StringVar(&prettyOpts.seekBytes, "seek-bytes", "", "where the records start: `N` bytes into the data, or $header.MEMBER")
	f.StringVar(&prettyOpts.size, "size-bytes", "", "how many bytes of records to read: `N` or $header.MEMBER")
	f.StringVar(&prettyOpts.rangeMember, "range", "", "the header `MEMBER` whose offset and size members say where the records are")
	f.Uint64Var(&prettyOpts.count, "count", 0, "print at most `N` records of each type (0: all)")
	f.Uint64Var(&prettyOpts.skip, "skip", 0, "skip the first `N` records of each type")
	f.BoolVar(&prettyOpts.hex, "hex", false, "print numbers in hexadecimal (text format)")
	f.StringVar(&prettyOpts.format, "format", "text", "output `FORMAT`: text (pahole's C initializers) or json (one object per line)")
	f.StringVarP(&prettyOpts.from, "from", "F", "", "debug formats to take TYPES from, tried in order: `LIST` of dwarf, btf (default dwarf,btf)")
	addInputFormatAliases(f)
	f.StringVar(&prettyOpts.base, "base", "", "base BTF `FILE` of split BTF (a module's)")
	f.BoolVar(&prettyOpts.noHeader, "no-print-header", false, "read the --header without printing it (as pahole does)")
	f.BoolVarP(&prettyOpts.verbose, "verbose", "v", false, "text: pahole -V's comment line before each record; the offsets evaluated from the header on stderr")
	f.IntVar(&prettyOpts.maxRecord, "max-record-size", pretty.DefaultMaxRecordSize, "largest record `SIZE` a size member may give")
	rootCmd.AddCommand(prettyCmd)
}
