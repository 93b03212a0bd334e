package pfunct

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/internal/ctype"
	"github.com/btfkit/btfkit/layout"
)

// Formatter says what the default listing prints for each function
// (pfunct's last -s, -S, -p, -g, -I or -N wins).
type Formatter int

// The listings.
const (
	ListNames      Formatter = iota // the name; with -V or -P, the prototype
	ListSizes                       // -s: "name: size" of functions with code
	ListVariables                   // -S: "name: variables"
	ListParams                      // -p: "name: parameters"
	ListLabels                      // -g: "name: goto labels"
	ListInlines                     // -I: "name: expansions bytes"
	ListNameLength                  // -N: "name: length of name"
)

// Options are pfunct's options, by its long names.
type Options struct {
	Format           string    // -F: formats to try, comma separated, read by input.PaholeFormats ("" is dwarf,btf; btf with BTFBase)
	BTFBase          string    // --btf_base: the base of the split BTF files read
	Addr             uint64    // -a: show the function at this address
	All              bool      // -A: every function that matches, all when nothing is asked
	ExpandTypes      bool      // -b: the types a prototype needs, before it
	Class            string    // -c: functions with a parameter pointing to this struct
	Externals        bool      // -E
	Function         string    // -f
	CCUninlined      bool      // -G: declared inline, not inlined by the compiler
	CCInlined        bool      // -H: not declared inline, inlined by the compiler
	InlineExpansions bool      // -i: the lexical blocks, with inline expansions (implies Verbose)
	DeclInfo         bool      // -l: where each function was declared
	TotalInlineStats bool      // -t
	Formatter        Formatter // -s, -S, -p, -g, -I, -N
	Prototypes       bool      // -P
	Variables        bool      // -T: with -V, the lexical blocks with their variables
	Verbose          bool      // -V
	Symtab           string    // --symtab: list this symbol table's functions ("" = none)
	Compile          bool      // --compile: compilable source (implies ExpandTypes)
	NoParmNames      bool      // --no_parm_names
	CachelineSize    int       // for struct summaries; 0: the system's

	// ReadAddresses reads addresses and sizes even when no option above
	// needs them, as pfunct does once -a, -s or -I was given (a later
	// option may have chosen another listing).
	ReadAddresses bool
	Jobs          int // DWARF units converted in parallel (0: one per CPU)

	// LangExclude lists DW_LANG codes of DWARF units to leave out
	// (pfunct takes them from PAHOLE_LANG_EXCLUDE; see
	// encode.ParseLanguages).
	LangExclude []uint16

	// Warnings is where pfunct's diagnostics go (pahole's stderr); nil
	// discards them.
	Warnings io.Writer

	globals bool // pglobal (Globals): read every variable
	types   bool // pdwtags (Tags): read every type entry
}

func (o *Options) cacheline() int {
	if o.CachelineSize > 0 {
		return o.CachelineSize
	}
	return layout.SystemCachelineSize()
}

// addrInfo and extraDbg are the loader flags pfunct's options set.
func (o *Options) flags() loadFlags {
	return loadFlags{
		addrInfo: o.ReadAddresses || o.Addr != 0 || o.Formatter == ListSizes || o.InlineExpansions || o.Formatter == ListInlines || o.TotalInlineStats || o.Verbose,
		extraDbg: o.InlineExpansions || o.DeclInfo || o.Verbose,
		globals:  o.globals,
		types:    o.types,
	}
}

// verbose is pfunct's verbose: -V, or -i (which sets it).
func (o *Options) verbose() bool { return o.Verbose || o.InlineExpansions }

// stealing reports whether units are handed to pfunct's stealer as they
// are loaded (pahole's conf_load.steal).
func (o *Options) stealing() bool { return o.Function != "" || o.All || o.Class != "" }

// Errors Run returns; the command prints pfunct's message for them.
var (
	// ErrUsage is a command line without a file, function or class.
	ErrUsage   = errors.New("usage")
	errNoDWARF = errors.New("no DWARF")
)

// NoInfoError is a file none of the formats could read.
type NoInfoError struct {
	Path   string
	Format string // -F as given, "" for the default
	Err    error  // why the last format failed, when known
}

