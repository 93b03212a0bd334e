package pfunct

// pahole's pglobal: the external variables (-v) or functions (-f) of
// every unit, one entry per name, sorted by name (pglobal keeps them in a
// tsearch tree keyed by name and walks it in order).

import (
	"bufio"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/layout"
)

// GlobalsOptions are pglobal's options.
type GlobalsOptions struct {
	Variables bool   // -v: external variables (wins over Functions)
	Functions bool   // -f: external functions
	Format    string // -F: formats to try, comma separated ("" is dwarf,btf)
	Jobs      int    // DWARF units converted in parallel (0: one per CPU)

	// LangExclude lists DW_LANG codes of DWARF units to leave out.
	LangExclude []uint16
	// Warnings is where the loader's diagnostics go; nil discards them.
	Warnings io.Writer
}

// ErrGlobalsLoad is a FILE pglobal could not load; the error names the
// file and says what pglobal's strerror(errno) says ("FILE: Invalid
// argument").
var ErrGlobalsLoad = errors.New("cannot load")

// GlobalsLoadError is a file pglobal could not load.
type GlobalsLoadError struct {
	Path   string
	Reason string // "Invalid argument", "Operation not supported"
}

func (e *GlobalsLoadError) Error() string        { return e.Path + ": " + e.Reason }
func (e *GlobalsLoadError) Is(target error) bool { return target == ErrGlobalsLoad }

// Names are views of the files read, which are closed before the tree is
// walked: the tree's keys are copies.

// global is one name of pglobal's tree: the entry printed (rendered when
// it became the head) and how many more entries have its name.
type global struct {
	text  string
	count uint32
}

type globals struct {
	vars, funcs bool
	byName      map[string]*global
}

// Globals does what pglobal does with options o and the FILE arguments
// files, writing to w: byte for byte pahole 1.32's pglobal's output.
// Nothing is printed when a file cannot be loaded. Without files, the
// running kernel's BTF is read (pglobal's command line requires a FILE;
// prefcnt's does not). With neither Variables nor Functions the files
// are only loaded, which is all pahole 1.32's prefcnt shows of them.
func Globals(w io.Writer, files []string, o GlobalsOptions) error {
	po := Options{Format: o.Format, Jobs: o.Jobs, LangExclude: o.LangExclude, Warnings: o.Warnings}
	// Without -v or -f nothing is printed: the files are only loaded
	// (and their types not converted).
	po.globals = o.Variables || o.Functions
	var discard bufio.Writer
	p := newPrinter(&discard, po)
	g := &globals{vars: o.Variables, funcs: o.Functions && !o.Variables, byName: map[string]*global{}}
	p.glob = g
	if err := p.loadEach(files); err != nil {
		return err
	}
	names := make([]string, 0, len(g.byName))
	for name := range g.byName {
		names = append(names, name)
	}
	sort.Strings(names)
	bw := bufio.NewWriterSize(w, 1<<16)
	for _, name := range names {
		e := g.byName[name]
		bw.WriteString(e.text)
		if g.vars {
			bw.WriteString("; /* ")
			bw.WriteString(strconv.FormatUint(uint64(e.count), 10))
			bw.WriteString(" */\n\n")
		} else {
			bw.WriteString("\n\n")
		}
	}
	return bw.Flush()
}

// loadEach is pahole's cus__load_files for the tools that load every
// file before anything else (pglobal, prefcnt, pdwtags): the files in
// order, each unit handed over as loaded, until one fails (a
// *GlobalsLoadError); without files, the running kernel's BTF. The
// files are closed afterwards.
func (p *printer) loadEach(files []string) error {
	var err error
	if len(files) == 0 {
		err = p.load(nil)
	}
	for _, path := range files {
		if _, err = p.loadFile(path); err != nil {
			err = globalsErr(path, p.o.Format, err)
			break
		}
	}
	for _, c := range p.closers {
		c.Close()
	}
	return err
}

// globalsErr is what pglobal says of a file it could not load: libdw's
// or libbpf's errno, EINVAL, but EOPNOTSUPP for a format it does not
// know.
func globalsErr(path, format string, err error) error {
	var ni *NoInfoError
	if errors.As(err, &ni) && format != "" {
		for _, f := range strings.Split(format, ",") {
			if f != "dwarf" && f != "btf" {
				return &GlobalsLoadError{Path: path, Reason: "Operation not supported"}
			}
		}
	}
	return &GlobalsLoadError{Path: path, Reason: "Invalid argument"}
}

// add is pglobal's cu_extvar_iterator or cu_extfun_iterator for one
// unit.
func (g *globals) add(p *printer, u *unit) {
	switch {
	case g.vars && u.btf:
		g.btfVars(u)
	case g.vars:
		var tp *layout.TypePrinter
		for _, v := range u.vars {
			if !v.external || v.name == "" {
				continue
			}
			e := g.byName[v.name]
			if e != nil {
				e.count++
				if v.declaration {
					continue // goes after the head
				}
			}
			// A definition becomes the head; so does the first entry.
			if tp == nil {
				tp = layout.NewTypePrinter(u.spec, u.facts, layout.Options{})
			}
			var b []byte
			// pahole's variable__prefix without addresses read: the
			// scope is unknown. A variable whose type pahole does not
			// find (void) prints nothing, not even the prefix.
			if v.declaration && v.typ != 0 {
				b = append(b, "extern "...)
			}
			b = tp.Variable(b, v.typ, v.name)
			b = append(b, ';')
			if e == nil {
				g.byName[strings.Clone(v.name)] = &global{text: string(b)}
			} else {
				e.text = string(b)
			}
		}
	case g.funcs:
		for _, f := range u.funcs {
			if !f.external || !f.hasName || f.name == "" {
				continue
			}
			if e := g.byName[f.name]; e != nil {
				e.count++
				continue
			}
			var b buf
			p.function(&b, u, f)
			g.byName[strings.Clone(f.name)] = &global{text: string(b)}
		}
	}
}

// btfVars are the external variables of a BTF unit: VARs of linkage
// global allocated, by ID.
func (g *globals) btfVars(u *unit) {
	const globalAllocated = 1
	var tp *layout.TypePrinter
	for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
		t := u.spec.Type(id)
		if t.Kind() != btf.KindVar || t.Linkage() != globalAllocated || t.NameOff() == 0 {
			continue
		}
		name := t.Name()
		if e := g.byName[name]; e != nil {
			e.count++
		}
		if tp == nil {
			tp = layout.NewTypePrinter(u.spec, nil, layout.Options{})
		}
		b := append(tp.Variable(nil, t.Ref(), name), ';')
		if e := g.byName[name]; e != nil {
			e.text = string(b)
		} else {
			g.byName[strings.Clone(name)] = &global{text: string(b)}
		}
	}
}
