package dedup

import (
	"bytes"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/cdump"
	"github.com/btfkit/btfkit/internal/testsupport/testc/libbpfdedup"
)

// Hand-built units, each a standalone Spec as a compiler would emit for one
// compilation unit, deduplicated by us and by libbpf (the archive of the
// units' raw BTF given to the harness): the results must be byte-identical.

type unit struct{ *btf.Spec }

func newUnit() unit { return unit{btf.NewSpec()} }

func (u unit) int_(name string, size uint32, signed bool) btf.TypeID {
	enc := uint32(0)
	if signed {
		enc = btf.IntSigned
	}
	return u.Add(name, btf.KindInt, 0, false, size, enc<<24|size*8)
}

func (u unit) ptr(to btf.TypeID) btf.TypeID { return u.Add("", btf.KindPtr, 0, false, uint32(to)) }

func (u unit) fwd(name string, union bool) btf.TypeID {
	return u.Add(name, btf.KindFwd, 0, union, 0)
}

func (u unit) typedef(name string, to btf.TypeID) btf.TypeID {
	return u.Add(name, btf.KindTypedef, 0, false, uint32(to))
}

type mem struct {
	name string
	typ  btf.TypeID
	off  uint32
}

// structT adds a struct; members may refer to IDs not added yet (fixed
// later with setMembers) so cycles can be built in any order.
func (u unit) structT(name string, size uint32, ms ...mem) btf.TypeID {
	ext := make([]uint32, 0, 3*len(ms))
	for _, m := range ms {
		ext = append(ext, u.AddString(m.name), uint32(m.typ), m.off)
	}
	return u.Add(name, btf.KindStruct, len(ms), false, size, ext...)
}

func (u unit) setMembers(id btf.TypeID, ms ...mem) {
	name, info, size, _ := u.RawType(id)
	ext := make([]uint32, 0, 3*len(ms))
	for _, m := range ms {
		ext = append(ext, u.AddString(m.name), uint32(m.typ), m.off)
	}
	u.SetRaw(id, name, info, size, ext...)
}

func (u unit) enum(name string, size uint32, vals ...string) btf.TypeID {
	var ext []uint32
	for i, v := range vals {
		ext = append(ext, u.AddString(v), uint32(i))
	}
	return u.Add(name, btf.KindEnum, len(vals), false, size, ext...)
}

// checkAgainstLibbpf dedups the units (split onto base when not nil, base
// being the raw file basePath) and compares with libbpf byte for byte.
func checkAgainstLibbpf(t *testing.T, base *btf.Spec, basePath string, units ...unit) *btf.Spec {
	t.Helper()
	var specs []*btf.Spec
	var archive []byte
	for _, u := range units {
		specs = append(specs, u.Spec)
		archive = append(archive, u.Marshal(nil)...)
	}
	m, err := MergeOnto(base, specs...)
	if err != nil {
		t.Fatal(err)
	}
	out, mapping, err := Dedup(m, Options{KeepDuplicateVars: true})
	if err != nil {
		t.Fatal(err)
	}
	if mapping.Len() != m.NumTypes() {
		t.Errorf("mapping covers %d types, input has %d", mapping.Len(), m.NumTypes())
	}
	in := writeTemp(t, "units.btf", archive)
	var lib []byte
	if base != nil {
		lib = libbpfdedup.DedupStandaloneOnto(t, in, basePath)
	} else {
		lib = libbpfdedup.Dedup(t, in, "")
	}
	got := out.Marshal(nil)
	if !bytes.Equal(got, lib) {
		ls := mustParse(t, lib, base)
		var a, b bytes.Buffer
		cdump.WriteRaw(&a, out)
		cdump.WriteRaw(&b, ls)
		t.Errorf("differs from libbpf:\n--- ours (%d types)\n%s--- libbpf (%d types)\n%s", out.NumTypes(), a.String(), ls.NumTypes(), b.String())
	}
	return out
}

func kinds(s *btf.Spec) map[btf.Kind]int {
	m := map[btf.Kind]int{}
	for id := s.FirstID(); id < s.NextID(); id++ {
		m[s.Type(id).Kind()]++
	}
	return m
}

func TestFwdResolvedByName(t *testing.T) {
	// CU 1: struct foo; struct foo *p;   CU 2: struct foo { int u; }; struct foo *q;
	u1 := newUnit()
	u1.ptr(u1.fwd("foo", false))
	u2 := newUnit()
	i := u2.int_("int", 4, true)
	u2.ptr(u2.structT("foo", 4, mem{"u", i, 0}))
	out := checkAgainstLibbpf(t, nil, "", u1, u2)
	if k := kinds(out); k[btf.KindFwd] != 0 || k[btf.KindPtr] != 1 || k[btf.KindStruct] != 1 {
		t.Errorf("kinds %v: want the FWD resolved and one PTR", k)
	}
}

