package minimize

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/ctype"
)

// Result is the minimized BTF of one kernel.
type Result struct {
	// Base is the minimized vmlinux BTF: what bpftool gen min_core_btf
	// writes for the same objects.
	Base *btf.Spec
	// Modules holds one split BTF against Base per module given, in
	// the same order: the module types the relocations need (none when
	// they need none of the module's).
	Modules []*btf.Spec
	// Relocations is the number of CO-RE relocations read; Unresolved
	// the number of those (local type ID relocations excepted) that
	// matched no type of the kernel, for which nothing is kept.
	Relocations, Unresolved int
}

// Minimize returns the BTF of base (a vmlinux BTF) and of modules (each
// split BTF against base) that objs' CO-RE relocations need. A
// relocation libbpf would refuse (an access string that does not fit its
// type, a relocation of an anonymous type, one that two candidates
// resolve differently, a bitfield no load can read) is an error naming
// the object and the record; one that matches nothing in the kernel is
// not (libbpf then poisons the instruction or gives 0, as the program
// expects when it checks the field or type exists), and keeps nothing.
func Minimize(base *btf.Spec, modules []*btf.Spec, objs []*Object) (res *Result, err error) {
	m, err := newMinimizer(base, modules, objs)
	if err != nil {
		return nil, err
	}
	res = &Result{}
	for _, o := range objs {
		if err := m.object(o, res); err != nil {
			return nil, err
		}
	}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(badBTF)
			if !ok {
				panic(r)
			}
			res, err = nil, errors.New("kernel BTF: "+b.msg)
		}
	}()
	ids := m.ids(m.baseMark, nil, base.FirstID())
	res.Base = btf.NewSpec()
	if err := m.build(res.Base, base, m.baseMark, ids); err != nil {
		return nil, err
	}
	for i, mod := range modules {
		mids := m.ids(m.modMarks[i], ids, res.Base.NextID())
		s := btf.NewSplitSpec(res.Base)
		if err := m.build(s, mod, m.modMarks[i], mids); err != nil {
			return nil, fmt.Errorf("module %d: %w", i, err)
		}
		res.Modules = append(res.Modules, s)
	}
	return res, nil
}

func newMinimizer(base *btf.Spec, modules []*btf.Spec, objs []*Object) (*minimizer, error) {
	if base.Base() != nil {
		return nil, errors.New("the base BTF is split BTF: give vmlinux BTF")
	}
	for i, mod := range modules {
		if mod.Base() != base {
			return nil, fmt.Errorf("module %d is not split BTF against the base given", i)
		}
	}
	m := &minimizer{
		base:     base,
		mods:     modules,
		ptrSizes: map[*btf.Spec]uint32{},
		baseMark: newMarks(base),
	}
	for _, mod := range modules {
		m.modMarks = append(m.modMarks, newMarks(mod))
	}
	m.index(objs)
	return m, nil
}

type minimizer struct {
	base     *btf.Spec
	mods     []*btf.Spec
	ptrSizes map[*btf.Spec]uint32
	baseMark *marks
	modMarks []*marks
	// byName lists, per essential name any relocation looks for, the
	// named types of base (byName[0]) and of each module's own types
	// (byName[1+i]) of that name, in ID order.
	byName []map[string][]btf.TypeID
}

// ptrSize is libbpf's btf_ptr_sz for s, found once per Spec.
func (m *minimizer) ptrSize(s *btf.Spec) uint32 {
	if n, ok := m.ptrSizes[s]; ok {
		return n
	}
	n := ctype.PointerSize(s)
	m.ptrSizes[s] = n
	return n
}

// marks records what is kept of one Spec's own types: the types, and of
// kept structs and unions the members.
type marks struct {
	first   btf.TypeID
	types   []uint8 // kept and walked bits (mark.go)
	members map[btf.TypeID][]bool
}

func newMarks(s *btf.Spec) *marks {
	return &marks{first: s.FirstID(), types: make([]uint8, s.NumTypes()), members: map[btf.TypeID][]bool{}}
}

// space is the Spec a target type is looked up in (the base, or a module
// with its base) and the marks of its own types.
type space struct {
	s    *btf.Spec
	mark *marks
}

func (m *minimizer) marksOf(sp space, id btf.TypeID) *marks {
	if id < m.base.NextID() {
		return m.baseMark
	}
	return sp.mark
}

