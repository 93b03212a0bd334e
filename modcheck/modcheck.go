package modcheck

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/distill"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/finalize"
	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/kmod"
)

// The rules modcheck adds to the kernel verifier's (btf.Rule values).
const (
	// RuleRead: the module cannot be read (not ELF, truncated, a
	// compressed file that does not decompress, BTF that does not parse).
	RuleRead btf.Rule = "read"
	// RuleBaseMismatch: the module's split BTF does not fit the base (or
	// its own .BTF.base): it was built against another vmlinux.
	RuleBaseMismatch btf.Rule = "base-mismatch"
	// RuleRelocation: the module's BTF, split against its .BTF.base,
	// cannot be relocated onto the base (a distilled type the base lacks
	// or has twice).
	RuleRelocation btf.Rule = "relocation"
	// RuleBTFIDs: a .BTF_ids entry names no type of its kind in the
	// module's BTF or the base, or the ID the build wrote for it is not
	// that type.
	RuleBTFIDs btf.Rule = "btf-ids"
	// RuleKfuncTag: a kfunc's FUNC lacks the "bpf_kfunc" DECL_TAG the
	// target kernel's build adds.
	RuleKfuncTag btf.Rule = "kfunc-tag"
)

// KfuncTagsSince is the first release whose Makefile.btf (Linux's scripts/) asks
// pahole (1.26 and later) for decl_tag_kfuncs.
var KfuncTagsSince = btf.KernelVersion{Major: 6, Minor: 11}

// Options are a check's settings.
type Options struct {
	// Kernel is the target kernel release whose rules apply (zero: the
	// newest btfkit knows).
	Kernel btf.KernelVersion
	// Jobs is the number of modules checked at once (0: GOMAXPROCS).
	Jobs int
	// MaxProblems caps the verifier problems kept per module (0: 1000).
	MaxProblems int
}

// Result is the verdict on one module.
type Result struct {
	Module    kmod.Module
	HasBTF    bool // false: the module has no .BTF section (nothing to check)
	Distilled bool // the module has a .BTF.base
	Types     int  // the module's own types
	// Problems in the order found: reading, base fit, relocation, the
	// verifier's rules (by type ID), .BTF_ids, kfunc tags.
	Problems []btf.Problem
}

// Base is the vmlinux BTF modules are checked against, with what every
// module's check asks of it computed once.
type Base struct {
	Spec   *btf.Spec
	starts []uint64 // bit i: offset i of the string table starts a string

	once  sync.Once
	names map[string]uint8 // STRUCT, UNION, TYPEDEF, FUNC names: bit per kind (kindBit)
}

// LoadBase reads a vmlinux's BTF (raw BTF or an ELF with .BTF: see
// package input) and prepares it.
func LoadBase(path string) (*Base, error) {
	s, err := input.LoadBase(path)
	if err != nil {
		return nil, err
	}
	return NewBase(s), nil
}

// NewBase prepares s, a complete BTF, as the base of modules.
func NewBase(s *btf.Spec) *Base {
	return &Base{Spec: s, starts: stringStarts(s.RawStrings())}
}

// stringStarts marks the offsets of a string table at which a string
// starts: 0 and every offset after a NUL.
func stringStarts(strs []byte) []uint64 {
	bits := make([]uint64, (len(strs)+63)/64)
	for i := range strs {
		if i == 0 || strs[i-1] == 0 {
			bits[i/64] |= 1 << (i % 64)
		}
	}
	return bits
}

func hasBit(bits []uint64, i uint32) bool {
	return int(i/64) < len(bits) && bits[i/64]&(1<<(i%64)) != 0
}

// kindBit is the bit of a .BTF_ids kind in Base.names.
func kindBit(k btf.Kind) uint8 {
	switch k {
	case btf.KindStruct:
		return 1
	case btf.KindUnion:
		return 2
	case btf.KindTypedef:
		return 4
	case btf.KindFunc:
		return 8
	}
	return 0
}

// baseNames indexes the base's STRUCT, UNION, TYPEDEF and FUNC names, on
// first use.
func (b *Base) baseNames() map[string]uint8 {
	b.once.Do(func() { b.names = kindNames(b.Spec) })
	return b.names
}

// kindNames indexes the names of s's own STRUCT, UNION, TYPEDEF and FUNC
// types.
func kindNames(s *btf.Spec) map[string]uint8 {
	m := map[string]uint8{}
	for id := s.FirstID(); id < s.NextID(); id++ {
		t := s.Type(id)
		if bit := kindBit(t.Kind()); bit != 0 && t.NameOff() != 0 {
			m[t.Name()] |= bit
		}
	}
	return m
}

// Run checks every module with opts.Jobs workers and calls emit with each
// result in the order of mods, from one goroutine.
func Run(base *Base, mods []kmod.Module, opts Options, emit func(Result)) {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if jobs > len(mods) {
		jobs = len(mods)
	}
	results := make([]chan Result, len(mods))
	for i := range results {
		results[i] = make(chan Result, 1)
	}
	next := make(chan int)
	// At most 4 results per worker wait to be emitted: a slow consumer
	// holds the workers back instead of the results piling up.
	window := make(chan struct{}, 4*jobs)
	go func() {
		for i := range mods {
			window <- struct{}{}
			next <- i
		}
		close(next)
	}()
	for w := 0; w < jobs; w++ {
		go func() {
			for i := range next {
				results[i] <- Check(base, mods[i], opts)
			}
		}()
	}
	for i := range mods {
		r := <-results[i]
		<-window
		emit(r)
	}
}