func TestFwdAmbiguousStays(t *testing.T) {
	// Two different struct foo: a lone FWD foo cannot pick one.
	u1 := newUnit()
	u1.ptr(u1.fwd("foo", false))
	u2 := newUnit()
	u2.structT("foo", 4, mem{"u", u2.int_("int", 4, true), 0})
	u3 := newUnit()
	u3.structT("foo", 8, mem{"u", u3.int_("long", 8, true), 0})
	// A union FWD never resolves to a struct.
	u4 := newUnit()
	u4.ptr(u4.fwd("bar", true))
	u4.structT("bar", 4, mem{"x", u4.int_("int", 4, true), 0})
	out := checkAgainstLibbpf(t, nil, "", u1, u2, u3, u4)
	if k := kinds(out); k[btf.KindFwd] != 2 || k[btf.KindStruct] != 3 {
		t.Errorf("kinds %v: want 2 FWDs and 3 structs kept", k)
	}
}

func TestFwdResolvedThroughGraph(t *testing.T) {
	// struct bar { struct foo *p; } seen with foo incomplete (CU 1) and
	// complete (CU 2); a third, different struct foo (CU 3) makes the name
	// ambiguous, so only the graph match can resolve CU 1's FWD.
	u1 := newUnit()
	u1.structT("bar", 8, mem{"p", u1.ptr(u1.fwd("foo", false)), 0})
	u2 := newUnit()
	i := u2.int_("int", 4, true)
	foo := u2.structT("foo", 4, mem{"u", i, 0})
	u2.structT("bar", 8, mem{"p", u2.ptr(foo), 0})
	u3 := newUnit()
	u3.structT("foo", 8, mem{"u", u3.int_("long", 8, true), 0})
	out := checkAgainstLibbpf(t, nil, "", u1, u2, u3)
	if k := kinds(out); k[btf.KindFwd] != 0 || k[btf.KindStruct] != 3 || k[btf.KindPtr] != 1 {
		t.Errorf("kinds %v: want bar, two foo, one PTR, no FWD", k)
	}
}

func TestEnumFwd(t *testing.T) {
	// enum e; (vlen 0) in CU 1 before and after the full enum of CU 2.
	u1 := newUnit()
	u1.ptr(u1.Add("e", btf.KindEnum, 0, false, 4))
	u2 := newUnit()
	u2.ptr(u2.enum("e", 4, "A", "B"))
	u3 := newUnit()
	u3.ptr(u3.Add("e", btf.KindEnum, 0, false, 4))
	out := checkAgainstLibbpf(t, nil, "", u1, u2, u3)
	if k := kinds(out); k[btf.KindEnum] != 1 || k[btf.KindPtr] != 1 {
		t.Errorf("kinds %v: want one ENUM and one PTR", k)
	}
}

// cyclicUnit builds, in one of several orders, the types of
//
//	struct list; struct node { int v; struct node *next; struct list *l; };
//	struct list { struct node *head; struct list *self; };
func cyclicUnit(order int) unit {
	u := newUnit()
	var node, list, pn, pl, i btf.TypeID
	switch order % 3 {
	case 0:
		i = u.int_("int", 4, true)
		node = u.structT("node", 24)
		pn = u.ptr(node)
		list = u.structT("list", 16)
		pl = u.ptr(list)
	case 1:
		pl = u.ptr(0)
		list = u.structT("list", 16)
		u.SetRaw(pl, 0, btf.Info(btf.KindPtr, 0, false), uint32(list))
		node = u.structT("node", 24)
		i = u.int_("int", 4, true)
		pn = u.ptr(node)
	case 2:
		// list only as a FWD in this unit
		node = u.structT("node", 24)
		list = u.fwd("list", false)
		pl = u.ptr(list)
		pn = u.ptr(node)
		i = u.int_("int", 4, true)
	}
	u.setMembers(node, mem{"v", i, 0}, mem{"next", pn, 64}, mem{"l", pl, 128})
	if u.Type(list).Kind() == btf.KindStruct {
		u.setMembers(list, mem{"head", pn, 0}, mem{"self", pl, 64})
	}
	return u
}

