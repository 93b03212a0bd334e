package main

// `btfkit pahole ARGS`: pahole's command line for what btfkit does, so that
// a kernel build can use btfkit as its PAHOLE (a symlink named pahole to the
// btfkit binary runs this command; see main). It accepts every flag the
// kernel's scripts/Makefile.btf and scripts/link-vmlinux.sh pass, with
// pahole 1.32's spelling, defaults, messages and exit statuses:
//
//	pahole -J -j --btf_features=LIST [--lang_exclude=rust] .tmp_vmlinux1   (BTF into the file, in place)
//	pahole -J ... --btf_base vmlinux module.ko
//	pahole -J ... --btf_encode_detached=OUT FILE                            (raw BTF to OUT)
//	pahole --version | --numeric_version | --supported_btf_features
//
// The BTF is what `btfkit encode` makes with the matching options, byte for
// byte: both call encode.EncodeSplit (encode.EncodeFile without a base).
// With --btf_base the result is split BTF, deduplicated against the base.
// Writing into the file uses elfx.WriteSections (with distilled_base, .BTF
// and .BTF.base together, encode_batch.go's writeInPlace), which leaves the
// file untouched on any error; a loaded .BTF of another size (a linked
// vmlinux) is kept as .BTF.loaded and the new one added unloaded.
//
// Without -J it prints layouts (pahole_layout.go and the files registering
// layout options) and with --prettify raw records (pahole_prettify.go).

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
)

// paholeVersion is the pahole release whose command line and BTF this
// command stands in for. The kernel turns `--version` into the number it
// picks flags by (scripts/pahole-version.sh: v1.31 -> 131).
const paholeVersion = "v1.32"

// paholeUsageStatus is argp's exit status for a bad command line (EX_USAGE).
const paholeUsageStatus = 64

var paholeCmd = &cobra.Command{
	Use:                "pahole [pahole options] FILE",
	Short:              "pahole's command line: BTF encoding (make PAHOLE=...), struct layouts, --prettify",
	DisableFlagParsing: true,
	RunE: func(cmd *cobra.Command, args []string) error {
		if code := paholeMain(args, cmd.OutOrStdout(), cmd.ErrOrStderr()); code != 0 {
			return exitError{code}
		}
		return nil
	},
}

func init() {
	// Made from paholeUnsupported, as --help is, so the two agree.
	paholeCmd.Long = "pahole runs btfkit with pahole's command line, for kernel builds and scripts:\n" +
		"a symlink named \"pahole\" to the btfkit binary does the same.\n\n" +
		paholeSummary() + "\nRun 'btfkit pahole --help' for every option."
}

func init() { rootCmd.AddCommand(paholeCmd) }

// paholeConfig is a parsed pahole command line.
type paholeConfig struct {
	encode      bool   // -J
	jobs        int    // -j: 0 means one per CPU
	detached    string // --btf_encode_detached
	base        string // --btf_base
	features    encode.Features
	langExclude []uint16
	file        string
	from        []string       // -F with -J: the formats to encode from, in order (pahole_frombtf.go)
	keep        []elfx.Section // more sections to write in place (pahole_frombtf.go)

	genAll          bool     // --btf_gen_all: every feature, as --btf_features=all
	ignoredFeatures []string // the names --verbose says --btf_features ignores (paholeIgnoredFeatures)

	version, numericVersion, develVersion, supported, help bool
	verbose                                                bool // -V: the functions left out, as pahole_verbose.go prints them

	layout     *paholeLayout // layout options (pahole_layout.go)
	layoutMode bool          // no -J: print layouts
}

// paholeUnsupported lists the options of pahole 1.32 that btfkit pahole
// does not implement, as shorthand/name/takes-an-argument. They are parsed
// as pahole parses them and, when printing layouts, refused with a clear
// message instead of "unrecognized option"; -J ignores them as pahole
// does, --prettify too. Every other option of pahole's is implemented:
// TestPaholeManOptions checks that each option of pahole 1.32's manual
// page and --help is either a flag --help lists or one of these, and
// --help lists these (paholeHelp), so neither can drift.
var paholeUnsupported = []struct {
	short, name string
	arg         bool
	why         string // for --help
}{
	{"", "hashbits", true, "the size of pahole's own hash tables"},
	{"", "kabi_prefix", true, "kABI name prefixes"},
	{"", "lang", true, "keeping only units of some languages"},
	{"", "running_kernel_vmlinux", false, "looking up the running kernel's vmlinux, possibly from a debuginfod server"},
	{"Z", "ctf_encode", false, "CTF, disabled in pahole itself"},
	{"", "usage", false, "argp's short usage message: --help lists every option"},
}

