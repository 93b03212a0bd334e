package encode

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
	"github.com/btfkit/btfkit/internal/atomicfile"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// One benchmark per stage that btfkit encode --stats times (stats.go):
// open, walk, convert, merge, funcs, dedup and write, each on the Debian
// vmlinux, so that a regression shows in the stage it is in. Open, walk
// and convert also run on 100 of its modules (the module batch's own
// stages; BenchmarkMergeModules and BenchmarkSplitOntoModules time its
// merge and its dedup onto the base). Each benchmark makes its stage's
// input before the timer starts, or with the timer stopped, and checks
// what the stage made, so that a broken stage fails instead of timing
// nothing. Everything runs on the benchmark's goroutine (the walks with
// one worker): ns/op is the stage's own work, not how it overlaps the
// others in a parallel encoding.
//
//	go test -run '^$' -bench Stage -benchtime 3x ./encode/

// stageOptions are the encoder's options the stages run with.
var stageOptions = Options{Features: DefaultFeatures, Jobs: 1}

// stageModules is how many modules the module variants take.
const stageModules = 100

// stageInputs runs bench once on the vmlinux and, when modules is set, once
// on stageModules of its modules (sub-benchmarks "vmlinux" and "modules").
// Both skip visibly without the kernel inputs (testenv.KernelInputs).
func stageInputs(b *testing.B, modules bool, bench func(b *testing.B, paths []string)) {
	b.Run("vmlinux", func(b *testing.B) {
		vmlinux, _ := testenv.KernelInputs(b)
		bench(b, []string{vmlinux})
	})
	if !modules {
		return
	}
	b.Run("modules", func(b *testing.B) {
		var paths []string
		for _, m := range splitSubset(b, stageModules) {
			paths = append(paths, m.Path)
		}
		bench(b, paths)
	})
}

// stageFile is an input as the open stage leaves it.
type stageFile struct {
	f   *elfx.File
	elf *funcvar.ELF // functions and variables: symbols and sections
	d   *dwarf.Data
}

// openStage is the open stage on path: the file mapped (or decompressed),
// its symbols and sections read for the functions and variables, its
// DWARF sections found (relocated, for a module) and its units indexed.
// It also makes the encoder's check for units read as one (mergesUnits,
// which --stats counts in no stage) and refuses such a file: the
// benchmarks time the per-unit path.
func openStage(path string) (*stageFile, error) {
	f, err := openInput(path)
	if err != nil {
		return nil, err
	}
	s := &stageFile{f: f}
	if s.elf, err = funcvar.ReadELF(f, funcOptions(stageOptions.Features)); err == nil {
		s.d, err = dwarf.FromELF(f)
	}
	if err == nil {
		var merged bool
		if merged, err = mergesUnits(f, s.d); err == nil && merged {
			err = fmt.Errorf("units are read as one (LTO): the stage benchmarks take the per-unit path")
		}
	}
	if err != nil {
		s.close()
		return nil, elfx.NamingFile(path, err)
	}
	return s, nil
}

func (s *stageFile) close() {
	if s.d != nil {
		s.d.Close()
	}
	s.f.Close()
}

// openStages opens every path (before the timer) and closes them when
// the benchmark ends.
func openStages(b *testing.B, paths []string) []*stageFile {
	b.Helper()
	var files []*stageFile
	for _, p := range paths {
		s, err := openStage(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(s.close)
		files = append(files, s)
	}
	return files
}

// freshDWARF gives s a new dwarf.Data, as a new encoding starts with
// (units' abbreviations not yet read), and returns the pages of its
// .debug_info to the file, as the encoder's walk does (releasePages), so
// that the next walk reads them back as an encoding does. Outside the
// timer.
func (s *stageFile) freshDWARF(b *testing.B) {
	b.Helper()
	s.d.Close()
	d, err := dwarf.FromELF(s.f)
	if err != nil {
		b.Fatal(err)
	}
	s.d = d
	s.f.Release(d.Sections().Info)
}

// stageConv is what a worker of the encoder converts a file's units
// with: a converter and the function and variable records.
type stageConv struct {
	c  *unitConv
	fu *funcvar.Unit
}

// newStageConvs returns a stageConv for each file, made before the timer
// and reused by every iteration. The files share one converter, as the
// encoder's workers reuse theirs from unit to unit and convPool from file
// to file: its scratch memory grows in the first iteration only. The
// function and variable records are the file's, as a worker's are.
func newStageConvs(b *testing.B, files []*stageFile) []stageConv {
	b.Helper()
	big := files[0].d.Sections().BigEndian
	c := newUnitConv(stageOptions, big)
	c.free = make(chan *fragment, 1)
	var convs []stageConv
	for _, s := range files {
		if s.d.Sections().BigEndian != big {
			b.Fatal("the inputs differ in byte order")
		}
		convs = append(convs, stageConv{c, funcvar.NewUnit(s.elf, funcOptions(stageOptions.Features))})
	}
	return convs
}

// walkStage runs the walk stage over every unit of s with one worker:
// entries read and the ones the encoder looks at recorded by c (types)
// and fu (functions and variables). converted, when not nil, is called
// after each unit's walk (the convert stage). It returns the type
// entries recorded.
func (s *stageFile) walkStage(c *unitConv, fu *funcvar.Unit, converted func()) (recs int, err error) {
	err = dwarf.Walk(s.d, 1, func(r *dwarf.UnitReader) (int, error) {
		if u := r.Unit(); u.Type != dwarf.UTCompile && u.Type != dwarf.UTPartial {
			return 0, nil
		}
		if err := walkUnitFast(r, c, fu); err != nil {
			return 0, err
		}
		n := len(c.recs)
		if converted != nil {
			converted()
		}
		return n, nil
	}, func(_ *dwarf.Unit, n int) error {
		recs += n
		return nil
	})
	return recs, err
}

// reportTypes reports n types per op as types/s of timed work.
func reportTypes(b *testing.B, n int) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/s, "types/s")
	}
}