func TestCyclicStructs(t *testing.T) {
	var us []unit
	for i := 0; i < 6; i++ {
		us = append(us, cyclicUnit(i))
	}
	out := checkAgainstLibbpf(t, nil, "", us...)
	if out.NumTypes() != 5 {
		var b bytes.Buffer
		cdump.WriteRaw(&b, out)
		t.Errorf("%d types, want 5 (int, node, list, 2 PTRs):\n%s", out.NumTypes(), b.String())
	}
	// The same types in one unit only, for a semantic check.
	one, _, err := Dedup(cyclicUnit(0).Spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := diff.Compare(out, one, diff.Options{}); !r.Equal() {
		var b bytes.Buffer
		r.Write(&b)
		t.Errorf("differs from a single unit:\n%s", b.String())
	}
}

// closure copies the types reachable from roots in s into a new standalone
// Spec, the way a unit compiled against the same headers would carry them.
func closure(s *btf.Spec, roots ...btf.TypeID) (unit, map[btf.TypeID]btf.TypeID) {
	u := newUnit()
	newID := map[btf.TypeID]btf.TypeID{}
	var order []btf.TypeID
	var visit func(id btf.TypeID)
	visit = func(id btf.TypeID) {
		if id == 0 {
			return
		}
		if _, ok := newID[id]; ok {
			return
		}
		newID[id] = btf.TypeID(len(order) + 1)
		order = append(order, id)
		_, info, st, ext := s.RawType(id)
		e := append([]uint32(nil), ext...)
		btf.ForEachTypeRef(info, &st, e, func(p *uint32) { visit(btf.TypeID(*p)) })
	}
	for _, r := range roots {
		visit(r)
	}
	for _, id := range order {
		name, info, st, ext := s.RawType(id)
		e := append([]uint32(nil), ext...)
		btf.ForEachTypeRef(info, &st, e, func(p *uint32) {
			if *p != 0 {
				*p = uint32(newID[btf.TypeID(*p)])
			}
		})
		btf.ForEachStringRef(info, &name, e, func(p *uint32) { *p = u.AddString(s.String(*p)) })
		u.AddRaw(name, info, st, e...)
	}
	return u, newID
}

func findNamed(t *testing.T, s *btf.Spec, k btf.Kind, name string) btf.TypeID {
	t.Helper()
	for id := s.FirstID(); id < s.NextID(); id++ {
		if ty := s.Type(id); ty.Kind() == k && ty.Name() == name {
			return id
		}
	}
	t.Fatalf("no %s %s", k, name)
	return 0
}

func TestSplitAgainstBase(t *testing.T) {
	path, data := embedded(t)
	base := mustParse(t, data, nil)
	task := findNamed(t, base, btf.KindStruct, "task_struct")
	u32 := findNamed(t, base, btf.KindTypedef, "u32")
	sk := findNamed(t, base, btf.KindStruct, "sk_buff")

	// Unit 1: task_struct's whole closure plus a new struct using it.
	u1, ids := closure(base, task, u32)
	mod := u1.structT("my_mod_state", 16,
		mem{"t", u1.ptr(ids[task]), 0},
		mem{"x", ids[u32], 64})
	u1.ptr(mod)
	// Unit 2: sk_buff's closure, and task_struct only as a FWD.
	u2, ids2 := closure(base, sk)
	fwd := u2.fwd("task_struct", false)
	u2.structT("my_mod_state", 16,
		mem{"t", u2.ptr(fwd), 0},
		mem{"x", ids2[findNamed(t, base, btf.KindTypedef, "u32")], 64})
	_ = mod

	out := checkAgainstLibbpf(t, base, path, u1, u2)
	// Everything but the new struct and the pointer to it is in the base:
	// in particular no typedef is duplicated (libbpf v1.8.0's bug).
	if k := kinds(out); out.NumTypes() != 2 || k[btf.KindStruct] != 1 || k[btf.KindPtr] != 1 {
		var b bytes.Buffer
		cdump.WriteRaw(&b, out)
		s := b.String()
		if len(s) > 4000 {
			s = s[:4000]
		}
		t.Errorf("kinds %v (%d types), want only my_mod_state and a PTR to it:\n%s", k, out.NumTypes(), s)
	}
}

func TestSplitBaseFwdNotAdjusted(t *testing.T) {
	// The base has struct bar { struct foo *p; } with foo only a FWD. A
	// split unit with foo complete cannot map its bar onto the base's
	// (that would need the base's FWD changed), but its FWD-free types do.
	b := newUnit()
	bi := b.int_("int", 4, true)
	b.structT("bar", 8, mem{"p", b.ptr(b.fwd("foo", false)), 0})
	base := mustParse(t, b.Marshal(nil), nil)
	basePath := writeTemp(t, "base.btf", b.Marshal(nil))
	_ = bi

	u := newUnit()
	i := u.int_("int", 4, true)
	foo := u.structT("foo", 4, mem{"u", i, 0})
	u.structT("bar", 8, mem{"p", u.ptr(foo), 0})
	out := checkAgainstLibbpf(t, base, basePath, u)
	if k := kinds(out); k[btf.KindInt] != 0 || k[btf.KindStruct] != 2 {
		t.Errorf("kinds %v: want int from the base, foo and bar in the split", k)
	}
}

// mergeDedup merges specs and deduplicates the result, as a caller with
// per-unit BTF does.
func mergeDedup(specs []*btf.Spec, opts Options) (*btf.Spec, Mapping, error) {
	m, err := Merge(specs...)
	if err != nil {
		return nil, Mapping{}, err
	}
	return Dedup(m, opts)
}

func TestMappingAndFirstIDs(t *testing.T) {
	u1 := newUnit()
	u1.ptr(u1.fwd("foo", false)) // [1] FWD, [2] PTR
	u2 := newUnit()
	i := u2.int_("int", 4, true)
	foo := u2.structT("foo", 4, mem{"u", i, 0})
	p2 := u2.ptr(foo)
	specs := []*btf.Spec{u1.Spec, u2.Spec}
	out, m, err := mergeDedup(specs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	first := FirstIDs(nil, specs)
	if first[0] != 1 || first[1] != 3 {
		t.Fatalf("FirstIDs = %v, want [1 3]", first)
	}
	merged := func(spec int, id btf.TypeID) btf.TypeID { return first[spec] + id - specs[spec].FirstID() }
	// Unit 1's PTR to the FWD and unit 2's PTR to the struct are one type.
	if a, b := m.Map(merged(0, 2)), m.Map(merged(1, p2)); a != b || out.Type(a).Kind() != btf.KindPtr {
		t.Errorf("PTRs map to %d and %d, want the same PTR", a, b)
	}
	// The FWD maps to the struct.
	if a := m.Map(merged(0, 1)); out.Type(a).Kind() != btf.KindStruct || out.Type(a).Name() != "foo" {
		t.Errorf("FWD maps to %v", out.Type(a).Kind())
	}
	if m.Map(0) != 0 {
		t.Error("void does not map to void")
	}
}

func TestTypedefCycle(t *testing.T) {
	// typedef struct node *node_p; struct node { node_p next; }; and, as Go
	// can emit, typedef T *T (a cycle through a typedef only). libbpf
	// before v1.8 fails on the latter (ELOOP), so no libbpf comparison.
	var specs []*btf.Spec
	for i := 0; i < 3; i++ {
		u := newUnit()
		if i == 1 {
			u.int_("int", 4, true) // shift the IDs
		}
		td := u.typedef("T", 0)
		p := u.ptr(td)
		u.SetRaw(td, u.AddString("T"), btf.Info(btf.KindTypedef, 0, false), uint32(p))
		node := u.structT("node", 8)
		np := u.typedef("node_p", u.ptr(node))
		u.setMembers(node, mem{"next", np, 0})
		specs = append(specs, u.Spec)
	}
	out, _, err := mergeDedup(specs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if k := kinds(out); out.NumTypes() != 6 || k[btf.KindTypedef] != 2 || k[btf.KindPtr] != 2 {
		var b bytes.Buffer
		cdump.WriteRaw(&b, out)
		t.Errorf("kinds %v, want int, T, *T, node, node_p, *node:\n%s", k, b.String())
	}
}

func TestMalformed(t *testing.T) {
	// A PTR cycle without a struct or typedef: an error, not a hang.
	u := newUnit()
	a := u.ptr(0)
	b := u.ptr(a)
	u.SetRaw(a, 0, btf.Info(btf.KindPtr, 0, false), uint32(b))
	if _, _, err := Dedup(u.Spec, Options{}); err == nil {
		t.Error("PTR cycle: no error")
	}
	// A reference past the last type.
	u = newUnit()
	u.ptr(42)
	if _, _, err := Dedup(u.Spec, Options{}); err == nil {
		t.Error("dangling reference: no error")
	}
	// A struct whose member is a PTR cycle compared with a copy: ends.
	var specs []*btf.Spec
	for i := 0; i < 2; i++ {
		u := newUnit()
		a := u.ptr(0)
		b := u.ptr(a)
		u.SetRaw(a, 0, btf.Info(btf.KindPtr, 0, false), uint32(b))
		u.structT("s", 8, mem{"p", a, 0}, mem{"q", b, 0})
		specs = append(specs, u.Spec)
	}
	if _, _, err := mergeDedup(specs, Options{}); err == nil {
		t.Error("struct over a PTR cycle: no error from the reference phase")
	}
}

func TestNoNameFwdResolution(t *testing.T) {
	u1 := newUnit()
	u1.ptr(u1.fwd("foo", false))
	u2 := newUnit()
	u2.ptr(u2.structT("foo", 4, mem{"u", u2.int_("int", 4, true), 0}))
	specs := []*btf.Spec{u1.Spec, u2.Spec}
	out, _, err := mergeDedup(specs, Options{NoNameFwdResolution: true})
	if err != nil {
		t.Fatal(err)
	}
	if k := kinds(out); k[btf.KindFwd] != 1 || k[btf.KindPtr] != 2 {
		t.Errorf("kinds %v: want the FWD and both PTRs kept", k)
	}
}
