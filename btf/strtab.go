package btf

import (
	"bytes"
	"sync"
	"unsafe"
)

// The string table. A Spec's own table is the bytes of its string
// section: NUL-terminated strings back to back, the empty string first in
// a base Spec. A split Spec's offsets continue after its base's table, so
// an offset is looked up in the base chain first. Tables only ever grow by
// append (or are replaced whole by SetRawStrings), which never rewrites
// bytes already written: strings returned without a copy stay valid.

// CString returns the NUL-terminated string at the start of b (all of b
// when it holds no NUL), sharing b's memory: the one way btfkit reads a
// string out of a string table.
func CString(b []byte) string {
	n := bytes.IndexByte(b, 0)
	if n < 0 {
		n = len(b)
	}
	if n == 0 {
		return ""
	}
	return unsafe.String(&b[0], n)
}

// String returns the NUL-terminated string at offset off of this Spec's
// string space (which includes the base's), or "" for an offset outside it.
// The result shares memory with the table without copying.
func (s *Spec) String(off uint32) string {
	sp := s
	for sp != nil && off < sp.startStr {
		sp = sp.base
	}
	if sp == nil {
		return ""
	}
	rel := int(off - sp.startStr)
	if rel >= len(sp.strs) {
		return ""
	}
	return CString(sp.strs[rel:])
}

// ValidStringOff reports whether off is the start of a string within this
// Spec's string space (its own table or its base's).
func (s *Spec) ValidStringOff(off uint32) bool {
	sp := s
	for sp != nil && off < sp.startStr {
		sp = sp.base
	}
	if sp == nil {
		return false
	}
	return int(off-sp.startStr) < len(sp.strs)
}

// FindString returns the offset of str in this Spec's string space (its
// base's table first, then its own) without adding it: the first place
// str starts. The empty string is always found at offset 0. It is a read:
// concurrent calls are safe.
func (s *Spec) FindString(str string) (uint32, bool) {
	if str == "" {
		return 0, true
	}
	return s.lookupString(str)
}

// AddString interns str in this Spec's own string table and returns its
// offset. The empty string is offset 0 (of the base) in every Spec. In a
// split Spec a string already in the base returns the base's offset.
func (s *Spec) AddString(str string) uint32 {
	if str == "" {
		return 0
	}
	if s.base != nil {
		if off, ok := s.base.lookupString(str); ok {
			return off
		}
	}
	idx := s.stringIndex()
	if off, ok := idx[str]; ok {
		return off
	}
	off := s.startStr + uint32(len(s.strs))
	s.strs = append(s.strs, str...)
	s.strs = append(s.strs, 0)
	idx[str] = off
	return off
}

// SetRawStrings replaces this Spec's own string table with strs (not
// copied, and not to be changed afterwards), which must end with a NUL byte and, for a base Spec, start with
// one (a split Spec's own table may be empty, as libbpf writes it). String
// offsets already stored in the Spec's types are not rewritten: the caller
// rewrites its types to match (dedup builds a new table and new types
// together).
func (s *Spec) SetRawStrings(strs []byte) {
	if len(strs) == 0 && s.base == nil {
		strs = []byte{0}
	}
	s.strs = strs
	s.strIdx = nil
	s.strIdxOnce = sync.Once{}
}

func (s *Spec) lookupString(str string) (uint32, bool) {
	if s.base != nil {
		if off, ok := s.base.lookupString(str); ok {
			return off, true
		}
	}
	off, ok := s.stringIndex()[str]
	return off, ok
}

// stringIndex returns the index of this Spec's own strings, building it
// on first use. sync.Once makes the build safe for concurrent readers;
// AddString's later additions are changes of the Spec, which must not
// overlap with reads.
func (s *Spec) stringIndex() map[string]uint32 {
	s.strIdxOnce.Do(s.buildStringIndex)
	return s.strIdx
}

// buildStringIndex maps each string of the own table to the offset where
// it first starts. The keys share the table's memory, which is never
// rewritten.
func (s *Spec) buildStringIndex() {
	idx := make(map[string]uint32)
	for i := 0; i < len(s.strs); {
		str := CString(s.strs[i:])
		if str != "" {
			if _, dup := idx[str]; !dup {
				idx[str] = s.startStr + uint32(i)
			}
		}
		i += len(str) + 1
	}
	s.strIdx = idx
}
