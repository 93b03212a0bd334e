package encode

import (
	"fmt"
	"hash/maphash"
	"unsafe"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/dwarffacts"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
)

// fragment is one unit's BTF before merging: types numbered from 1 in
// the unit, and names held as indexes into strs (index+1; 0 is the empty
// name) rather than offsets into a string table. The strings are views of
// the reader's sections (no copies); the merge interns them once, globally.
// A name the merge already held when the unit was converted is not in
// strs: its reference is its merged offset, flagged with
// funcvar.MergedRef (strknown.go).
type fragment struct {
	hdrs  []fragHdr
	words []uint32
	strs  []string

	funcs funcvar.Candidates // function candidates and variables

	facts *dwarffacts.Facts // EachUnit only (facts.go)

	unitName string // EachUnit only: the unit's DW_AT_name

	// excluded: the unit is of a language Options.LangExclude names
	// (for a merged walk: every unit is), and its fragment is empty.
	excluded bool
}

type fragHdr struct {
	name, info, sizeType uint32
}

func (f *fragment) reset() {
	f.hdrs = f.hdrs[:0]
	f.words = f.words[:0]
	clear(f.strs) // drop the views
	f.strs = f.strs[:0]
	f.funcs.Reset()
	f.facts = nil
	f.unitName = ""
	f.excluded = false
}

func (f *fragment) nextID() uint32 { return uint32(len(f.hdrs)) + 1 }

// merger appends fragments, in unit order, to one Spec: IDs shifted past
// the types already there, names interned in one string table.
type merger struct {
	out    typeTable     // spec or stream
	spec   *btf.Spec     // the merged types, when they are kept as they are
	stream *dedup.Stream // the merged types, deduplicated as units come
	strBuf []byte
	strIdx strIntern // content -> offset in strBuf
	local  []uint32  // fragment string index -> offset, per fragment
	extra  []uint32  // a type's trailing words being renumbered

	// known maps the .debug_str names the merge has interned, by their
	// place, to their offsets, for the merge and its workers (nil: not a
	// linked file, whose .debug_str all units share; a relocatable one
	// keeps each object's, and identity lookups would all miss).
	known *knownStrs

	// funcs takes the fragments' functions and variables (nil: the
	// fragments have none).
	funcs *funcvar.Selection

	// units counts the fragments added, excluded those of units of an
	// excluded language.
	units, excluded int
}

// typeTable is what the merge appends the types to.
type typeTable interface {
	funcvar.Merged
	Reserve(n, w int)
}

// newMerger returns a merger that builds one Spec of all the fragments'
// types (finish returns it).
func newMerger() *merger {
	m := &merger{spec: btf.NewSpec(), strBuf: []byte{0}, strIdx: strIntern{seed: maphash.MakeSeed()}}
	m.out = m.spec
	return m
}

// newDedupMerger returns a merger that deduplicates the types unit by
// unit as it appends them (dedup.Stream; finishDedup returns the result).
func newDedupMerger(stats *dedup.Stats) *merger {
	m := &merger{stream: dedup.NewStream(stats), strBuf: []byte{0}, strIdx: strIntern{seed: maphash.MakeSeed()}}
	m.out = m.stream
	return m
}

// reserve grows the output for about n more types and w more words, and
// the string index for about s more strings.
func (m *merger) reserve(n, w, s int) {
	m.out.Reserve(n, w)
	m.strIdx.reserve(s)
}

// strIntern maps the strings of a merged string table (strBuf) to their
// offsets: open addressing over 8-byte slots, each a hash tag and an
// offset, compared with the table's bytes on a tag match. Offsets are
// never 0 (strBuf starts with the empty string, which is not indexed), so
// a zero slot is free.
type strIntern struct {
	slots []uint64 // tag<<32 | offset
	used  int
	seed  maphash.Seed
}

// reserve makes room for n strings before the first is added.
func (t *strIntern) reserve(n int) {
	if t.used == 0 && n*2 > len(t.slots) {
		size := 1 << 8
		for size < n*2 {
			size *= 2
		}
		t.slots = make([]uint64, size)
	}
}

func (t *strIntern) resize(size int, buf []byte) {
	old := t.slots
	t.slots = make([]uint64, size)
	mask := uint64(size - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		off := uint32(v)
		end := off + uint32(len(btf.CString(buf[off:])))
		h := maphash.Bytes(t.seed, buf[off:end])
		for i := h & mask; ; i = (i + 1) & mask {
			if t.slots[i] == 0 {
				t.slots[i] = v
				break
			}
		}
	}
}

// find returns s's offset in buf, or the free slot where it goes
// (found false; set it with tag<<32 | offset).
func (t *strIntern) find(s string, buf []byte) (off uint32, slot *uint64, tag uint64) {
	if t.used*2 >= len(t.slots) {
		t.resize(max(2*len(t.slots), 1<<8), buf)
	}
	h := maphash.String(t.seed, s)
	tag = h >> 32
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		v := *sl
		if v == 0 {
			return 0, sl, tag
		}
		if v>>32 != tag {
			continue
		}
		o := uint32(v)
		end := int(o) + len(s)
		if end < len(buf) && buf[end] == 0 && string(buf[o:end]) == s {
			return o, nil, tag
		}
	}
}

