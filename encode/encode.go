package encode

import (
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
)

// Options controls an encoding.
type Options struct {
	// Features selects what is encoded; see ParseFeatures. The zero value
	// means no optional feature at all; most callers want DefaultFeatures.
	Features Features
	// Jobs is the number of units converted in parallel; <= 0 means one
	// per CPU. The output does not depend on it.
	Jobs int
	// LangExclude lists DW_LANG codes of units to skip (see ParseLanguages).
	LangExclude []uint16
	// NoDedup returns the merged fragments without deduplication (for
	// tests and debugging, and pahole -V's log of its encoder). That
	// result is not checked by the kernel's rules: undeduplicated, a
	// vmlinux has more types than the kernel takes.
	NoDedup bool
	// Report, when not nil, is filled with the functions left out and
	// why.
	Report *Report
	// DeclInfo makes EachUnit also record in each unit's facts where its
	// structs, unions, enums and typedefs are declared (file, line and the
	// entry's offset, as pahole loads them for -D, -I and -P). It costs a
	// second look at those entries.
	DeclInfo bool
	// Stats, when not nil, gets the time of each stage added to it.
	// Timing locks the calling goroutine and the workers to their
	// threads while they run (runtime.LockOSThread) and costs a few
	// system calls per unit.
	Stats *Stats
	// Progress, when not nil, is called after each compile unit has been
	// merged, on one goroutine, with the units done and the units of the
	// file (for a progress bar; a batch calls it for each module's).
	Progress func(done, total int)
	// Warnings, when not nil, gets what pahole's DWARF loader warns
	// about on its way (a dwz alternate file that is missing); the
	// encoding goes on without what is missing.
	Warnings io.Writer
	// Lookup tells EachUnit and MapUnits that the caller is looking
	// for a few things and will likely end the walk early (its emit
	// returns an error once every -C name was found, as pahole stops
	// loading units then): units are converted one at a time at first
	// and further ahead of emit only as the walk goes on without
	// ending (lookupAhead), so that the units past the one where it
	// ends are not read at all. The output does not depend on it.
	Lookup bool
}

// EncodeFile converts the DWARF of the ELF file at path (vmlinux, a module,
// an object file; compressed modules too, see elfx.Open) to BTF: every unit
// becomes a fragment, in parallel; the fragments are merged in unit order
// as they come and the result is deduplicated. The file is opened and
// mapped once, for its symbols, sections and DWARF alike. Errors name the
// file (an *elfx.Error).
func EncodeFile(path string, o Options) (*btf.Spec, error) {
	return encodeFile(path, o, true)
}

// encodeFile is EncodeFile; check says whether the output is checked here
// (EncodeSplit checks its split output instead: the module's standalone
// types, many of them the base's, are several times more to check).
func encodeFile(path string, o Options, check bool) (*btf.Spec, error) {
	clk := newStageClock(o.Stats != nil)
	defer clk.stop()
	f, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// encode copies what it keeps of the file before closing it.
	f.CopiesUntilClose()
	spec, err := encode(f, o, clk)
	if err == nil && check && !o.NoDedup {
		err = checkOutput(spec)
	}
	if err != nil {
		return nil, elfx.NamingFile(path, err)
	}
	return spec, nil
}

// ErrExcluded is the cause of the error EncodeFile and EncodeSplit
// return for a file whose every compile unit is of a language
// Options.LangExclude names: there is nothing to encode, and pahole 1.32
// writes nothing then (and exits 0), not even an empty BTF; callers that
// stand in for it do the same.
var ErrExcluded = errors.New("every compile unit is of an excluded language (--lang_exclude): nothing to encode")

// checkOutput refuses BTF that the kernel would reject (Check, the newest
// kernel's rules): what DWARF that lies makes of it (a member past the
// end of its struct, a struct holding itself, a name that is no
// identifier, a member of type void), an error here rather than a
// BTF that fails when the kernel loads it. The cost is a few percent of
// an encoding.
func checkOutput(spec *btf.Spec) error {
	if err := spec.Check(); err != nil {
		return fmt.Errorf("the DWARF describes types BTF cannot hold: %w", err)
	}
	return nil
}