// paholeFeatureFlags are pahole's older per-feature flags: each adds a
// feature to, or with skip, removes one from, the set -J encodes.
var paholeFeatureFlags = []struct {
	name string
	feat encode.Features
	skip bool
	help string
}{
	{"btf_encode_force", encode.FeatEncodeForce, false, "Ignore those symbols found invalid when encoding BTF."},
	{"btf_gen_floats", encode.FeatFloat, false, "Allow producing BTF_KIND_FLOAT entries."},
	{"btf_gen_optimized", encode.FeatOptimizedFunc, false, "Generate BTF for functions with optimization-related suffixes (.isra, .constprop)."},
	{"btf_attributes", encode.FeatAttributes, false, "Allow generation of attributes in BTF."},
	{"reproducible_build", encode.FeatReproducibleBuild, false, "Generate reproducile BTF output"},
	{"skip_encoding_btf_inconsistent_proto", encode.FeatConsistentFunc, false, "Skip functions that have multiple inconsistent function prototypes sharing the same name."},
	{"skip_encoding_btf_decl_tag", encode.FeatDeclTag, true, "Do not encode TAGs in BTF."},
	{"skip_encoding_btf_enum64", encode.FeatEnum64, true, "Do not encode ENUM64sin BTF."},
	{"skip_encoding_btf_type_tag", encode.FeatTypeTag, true, "Do not encode TAGs in BTF."},
	{"skip_encoding_btf_vars", encode.FeatVar, true, "Do not encode any VARs in BTF."},
}

// paholeError is a failure with the exit status pahole would use and the
// message to print (already prefixed).
type paholeError struct {
	code int
	msg  string
}

func (e *paholeError) Error() string { return e.msg }

// reportError prints err as pahole or pfunct (prog) would and returns the
// exit status: a *paholeError's message and code as they are, any other
// error as "prog: err" with status 1.
func reportError(stderr io.Writer, prog string, err error) int {
	var pe *paholeError
	if errors.As(err, &pe) {
		fmt.Fprintln(stderr, pe.msg)
		return pe.code
	}
	fmt.Fprintf(stderr, "%s: %v\n", prog, err)
	return 1
}

func paholeUsageError(format string, args ...any) error {
	return &paholeError{paholeUsageStatus, "pahole: " + fmt.Sprintf(format, args...) +
		"\nTry `pahole --help' or `pahole --usage' for more information."}
}

