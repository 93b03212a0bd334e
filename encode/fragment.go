package encode

import (
	"fmt"

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
}

type fragHdr struct {
	name, info, sizeType uint32
}

func (f *fragment) reset() {
	f.hdrs = f.hdrs[:0]
	f.words = f.words[:0]
	clear(f.strs) // drop the views
	f.strs = f.strs[:0]
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
	local  []uint32 // fragment string index -> offset, per fragment
	ext    []uint32
}

func newMerger() *merger {
	return &merger{out: btf.NewSpec(), strBuf: []byte{0}, strIdx: make(map[string]uint32, 1<<16)}
}

func (m *merger) add(f *fragment) error {
	shift := uint32(m.out.NextID()) - 1
	if uint64(shift)+uint64(len(f.hdrs)) >= 1<<31 {
		return fmt.Errorf("too many types for BTF (%d)", uint64(shift)+uint64(len(f.hdrs)))
	}
	local := m.local[:0]
	for _, s := range f.strs {
		off, ok := m.strIdx[s]
		if !ok {
			off = uint32(len(m.strBuf))
			m.strBuf = append(m.strBuf, s...)
			m.strBuf = append(m.strBuf, 0)
			// The key must outlive the reader's mapping: copy it once,
			// as a view of our own table.
			k := m.strBuf[off : len(m.strBuf)-1]
			m.strIdx[string(k)] = off
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
	return nil
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
