package frombtf

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
	"github.com/btfkit/btfkit/internal/cputime"
	"github.com/btfkit/btfkit/internal/dedupinternal"
)

// Options controls the archive route.
type Options struct {
	// Features are pahole's --btf_features, as for the DWARF route
	// (encode.Options.Features); see doc.go for what BTF input cannot do.
	Features encode.Features
	// Jobs is the number of members parsed and fixed at once; <= 0 means
	// one per CPU. The output does not depend on it.
	Jobs int
	// Base, when not nil, makes the result split BTF deduplicated against
	// it (a module's BTF against vmlinux).
	Base *dedup.Base
	// Report, when not nil, gets the functions left out and why.
	Report *encode.Report
	// Stats, when not nil, gets counts and timings.
	Stats *Stats
}

// Section is the section the archive is read from, and the result is
// written to by callers that write in place.
const Section = ".BTF"

// ArchiveSection, when a file has it, holds the archive instead of
// Section: where a caller that writes the result in place keeps the
// archive it read (pahole -J -F btf does), so that the file can be
// encoded again.
const ArchiveSection = ".BTF.archive"

// ErrNoBTF is the cause of the error for a file without a .BTF section.
var ErrNoBTF = errors.New("has no .BTF section (the BTF-archive route reads the .BTF that objects compiled with BTF, e.g. gcc -gbtf, leave in the linked file)")

// HasBTF reports whether the ELF file f has BTF for this route: a .BTF
// section, or the archive a previous run kept (ArchiveSection). `pahole
// -F btf,dwarf` takes such a file for BTF to read before DWARF.
func HasBTF(f *elfx.File) bool {
	return f.Section(Section) != nil || f.Section(ArchiveSection) != nil
}

// EncodeFile reads the .BTF of the ELF file at path (vmlinux, a module, an
// object file; compressed modules too), a BTF archive or a single BTF,
// and returns the merged, fixed and deduplicated BTF (see the package
// doc). Errors name the file.
func EncodeFile(path string, o Options) (*btf.Spec, error) {
	f, err := elfx.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	spec, err := Encode(f, o)
	return spec, elfx.NamingFile(path, err)
}

// groupSize is how many consecutive members are merged and deduplicated
// together, in parallel with the other groups, before the groups are
// merged and deduplicated as one. It is fixed, so that the output does
// not depend on the number of jobs.
const groupSize = 32

