package dedup

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/dedupinternal"
)

// The archive route's pieces of a Builder and a Merger (memory reuse, the
// two-step deduplication), for encode/frombtf only: internal/dedupinternal
// carries the calls.
func init() {
	dedupinternal.Install(dedupinternal.Hooks{
		NoteHeader: (*Builder).noteHeader,
		Recycle:    (*Builder).recycle,
		StringMap:  func(b *Builder) dedupinternal.StringMap { return b.stringMap() },
		Partial:    (*Merger).partial,
		Strings:    (*Merger).table,
		BeginIn: func(b *Builder, in *btf.Spec, strs []byte, opts Options, lateTypes, lateWords int) (dedupinternal.Staged, error) {
			s, err := beginIn(b, in, strs, opts, lateTypes, lateWords)
			if err != nil {
				return nil, err
			}
			return s, nil
		},
	})
}
