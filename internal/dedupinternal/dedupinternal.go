// Package dedupinternal is what the BTF-archive route (encode/frombtf)
// takes from btf/dedup beyond its public API: the memory-reusing and
// two-step pieces of a Builder and a Merger that only that pipeline
// needs. Package dedup installs them when it is initialised (Install);
// the functions here call them with the caller's own types, so a caller
// writes dedupinternal.NoteHeader(b, s) for a *dedup.Builder b.
//
// Nothing here is dedup's algorithm; this package only carries calls.
package dedupinternal

import "github.com/btfkit/btfkit/btf"

// StringMap translates the string offsets of one Spec's table into those
// of a Builder's table, adding each string the first time it is met.
type StringMap interface {
	// Reset makes the map translate offsets of s's own string table.
	Reset(s *btf.Spec)
	// Map rewrites *p, a string offset of the Spec last Reset to.
	Map(p *uint32) error
}

// Staged is a deduplication begun on a Merger's types (BeginIn); Finish
// takes the Spec with the types appended since and returns what Dedup of
// the whole returns.
type Staged interface {
	Finish(in *btf.Spec) (*btf.Spec, error)
}

// Hooks are package dedup's functions, each typed with its own Builder
// (B), Merger (M) and Options (O): func(*B, *btf.Spec) and so on, as the
// functions below call them.
type Hooks struct {
	NoteHeader, Recycle, StringMap, Partial, Strings, BeginIn any
}

var hooks Hooks

// Install is called by package dedup's init.
func Install(h Hooks) { hooks = h }

// NoteHeader takes s's header length and kind layout section into b as
// Merge takes them from its inputs.
func NoteHeader[B any](b *B, s *btf.Spec) {
	hooks.NoteHeader.(func(*B, *btf.Spec))(b, s)
}

// Recycle returns an empty Builder, as dedup.NewBuilder does, with an
// index for about nStrings strings, reusing b's tables where they are
// large enough (b may be nil and must not be used afterwards).
func Recycle[B any](b *B, types, words, strBytes, nStrings int) *B {
	return hooks.Recycle.(func(*B, int, int, int, int) *B)(b, types, words, strBytes, nStrings)
}

// NewStringMap returns a StringMap into b's string table.
func NewStringMap[B any](b *B) StringMap {
	return hooks.StringMap.(func(*B) StringMap)(b)
}

// Partial returns the Spec a Merger is building, to read the types
// added so far (their name offsets are final; the strings are set only
// by the Merger's Spec).
func Partial[M any](m *M) *btf.Spec {
	return hooks.Partial.(func(*M) *btf.Spec)(m)
}

// Strings returns a Merger's string table so far: its memory, which
// later Adds append to.
func Strings[M any](m *M) []byte {
	return hooks.Strings.(func(*M) []byte)(m)
}

// BeginIn starts deduplicating in, a Merger's result whose string table
// so far is strs, in the memory of b, a Builder done with (nil: none),
// with room for about lateTypes types of lateWords trailing words
// appended before Finish. opts.Base must be nil and opts.UniqueStrings
// set.
func BeginIn[B, O any](b *B, in *btf.Spec, strs []byte, opts O, lateTypes, lateWords int) (Staged, error) {
	return hooks.BeginIn.(func(*B, *btf.Spec, []byte, O, int, int) (Staged, error))(b, in, strs, opts, lateTypes, lateWords)
}
