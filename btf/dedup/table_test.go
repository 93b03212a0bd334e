package dedup

import (
	"math/rand"
	"slices"
	"testing"
)

// TestOverlayEqualsCopy: an overlay of a prepared table, frozen or not,
// gives, for every key, the candidates a copy of it gives, in the same
// order, after any number of adds: below the point where the copy grows
// (the overlay's own index), across it (materialized) and far past it;
// with few distinct keys (long chains of one key) and many.
func TestOverlayEqualsCopy(t *testing.T) {
	t.Run("linked", func(t *testing.T) { testOverlay(t, false) })
	t.Run("frozen", func(t *testing.T) { testOverlay(t, true) })
}

func testOverlay(t *testing.T, freeze bool) {
	for _, c := range []struct {
		base, adds int
		keys       uint64
	}{
		{0, 50, 8}, {1, 3, 2}, {94908, 3000, 1 << 40}, {94908, 3396, 1 << 40}, {94908, 3397, 1 << 40},
		{94908, 20000, 1 << 40}, {1000, 5000, 40}, {96, 1, 4}, {97, 200, 7}, {5000, 300, 64},
	} {
		rng := rand.New(rand.NewSource(int64(c.base*31 + c.adds)))
		var base table
		for i := 0; i < c.base; i++ {
			base.add(rng.Uint64()%c.keys, uint32(i+1))
		}
		var keys []uint64
		for i := 0; i < c.adds; i++ {
			keys = append(keys, rng.Uint64()%c.keys)
		}
		want := table{
			buckets: slices.Clone(base.buckets), bits: base.bits,
			keys: slices.Clone(base.keys), vals: slices.Clone(base.vals), next: slices.Clone(base.next),
		}
		if freeze {
			base.freeze()
			if base.frozen == nil {
				t.Fatal("no frozen chains")
			}
		}
		var mem table
		got := overlay(&base, &mem)
		cands := func(t *table, k uint64) []uint32 {
			var ids []uint32
			t.cands(k, func(id uint32) bool { ids = append(ids, id); return true })
			return ids
		}
		check := func(step int) {
			probe := keys[:min(len(keys), 64)]
			if c.keys <= 64 {
				probe = nil
				for k := uint64(0); k < c.keys; k++ {
					probe = append(probe, k)
				}
			}
			for _, k := range probe {
				if w, g := cands(&want, k), cands(&got, k); !slices.Equal(w, g) {
					t.Fatalf("base %d, after %d adds: key %d: candidates %v, want %v", c.base, step, k, g, w)
				}
			}
		}
		for i, k := range keys {
			id := uint32(c.base + i + 1)
			want.add(k, id)
			got.add(k, id)
			if i%97 == 0 || i == len(keys)-1 {
				check(i + 1)
			}
		}
		// The base is untouched.
		for i := range base.keys {
			if base.vals[i] != uint32(i+1) {
				t.Fatalf("base entry %d changed", i)
			}
		}
	}
}

// BenchmarkBaseCands walks the candidates of the vmlinux BTF's types in
// the prepared base's table, linked and frozen, in a scattered order, one
// key in four changed (absent).
func BenchmarkBaseCands(b *testing.B) {
	_, data := embedded(b)
	pb, err := PrepareBase(mustParse(b, data, nil))
	if err != nil {
		b.Fatal(err)
	}
	keys := slices.Clone(pb.tab.keys)
	for i := 0; i < len(keys); i += 4 {
		keys[i]++ // one in four absent, most likely
	}
	rand.New(rand.NewSource(1)).Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	linked := pb.tab
	linked.frozen = nil
	n := 0
	for _, c := range []struct {
		name string
		t    *table
	}{{"linked", &linked}, {"frozen", &pb.tab}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c.t.cands(keys[i%len(keys)], func(uint32) bool { n++; return true })
			}
		})
	}
}