// Encode is EncodeFile on an open file; its errors do not name the file.
func Encode(f *elfx.File, o Options) (*btf.Spec, error) {
	st := o.Stats
	if st == nil {
		st = &Stats{}
	}
	t := st.start()
	cpu0 := cputime.Process()
	sec := Section
	if f.Section(ArchiveSection) != nil {
		sec = ArchiveSection
	} else if f.Section(Section) == nil {
		return nil, ErrNoBTF
	}
	data, err := f.SectionData(sec)
	if err != nil {
		return nil, err
	}
	// The ELF's symbols are read as one more job beside the groups.
	fo := funcOptions(o.Features)
	var info *funcvar.ELF
	var infoErr error
	// Once the symbols are read, the members' functions that cannot be
	// kept (no ELF function of their name) are not recorded.
	var ready atomic.Pointer[funcvar.Selection]
	readELF := func() {
		if info, infoErr = funcvar.ReadELF(f, fo); infoErr == nil {
			sel := funcvar.NewSelection(info, fo)
			// About as many functions are handed as the ELF has
			// names (some names several times, some never): room
			// for them, rather than a table of ~100-byte entries
			// doubling a dozen times.
			sel.Reserve(info.NumFuncNames(), 8*info.NumFuncNames())
			ready.Store(sel)
		}
	}
	var base *btf.Spec
	if o.Base != nil {
		base = o.Base.Spec()
	}
	// The members' functions go to the Selection as their group is
	// merged, in member order, once the ELF symbols are read.
	handFuncs := func(m *dedup.Merger, members []member) bool {
		sel := ready.Load()
		if sel == nil {
			return false
		}
		addFuncs(sel, m.String, members)
		return true
	}
	var enums enumForwards
	rules := memberRules{features: o.Features, reverseDims: gccReversesDims(f)}
	merger, members, spare, err := loadGroups(sec, data, base, rules, o.Jobs, st, readELF, &ready, &enums, handFuncs)
	if err != nil {
		return nil, err
	}
	if infoErr != nil {
		return nil, infoErr
	}
	t = st.lap(t, &st.Load)
	cpu1 := cputime.Process()
	st.LoadCPU += cpu1 - cpu0
	// The merged types; their string table is set once decide has
	// added the names of the functions and variables kept (through the
	// Merger's interner, which has the merged strings).
	merged := dedupinternal.Partial(merger)
	enums.fix(merged)
	t = st.lap(t, &st.Merge)
	// The merged types' deduplication begins while the functions and
	// variables are decided (their types, appended after, are of kinds
	// the first phases do not look at). The Merger interned every
	// string: each is once in the table.
	dopts := dedup.Options{KeepDuplicateVars: true, Base: o.Base, UniqueStrings: true}
	var staged dedupinternal.Staged
	if o.Base == nil {
		// decide adds a FUNC and a FUNC_PROTO per function kept (at
		// most one per ELF function name), a VAR per variable and a
		// DATASEC per section.
		nf := info.NumFuncNames()
		if staged, err = dedupinternal.BeginIn(spare, merged, dedupinternal.Strings(merger), dopts, 2*nf+len(members), 8*nf); err != nil {
			return nil, err
		}
	}

	// The Selection that has the functions handed on the way.
	sel := ready.Load()
	if err := decide(merged, merger.String, members, info, sel, o.Report); err != nil {
		return nil, err
	}
	merged = merger.Spec()
	t = st.lap(t, &st.Decide)
	var res *btf.Spec
	if staged != nil {
		res, err = staged.Finish(merged)
	} else {
		res, _, err = dedup.Dedup(merged, dopts)
	}
	if err != nil {
		return nil, err
	}
	if o.Features.Has(encode.FeatLayout) && res.Base() == nil {
		res.SetKindLayouts(btf.StandardKindLayouts())
	}
	st.TypesOut = res.NumTypes()
	st.lap(t, &st.Dedup)
	st.SerialCPU += cputime.Process() - cpu1
	return res, nil
}

// funcOptions are the rules of function and variable selection that the
// features f switch on, for BTF input.
func funcOptions(f encode.Features) funcvar.Options {
	return funcvar.Options{
		PerCPUVars: f.Has(encode.FeatVar),
		GlobalVars: f.Has(encode.FeatGlobalVar),
		DeclTags:   f.Has(encode.FeatDeclTag),
		KfuncTags:  f.Has(encode.FeatDeclTagKfuncs),
		ArenaAttrs: f.Has(encode.FeatAttributes),
		Consistent: f.Has(encode.FeatConsistentFunc),
		Force:      f.Has(encode.FeatEncodeForce),
		FromBTF:    true,
	}
}

// group is a group of members merged (and deduplicated, when there are
// several groups), and its members' functions and variables with types
// of the group's Spec.
type group struct {
	spec    *btf.Spec
	members []member
}