// newPaholeFlags returns pahole's flag set, bound to c; unsupported
// records which unimplemented pahole options are set.
func newPaholeFlags(c *paholeConfig, featStrs, strictStrs, langStrs, formats *[]string, adds, skips map[string]*bool) *pflag.FlagSet {
	fs := pflag.NewFlagSet("pahole", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.SetInterspersed(true)
	fs.BoolVarP(&c.encode, "btf_encode", "J", false, "Encode as BTF")
	fs.IntVarP(&c.jobs, "jobs", "j", 0, "run N jobs in parallel [default to number of online processors]")
	fs.Lookup("jobs").NoOptDefVal = "0"
	fs.StringVar(&c.detached, "btf_encode_detached", "", "Encode as BTF in a detached file")
	fs.StringVar(&c.base, "btf_base", "", "Path to the base BTF file")
	fs.Var(paholeAppend{featStrs}, "btf_features", "Specify supported BTF features in FEATURE_LIST or 'default' for default set of supported features.")
	// pahole 1.32's other spelling of --btf_features.
	fs.Var(paholeAppend{featStrs}, "features", "Specify supported features in FEATURE_LIST (as --btf_features)")
	fs.StringArrayVar(strictStrs, "btf_features_strict", nil, "Like --btf_features, but unrecognized features will trigger an error.")
	// pahole handles --btf_gen_all as --btf_features=all: 1.32 enables
	// every feature with it (1.31's "all" named none, so the set only
	// started from nothing; pahole 1.24 took it to mean floats).
	fs.BoolVar(&c.genAll, "btf_gen_all", false, "Allow using all the BTF features supported by pahole.")
	fs.BoolVar(&c.supported, "supported_btf_features", false, "Show list of btf_features supported by pahole and exit.")
	fs.StringArrayVar(langStrs, "lang_exclude", nil, "Don't consider compilation units written in these languages")
	fs.StringArrayVarP(formats, "format_path", "F", nil, "List of debugging formats to try; with -J: dwarf, or btf to merge the .BTF archive of objects compiled with BTF (gcc -gbtf); see below")
	for _, f := range paholeFeatureFlags {
		m := adds
		if f.skip {
			m = skips
		}
		m[f.name] = fs.Bool(f.name, false, f.help)
	}
	fs.BoolVarP(&c.verbose, "verbose", "V", false, "be verbose")
	fs.BoolVar(&c.version, "version", false, "Print program version")
	fs.BoolVar(&c.numericVersion, "numeric_version", false, "Print a numeric version, i.e. 119 instead of v1.19")
	fs.BoolVar(&c.develVersion, "devel_version", false, "Print the development version (here the release followed; 'btfkit version' names btfkit's own)")
	fs.BoolVarP(&c.help, "help", "?", false, "Give this help list")
	c.layout = addPaholeLayoutFlags(fs)
	// --prettify's options: --prettify itself never reaches this flag set
	// (paholeMain hands such command lines to paholePrettify), and like
	// pahole, printing layouts takes the others and ignores them.
	for _, p := range paholePrettifyFlags {
		if p.name != "prettify" {
			fs.String(p.name, "", p.help+" (with --prettify)")
		} else {
			fs.String(p.name, "", p.help)
		}
	}
	for _, u := range paholeUnsupported {
		if u.arg {
			fs.StringP(u.name, u.short, "", "")
		} else {
			fs.BoolP(u.name, u.short, false, "")
		}
		fs.Lookup(u.name).Hidden = true
	}
	return fs
}

// paholeAppend is a string option whose every value is appended to a list
// that another option appends to as well (--features and --btf_features).
type paholeAppend struct{ list *[]string }

func (a paholeAppend) String() string     { return "" }
func (a paholeAppend) Set(s string) error { *a.list = append(*a.list, s); return nil }
func (a paholeAppend) Type() string       { return "string" }

// parsePahole parses a pahole command line.
func parsePahole(args []string) (*paholeConfig, *pflag.FlagSet, error) {
	c := &paholeConfig{}
	var featStrs, strictStrs, langStrs, formats []string
	adds, skips := map[string]*bool{}, map[string]*bool{}
	fs := newPaholeFlags(c, &featStrs, &strictStrs, &langStrs, &formats, adds, skips)
	args, err := paholeLongPrefixes(fs, args)
	if err != nil {
		return nil, fs, err
	}
	if err := fs.Parse(paholeOptionalArgs(fs, args)); err != nil {
		return nil, fs, paholeParseError(err, args)
	}
	if c.help || c.version || c.numericVersion || c.develVersion || c.supported {
		return c, fs, nil
	}
	if !c.encode && c.detached == "" {
		return paholeLayoutParsed(c, fs, formats) // pahole_layout.go
	}
	if err := paholeEncodeIgnoresLayout(fs); err != nil { // pahole_layout.go
		return nil, fs, err
	}
	if c.jobs < 0 {
		return nil, fs, paholeUsageError("invalid number of jobs %d", c.jobs)
	}
	if err := paholeEncodeFormats(c, formats); err != nil { // pahole_frombtf.go
		return nil, fs, err
	}

	// Features: pahole's legacy set, or the union of every --btf_features
	// list, then the per-feature flags on top.
	c.features = encode.LegacyFeatures
	if len(featStrs)+len(strictStrs) > 0 || c.genAll {
		c.features = 0
	}
	if c.genAll {
		c.features = encode.AllListed
	}
	for i, lists := range [][]string{featStrs, strictStrs} {
		for _, list := range lists {
			f, unknown, err := encode.ParseFeatures(list)
			if err != nil {
				return nil, fs, &paholeError{1, "pahole: --btf_features: " + err.Error()}
			}
			c.ignoredFeatures = append(c.ignoredFeatures, paholeIgnoredFeatures(list)...)
			if i == 1 && len(unknown) > 0 {
				return nil, fs, &paholeError{1, fmt.Sprintf("Feature '%s' in '%s' is not supported.  Supported BTF features are:\n%s",
					unknown[0], list, strings.Join(encode.FeatureNames, ","))}
			}
			c.features |= f
		}
	}
	for _, f := range paholeFeatureFlags {
		set := adds[f.name]
		if f.skip {
			set = skips[f.name]
		}
		switch {
		case !*set:
		case f.skip:
			c.features &^= f.feat
		default:
			c.features |= f.feat
		}
	}
	for _, l := range langStrs {
		codes, err := encode.ParseLanguages(l)
		if err != nil {
			return nil, fs, &paholeError{1, "pahole: --lang_exclude: " + err.Error()}
		}
		c.langExclude = append(c.langExclude, codes...)
	}

	if !c.encode {
		if c.detached != "" {
			// pahole: --btf_encode_detached implies -J.
			c.encode = true
		} else {
			return nil, fs, &paholeError{1, "pahole: btfkit pahole only encodes BTF: use -J (see btfkit pahole --help)"}
		}
	}
	switch fs.NArg() {
	case 1:
		c.file = fs.Arg(0)
	case 0:
		return nil, fs, &paholeError{1, "pahole: -J needs an input file (btfkit pahole does not look for the running kernel's vmlinux)"}
	default:
		return nil, fs, &paholeError{1, fmt.Sprintf("pahole: -J takes one input file, got %d: %s", fs.NArg(), strings.Join(fs.Args(), " "))}
	}
	// pahole would write the raw BTF over its input; btfkit refuses, as
	// every command refuses an output naming an input (cmdline.go).
	for _, in := range []string{c.file, c.base} {
		if c.detached != "" && in != "" && sameFile(in, c.detached) {
			return nil, fs, &paholeError{1, fmt.Sprintf("pahole: %s: --btf_encode_detached names an input, which the BTF would replace: write to another file", c.detached)}
		}
	}
	return c, fs, nil
}

// paholeOptionalArgs rewrites argp's spelling of a short option's optional
// value, "-j4" (also inside a group: "-Jj4"), into pflag's "-j=4"; pflag
// would read "-j4" as -j and an option -4.
func paholeOptionalArgs(fs *pflag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			for j := 1; j < len(a); j++ {
				f := fs.ShorthandLookup(a[j : j+1])
				if f == nil {
					break
				}
				if f.NoOptDefVal == "" && f.Value.Type() != "bool" {
					break // the rest of the group is this option's value
				}
				if f.NoOptDefVal != "" && f.Value.Type() != "bool" {
					if j+1 < len(a) && a[j+1] != '=' {
						a = a[:j+1] + "=" + a[j+1:]
					}
					break
				}
			}
		}
		out = append(out, a)
	}
	return out
}