// index fills byName with the types of the names objs' relocations look
// for: one pass over each kernel BTF, without building a string per type.
func (m *minimizer) index(objs []*Object) {
	want := map[string]bool{}
	var wantLen [256]bool // the lengths of the names wanted, up to 255
	long := false         // a name wanted is longer
	for _, o := range objs {
		for _, r := range o.Relos {
			if r.Kind == btf.CORETypeIDLocal || !o.BTF.Has(r.TypeID) {
				continue
			}
			name := o.BTF.Type(r.TypeID).Name()
			if n := essentialLen(name); n > 0 {
				want[name[:n]] = true
				if n < len(wantLen) {
					wantLen[n] = true
				} else {
					long = true
				}
			}
		}
	}
	specs := append([]*btf.Spec{m.base}, m.mods...)
	m.byName = make([]map[string][]btf.TypeID, len(specs))
	for i, s := range specs {
		idx := map[string][]btf.TypeID{}
		for id := s.FirstID(); id < s.NextID(); id++ {
			nameOff, _, _, _ := s.RawType(id)
			if nameOff == 0 {
				continue
			}
			name := rawName(s, nameOff)
			// Most names have no ___flavor: their essential name is
			// the whole name, and its length rules most of them out
			// before the lookup.
			n := len(name)
			if bytes.Contains(name, flavorSep) {
				n = essentialLen(name)
			}
			if n == 0 || (n < len(wantLen) && !wantLen[n]) || (n >= len(wantLen) && !long) || !want[string(name[:n])] {
				continue
			}
			key := string(name[:n])
			idx[key] = append(idx[key], id)
		}
		m.byName[i] = idx
	}
}

// rawName is the string at off of s's string space, as bytes of its
// table (no copy).
func rawName(s *btf.Spec, off uint32) []byte {
	for sp := s; sp != nil; sp = sp.Base() {
		if off < sp.StringsStart() {
			continue
		}
		b := sp.RawStrings()
		rel := int(off - sp.StringsStart())
		if rel >= len(b) {
			return nil
		}
		b = b[rel:]
		if i := bytes.IndexByte(b, 0); i >= 0 {
			b = b[:i]
		}
		return b
	}
	return nil
}

var flavorSep = []byte("___")

// cand is a candidate target type: its ID in the Spec of mod (-1: base).
type cand struct {
	id  btf.TypeID
	mod int
}

func (m *minimizer) spaceOf(c cand) space {
	if c.mod < 0 {
		return space{m.base, m.baseMark}
	}
	return space{m.mods[c.mod], m.modMarks[c.mod]}
}

// candidates is bpf_core_find_cands: the types of a compatible kind and
// the same essential name as the local type, in vmlinux, else in the
// modules in order.
func (m *minimizer) candidates(local btf.Type) []cand {
	name := local.Name()
	n := essentialLen(name)
	var out []cand
	for i, idx := range m.byName {
		s := m.base
		if i > 0 {
			if len(out) > 0 {
				break // vmlinux has candidates: modules are not searched
			}
			s = m.mods[i-1]
		}
		for _, id := range idx[name[:n]] {
			t := s.Type(id)
			if !kindCompat(t, local) {
				continue
			}
			if tn := t.Name(); essentialLen(tn) != n {
				continue
			}
			out = append(out, cand{id, i - 1})
		}
	}
	return out
}

// outcome is one relocation resolved: its target spec (nil when no
// candidate matched), the candidate it came from, and the relocated value.
type outcome struct {
	targ   *coreSpec
	from   cand
	val    uint64
	poison bool
}

// walk resolves each of o's relocations in order, as bpftool does with
// one candidate cache for the object, and hands each to fn.
func (m *minimizer) walk(o *Object, fn func(r btf.CORERelo, out outcome) error) (err error) {
	var cur btf.CORERelo
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(badBTF)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("%s: CO-RE relocation at .BTF.ext offset 0x%x: %s", o.Path, cur.Offset, b.msg)
		}
	}()
	cache := map[btf.TypeID][]cand{}
	for _, r := range o.Relos {
		cur = r
		cands, ok := cache[r.TypeID]
		if !ok && r.Kind != btf.CORETypeIDLocal {
			cands = m.candidates(typeOf(o.BTF, r.TypeID))
			cache[r.TypeID] = cands
		}
		out, kept, err := m.relocate(o.BTF, r, cands)
		if err != nil {
			lt := typeOf(o.BTF, r.TypeID)
			return fmt.Errorf("%s: CO-RE relocation %s of [%d] %s %q, access string %q, section %s, instruction %d (.BTF.ext offset 0x%x): %w",
				o.Path, r.Kind, r.TypeID, lt.Kind(), lt.Name(), o.BTF.String(r.AccessStrOff), r.Section, r.InsnOff/8, r.Offset, err)
		}
		if kept != nil {
			cache[r.TypeID] = kept
		}
		if err := fn(r, out); err != nil {
			return fmt.Errorf("%s: CO-RE relocation at .BTF.ext offset 0x%x: %w", o.Path, r.Offset, err)
		}
	}
	return nil
}