// openInput opens an encoder's input; one that is not ELF gets a hint.
func openInput(path string) (*elfx.File, error) {
	f, err := elfx.Open(path)
	var e *elfx.Error
	if errors.Is(err, elfx.ErrNotELF) && errors.As(err, &e) {
		c := *e
		c.Err = fmt.Errorf("%w (encode reads the DWARF of vmlinux, modules and object files)", e.Err)
		return nil, &c
	}
	return f, err
}

// encode is EncodeFile on the open file f, which it closes once the walk
// is over. Its errors do not name the file. clk (nil without o.Stats) has
// been timing the open since it was started.
func encode(f *elfx.File, o Options, clk *stageClock) (*btf.Spec, error) {
	st := o.Stats
	// Functions and variables need the ELF symbols and sections, but
	// only once a unit is walked (its Finish) and after the merge: they
	// are read beside the first units' walk (65-80 ms of a vmlinux that
	// kept a core idle), into info, which nothing reads before
	// cfg.elfReady returns nil.
	info := new(funcvar.ELF)
	elfRead := make(chan error, 1)
	go func() {
		e, err := funcvar.ReadELF(f, funcOptions(o.Features))
		if err == nil {
			*info = *e
		}
		elfRead <- err
	}()
	var elfOnce sync.Once
	var elfErr error
	elfReady := func() error {
		elfOnce.Do(func() { elfErr = <-elfRead })
		return elfErr
	}
	var m *merger
	if o.NoDedup {
		m = newMerger()
	} else {
		var ds *dedup.Stats
		if st != nil {
			ds = &st.DedupPhases
		}
		m = newDedupMerger(ds)
	}
	m.funcs = funcvar.NewSelection(info, funcOptions(o.Features))
	if o.Report != nil {
		m.funcs.LogTo(o.Report)
	}
	var walk0 time.Time
	known := &knownStrs{}
	err := walk(f, walkConfig{Options: o, elf: info, elfReady: elfReady, clk: clk, known: known}, m.add, func(secs *dwarf.Sections) {
		m.reserveFor(len(secs.Info))
		// The readers' strings are views of the mapping, which stays put
		// during the walk. A relocatable file (a module, ld -r) keeps
		// every object's .debug_str as it was, unmerged: units never
		// share a name's place, and identity lookups would all miss
		// (~1.7 ms a module).
		if f.Type != elf.ET_REL {
			known.open(secs.Str)
			m.known = known
		}
		if st != nil {
			clk.lap(&st.Open)
			walk0 = time.Now()
		}
	})
	if st != nil {
		st.WalkWall += time.Since(walk0)
		clk.skip()
	}
	// The merged tables hold copies: the mapping (all of the DWARF a walk
	// touched) is released before deduplication adds its own peak.
	// EncodeFile's Close after this one does nothing.
	m.known = nil
	// An error reading the ELF side comes first, as when it was read
	// before the walk (the walk may have stopped for it).
	if eerr := elfReady(); eerr != nil {
		err = eerr
	}
	f.Close()
	if err != nil {
		return nil, err
	}
	if st != nil {
		clk.lap(&st.Open)
	}
	return m.result(o, clk)
}

// reserveFor grows m's tables for the types of a .debug_info of
// infoBytes bytes. A Linux kernel has about one type per 49 bytes of
// .debug_info and one trailing word per 7.3 bytes. Reserving a little
// more saves regrowing (and copying) the largest slices; capacity that is
// never touched costs no memory. Distinct names: about one per 16-64
// bytes in a module, far fewer in a linked kernel; the index grows past
// 64K when it must. A module-sized index stays in cache, a vmlinux-sized
// one per module cost ~0.6 ms to make.
//
// Function candidates (when m selects functions): one per ~1 KB of
// .debug_info in a kernel, fewer in modules; parameter and tag words one
// per ~700 bytes.
func (m *merger) reserveFor(infoBytes int) {
	m.reserve(infoBytes/44, infoBytes/6, min(max(infoBytes/16, 1<<8), 1<<16))
	if m.funcs != nil {
		m.funcs.Reserve(infoBytes/1024, infoBytes/640)
	}
}

