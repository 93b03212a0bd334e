package finalize

import (
	"encoding/binary"
	"github.com/btfkit/btfkit/elfx"
	"testing"
)

// The symbol names and sizes of .BTF_ids as resolve_btfids'
// symbols_collect reads them.
func TestCollect(t *testing.T) {
	ids := &IDs{Order: binary.LittleEndian}
	byKey := map[[2]string]*IDEntry{}
	sets := map[string]bool{}
	syms := []elfx.Symbol{
		{Name: "__BTF_ID__set8__bpf_kfuncs", Value: 0x100, Size: 8 + 3*8},
		{Name: "__BTF_ID__func__bpf_foo__12", Value: 0x108},
		{Name: "__BTF_ID__func__bpf_foo__13", Value: 0x200},
		{Name: "__BTF_ID__func__do__it__7", Value: 0x110},
		{Name: "__BTF_ID__set__list", Value: 0x300, Size: 4 + 2*4},
		{Name: "__BTF_ID__struct__task_struct__1", Value: 0x304},
		{Name: "__BTF_ID__typedef__pid_t__2", Value: 0x308},
		{Name: "__BTF_ID__union__thread_union__3", Value: 0x30c},
	}
	for _, s := range syms {
		e, err := ids.collect(s, byKey, sets)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		e.Addrs = append(e.Addrs, s.Value)
	}
	want := []struct {
		kind  IDKind
		name  string
		addrs int
		count uint32
	}{
		{IDSet8, "bpf_kfuncs", 1, 3}, {IDFunc, "bpf_foo", 2, 0}, {IDFunc, "do__it", 1, 0},
		{IDSet, "list", 1, 2}, {IDStruct, "task_struct", 1, 0}, {IDTypedef, "pid_t", 1, 0}, {IDUnion, "thread_union", 1, 0},
	}
	if len(ids.Entries) != len(want) {
		t.Fatalf("%d entries, want %d", len(ids.Entries), len(want))
	}
	for i, w := range want {
		e := ids.Entries[i]
		if e.Kind != w.kind || e.Name != w.name || len(e.Addrs) != w.addrs || e.Count != w.count {
			t.Errorf("entry %d: %+v, want %+v", i, *e, w)
		}
	}
	if ids.Symbols[IDFunc] != 3 {
		t.Errorf("%d func symbols, want 3", ids.Symbols[IDFunc])
	}
	for _, bad := range []string{"__BTF_ID__set8__bpf_kfuncs", "__BTF_ID__set__bpf_kfuncs", "__BTF_ID__func__nosuffix", "__BTF_ID__enum__e__1"} {
		if _, err := ids.collect(elfx.Symbol{Name: bad}, byKey, sets); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// The kfunc flags come from the first set8, in the tool's (descending)
// order of set names, that holds one of the function's addresses.
func TestKfuncFlags(t *testing.T) {
	le := binary.LittleEndian
	data := make([]byte, 0x40)
	le.PutUint32(data[0x0c:], 7)  // set "a": pair at 0x08
	le.PutUint32(data[0x24:], 9)  // set "b": pair at 0x20
	le.PutUint32(data[0x34:], 11) // outside both
	ids := &IDs{Data: data, Order: le, Entries: []*IDEntry{
		{Kind: IDSet8, Name: "a", Addrs: []uint64{0x00}, Count: 1},
		{Kind: IDSet8, Name: "b", Addrs: []uint64{0x18}, Count: 1},
	}}
	for _, c := range []struct {
		addrs []uint64
		want  uint32
	}{{[]uint64{0x08}, 7}, {[]uint64{0x20}, 9}, {[]uint64{0x08, 0x20}, 9}, {[]uint64{0x30}, 0}, {[]uint64{0x00}, 0}} {
		if got := ids.kfuncFlags(&IDEntry{Kind: IDFunc, Name: "f", Addrs: c.addrs}); got != c.want {
			t.Errorf("addresses %#x: flags %d, want %d", c.addrs, got, c.want)
		}
	}
}