// paholeParseError turns pflag's errors into argp's messages.
func paholeParseError(err error, args []string) error {
	var ne *pflag.NotExistError
	var vr *pflag.ValueRequiredError
	var iv *pflag.InvalidValueError
	switch {
	case errors.Is(err, pflag.ErrHelp):
		return paholeUsageError("invalid option -- 'h'")
	case errors.As(err, &ne):
		if ne.GetSpecifiedShortnames() != "" {
			return paholeUsageError("invalid option -- '%s'", ne.GetSpecifiedName())
		}
		opt := "--" + ne.GetSpecifiedName()
		for _, a := range args {
			if a == "--" {
				break
			}
			if strings.HasPrefix(a, opt+"=") {
				opt = a
				break
			}
		}
		return paholeUsageError("unrecognized option '%s'", opt)
	case errors.As(err, &vr):
		if vr.GetSpecifiedShortnames() != "" {
			return paholeUsageError("option requires an argument -- '%s'", vr.GetSpecifiedName())
		}
		return paholeUsageError("option '--%s' requires an argument", vr.GetSpecifiedName())
	case errors.As(err, &iv):
		return paholeUsageError("%v", err)
	}
	return paholeUsageError("%v", err)
}

// paholeMain runs a pahole command line and returns the exit status.
func paholeMain(args []string, stdout, stderr io.Writer) int {
	if paholePrettifyRequested(args) {
		return paholePrettify(args, stdout, stderr) // pahole_prettify.go
	}
	c, fs, err := parsePahole(args)
	if err != nil {
		return reportError(stderr, "pahole", err)
	}
	switch {
	case c.help:
		paholeHelp(stdout, fs)
		return 0
	case c.version:
		fmt.Fprintln(stdout, paholeVersion)
		return 0
	case c.numericVersion:
		fmt.Fprintln(stdout, paholeNumericVersion())
		return 0
	case c.develVersion:
		// pahole prints v1.32, v1.32-N-gSHA (git describe) or
		// v1.32-tarball-gSHA; btfkit is none of pahole's builds.
		fmt.Fprintln(stdout, paholeVersion)
		return 0
	case c.supported:
		fmt.Fprintln(stdout, strings.Join(encode.FeatureNames, ","))
		return 0
	}
	if c.layoutMode {
		return c.layout.run(stdout, stderr)
	}
	if c.verbose {
		for _, name := range c.ignoredFeatures {
			fmt.Fprintf(stderr, "Ignoring unsupported feature '%s'\n", name)
		}
	}
	if err := paholeEncode(c, stdout, stderr); err != nil {
		if !writePaholeInvalidVar(stderr, err) {
			fmt.Fprintf(stderr, "pahole: %v\n", err)
		}
		return 1
	}
	return 0
}

