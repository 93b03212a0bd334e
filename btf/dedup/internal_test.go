package dedup_test

import (
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/internal/dedupinternal"
)

// TestInternalHooks: every call internal/dedupinternal carries reaches
// this package with the types its callers (encode/frombtf) use, as the
// archive route makes them: a recycled Builder fed through a StringMap,
// a Merger read partway, a deduplication begun in a spare Builder.
func TestInternalHooks(t *testing.T) {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	s.Add("", btf.KindPtr, 0, false, uint32(i))

	b := dedupinternal.Recycle[dedup.Builder](nil, 4, 4, 64, 0)
	dedupinternal.NoteHeader(b, s)
	sm := dedupinternal.NewStringMap(b)
	sm.Reset(s)
	name, info, st, ext := s.RawType(i)
	if err := sm.Map(&name); err != nil {
		t.Fatal(err)
	}
	b.AddRaw(name, info, st, ext...)
	if _, _, err := b.Dedup(dedup.Options{}); err != nil {
		t.Fatal(err)
	}
	spare := dedupinternal.Recycle(b, 4, 4, 64, 0)

	m := dedup.NewMerger(nil, 4, 4, 64)
	if _, err := m.Add(s); err != nil {
		t.Fatal(err)
	}
	part := dedupinternal.Partial(m)
	if part.NumTypes() != 2 {
		t.Fatalf("Partial has %d types, want 2", part.NumTypes())
	}
	st2, err := dedupinternal.BeginIn(spare, part, dedupinternal.Strings(m), dedup.Options{UniqueStrings: true}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	out, err := st2.Finish(m.Spec())
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := dedup.Dedup(m.Spec(), dedup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if string(out.Marshal(nil)) != string(want.Marshal(nil)) {
		t.Errorf("begun and finished: %d types, Dedup: %d", out.NumTypes(), want.NumTypes())
	}
}