func (e *NoInfoError) Error() string {
	what := e.Format
	if what == "" {
		what = "supported"
	}
	return fmt.Sprintf("file '%s' has no %s type information.", e.Path, what)
}

// FunctionNotFoundError is -f's function (or a FILE that is no file, then
// looked for as a function in the running kernel's BTF) found nowhere.
// pfunct 1.32 prints nothing and exits 0; btfkit says so, and exits 1
// only when the name was given as a FILE (an input that cannot be read).
type FunctionNotFoundError struct {
	Name   string
	NoFile bool // the name was a FILE argument that does not exist
}

func (e *FunctionNotFoundError) Error() string {
	if e.NoFile {
		return fmt.Sprintf("%s: no such file, nor a function of the running kernel's BTF", e.Name)
	}
	return fmt.Sprintf("function '%s' not found", e.Name)
}

// NotFoundError is -a's address in no function.
type NotFoundError struct{ Addr uint64 }

func (e *NotFoundError) Error() string {
	var b buf
	b.Hex(e.Addr)
	return "No function found at " + string(b) + "!"
}

// BaseError is a --btf_base file that is no base BTF: pfunct says
// "Failed to parse base BTF 'PATH': -ERRNO".
type BaseError struct {
	Path string
	Err  error
}

func (e *BaseError) Error() string {
	errno := -22 // EINVAL, libbpf's for BTF it cannot parse
	if errors.Is(e.Err, os.ErrNotExist) {
		errno = -2 // ENOENT
	}
	return fmt.Sprintf("Failed to parse base BTF '%s': %d", e.Path, errno)
}

func (e *BaseError) Unwrap() error { return e.Err }

// LoadError is pfunct's report of a file it could not load while looking
// for a function: "FILE: reason".
type LoadError struct {
	Path string
	Err  error
}

func (e *LoadError) Error() string { return e.Path + ": " + e.Err.Error() }

func (e *LoadError) Unwrap() error { return e.Err }