// result decides the functions, if the fragments carried any, and
// deduplicates the merged types unless o.NoDedup.
func (m *merger) result(o Options, clk *stageClock) (*btf.Spec, error) {
	st := o.Stats
	if m.units > 0 && m.excluded == m.units {
		return nil, ErrExcluded
	}
	if m.funcs != nil {
		if err := m.funcs.Finish(m.out, m.intern, o.Report); err != nil {
			return nil, err
		}
	}
	if st != nil {
		clk.lap(&st.Funcs)
		st.Types += int(m.out.NextID()) - 1
	}
	if m.stream != nil {
		out, err := m.finishDedup()
		if err != nil {
			return nil, err
		}
		if st != nil {
			clk.lap(&st.Dedup)
		}
		addKindLayouts(out, o.Features)
		if st != nil {
			clk.lap(&st.Finish)
			st.Out += out.NumTypes()
		}
		return out, nil
	}
	merged := m.finish()
	if o.NoDedup {
		return merged, nil
	}
	// Like libbpf, never merge VARs: two static variables of one name and
	// type in two units are two variables (global_var).
	dopts := dedup.Options{KeepDuplicateVars: true}
	if st != nil {
		dopts.Stats = &st.DedupPhases
	}
	out, _, err := dedup.Dedup(merged, dopts)
	if err != nil {
		return nil, err
	}
	if st != nil {
		clk.lap(&st.Dedup)
	}
	keepStringOrder(out, merged) // strorder.go
	addKindLayouts(out, o.Features)
	if st != nil {
		clk.lap(&st.Finish)
		st.Out += out.NumTypes()
	}
	return out, nil
}

// Fragments converts each unit of the file at path to a BTF fragment and
// returns them in unit order, each a standalone Spec, without merging (for
// tests and tools).
func Fragments(path string, o Options) ([]*btf.Spec, error) {
	f, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*btf.Spec
	err = walk(f, walkConfig{Options: o}, func(fr *fragment) error {
		out = append(out, fr.spec())
		return nil
	}, nil)
	return out, elfx.NamingFile(path, err)
}

// walkConfig is what a walk is asked for: the caller's options, and what
// the fragments carry besides their types.
type walkConfig struct {
	Options
	elf *funcvar.ELF // the file's ELF side: fragments carry functions and variables; nil: none
	// elfReady, when not nil, waits until elf has been read and returns
	// the error of reading it; nothing of elf is read before it returns
	// nil (NewUnit only keeps the pointer).
	elfReady func() error
	facts    bool // fragments carry their DWARF facts (EachUnit)
	// unitDone, when not nil, is called in the worker with each unit's
	// fragment once it is made, before the fragment goes to emit
	// (MapUnits: the caller's per-unit work runs in parallel).
	unitDone func(u *dwarf.Unit, f *fragment) error
	clk      *stageClock         // times the merge (emit) for Options.Stats; nil: no timing
	done     func(u *dwarf.Unit) // called after unit u was emitted; may be nil

	// known, when not nil, has the names the merge already holds, for
	// the workers' fragments to refer to by merged offset (strknown.go).
	known *knownStrs
}