// paholeNumericVersion is --numeric_version's output: v1.31 -> 131.
func paholeNumericVersion() string {
	v := strings.TrimPrefix(paholeVersion, "v")
	major, minor, _ := strings.Cut(v, ".")
	m, _ := strconv.Atoi(major)
	n, _ := strconv.Atoi(minor)
	return strconv.Itoa(m*100 + n)
}

// paholeHelp is --help: what the command does, then every option of fs
// that is not hidden, in the order they were defined, then the options
// btfkit refuses (paholeUnsupported). All of it comes from the flag
// definitions, so the text cannot say other than what is parsed.
func paholeHelp(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "Usage: pahole [OPTION...] FILE\n\n")
	fmt.Fprint(w, paholeSummary())
	fmt.Fprintln(w)
	args := map[string]string{
		"jobs": "[=NR_JOBS]", "btf_encode_detached": "=FILENAME", "btf_base": "=PATH",
		"btf_features": "=FEATURE_LIST", "btf_features_strict": "=FEATURE_LIST_STRICT",
		"features": "=FEATURE_LIST", "lang_exclude": "=LANGUAGES", "format_path": "=FORMAT_LIST",
	}
	for _, p := range paholePrettifyFlags {
		args[p.name] = "=" + p.arg
	}
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		left := "    "
		if f.Shorthand != "" {
			left = "-" + f.Shorthand + ", "
		}
		left = "  " + left + "--" + f.Name + args[f.Name] + paholeLayoutArg(f.Name)
		if len(left) > 28 {
			fmt.Fprintf(w, "%s\n%29s%s\n", left, "", f.Usage)
		} else {
			fmt.Fprintf(w, "%-29s%s\n", left, f.Usage)
		}
	})
	fmt.Fprint(w, paholeFromBTFHelp)
	fmt.Fprintf(w, "\nThe options of pahole %s btfkit does not implement:\n", strings.TrimPrefix(paholeVersion, "v"))
	for _, u := range paholeUnsupported {
		fmt.Fprintf(w, "  %s: %s\n", paholeOptionName(u.short, u.name), u.why)
	}
	fmt.Fprintf(w, "With -J, %s are refused: they leave units out of what is encoded.\n",
		"--"+strings.Join(paholeEncodeChangers, " and --"))
	fmt.Fprintf(w, "\nMandatory or optional arguments to long options are also mandatory or optional\nfor any corresponding short options.\n")
}

