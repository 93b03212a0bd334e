package encode

import (
	"fmt"
	"unsafe"

	"github.com/btfkit/btfkit/btf"
)

// fragment is one unit's BTF before merging: types numbered from 1 in
// the unit, and names held as indexes into strs (index+1; 0 is the empty
// name) rather than offsets into a string table. The strings are views of
// the reader's sections (no copies); the merge interns them once, globally.
type fragment struct {
	hdrs  []fragHdr
	words []uint32
	strs  []string

	fx fragFx // function candidates and variables (funcs.go)
}

type fragHdr struct {
	name, info, sizeType uint32
}

func (f *fragment) reset() {
	f.hdrs = f.hdrs[:0]
	f.words = f.words[:0]
	clear(f.strs) // drop the views
	f.strs = f.strs[:0]
	f.fx.reset()
}

func (f *fragment) nextID() uint32 { return uint32(len(f.hdrs)) + 1 }

// extraWords is the number of trailing words of a type of kind k with
// vlen entries.
func extraWords(k btf.Kind, vlen int) int {
	switch k {
	case btf.KindInt, btf.KindVar, btf.KindDeclTag:
		return 1
	case btf.KindArray:
		return 3
	case btf.KindStruct, btf.KindUnion, btf.KindDatasec, btf.KindEnum64:
		return 3 * vlen
	case btf.KindEnum, btf.KindFuncProto:
		return 2 * vlen
	}
	return 0
}

// merger appends fragments, in unit order, to one Spec: IDs shifted past
// the types already there, names interned in one string table.
type merger struct {
	out    *btf.Spec
	strBuf []byte
	strIdx map[string]uint32
	ident  strIdent // (data pointer, length) -> offset: most names are views of .debug_str

	// stableStrings says that a fragment string's data pointer identifies
	// it for the whole merge (views of a mapping) and that units share
	// them (one .debug_str for all units), so ident is worth using.
	stableStrings bool
	local         []uint32 // fragment string index -> offset, per fragment
	ext           []uint32

	fx mergeFx // functions and variables (funcsel.go)
}

// strIdent maps a string's identity (data pointer and length) to its
// offset in the merged table, so that a name seen in many units (one place
// in .debug_str) is hashed by content only once.
type strIdent struct {
	slots []identSlot
	used  int
}

type identSlot struct {
	ptr uintptr
	n   uint32
	off uint32
}

func (t *strIdent) lookup(p uintptr, n uint32) (*identSlot, bool) {
	if t.used*2 >= len(t.slots) {
		old := t.slots
		t.slots = make([]identSlot, max(len(old)*2, 1<<16))
		t.used = 0
		for _, sl := range old {
			if sl.ptr != 0 {
				s, _ := t.lookup(sl.ptr, sl.n)
				*s = sl
				t.used++
			}
		}
	}
	mask := uint64(len(t.slots) - 1)
	h := (uint64(p)*0x9E3779B97F4A7C15 ^ uint64(n)) >> 20
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.ptr == 0 {
			return sl, false
		}
		if sl.ptr == p && sl.n == n {
			return sl, true
		}
	}
}

func newMerger() *merger {
	return &merger{out: btf.NewSpec(), strBuf: []byte{0}}
}

// reserve grows the output for about n more types and w more words, and
// the string index for about s more strings.
func (m *merger) reserve(n, w, s int) {
	m.out.Reserve(n, w)
	if m.strIdx == nil {
		m.strIdx = make(map[string]uint32, s)
	}
}

func (m *merger) add(f *fragment) error {
	shift := uint32(m.out.NextID()) - 1
	if uint64(shift)+uint64(len(f.hdrs)) >= 1<<31 {
		return fmt.Errorf("too many types for BTF (%d)", uint64(shift)+uint64(len(f.hdrs)))
	}
	if m.strIdx == nil {
		m.strIdx = make(map[string]uint32, len(f.strs))
	}
	local := m.local[:0]
	for _, s := range f.strs {
		var slot *identSlot
		p, n := uintptr(unsafe.Pointer(unsafe.StringData(s))), uint32(len(s))
		if m.stableStrings {
			var ok bool
			if slot, ok = m.ident.lookup(p, n); ok {
				local = append(local, slot.off)
				continue
			}
		}
		off, ok := m.strIdx[s]
		if !ok {
			off = uint32(len(m.strBuf))
			m.strBuf = append(m.strBuf, s...)
			m.strBuf = append(m.strBuf, 0)
			// The key must outlive the reader's mapping: copy it once,
			// as a view of our own table.
			k := m.strBuf[off : len(m.strBuf)-1]
			m.strIdx[unsafe.String(&k[0], len(k))] = off
		}
		if slot != nil {
			*slot = identSlot{p, n, off}
			m.ident.used++
		}
		local = append(local, off)
	}
	m.local = local
	if len(m.strBuf) > 1<<32-1 {
		return fmt.Errorf("string table too large for BTF")
	}
	w := 0
	for _, h := range f.hdrs {
		k, vlen := btf.Kind(h.info>>24&0x1f), int(h.info&0xffff)
		n := extraWords(k, vlen)
		ext := append(m.ext[:0], f.words[w:w+n]...)
		w += n
		name, st := h.name, h.sizeType
		btf.ForEachStringRef(h.info, &name, ext, func(p *uint32) {
			if *p != 0 {
				*p = local[*p-1]
			}
		})
		btf.ForEachTypeRef(h.info, &st, ext, func(p *uint32) {
			if *p != 0 {
				*p += shift
			}
		})
		m.ext = ext
		m.out.AddRaw(name, h.info, st, ext...)
	}
	return m.addFx(f, local, shift)
}

// finish installs the string table and returns the merged Spec.
func (m *merger) finish() *btf.Spec {
	m.out.SetRawStrings(m.strBuf)
	m.strIdx = nil
	return m.out
}

// spec converts one fragment into a standalone Spec (tests, Fragments).
func (f *fragment) spec() *btf.Spec {
	m := newMerger()
	m.add(f)
	return m.finish()
}