// walk converts the units of the open file f, cfg.Jobs at a time, and
// hands the fragments to emit in unit order, on the calling goroutine. A
// fragment belongs to emit only for the call.
//
// onOpen, when not nil, is given the DWARF sections before the first
// unit.
func walk(f *elfx.File, cfg walkConfig, emit func(*fragment) error, onOpen func(secs *dwarf.Sections)) error {
	jobs := cfg.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	d, err := dwarf.FromELF(f)
	if err != nil {
		return err
	}
	defer d.Close()
	if d.AltMissing() && cfg.Warnings != nil {
		io.WriteString(cfg.Warnings, dwarf.MissingAltWarning(f.Path))
	}
	if onOpen != nil {
		onOpen(d.Sections())
	}
	var convs convList
	defer convs.release()
	merged, err := mergesUnits(f, d)
	if err != nil {
		return err
	}
	if merged || cfg.Features.Has(FeatForceCUMerging) {
		return walkMerged(d, cfg, &convs, emit)
	}
	// Nothing of .debug_info is resident yet: dwarf.FromELF reads the
	// unit headers from the file and mergesUnits only the abbreviation
	// tables (through the mapping, each header would fault in the 64 KiB
	// around it: ~70 MiB of a vmlinux's 164 before the first unit). The
	// walk brings in what it reads, and releases it behind itself.
	cfg.done = releasePages(f, d.Sections())
	return walkFast(d, cfg, jobs, &convs, emit)
}

// releasePages returns what the walk calls after each unit it has
// emitted: the pages of .debug_info up to that unit's end leave resident
// memory (elfx.File.Release), so that the walk holds only the units in
// flight instead of the whole section (164 MB for a vmlinux) until the
// file is closed. What the fragments keep of those pages (names written
// inline) is copied by the merge; anything that reads them later gets
// them back from the file. The location and range lists (read for the
// functions' parameters, 27 MB in a vmlinux) are released whole every
// few MB of .debug_info: the units in flight fault back the few pages
// they still read.
func releasePages(f *elfx.File, secs *dwarf.Sections) func(u *dwarf.Unit) {
	info := secs.Info
	from, lists := 0, 0
	page := os.Getpagesize()
	return func(u *dwarf.Unit) {
		end := int(u.End)
		if u.Section != ".debug_info" || end <= from || end > len(info) {
			return
		}
		// The page holding the previous end was partly the previous
		// unit's: it is released with this one.
		f.Release(info[max(0, from-page):end])
		from = end
		if end-lists >= 4<<20 || end == len(info) {
			f.Release(secs.Loclists)
			f.Release(secs.Rnglists)
			f.Release(secs.Loc)
			f.Release(secs.Ranges)
			lists = end
		}
	}
}

// convPool holds the converters of finished walks: their scratch slices,
// grown to the largest units seen, serve the next file's walk (a batch
// made ~5 GB of garbage regrowing them module after module).
var convPool sync.Pool

// convList records the converters newUnitConv makes for one walk, to
// give them back to convPool when the walk is done.
type convList struct {
	mu   sync.Mutex
	list []*unitConv
}

// reuse gives c the scratch memory of a converter of a finished walk, if
// there is one: only slices the converter resets or overwrites for each
// unit (a field it does not list starts from zero, as in a new one).
func (l *convList) reuse(c *unitConv) {
	if old, _ := convPool.Get().(*unitConv); old != nil {
		c.recs = old.recs[:0]
		c.items = old.items[:0]
		c.stack = old.stack[:0]
		c.ids = old.ids[:0]
		c.scratch = old.scratch[:0]
		c.strs = strTab{slots: old.strs.slots, gen: old.strs.gen}
		c.tagValues = old.tagValues[:0]
		c.tagStack = old.tagStack[:0]
		c.index = old.index // stale entries are never believed (find)
		c.nested = old.nested[:0]
		c.order = old.order[:0]
	}
	l.mu.Lock()
	l.list = append(l.list, c)
	l.mu.Unlock()
}

// release gives the walk's converters to convPool; the walk must be over.
func (l *convList) release() {
	for _, c := range l.list {
		convPool.Put(c)
	}
	l.list = nil
}

func newUnitConv(o Options, big bool) *unitConv {
	c := &unitConv{feat: o.Features, bigEndian: big}
	if len(o.LangExclude) > 0 {
		ex := o.LangExclude
		c.langSkip = func(l uint16) bool { return slices.Contains(ex, l) }
	}
	return c
}