// loadGroups splits data (section sec) into its members and, jobs at a
// time, runs other and, for each group, parses, fixes and extracts each
// member (member.go) and merges and deduplicates the group. The groups
// are merged into one Spec in member order as they come (whichever job
// finishes the group next in order does it, while the other jobs go on
// loading), so that little of the merge is left when the last group is
// done; the merging job also has enums scan each group's types, and
// hand take the group's members' functions (it returns false while it
// cannot yet: it is asked again, for these and the next, on the next
// merge, and at the end). It returns the Merger (all groups merged)
// and the members, their types moved to it, in member order whatever the
// parallelism, and a job's Builder, done with, whose memory the final
// deduplication can take.
func loadGroups(sec string, data []byte, base *btf.Spec, r memberRules, jobs int, st *Stats, other func(), ready *atomic.Pointer[funcvar.Selection], enums *enumForwards, hand func(*dedup.Merger, []member) bool) (*dedup.Merger, []member, *dedup.Builder, error) {
	blobs, err := btf.SplitArchive(data)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("section %s: %w", sec, err)
	}
	offs := make([]int, len(blobs))
	for i := 1; i < len(blobs); i++ {
		// A member's offset in the section: blobs are views of data.
		offs[i] = cap(data) - cap(blobs[i])
	}
	st.Members = len(blobs)
	n := (len(blobs) + groupSize - 1) / groupSize
	groups := make([]group, n)
	errs := make([]error, n)
	typesIn := make([]int, n)
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	// The groups are standalone Specs (a split member is made standalone
	// by loadGroup), merged onto no base, with room from the members'
	// sizes: the groups' deduplication keeps about a tenth of the types
	// and words and a twentieth of the string bytes (the 6.12 archive:
	// 894,000 types in, 86,000 merged), so the merged tables are not
	// doubled and copied as they fill. Hints only: past them, they grow.
	typeBytes, strBytes := blobSizes(blobs)
	merger := dedup.NewMerger(nil, typeBytes/200, typeBytes/40, strBytes/20)
	var mergeErr error
	loaded := make([]bool, n) // under mu
	merged := 0               // groups merged so far; under mu
	merging := false          // a job is merging; under mu
	handed := 0               // groups whose functions hand took; by the merging job
	// mergeReady merges the loaded groups that are next in order, unless
	// another job is at it, which will see them.
	mergeReady := func(mu *sync.Mutex) {
		if merging {
			return
		}
		merging = true
		for merged < n && loaded[merged] && errs[merged] == nil && mergeErr == nil {
			g := merged
			mu.Unlock()
			first, err := merger.Add(groups[g].spec)
			if err != nil {
				mergeErr = err
			} else {
				enums.scan(dedupinternal.Partial(merger), first, dedupinternal.Partial(merger).NextID())
				for k := range groups[g].members {
					groups[g].members[k].shift(first-1, nil)
				}
			}
			groups[g].spec = nil
			for ; handed <= g && mergeErr == nil && hand(merger, groups[handed].members); handed++ {
			}
			mu.Lock()
			merged++
		}
		merging = false
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	var spare *dedup.Builder // under mu
	// Job 0 is other, the rest the groups.
	for w := 0; w < jobs && w <= n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var js jobState
			for {
				mu.Lock()
				g := next - 1
				next++
				mu.Unlock()
				if g < 0 {
					other()
					continue
				}
				if g >= n {
					// The first job done leaves its Builder's memory
					// to the final deduplication.
					mu.Lock()
					if spare == nil {
						spare = js.b
					}
					mu.Unlock()
					return
				}
				lo, hi := g*groupSize, min((g+1)*groupSize, len(blobs))
				groups[g], typesIn[g], errs[g] = loadGroup(sec, blobs[lo:hi], offs[lo:hi], lo, base, r, n > 1, ready, &js)
				mu.Lock()
				loaded[g] = true
				mergeReady(&mu)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for g, err := range errs {
		if err != nil {
			return nil, nil, nil, err
		}
		st.TypesIn += typesIn[g]
	}
	if mergeErr != nil {
		return nil, nil, nil, mergeErr
	}
	for ; handed < n && hand(merger, groups[handed].members); handed++ {
	}
	var members []member
	for g := range groups {
		members = append(members, groups[g].members...)
		groups[g] = group{}
	}
	return merger, members, spare, nil
}

// blobSizes returns the bytes of the type and string sections of the
// raw members blobs (those with a header that reads).
func blobSizes(blobs [][]byte) (typeBytes, strBytes int) {
	for _, b := range blobs {
		if h, _, _, err := btf.ParseHeader(b); err == nil {
			typeBytes += int(h.TypeLen)
			strBytes += int(h.StrLen)
		}
	}
	return typeBytes, strBytes
}

// loadGroup parses, fixes and extracts the members of one group (blobs,
// the first being member number first), merges them and, with
// dedupIt, deduplicates the result. It also returns the members' number
// of types as parsed. js is the job's memory, reused.
func loadGroup(sec string, blobs [][]byte, offs []int, first int, base *btf.Spec, r memberRules, dedupIt bool, ready *atomic.Pointer[funcvar.Selection], js *jobState) (group, int, error) {
	g := group{members: make([]member, len(blobs))}
	typesIn := 0
	// The Builder's room, from the sizes of the raw members: a type
	// record is at least 20 bytes (with its trailing words), a word 4.
	// The members' string tables hold the same names over and over: a
	// group keeps a tenth of their bytes or less (6-12% on the 6.12
	// archive). Room for an eighth, so that the table and its index are
	// not sized (and cleared) for ten times what they hold, and the index
	// stays small enough to be cached; past it, they grow.
	typeBytes, strBytes := blobSizes(blobs)
	ns := strBytes / 8
	js.b = dedupinternal.Recycle(js.b, typeBytes/20, typeBytes/4, ns, ns/16) // names of ~15 bytes
	gb := &js.gb
	gb.b, gb.strs = js.b, nil
	for i, b := range blobs {
		// The member's Spec lives until extract has copied what it
		// keeps: its tables are the next member's, its strings a view of
		// the section.
		s, err := btf.ParseWith(b, nil, btf.ParseOptions{Reuse: js.spec, ShareStrings: true})
		js.spec = s
		if base != nil && (err != nil || !selfContained(s)) {
			// BTF split against the base (a module whose .BTF a BTF
			// step wrote before): the same types made standalone.
			if split, err2 := btf.Parse(b, base); err2 == nil && selfContained(split) {
				s, err = unsplit(split), nil
			}
		}
		if err != nil {
			return group{}, 0, fmt.Errorf("section %s: archive member %d at offset 0x%x: %w", sec, first+i, offs[i], err)
		}
		typesIn += s.NumTypes()
		var want func(string) bool
		if sel := ready.Load(); sel != nil {
			want = sel.WantsFunc
		}
		fixed, dropped := fixMember(s, r.features, r.reverseDims)
		if g.members[i], err = extract(fixed, dropped, want, gb); err != nil {
			return group{}, 0, fmt.Errorf("section %s: archive member %d at offset 0x%x: %w", sec, first+i, offs[i], err)
		}
	}
	var merged *btf.Spec
	var mapID func(btf.TypeID) btf.TypeID
	if dedupIt {
		// FWDs are resolved by name only in the last deduplication,
		// which sees every member's definitions.
		out, m, err := gb.b.Dedup(dedup.Options{KeepDuplicateVars: true, NoNameFwdResolution: true})
		if err != nil {
			return group{}, 0, fmt.Errorf("section %s: members %d to %d: %w", sec, first, first+len(blobs)-1, err)
		}
		merged, mapID = out, m.Map
	} else {
		var err error
		if merged, err = gb.b.Spec(); err != nil {
			return group{}, 0, fmt.Errorf("section %s: members %d to %d: %w", sec, first, first+len(blobs)-1, err)
		}
	}
	for i := range g.members {
		g.members[i].shift(0, mapID)
	}
	g.spec = merged
	return g, typesIn, nil
}

// jobState is the memory a loading job reuses from member to member and
// group to group: the tables of the last member parsed and of the last
// group's Builder, neither used any more when the next takes them.
type jobState struct {
	b    *dedup.Builder
	spec *btf.Spec
	gb   groupBuilder
}

// unsplit returns split BTF as a standalone Spec with the same type IDs
// and string offsets: its base's types and strings, then its own. The
// last deduplication against the base takes the base's types out again.
func unsplit(split *btf.Spec) *btf.Spec {
	base := split.Base()
	out := btf.NewSpec()
	strs := append(append([]byte(nil), base.RawStrings()...), split.RawStrings()...)
	out.SetRawStrings(strs)
	out.Reserve(base.NumTypes()+split.NumTypes(), 0)
	for _, s := range []*btf.Spec{base, split} {
		for id := s.FirstID(); id < s.NextID(); id++ {
			name, info, st, ext := s.RawType(id)
			out.AddRaw(name, info, st, ext...)
		}
	}
	return out
}

// selfContained reports whether every type and string reference of s
// (and its base) lands on one of its types or in its strings: a split
// BTF read as standalone does not.
func selfContained(s *btf.Spec) bool {
	last := uint32(s.NextID()) - 1
	strEnd := s.StringsStart() + uint32(s.StringsLen())
	ok := true
	checkType := func(p *uint32) {
		if *p > last {
			ok = false
		}
	}
	checkStr := func(p *uint32) {
		if *p >= strEnd {
			ok = false
		}
	}
	var name, info, st uint32 // declared once, outside the loop: their addresses escape to the callbacks
	var ext []uint32
	for id := s.FirstID(); id < s.NextID() && ok; id++ {
		// The callbacks only read: the record is not changed.
		name, info, st, ext = s.RawType(id)
		btf.ForEachTypeRef(info, &st, ext, checkType)
		btf.ForEachStringRef(info, &name, ext, checkStr)
	}
	return ok
}
