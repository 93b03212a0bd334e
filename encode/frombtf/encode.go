package frombtf

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/encode/funcvar"
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
	Report *funcvar.Report
	// Stats, when not nil, gets counts and timings.
	Stats *Stats
}

// Section is the section the archive is read from, and the result is
// written to by callers that write in place.
const Section = ".BTF"

// ErrNoBTF is the cause of the error for a file without a .BTF section.
var ErrNoBTF = errors.New("has no .BTF section (the BTF-archive route reads the .BTF that objects compiled with BTF, e.g. gcc -gbtf, leave in the linked file)")

// HasBTF reports whether the ELF file at path has a .BTF section, which
// `pahole -F btf,dwarf` takes for BTF to read before DWARF.
func HasBTF(path string) (bool, error) {
	f, err := elfx.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	return f.Section(Section) != nil, nil
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

// Encode is EncodeFile on an open file; its errors do not name the file.
func Encode(f *elfx.File, o Options) (*btf.Spec, error) {
	st := o.Stats
	if st == nil {
		st = &Stats{}
	}
	t := st.start()
	if f.Section(Section) == nil {
		return nil, ErrNoBTF
	}
	data, err := f.SectionData(Section)
	if err != nil {
		return nil, err
	}
	members, err := loadMembers(data, o.Features, o.Jobs)
	if err != nil {
		return nil, err
	}
	st.Members = len(members)
	for _, m := range members {
		st.TypesIn += m.NumTypes()
	}
	t = st.lap(t, &st.Load)
	merged, err := dedup.Merge(members...)
	if err != nil {
		return nil, err
	}
	firsts := dedup.FirstIDs(nil, members)
	fixEnumForwards(merged)
	members = nil
	t = st.lap(t, &st.Merge)

	fo := funcOptions(o.Features)
	info, err := funcvar.ReadELF(f, fo)
	if err != nil {
		return nil, err
	}
	sel := funcvar.NewSelection(info, fo)
	out, err := decide(merged, firsts, info, sel, o.Report)
	if err != nil {
		return nil, err
	}
	t = st.lap(t, &st.Decide)
	res, _, err := dedup.Dedup(out, dedup.Options{KeepDuplicateVars: true, Base: o.Base})
	if err != nil {
		return nil, err
	}
	if o.Features.Has(encode.FeatLayout) && res.Base() == nil {
		res.SetKindLayouts(btf.StandardKindLayouts())
	}
	st.TypesOut = res.NumTypes()
	st.lap(t, &st.Dedup)
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

// loadMembers splits data into its members and parses and fixes each,
// jobs at a time; the result is in member order whatever the
// parallelism.
func loadMembers(data []byte, f encode.Features, jobs int) ([]*btf.Spec, error) {
	blobs, err := btf.SplitArchive(data)
	if err != nil {
		return nil, fmt.Errorf("section %s: %w", Section, err)
	}
	offs := make([]int, len(blobs))
	for i := 1; i < len(blobs); i++ {
		// A member's offset in the section: blobs are views of data.
		offs[i] = int(cap(data) - cap(blobs[i]))
	}
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	specs := make([]*btf.Spec, len(blobs))
	errs := make([]error, len(blobs))
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	for w := 0; w < jobs && w < len(blobs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(blobs) {
					return
				}
				s, err := btf.Parse(blobs[i], nil)
				if err != nil {
					errs[i] = fmt.Errorf("section %s: archive member %d at offset 0x%x: %w", Section, i, offs[i], err)
					continue
				}
				specs[i] = fixMember(s, f)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return specs, nil
}