// paholeOptionName is "-S, --name" or "--name".
func paholeOptionName(short, name string) string {
	if short != "" {
		return "-" + short + ", --" + name
	}
	return "--" + name
}

// paholeSummary says what btfkit pahole does, for --help and 'btfkit help
// pahole'.
func paholeSummary() string {
	var refused []string
	for _, u := range paholeUnsupported {
		refused = append(refused, "--"+u.name)
	}
	return fmt.Sprintf(`btfkit's pahole %s command line does what pahole %s does with:
  -J [--btf_encode_detached=FILE]  encode DWARF (or, -F btf, a .BTF archive) as BTF
  no -J                            print struct and union layouts and statistics
  --prettify=FILE|-                print raw records decoded with their types
`, paholeVersion, strings.TrimPrefix(paholeVersion, "v")) +
		wrapText(fmt.Sprintf("The options of pahole's that btfkit does not implement (%s) are refused with a message when printing layouts. "+
			"With -J and with --prettify, options that do not apply are ignored, as pahole ignores them, except that -J refuses %s.",
			strings.Join(refused, ", "), "--"+strings.Join(paholeEncodeChangers, " and --")), 79)
}

// wrapText fills words into lines of at most width columns.
func wrapText(s string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(s) {
		if n > 0 && n+1+len(w) > width {
			b.WriteString("\n")
			n = 0
		}
		if n > 0 {
			b.WriteString(" ")
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String() + "\n"
}

// paholeEncodeOptions are the encoder options a pahole command line asks
// for: the same as `btfkit encode -j N --features LIST --lang-exclude LIST`.
func paholeEncodeOptions(c *paholeConfig) encode.Options {
	return encode.Options{
		Features:    c.features,
		Jobs:        c.jobs,
		LangExclude: c.langExclude,
	}
}

// paholeEncode encodes c.file and writes the result where pahole would.
func paholeEncode(c *paholeConfig, stdout, stderr io.Writer) error {
	if _, err := os.Stat(c.file); err != nil {
		return err
	}
	var base *dedup.Base
	if c.base != "" {
		if c.features.Has(encode.FeatDistilledBase) && c.detached != "" {
			// pahole ignores distilled_base for raw output; saying so
			// beats writing something other than what was asked for.
			return fmt.Errorf("%s: --btf_features=distilled_base writes .BTF.base into the ELF file; it does not apply to --btf_encode_detached", c.file)
		}
		var err error
		if base, err = encode.LoadBase(c.base); err != nil {
			return fmt.Errorf("--btf_base: %w", err)
		}
	}
	// Split BTF against the base, as pahole makes for modules, by the
	// library call `btfkit encode --base` makes (encode/split.go): the
	// module's types deduplicated once onto the base, VARs never merged.
	// With -F btf, the file's .BTF archive instead (pahole_frombtf.go).
	// --verbose: pahole's encoder log from DWARF (pahole_verbose.go);
	// from a BTF archive, the functions left out.
	o := paholeEncodeOptions(c)
	o.Warnings = stderr
	if c.verbose {
		if len(c.from) == 0 || c.from[0] == "dwarf" {
			if err := paholeVerboseLog(c, base, o, stdout, stderr); err != nil {
				return err
			}
		} else {
			o.Report = new(encode.Report)
		}
	}
	spec, err := paholeEncodeSpec(c, base, o)
	if errors.Is(err, encode.ErrExcluded) {
		// Every unit of an excluded language: pahole 1.32 writes
		// nothing, neither a detached file nor a .BTF, and exits 0.
		return nil
	}
	if err != nil {
		return err
	}
	if o.Report != nil {
		if err := writePaholeSkips(stdout, o.Report); err != nil {
			return err
		}
	}
	if c.detached != "" {
		return writeOutput(c.detached, spec.Marshal(nil))
	}
	// .BTF, and with distilled_base .BTF.base (encode_batch.go); -F btf
	// keeps the archive it read (pahole_frombtf.go).
	return writeInPlace(c.file, spec, base != nil && c.features.Has(encode.FeatDistilledBase), c.keep...)
}