// BenchmarkStageOpen times the open stage: each file opened, its ELF
// symbols and sections read, its DWARF sections found (a module's
// relocated) and its units indexed, then closed (the encoder closes the
// file in the open stage too).
func BenchmarkStageOpen(b *testing.B) {
	stageInputs(b, true, func(b *testing.B, paths []string) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, p := range paths {
				s, err := openStage(p)
				if err != nil {
					b.Fatal(err)
				}
				if len(s.d.Units()) == 0 || len(s.d.Sections().Info) == 0 {
					b.Fatalf("%s: open found no units", p)
				}
				s.close()
			}
		}
	})
}

// BenchmarkStageWalk times the walk stage: every entry of every unit
// read, the attributes the encoder looks at decoded, types recorded for
// the conversion and functions and variables for their selection, with
// one worker, from a new dwarf.Data each time. Besides ns/op: MB/s of
// .debug_info and the type entries recorded per second.
func BenchmarkStageWalk(b *testing.B) {
	stageInputs(b, true, func(b *testing.B, paths []string) {
		files := openStages(b, paths)
		size := 0
		for _, s := range files {
			size += len(s.d.Sections().Info)
		}
		convs := newStageConvs(b, files)
		b.SetBytes(int64(size))
		b.ReportAllocs()
		b.ResetTimer()
		recs := 0
		for i := 0; i < b.N; i++ {
			recs = 0
			for k, s := range files {
				b.StopTimer()
				s.freshDWARF(b)
				b.StartTimer()
				n, err := s.walkStage(convs[k].c, convs[k].fu, nil)
				if err != nil {
					b.Fatal(err)
				}
				recs += n
			}
		}
		if recs == 0 {
			b.Fatal("the walk recorded no types")
		}
		reportTypes(b, recs)
	})
}