// Check checks one module against base.
func Check(base *Base, m kmod.Module, opts Options) Result {
	r := Result{Module: m}
	read := func(err error) Result {
		// The result names the module: its path leaves the message.
		r.Problems = append(r.Problems, btf.Problem{Rule: RuleRead, Detail: strings.TrimPrefix(err.Error(), m.Path+": ")})
		return r
	}
	f, err := elfx.Open(m.Path)
	if err != nil {
		return read(err)
	}
	defer f.Close()
	raw, err := f.SectionCopy(".BTF")
	if errors.Is(err, elfx.ErrNoSection) {
		return r
	}
	if err != nil {
		return read(err)
	}
	r.HasBTF = true
	distRaw, err := f.SectionCopy(".BTF.base")
	switch {
	case err == nil:
		r.Distilled = true
	case errors.Is(err, elfx.ErrNoSection):
		distRaw = nil
	default:
		return read(err)
	}
	var ids *finalize.IDs
	for _, s := range f.Sections {
		if s.Name == elfx.IDsSection {
			// Only then the symbol table (a tenth of the time of a tree).
			if ids, err = finalize.ReadIDsFile(f); err != nil {
				return read(err)
			}
			break
		}
	}

	// The BTF as built: split against .BTF.base or the base.
	built := base.Spec
	builtStarts := base.starts
	what := "the base"
	if r.Distilled {
		dist, err := btf.Parse(distRaw, nil)
		if err != nil {
			return read(fmt.Errorf("%s: section .BTF.base: %w", m.Path, err))
		}
		built, builtStarts, what = dist, stringStarts(dist.RawStrings()), "its .BTF.base"
	}
	split, err := btf.Parse(raw, built)
	if err != nil {
		if r.Distilled {
			return read(fmt.Errorf("%s: section .BTF (split against .BTF.base): %w", m.Path, err))
		}
		return read(fmt.Errorf("%s: section .BTF (split against the base): %w", m.Path, err))
	}
	r.Types = split.NumTypes()
	misfits, first := fit(split, builtStarts)
	if len(misfits) > 0 && mismatch(len(misfits), split.NumTypes()) {
		p := first
		p.Rule = RuleBaseMismatch
		built := "built against another vmlinux"
		if r.Distilled {
			built = "the section is not the one its BTF was made with"
		}
		p.Detail = fmt.Sprintf("%s: the BTF does not fit %s (%d of its %d types do not), %s", first.Detail, what, len(misfits), split.NumTypes(), built)
		if !r.Distilled {
			if _, err := btf.CheckRaw(raw, base.Spec, checkOpts(opts)...); err != nil {
				var ce *btf.CheckError
				if errors.As(err, &ce) {
					p.Detail += fmt.Sprintf("; the kernel's rules find %d problem%s against this base", len(ce.Problems), plural(len(ce.Problems)))
				}
			}
		}
		r.Problems = append(r.Problems, p)
		return r
	}
	for _, p := range misfits {
		if p.Rule == btf.RuleNameStart {
			r.Problems = append(r.Problems, p) // the verifier accepts these
		}
	}

	// The BTF as the kernel holds it: relocated onto the base.
	final, finalRaw := split, raw
	if r.Distilled {
		moved, err := distill.Relocate(split, base.Spec)
		if err != nil {
			r.Problems = append(r.Problems, btf.Problem{Rule: RuleRelocation, Detail: fmt.Sprintf("relocating its BTF from .BTF.base onto the base: %v", err)})
			return r
		}
		final, finalRaw = moved, moved.Marshal(split.ByteOrder())
	}
	if _, err := btf.CheckRaw(finalRaw, base.Spec, checkOpts(opts)...); err != nil {
		var ce *btf.CheckError
		if !errors.As(err, &ce) {
			return read(err)
		}
		r.Problems = append(r.Problems, ce.Problems...)
	}
	r.Problems = append(r.Problems, checkIDs(base, split, ids)...)
	if !opts.Kernel.Before(KfuncTagsSince) {
		r.Problems = append(r.Problems, checkKfuncTags(final, ids)...)
	}
	return r
}

func checkOpts(opts Options) []btf.CheckOption {
	o := []btf.CheckOption{btf.MaxProblems(opts.MaxProblems)}
	if !opts.Kernel.IsZero() {
		o = append(o, btf.ForKernel(opts.Kernel))
	}
	return o
}

// mismatch decides whether n misfitting types of total mean BTF built
// against another base rather than one damaged type: a wrong base moves
// every name and reference, so misses come by the dozen, or, in a module
// of a few types, in a tenth of them or more (a 4-type module whose
// array's element lands on a FUNC of the other base).
func mismatch(n, total int) bool {
	return n >= 2 && n*100 >= total || n*10 >= total
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