// Run does what pfunct does with options o and the FILE arguments args,
// writing to w. Its output is byte for byte pahole 1.32's pfunct's.
func Run(w io.Writer, args []string, o Options) error {
	if len(args) == 0 && o.Class == "" && o.Function == "" {
		return ErrUsage
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if o.Symtab != "" {
		err := symtabs(bw, args, o.Symtab)
		if ferr := bw.Flush(); err == nil {
			err = ferr
		}
		return err
	}
	p := newPrinter(bw, o)
	if o.BTFBase != "" {
		base, err := input.LoadBase(o.BTFBase)
		if err != nil {
			return &BaseError{Path: o.BTFBase, Err: err}
		}
		p.base = base
		if p.o.Format == "" {
			p.o.Format = "btf"
		}
	}
	err := p.run(args)
	for _, c := range p.closers {
		c.Close()
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// fnStat is pahole's struct fn_stats: one entry of pfunct's list, with
// the text its formatter prints rendered when the entry is made (so that
// a DWARF unit's types need not outlive the unit).
type fnStat struct {
	f          *function
	u          *unit
	nrExp      uint32
	sizeExp    uint32
	nrFiles    uint32
	printed    bool
	proto      string // tag__fprintf, for -V and -P
	statsText  string // function__fprintf_stats, for -V with -i or -T
	hasRenders bool
}

// printer is one pfunct run.
type printer struct {
	o         Options
	found     bool      // -f's function was shown
	base      *btf.Spec // --btf_base
	w         *bufio.Writer
	conf      printConf
	emissions *ctype.Emissions

	stats  []*fnStat          // in the order made; printed newest first
	slab   []fnStat           // where new entries come from
	byName map[string]*fnStat // the newest entry of each name

	kept     []*unit         // units pahole keeps after loading
	noted    bool            // noteDWARFOnly said its piece
	closers  []io.Closer     // DWARF files: names are views of them
	printedB map[string]bool // -b without a stealer: names printed
	deferred buf             // -b output, printed after the loading

	glob *globals      // pglobal: units go to it instead (globals.go)
	tags bool          // pdwtags: units are printed as loaded (pdwtags.go)
	cd   func(u *unit) // codiff: units are summarized as loaded (codiff.go)
}

func newPrinter(w *bufio.Writer, o Options) *printer {
	if o.Compile {
		o.ExpandTypes = true
	}
	f := o.flags()
	return &printer{
		o: o,
		w: w,
		conf: printConf{
			declInfo:    o.DeclInfo,
			noParmNames: o.NoParmNames,
			noSemicolon: o.Compile,
			stripInline: o.Compile,
			extraDbg:    f.extraDbg,
		},
		emissions: ctype.NewEmissions(),
		byName:    map[string]*fnStat{},
		printedB:  map[string]bool{},
	}
}

// namer returns the unit's namer, made once per unit's Spec.
func (p *printer) namer(u *unit) *namer {
	if u.nm == nil || u.nm.spec != u.spec {
		u.nm = newNamer(u, p.conf.noParmNames)
	}
	return u.nm
}

// needTypes reports whether anything printed names types: without, DWARF
// units are read without converting their types.
func (p *printer) needTypes() bool {
	o := &p.o
	return o.globals || o.types || o.verbose() || o.Prototypes || o.stealing() || o.ExpandTypes || o.Addr != 0
}

// needNames reports whether the list is searched by name: by the filter
// (not with -F btf) and by function__show (-f, -A, -c, -b, -a).
func (p *printer) needNames() bool {
	o := &p.o
	return !p.isBTF() || o.stealing() || o.ExpandTypes || o.Addr != 0
}

// isBTF is pfunct's is_btf: -F btf exactly.
func (p *printer) isBTF() bool { return strings.EqualFold(p.o.Format, "btf") }

func (p *printer) run(args []string) error {
	files := args
	missingFile := false
	for {
		err := p.load(files)
		if err == nil {
			break
		}
		var ni *NoInfoError
		if !errors.As(err, &ni) {
			return err
		}
		if p.o.Function != "" {
			return &LoadError{Path: ni.Path, Err: errors.New("Invalid argument")}
		}
		// pfunct: a FILE it cannot read may be a function to look for in
		// the running kernel.
		if _, serr := os.Stat(files[0]); serr == nil {
			// pfunct names the first FILE, whichever failed.
			ni.Path = files[0]
			return ni
		}
		p.o.Function = files[0]
		files = nil
		missingFile = true
	}
	if p.o.Function != "" && !p.found && p.o.Addr == 0 {
		// pfunct 1.32 says nothing; a user wants to know.
		return &FunctionNotFoundError{Name: p.o.Function, NoFile: missingFile}
	}
	switch {
	case p.o.Addr != 0:
		return p.showAddr()
	case p.o.TotalInlineStats:
		p.totalInlineStats()
	case p.o.ExpandTypes:
		for _, u := range p.kept {
			p.functionIterator(u)
		}
		p.w.Write(p.deferred)
	case p.o.Function == "":
		p.printStats()
	}
	return nil
}

// load reads the files in order (the running kernel's BTF when there are
// none), handing each unit to the stealer or keeping it.
func (p *printer) load(files []string) error {
	if len(files) == 0 {
		return p.loadRunningKernel()
	}
	for _, path := range files {
		stop, err := p.loadFile(path)
		if err != nil {
			return err
		}
		if stop {
			return nil
		}
	}
	return nil
}

// loadRunningKernel is pahole's cus__load_running_kernel for BTF: the
// file PAHOLE_VMLINUX_BTF_FILENAME names, or /sys/kernel/btf/vmlinux.
func (p *printer) loadRunningKernel() error {
	path := os.Getenv("PAHOLE_VMLINUX_BTF_FILENAME")
	if path == "" {
		path = filepath.Join(btf.SysfsDir, "vmlinux")
	}
	if p.o.Format != "" && !strings.Contains(p.o.Format, "btf") {
		return &LoadError{Path: "(null)", Err: errors.New("No debugging information found")}
	}
	if _, err := os.Stat(path); err != nil {
		return &LoadError{Path: "(null)", Err: errors.New("No debugging information found")}
	}
	_, err := p.loadBTF(path)
	if err != nil {
		return &LoadError{Path: "(null)", Err: errors.New("No debugging information found")}
	}
	return nil
}

// loadFile tries the formats in order on one file.
func (p *printer) loadFile(path string) (stop bool, err error) {
	var last error
	for _, f := range input.PaholeFormats(p.o.Format) {
		switch f {
		case input.DWARF:
			stop, err := p.loadDWARF(path)
			if err == nil {
				return stop, nil
			}
			if !errors.Is(err, errNoDWARF) && !errors.Is(err, elfx.ErrNotELF) && !errors.Is(err, os.ErrNotExist) && !errors.Is(err, encode.ErrNoDWARF) {
				return false, err
			}
			last = err
		case input.BTF:
			stop, err := p.loadBTF(path)
			if err == nil {
				return stop, nil
			}
			last = err
		case input.CTF:
			// pahole's CTF loader; btfkit reads no CTF: next format.
		default:
			// pahole gives up at a format it has no loader for.
			return false, &NoInfoError{Path: path, Format: p.o.Format, Err: last}
		}
	}
	return false, &NoInfoError{Path: path, Format: p.o.Format, Err: last}
}

// loadBTF reads a BTF file (raw, or an ELF's .BTF; split BTF on
// --btf_base) as one unit.
func (p *printer) loadBTF(path string) (bool, error) {
	spec, err := input.Load(path, p.base)
	if err != nil {
		return false, err
	}
	u := btfUnit(path, spec, p.o.Warnings)
	p.noteDWARFOnly(p.o.Warnings, path)
	return p.unitLoaded(u), nil
}

// loadDWARF reads the compile units of an ELF file in order. Types are
// converted (package encode, one unit at a time, in parallel) only when
// something printed names them.
func (p *printer) loadDWARF(path string) (bool, error) {
	ef, d, err := openDWARF(path)
	if err != nil {
		return false, err
	}
	p.closers = append(p.closers, d, ef)
	if d.AltMissing() && p.o.Warnings != nil {
		io.WriteString(p.o.Warnings, dwarf.MissingAltWarning(path))
	}
	l := &dwarfLoader{d: d, r: d.NewReader(), flags: p.o.flags(), warn: p.o.Warnings, langExclude: p.o.LangExclude}
	units := d.Units()
	stop := false
	if !p.needTypes() {
		for i := range units {
			u, err := l.loadUnit(&units[i])
			if err != nil {
				return false, decodeErr(path, err)
			}
			if p.unitLoaded(u) {
				return true, nil
			}
		}
		return false, nil
	}
	errStop := errors.New("stop")
	err = encode.EachUnit(path, encode.Options{Features: encode.DefaultFeatures, Jobs: p.o.Jobs, LangExclude: p.o.LangExclude}, func(eu encode.Unit) error {
		if eu.Index >= len(units) {
			return nil
		}
		u, err := l.loadUnit(&units[eu.Index])
		if err != nil {
			return err
		}
		u.spec, u.facts = eu.Spec, eu.Facts
		l.setTypes(eu.Facts)
		if p.unitLoaded(u) {
			stop = true
			return errStop
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return false, err
	}
	return stop, nil
}

// decodeErr names the file in a DWARF decoding error.
func decodeErr(path string, err error) error {
	var de *dwarf.DecodeError
	if errors.As(err, &de) {
		return fmt.Errorf("%s: %w", path, err)
	}
	return err
}

// unitLoaded is what happens to a unit once loaded: pahole hands it to
// pfunct's stealer, or keeps it. It reports whether loading stops.
func (p *printer) unitLoaded(u *unit) bool {
	if p.glob != nil {
		p.glob.add(p, u)
		return false
	}
	if p.tags {
		p.emitTags(u)
		return false
	}
	if p.cd != nil {
		p.cd(u)
		return false
	}
	if p.o.stealing() {
		stop := p.steal(u)
		// pahole's DWARF loader keeps a unit its stealer stopped at; its
		// BTF loader keeps none the stealer saw.
		if stop && !u.btf {
			p.keep(u)
		}
		return stop
	}
	p.keep(u)
	return false
}

// keep is a unit pahole keeps: cu_unique_iterator runs over it once
// everything is loaded, which here (it only looks back) happens now.
func (p *printer) keep(u *unit) {
	p.unique(u)
	if p.o.Addr != 0 || p.o.stealing() {
		p.kept = append(p.kept, u)
		return
	}
	if p.o.ExpandTypes && !p.o.TotalInlineStats {
		p.functionIterator(u)
	}
	// A DWARF unit's types are not needed any more: what the listing
	// prints of its functions was rendered by addStat.
	if !u.btf {
		u.spec, u.facts, u.emitted = nil, nil, nil
	}
}

// steal is pfunct's pfunct_stealer for one unit; it reports whether
// loading stops (LSK__STOP_LOADING).
func (p *printer) steal(u *unit) bool {
	switch {
	case p.o.Function != "":
		for _, f := range u.funcs {
			if f.hasName && f.name == p.o.Function {
				p.found = true
				var b buf
				p.show(&b, u, f)
				p.w.Write(b)
				return !p.o.All
			}
		}
	case p.o.Class != "":
		p.classIterator(u)
	case p.o.All:
		var b buf
		for _, f := range u.funcs {
			p.show(&b, u, f)
		}
		p.w.Write(b)
	}
	return false
}

// account is pahole's cu__account_inline_expansions: each inline
// expansion counts for the function inlined.
func account(u *unit) {
	var walk func(b *block)
	walk = func(b *block) {
		if b.nrInline == 0 {
			return
		}
		for _, it := range b.items {
			switch it.kind {
			case itemBlock:
				walk(it.block)
			case itemInline:
				if it.origin >= 0 && it.origin < len(u.funcs) {
					g := u.funcs[it.origin]
					g.cuNrInline++
					g.cuSizeInline += uint32(it.size)
				}
			}
		}
	}
	for _, f := range u.funcs {
		walk(&f.block)
	}
}

// unique is pfunct's cu_unique_iterator: the unit's functions join the
// list, one entry per name except for static functions of the same name.
func (p *printer) unique(u *unit) {
	if !u.btf {
		account(u)
	}
	isBTF := p.isBTF()
	for _, f := range u.funcs {
		if isBTF || !p.filter(u, f) {
			p.addStat(u, f)
		}
	}
}

// filter is pfunct's function__filter: true drops the function.
func (p *printer) filter(u *unit, f *function) bool {
	if !f.topLevel || !f.hasName {
		return true
	}
	if p.o.Externals && !f.external {
		return true
	}
	if p.o.CCUninlined && f.inlined != inlDeclaredNotInlined {
		return true
	}
	if p.o.CCInlined && f.inlined != inlInlined {
		return true
	}
	st := p.byName[f.name]
	if st == nil {
		return false
	}
	if !st.f.external {
		return false
	}
	if p.o.verbose() {
		p.checkDup(st, u, f)
	}
	st.nrExp += uint32(f.cuNrInline)
	st.sizeExp += f.cuSizeInline
	st.nrFiles++
	return true
}

// checkDup is pfunct's fn_stats__chkdupdef.
func (p *printer) checkDup(st *fnStat, u *unit, f *function) {
	hdr := false
	msg := func(s string) {
		if !hdr {
			fmt.Fprintf(p.w, "function: %s\nfirst: %s\ncurrent: %s\n", st.f.name, st.u.name, u.name)
		}
		p.w.WriteString(s)
		hdr = true
	}
	if st.f.block.size != f.block.size {
		msg(fmt.Sprintf("size: %d != %d\n", st.f.block.size, f.block.size))
	}
	if st.f.nrParms() != f.nrParms() {
		msg(fmt.Sprintf("nr_parms: %d != %d\n", st.f.nrParms(), f.nrParms()))
	}
	if hdr {
		p.w.WriteByte('\n')
	}
}

// addStat is fn_stats__add, rendering what the listing will print of the
// function.
func (p *printer) addStat(u *unit, f *function) *fnStat {
	if len(p.slab) == 0 {
		p.slab = make([]fnStat, 1024)
	}
	st := &p.slab[0]
	p.slab = p.slab[1:]
	*st = fnStat{f: f, u: u, nrFiles: 1, nrExp: uint32(f.cuNrInline), sizeExp: f.cuSizeInline}
	if f.hasName && p.needNames() {
		p.byName[f.name] = st
	}
	p.stats = append(p.stats, st)
	o := &p.o
	// A DWARF unit's types go once the unit is done: render what the
	// listing prints of its functions now.
	if !u.btf && o.Formatter == ListNames && (o.verbose() || o.Prototypes) && !o.stealing() && o.Addr == 0 && !o.ExpandTypes && !o.TotalInlineStats {
		var b buf
		p.function(&b, u, f)
		st.proto = string(b)
		if !o.Prototypes && (o.Variables || o.InlineExpansions) {
			b = b[:0]
			p.blockStats(&b, u, f)
			st.statsText = string(b)
		}
		st.hasRenders = true
	}
	return st
}

// printStats is pfunct's print_fn_stats with the chosen formatter,
// newest entry first.
func (p *printer) printStats() {
	var b buf
	for i := len(p.stats) - 1; i >= 0; i-- {
		p.format(&b, p.stats[i])
		if len(b) > 1<<16 {
			p.w.Write(b)
			b = b[:0]
		}
	}
	p.w.Write(b)
}

func (p *printer) format(b *buf, st *fnStat) {
	f := st.f
	switch p.o.Formatter {
	case ListSizes:
		if f.block.size != 0 {
			b.Str(f.name)
			b.Str(": ")
			b.Uint(uint64(f.block.size))
			b.Byte('\n')
		}
	case ListVariables:
		if f.block.nrVariables > 0 {
			b.Str(f.name)
			b.Str(": ")
			b.Uint(uint64(f.block.nrVariables))
			b.Byte('\n')
		}
	case ListParams:
		b.Str(f.name)
		b.Str(": ")
		b.Uint(uint64(f.nrParms()))
		b.Byte('\n')
	case ListLabels:
		if f.block.nrLabels > 0 {
			b.Str(f.name)
			b.Str(": ")
			b.Uint(uint64(f.block.nrLabels))
			b.Byte('\n')
		}
	case ListInlines:
		if f.block.nrInline > 0 {
			b.Str(f.name)
			b.Str(": ")
			b.Uint(uint64(f.block.nrInline))
			b.Byte(' ')
			b.Int(int64(int32(f.block.sizeInline)))
			b.Byte('\n')
		}
	case ListNameLength:
		b.Str(f.name)
		b.Str(": ")
		b.Uint(uint64(len(f.name)))
		b.Byte('\n')
	default:
		if p.o.verbose() || p.o.Prototypes {
			if st.hasRenders {
				b.Str(st.proto)
			} else {
				p.function(b, st.u, f)
			}
			b.Byte('\n')
			if p.o.Prototypes {
				return
			}
			if p.o.Variables || p.o.InlineExpansions {
				if st.hasRenders {
					b.Str(st.statsText)
				} else {
					p.blockStats(b, st.u, f)
				}
			}
			b.Str("/* definitions: ")
			b.Uint(uint64(st.nrFiles))
			b.Str(" */\n\n")
			return
		}
		b.Str(f.name)
		b.Byte('\n')
	}
}

// totalInlineStats is pfunct's print_total_inline_stats.
func (p *printer) totalInlineStats() {
	fmt.Fprintf(p.w, "%-32.32s  %5.5s / %5.5s = %5.5s  %s\n", "name", "totsz", "exp#", "avgsz", "src#")
	for i := len(p.stats) - 1; i >= 0; i-- {
		st := p.stats[i]
		if st.nrExp > 1 {
			name := st.f.name
			if len(name) > 31 {
				name = name[:31]
			}
			fmt.Fprintf(p.w, "%-31s %6d %7d  %6d %6d\n", name, st.sizeExp, st.nrExp, st.sizeExp/st.nrExp, st.nrFiles)
		}
	}
}

// show is pfunct's function__show.
func (p *printer) show(b *buf, u *unit, f *function) {
	if f.origin || f.declaration {
		return
	}
	var st *fnStat
	if !p.o.All {
		st = p.byName[f.name]
		if st != nil && st.printed {
			return
		}
		if p.o.ExpandTypes {
			p.functionTypes(b, u, f)
		}
	}
	p.function(b, u, f)
	if p.o.Compile {
		p.compileBody(b, u, f)
	}
	b.Byte('\n')
	if p.o.All {
		return
	}
	if p.o.Variables || p.o.InlineExpansions {
		p.blockStats(b, u, f)
	}
	if st == nil {
		st = p.addStat(u, f)
	}
	st.printed = true
}

// compileBody is --compile's body: a return of the right type.
func (p *printer) compileBody(b *buf, u *unit, f *function) {
	b.Str("\n{")
	n := p.namer(u)
	var t btf.Type
	var ok, hasType bool
	if f.btf {
		t, ok = n.typ(f.proto)
		hasType = ok && t.Ref() != 0
	} else {
		// pahole's DWARF loader leaves the type of a struct, union or
		// enum entry 0, whatever DW_AT_type it has.
		t, ok = n.typ(f.ret)
		switch {
		case !ok:
		case t.Kind() == btf.KindPtr, t.Kind() == btf.KindTypedef, btf.IsQualifier(t.Kind()), t.Kind() == btf.KindTypeTag, t.Kind() == btf.KindFuncProto:
			hasType = t.Ref() != 0
		case t.Kind() == btf.KindArray:
			hasType = true
		}
	}
	if hasType {
		switch {
		case t.Kind() == btf.KindPtr:
			b.Str("\n\treturn (void *)0;")
		case t.IsStruct():
			b.Str("\n\treturn *(struct " + t.Name() + " *)1;")
		case t.IsUnion():
			b.Str("\n\treturn *(union " + t.Name() + " *)1;")
		case t.Kind() == btf.KindTypedef:
			b.Str("\n\treturn *(" + t.Name() + " *)1;")
		default:
			b.Str("\n\treturn 0;")
		}
	}
	b.Str("\n}\n")
}

// classIterator is pfunct's cu_class_iterator for -c.
func (p *printer) classIterator(u *unit) {
	n := p.namer(u)
	if u.spec == nil {
		return
	}
	target := findStruct(u, p.o.Class)
	if target == 0 {
		return
	}
	var b buf
	for _, f := range u.funcs {
		if f.inlined != 0 || !hasParmOfType(n, f, target) {
			continue
		}
		if p.o.verbose() {
			p.function(&b, u, f)
		} else {
			b.Str(f.name)
		}
		b.Byte('\n')
	}
	p.w.Write(b)
}

// functionIterator is pfunct's cu_function_iterator for -b: every
// function, once per name.
func (p *printer) functionIterator(u *unit) {
	var b buf
	for _, f := range u.funcs {
		if f.origin || f.declaration {
			continue
		}
		if p.o.stealing() {
			p.show(&b, u, f)
			continue
		}
		if p.printedB[f.name] {
			continue
		}
		p.printedB[f.name] = true
		p.functionTypes(&b, u, f)
		p.function(&b, u, f)
		if p.o.Compile {
			p.compileBody(&b, u, f)
		}
		b.Byte('\n')
		if p.o.Variables || p.o.InlineExpansions {
			p.blockStats(&b, u, f)
		}
	}
	if p.o.verbose() {
		p.deferred = append(p.deferred, b...)
		return
	}
	p.w.Write(b)
}

// showAddr is -a: the first function, in unit order, whose code holds the
// address.
func (p *printer) showAddr() error {
	a := p.o.Addr
	for _, u := range p.kept {
		for _, f := range u.funcs {
			if a >= f.block.addr && a < f.block.addr+uint64(f.block.size) {
				var b buf
				p.show(&b, u, f)
				p.w.Write(b)
				return nil
			}
		}
	}
	return &NotFoundError{Addr: a}
}

// findStruct is pahole's cu__find_struct_by_name: the first struct (not a
// union, not a declaration) of that name, in ID order; 0 if none.
func findStruct(u *unit, name string) btf.TypeID {
	s := u.spec
	for id := btf.TypeID(1); id < s.NextID(); id++ { // a split BTF's base too
		t := s.Type(id)
		if t.Kind() == btf.KindStruct && t.Name() == name {
			return id
		}
	}
	return 0
}

// hasParmOfType is pahole's ftype__has_parm_of_type: a parameter is a
// pointer to target.
func hasParmOfType(n *namer, f *function, target btf.TypeID) bool {
	found := false
	n.funcProto(f).EachParam(func(_ string, typ btf.TypeID) {
		if t, ok := n.typ(typ); ok && t.Kind() == btf.KindPtr && t.Ref() == target {
			found = true
		}
	})
	return found
}