// object records what one object's relocations need.
func (m *minimizer) object(o *Object, res *Result) error {
	return m.walk(o, func(r btf.CORERelo, out outcome) error {
		res.Relocations++
		switch {
		case r.Kind == btf.CORETypeIDLocal:
			return nil
		case out.targ == nil:
			res.Unresolved++
			return nil
		}
		return m.record(m.spaceOf(out.from), out.targ)
	})
}

// Resolution is how one CO-RE relocation resolves against a kernel's
// BTF, as libbpf would relocate the instruction.
type Resolution struct {
	Relo btf.CORERelo
	// Found reports that a target type matched; Module is then -1 for
	// vmlinux or the index of the module it is in, and Target its kind
	// and name ("STRUCT task_struct").
	Found  bool
	Module int
	Target string
	// Value is the relocated value (a byte offset, a size, 0 or 1, an
	// enumerator's value, a type ID); Poison reports that libbpf would
	// poison the instruction instead (a field or enumerator that is not
	// there).
	Value  uint64
	Poison bool
}

// Resolve resolves every relocation of obj against base and modules
// (each split BTF against base) without keeping anything: what a loader
// would compute. Minimized BTF resolves an object's relocations as the
// full BTF does, but for type IDs.
func Resolve(base *btf.Spec, modules []*btf.Spec, obj *Object) ([]Resolution, error) {
	m, err := newMinimizer(base, modules, []*Object{obj})
	if err != nil {
		return nil, err
	}
	var out []Resolution
	err = m.walk(obj, func(r btf.CORERelo, o outcome) error {
		res := Resolution{Relo: r, Module: -1, Value: o.val, Poison: o.poison}
		if o.targ != nil {
			t := o.targ.s.Type(o.targ.root)
			res.Found, res.Module = true, o.from.mod
			res.Target = t.Kind().String() + " " + t.Name()
		}
		out = append(out, res)
		return nil
	})
	return out, err
}

// relocate is bpf_core_calc_relo_insn: how r resolves, and the
// candidates that matched (nil when none did: the list then stays as it
// was).
func (m *minimizer) relocate(local *btf.Spec, r btf.CORERelo, cands []cand) (outcome, []cand, error) {
	lt := typeOf(local, r.TypeID)
	ls, err := m.parseSpec(local, r)
	if err != nil {
		return outcome{}, nil, err
	}
	if r.Kind == btf.CORETypeIDLocal {
		return outcome{val: uint64(r.TypeID)}, nil, nil
	}
	if lt.Name() == "" {
		return outcome{}, nil, specErr("libbpf does not relocate anonymous types")
	}
	var (
		targ       *coreSpec
		from       cand
		targVal    uint64
		targPoison bool
		matched    []cand
	)
	for _, c := range cands {
		sp := m.spaceOf(c)
		cs, ok, err := m.specMatch(ls, sp.s, c.id)
		if err != nil {
			return outcome{}, nil, fmt.Errorf("matching candidate [%d]: %w", c.id, err)
		}
		if !ok {
			continue
		}
		// The local value first, as libbpf computes it, for its errors.
		if _, _, err := m.value(r.Kind, ls); err != nil {
			return outcome{}, nil, err
		}
		val, poison, err := m.value(r.Kind, cs)
		if err != nil {
			return outcome{}, nil, fmt.Errorf("candidate [%d]: %w", c.id, err)
		}
		switch {
		case targ == nil:
			targ, from, targVal, targPoison = cs, c, val, poison
		case cs.bitOff != targ.bitOff:
			return outcome{}, nil, specErr("field offset ambiguity: candidates [%d] and [%d] give bit offsets %d and %d", from.id, c.id, targ.bitOff, cs.bitOff)
		case poison != targPoison || val != targVal:
			return outcome{}, nil, specErr("relocation decision ambiguity: candidates [%d] and [%d] give %d and %d", from.id, c.id, targVal, val)
		}
		matched = append(matched, c)
	}
	if targ == nil {
		if _, _, err := m.value(r.Kind, ls); err != nil {
			return outcome{}, nil, err
		}
		val, poison, err := m.value(r.Kind, nil)
		if err != nil {
			return outcome{}, nil, err
		}
		return outcome{val: val, poison: poison}, nil, nil
	}
	return outcome{targ, from, targVal, targPoison}, matched, nil
}