// BenchmarkStageConvert times the convert stage: each unit's recorded
// types written as a BTF fragment and its functions and variables
// decided by the unit's rules. Each unit is walked with the timer
// stopped; ns/op is the conversion alone. Besides ns/op: fragment types
// made per second.
func BenchmarkStageConvert(b *testing.B) {
	stageInputs(b, true, func(b *testing.B, paths []string) {
		files := openStages(b, paths)
		convs := newStageConvs(b, files)
		b.ReportAllocs()
		b.ResetTimer()
		types := 0
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			types = 0
			for k, s := range files {
				s.freshDWARF(b)
				c, fu := convs[k].c, convs[k].fu
				var convErr error
				_, err := s.walkStage(c, fu, func() {
					b.StartTimer()
					f := c.emit()
					if c.tooLong != nil && convErr == nil {
						convErr = c.tooLong
					}
					if !c.skip {
						fu.Finish(c, &f.funcs)
					}
					b.StopTimer()
					types += len(f.hdrs)
					f.reset()
					c.free <- f
				})
				if err == nil {
					err = convErr
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		}
		if types == 0 {
			b.Fatal("the conversion made no types")
		}
		reportTypes(b, types)
	})
}

// stageFragments are the vmlinux's fragments, made once per test process
// by the encoder's walk (two workers) and kept for the merge, funcs and
// dedup benchmarks; the file stays open, since the fragments' names are
// views of its mapping, as in an encoding.
type stageFragments struct {
	elf       *funcvar.ELF
	debugStr  []byte // the file's .debug_str, for the merge's knownStrs (nil: relocatable)
	frags     []fragment
	types     int // types of all fragments
	infoBytes int
}

// memo is a value a benchmark makes once per test process, on the first
// call that needs it.
type memo[T any] struct {
	sync.Mutex
	v *T
}

func (m *memo[T]) get(build func() *T) *T {
	m.Lock()
	defer m.Unlock()
	if m.v == nil {
		m.v = build()
	}
	return m.v
}

var stageFrags memo[stageFragments]

// vmlinuxFragments returns the vmlinux's fragments, making them on the
// first call.
func vmlinuxFragments(b *testing.B) *stageFragments {
	b.Helper()
	vmlinux, _ := testenv.KernelInputs(b)
	return stageFrags.get(func() *stageFragments { return makeFragments(b, vmlinux) })
}

// makeFragments walks vmlinux as an encoding does and keeps the
// fragments.
func makeFragments(b *testing.B, vmlinux string) *stageFragments {
	f, err := openInput(vmlinux)
	if err != nil {
		b.Fatal(err)
	}
	p := &stageFragments{}
	if p.elf, err = funcvar.ReadELF(f, funcOptions(stageOptions.Features)); err != nil {
		b.Fatal(err)
	}
	o := stageOptions
	o.Jobs = 2
	err = walk(f, walkConfig{Options: o, elf: p.elf}, func(fr *fragment) error {
		// Take the fragment's slices: the walk reuses the emptied one.
		p.frags = append(p.frags, *fr)
		*fr = fragment{}
		return nil
	}, func(secs *dwarf.Sections) {
		p.infoBytes = len(secs.Info)
		if !p.elf.Relocatable() {
			p.debugStr = secs.Str
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	for i := range p.frags {
		p.types += len(p.frags[i].hdrs)
	}
	if p.types == 0 {
		b.Fatal("the vmlinux's fragments have no types")
	}
	return p
}

// merger returns a merger for the fragments as the encoder makes it, with
// the function selection but without deduplication, its tables grown as
// the encoder grows them for the file.
func (p *stageFragments) merger() *merger {
	m := newMerger()
	m.funcs = funcvar.NewSelection(p.elf, funcOptions(stageOptions.Features))
	if p.debugStr != nil {
		m.known = &knownStrs{}
		m.known.open(p.debugStr)
	}
	m.reserveFor(p.infoBytes)
	return m
}

// mergeAll merges the fragments into m; unitEnd, when not nil, gets the
// next ID after each unit.
func (p *stageFragments) mergeAll(b *testing.B, m *merger, unitEnd func(btf.TypeID)) {
	b.Helper()
	for i := range p.frags {
		if err := m.add(&p.frags[i]); err != nil {
			b.Fatal(err)
		}
		if unitEnd != nil {
			unitEnd(m.out.NextID())
		}
	}
}

// BenchmarkStageMerge times the merge stage on the vmlinux's fragments
// (made once, before the timer): names interned in one string table,
// types renumbered and appended in unit order, variables and function
// candidates taken by the selection. The types are appended to a Spec,
// not to the dedup.Stream an encoding merges into: --stats moves the
// Stream's work to the dedup stage, and BenchmarkStageDedup replays it.
func BenchmarkStageMerge(b *testing.B) {
	p := vmlinuxFragments(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		m := p.merger() // the reservation is the open stage's
		b.StartTimer()
		p.mergeAll(b, m, nil)
		if n := int(m.out.NextID()) - 1; n < p.types {
			b.Fatalf("merged %d types of %d", n, p.types)
		}
	}
	reportTypes(b, p.types)
}

// BenchmarkStageFuncs times the funcs stage on the vmlinux: the
// functions decided from every unit's candidates and their FUNC_PROTOs,
// FUNCs, DECL_TAGs and the DATASECs added. Each time the fragments are
// merged anew with the timer stopped.
func BenchmarkStageFuncs(b *testing.B) {
	p := vmlinuxFragments(b)
	b.ReportAllocs()
	b.ResetTimer()
	funcs := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		m := p.merger()
		p.mergeAll(b, m, nil)
		from := m.out.NextID()
		b.StartTimer()
		if err := m.funcs.Finish(m.out, m.intern, nil); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		funcs = 0
		for id := from; id < m.out.NextID(); id++ {
			if _, info, _, _ := m.out.RawType(id); btf.KindOf(info) == btf.KindFunc {
				funcs++
			}
		}
		if funcs == 0 {
			b.Fatal("no function was encoded")
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(funcs), "funcs")
}

// stageMergedTypes are the vmlinux's merged types before deduplication,
// made once per test process from its fragments: what an encoding
// appends to its dedup.Stream, unit by unit.
type stageMergedTypes struct {
	spec  *btf.Spec
	units []btf.TypeID // the next ID after each unit; the functions' types follow the last
	words int
}

var stageMerged memo[stageMergedTypes]

// vmlinuxMerged returns the vmlinux's merged types, making them on the
// first call.
func vmlinuxMerged(b *testing.B) *stageMergedTypes {
	b.Helper()
	p := vmlinuxFragments(b)
	return stageMerged.get(func() *stageMergedTypes { return makeMerged(b, p) })
}

// makeMerged merges p's fragments as an encoding does.
func makeMerged(b *testing.B, p *stageFragments) *stageMergedTypes {
	s := &stageMergedTypes{}
	m := p.merger()
	p.mergeAll(b, m, func(next btf.TypeID) { s.units = append(s.units, next) })
	if err := m.funcs.Finish(m.out, m.intern, nil); err != nil {
		b.Fatal(err)
	}
	s.spec = m.finish()
	for id := s.spec.FirstID(); id < s.spec.NextID(); id++ {
		_, _, _, ext := s.spec.RawType(id)
		s.words += len(ext)
	}
	return s
}

// newStream returns an empty dedup.Stream with room for s's types (the
// encoder makes room in the open stage).
func (s *stageMergedTypes) newStream() *dedup.Stream {
	st := dedup.NewStream(nil)
	st.Reserve(s.spec.NumTypes(), s.words)
	return st
}

// streamDedup deduplicates s with st as an encoding does: the types
// appended unit by unit (the Stream's primitive and struct phases run at
// each unit's end), then the functions' types, then Finish.
func (s *stageMergedTypes) streamDedup(st *dedup.Stream, strs []byte) (*btf.Spec, error) {
	id := s.spec.FirstID()
	add := func(end btf.TypeID) {
		for ; id < end; id++ {
			name, info, sizeType, ext := s.spec.RawType(id)
			st.AddRaw(name, info, sizeType, ext...)
		}
	}
	for _, end := range s.units {
		add(end)
		if err := st.EndUnit(); err != nil {
			return nil, err
		}
	}
	add(s.spec.NextID())
	return st.Finish(strs)
}

// checkDedup fails b unless out is a plausible deduplication of in.
func checkDedup(b *testing.B, in, out *btf.Spec) {
	b.Helper()
	if n := out.NumTypes(); n == 0 || n > in.NumTypes()/4 {
		b.Fatalf("dedup left %d types of %d", n, in.NumTypes())
	}
}

// BenchmarkStageDedup times the dedup stage on the vmlinux's merged types
// (made once, before the timer). "stream" is what an encoding does (a
// dedup.Stream fed unit by unit, the copying of each type into it
// included, which --stats counts in the merge); "spec" is dedup.Dedup on
// the whole merged Spec, as EncodeSplit deduplicates a module (without a
// base here). Besides ns/op: input types per second.
func BenchmarkStageDedup(b *testing.B) {
	b.Run("stream", func(b *testing.B) {
		s := vmlinuxMerged(b)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			st, strs := s.newStream(), slices.Clone(s.spec.RawStrings())
			b.StartTimer()
			out, err := s.streamDedup(st, strs)
			if err != nil {
				b.Fatal(err)
			}
			checkDedup(b, s.spec, out)
		}
		reportTypes(b, s.spec.NumTypes())
	})
	b.Run("spec", func(b *testing.B) {
		s := vmlinuxMerged(b)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			out, _, err := dedup.Dedup(s.spec, dedup.Options{KeepDuplicateVars: true})
			if err != nil {
				b.Fatal(err)
			}
			checkDedup(b, s.spec, out)
		}
		reportTypes(b, s.spec.NumTypes())
	})
}

// BenchmarkStageWrite times the write that follows an encoding (in
// btfkit encode, after the encoder's finish stage): the deduplicated
// vmlinux BTF (made once, before the timer) marshalled and written to a
// new file as the command writes its output (atomicfile). MB/s is of
// the BTF written.
func BenchmarkStageWrite(b *testing.B) {
	s := vmlinuxMerged(b)
	spec, err := s.streamDedup(s.newStream(), slices.Clone(s.spec.RawStrings()))
	if err != nil {
		b.Fatal(err)
	}
	addKindLayouts(spec, stageOptions.Features) // the finish stage
	path := filepath.Join(b.TempDir(), "vmlinux.btf")
	b.SetBytes(int64(len(spec.Marshal(nil))))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			b.Fatal(err)
		}
		b.StartTimer()
		data := spec.Marshal(nil)
		if _, err := atomicfile.Write(path, data, atomicfile.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if _, err := btf.LoadFile(path, nil); err != nil {
		b.Fatalf("reading the written BTF: %v", err)
	}
}
