package finalize

import (
	"encoding/binary"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// kfuncSpec is a small vmlinux: two kfuncs taking an implicit
// struct bpf_prog_aux *, one of them (bpf_old) with its _impl in the
// source, and a plain kfunc.
func kfuncSpec() *btf.Spec {
	s := btf.NewSpec()
	intID := s.Add("int", btf.KindInt, 0, false, 4, 0x01000020) // 1
	aux := s.Add("bpf_prog_aux", btf.KindStruct, 0, false, 8)   // 2
	caux := s.Add("", btf.KindConst, 0, false, uint32(aux))     // 3
	paux := s.Add("", btf.KindPtr, 0, false, uint32(caux))      // 4
	a, x := s.AddString("a"), s.AddString("aux")                //
	proto := s.AddRaw(0, btf.Info(btf.KindFuncProto, 3, false), uint32(intID),
		a, uint32(intID), x, uint32(paux), s.AddString("b"), uint32(intID)) // 5
	foo := s.Add("bpf_foo", btf.KindFunc, 1, false, uint32(proto))           // 6
	s.Add("bpf_kfunc", btf.KindDeclTag, 0, false, uint32(foo), 0xffffffff)   // 7
	s.Add("nonnull", btf.KindDeclTag, 0, true, uint32(foo), 0)               // 8
	old := s.Add("bpf_old", btf.KindFunc, 1, false, uint32(proto))           // 9
	s.Add("bpf_kfunc", btf.KindDeclTag, 0, false, uint32(old), 0xffffffff)   // 10
	s.Add("bpf_old_impl", btf.KindFunc, 1, false, uint32(proto))             // 11
	plain := s.Add("bpf_plain", btf.KindFunc, 1, false, uint32(proto))       // 12
	s.Add("bpf_kfunc", btf.KindDeclTag, 0, false, uint32(plain), 0xffffffff) // 13
	return s
}

// kfuncIDs is a .BTF_ids at 0x1000: a BTF_SET8 "kfuncs" of bpf_foo
// (KF_IMPLICIT_ARGS), bpf_plain (0x2), bpf_old (KF_IMPLICIT_ARGS), then a
// BTF_ID(struct, bpf_prog_aux) and one of a struct that is not there.
func kfuncIDs() *IDs {
	le := binary.LittleEndian
	data := make([]byte, 8+3*8+8)
	le.PutUint32(data[4:], 1) // set flags
	le.PutUint32(data[12:], KFImplicitArgs)
	le.PutUint32(data[20:], 2)
	le.PutUint32(data[28:], KFImplicitArgs|1)
	return &IDs{
		Data: data, Addr: 0x1000, Order: le,
		Entries: []*IDEntry{
			{Kind: IDSet8, Name: "kfuncs", Addrs: []uint64{0x1000}, Count: 3},
			{Kind: IDFunc, Name: "bpf_foo", Addrs: []uint64{0x1008}},
			{Kind: IDFunc, Name: "bpf_plain", Addrs: []uint64{0x1010}},
			{Kind: IDFunc, Name: "bpf_old", Addrs: []uint64{0x1018}},
			{Kind: IDStruct, Name: "bpf_prog_aux", Addrs: []uint64{0x1020}},
			{Kind: IDStruct, Name: "missing", Addrs: []uint64{0x1024}},
		},
		Symbols: [IDSet8 + 1]int{IDFunc: 3, IDStruct: 2, IDSet8: 1},
	}
}

func findFunc(t *testing.T, s *btf.Spec, name string) btf.Type {
	t.Helper()
	for id := s.FirstID(); id < s.NextID(); id++ {
		if ty := s.Type(id); ty.Kind() == btf.KindFunc && ty.Name() == name {
			return ty
		}
	}
	t.Fatalf("no FUNC %s", name)
	return btf.Type{}
}

func TestImplicitArgs(t *testing.T) {
	in := kfuncSpec()
	r, err := Finalize(in, kfuncIDs(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := r.BTF
	if got := in.NumTypes(); got != 13 {
		t.Fatalf("input changed: %d types", got)
	}
	// 13 + bpf_foo_impl + its nonnull tag + two trimmed prototypes.
	if got := s.NumTypes(); got != 17 {
		t.Fatalf("%d types, want 17", got)
	}
	if _, ok := btf.SortedByName(s); !ok {
		t.Fatal("not sorted by name")
	}
	if len(r.Twins) != 1 || r.Twins[0] != "bpf_foo_impl" || len(r.Rewritten) != 2 {
		t.Fatalf("twins %v, rewritten %v", r.Twins, r.Rewritten)
	}
	impl := findFunc(t, s, "bpf_foo_impl")
	if p := s.Type(impl.Ref()); p.Vlen() != 3 {
		t.Errorf("bpf_foo_impl has %d parameters, want the original 3", p.Vlen())
	}
	for _, n := range []string{"bpf_foo", "bpf_old"} {
		p := s.Type(findFunc(t, s, n).Ref())
		if p.Vlen() != 1 || s.String(p.Param(0).NameOff) != "a" {
			t.Errorf("%s: %d parameters, want a alone", n, p.Vlen())
		}
	}
	if p := s.Type(findFunc(t, s, "bpf_plain").Ref()); p.Vlen() != 3 {
		t.Errorf("bpf_plain lost parameters")
	}
	// The decl tags of bpf_foo_impl: nonnull (kind_flag kept), not bpf_kfunc.
	var tags []string
	for id := s.FirstID(); id < s.NextID(); id++ {
		if ty := s.Type(id); ty.Kind() == btf.KindDeclTag && ty.Ref() == impl.ID {
			tags = append(tags, ty.Name())
			if !ty.KindFlag() || ty.ComponentIdx() != 0 {
				t.Errorf("copied tag lost its kind_flag or component")
			}
		}
	}
	if len(tags) != 1 || tags[0] != "nonnull" {
		t.Errorf("bpf_foo_impl's tags: %v", tags)
	}
	// .BTF_ids: count 3, IDs sorted with their flags, the struct
	// resolved, the missing one 0 with a warning.
	le := binary.LittleEndian
	d := r.IDs
	if le.Uint32(d) != 3 || le.Uint32(d[4:]) != 1 {
		t.Errorf("set header %x", d[:8])
	}
	want := map[string]uint32{"bpf_foo": KFImplicitArgs, "bpf_plain": 2, "bpf_old": KFImplicitArgs | 1}
	prev := uint32(0)
	for i := 0; i < 3; i++ {
		id, fl := le.Uint32(d[8+8*i:]), le.Uint32(d[12+8*i:])
		if id <= prev {
			t.Errorf("set not sorted: %x", d[8:32])
		}
		prev = id
		if n := s.Type(btf.TypeID(id)).Name(); want[n] != fl {
			t.Errorf("pair %d: %s with flags %#x", i, n, fl)
		}
	}
	if id := le.Uint32(d[32:]); s.Type(btf.TypeID(id)).Name() != "bpf_prog_aux" {
		t.Errorf("struct bpf_prog_aux resolved to %d", id)
	}
	if le.Uint32(d[36:]) != 0 || len(r.Warnings) != 1 {
		t.Errorf("missing: %d, warnings %v", le.Uint32(d[36:]), r.Warnings)
	}
}

// Without .BTF_ids the BTF is only sorted.
func TestNoIDs(t *testing.T) {
	in := kfuncSpec()
	r, err := Finalize(in, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := btf.SortByName(in)
	if string(r.BTF.Marshal(nil)) != string(want.Marshal(nil)) || r.IDs != nil {
		t.Error("without .BTF_ids, Finalize is not SortByName")
	}
}

// A module whose kfunc set lists a vmlinux kfunc with KF_IMPLICIT_ARGS:
// the tool finds bpf_foo_impl in the base, changes the base FUNC only in
// its own copy, and the module's BTF gains the trimmed prototype.
func TestBaseKfunc(t *testing.T) {
	vm, err := Finalize(kfuncSpec(), kfuncIDs(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	base := vm.BTF
	mod := btf.NewSplitSpec(base)
	mod.Add("mod_struct", btf.KindStruct, 0, false, 4)
	le := binary.LittleEndian
	data := make([]byte, 16)
	le.PutUint32(data[4:], 1)
	le.PutUint32(data[12:], KFImplicitArgs)
	ids := &IDs{Data: data, Addr: 0, Order: le,
		Entries: []*IDEntry{
			{Kind: IDSet8, Name: "modset", Addrs: []uint64{0}, Count: 1},
			{Kind: IDFunc, Name: "bpf_foo", Addrs: []uint64{8}},
		},
		Symbols: [IDSet8 + 1]int{IDFunc: 1, IDSet8: 1},
	}
	r, err := Finalize(mod, ids, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.BTF.NumTypes() != 2 || len(r.Twins) != 0 {
		t.Fatalf("%d types, twins %v; want the struct and one FUNC_PROTO", r.BTF.NumTypes(), r.Twins)
	}
	if _, err := Finalize(mod, ids, Options{DistillBase: true}); err == nil {
		t.Error("distilling after rewriting a base kfunc: no error")
	}
	if id := le.Uint32(r.IDs[8:]); base.Type(btf.TypeID(id)).Name() != "bpf_foo" {
		t.Errorf("bpf_foo resolved to %d", id)
	}
}