// internString returns the offset of s in m's string table, adding it.
func (m *merger) internString(s string) uint32 {
	off, slot, tag := m.strIdx.find(s, m.strBuf)
	if slot == nil {
		return off
	}
	off = uint32(len(m.strBuf))
	m.strBuf = append(m.strBuf, s...)
	m.strBuf = append(m.strBuf, 0)
	*slot = tag<<32 | uint64(off)
	m.strIdx.used++
	return off
}

func (m *merger) add(f *fragment) error {
	m.units++
	if f.excluded {
		m.excluded++
	}
	shift := uint32(m.out.NextID()) - 1
	if uint64(shift)+uint64(len(f.hdrs)) >= 1<<31 {
		return fmt.Errorf("too many types for BTF (%d)", uint64(shift)+uint64(len(f.hdrs)))
	}
	local := m.local[:0]
	for _, s := range f.strs {
		// A .debug_str name the merge holds is found by its place (a
		// worker may have missed it by racing the merge); one it does
		// not is interned by content and published.
		p, n := uintptr(unsafe.Pointer(unsafe.StringData(s))), uint32(len(s))
		if off := m.known.find(p, n); off != 0 {
			local = append(local, off)
			continue
		}
		off := m.internString(s)
		m.known.publish(p, n, off)
		local = append(local, off)
	}
	m.local = local
	if len(m.strBuf) > 1<<32-1 {
		return fmt.Errorf("string table too large for BTF")
	}
	w := 0
	for _, h := range f.hdrs {
		k := btf.KindOf(h.info)
		n := btf.ExtraWords(k, btf.VlenOf(h.info))
		extra := append(m.extra[:0], f.words[w:w+n]...)
		w += n
		name, sizeType := h.name, h.sizeType
		// btf.ForEachStringRef and ForEachTypeRef, written out: this
		// loop sees every type of every unit.
		name = strRef(local, name)
		switch k {
		case btf.KindPtr, btf.KindTypedef, btf.KindVolatile, btf.KindConst, btf.KindRestrict,
			btf.KindFunc, btf.KindVar, btf.KindDeclTag, btf.KindTypeTag:
			if sizeType != 0 {
				sizeType += shift
			}
		case btf.KindArray:
			if extra[0] != 0 {
				extra[0] += shift
			}
			if extra[1] != 0 {
				extra[1] += shift
			}
		case btf.KindStruct, btf.KindUnion:
			for i := 0; i+2 < len(extra); i += 3 {
				extra[i] = strRef(local, extra[i])
				if extra[i+1] != 0 {
					extra[i+1] += shift
				}
			}
		case btf.KindEnum64:
			for i := 0; i+2 < len(extra); i += 3 {
				extra[i] = strRef(local, extra[i])
			}
		case btf.KindEnum:
			for i := 0; i+1 < len(extra); i += 2 {
				extra[i] = strRef(local, extra[i])
			}
		case btf.KindFuncProto:
			if sizeType != 0 {
				sizeType += shift
			}
			for i := 0; i+1 < len(extra); i += 2 {
				extra[i] = strRef(local, extra[i])
				if extra[i+1] != 0 {
					extra[i+1] += shift
				}
			}
		case btf.KindDatasec:
			for i := 0; i+2 < len(extra); i += 3 {
				if extra[i] != 0 {
					extra[i] += shift
				}
			}
		}
		m.extra = extra
		m.out.AddRaw(name, h.info, sizeType, extra...)
	}
	if m.funcs != nil {
		if err := m.funcs.Add(&f.funcs, m.out, local, shift); err != nil {
			return err
		}
	}
	if m.stream != nil {
		return m.stream.EndUnit()
	}
	return nil
}

// strRef maps a fragment's string reference to its merged offset: local
// maps the fragment's list (reference i is local[i-1]); a mergedRef is the
// offset itself; 0 is "".
func strRef(local []uint32, ref uint32) uint32 {
	if ref == 0 || ref&funcvar.MergedRef != 0 {
		return ref &^ funcvar.MergedRef
	}
	return local[ref-1]
}

// intern returns the offset of s in the merged string table, adding it;
// 0 for "".
func (m *merger) intern(s string) uint32 {
	if s == "" {
		return 0
	}
	return m.internString(s)
}

// finish installs the string table and returns the merged Spec (of a
// merger from newMerger).
func (m *merger) finish() *btf.Spec {
	m.spec.SetRawStrings(m.strBuf)
	m.strIdx = strIntern{}
	return m.spec
}

// finishDedup returns the deduplicated types (of a merger from
// newDedupMerger), with the merged string table: every string in the
// order the merge interned them, as libbpf keeps a BTF's strings through
// btf__dedup, and the 32-byte header libbpf v1.8 writes.
func (m *merger) finishDedup() (*btf.Spec, error) {
	m.strIdx = strIntern{}
	return m.stream.Finish(m.strBuf)
}

// spec converts one fragment into a standalone Spec (tests, Fragments).
func (f *fragment) spec() *btf.Spec {
	m := newMerger()
	m.add(f)
	return m.finish()
}
