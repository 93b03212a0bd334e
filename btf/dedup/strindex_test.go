package dedup

import (
	"bytes"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// TestStrIndexEqualsFindString: the prepared base's string index finds
// what btf.Spec.FindString finds, at the same offset, for every string of
// the Debian vmlinux BTF, its suffixes and prefixes (found only where they
// are strings of their own) and strings it does not hold; and on a small
// table with repeats, an empty string in the middle and no final NUL.
func TestStrIndexEqualsFindString(t *testing.T) {
	_, data := embedded(t)
	base := mustParse(t, data, nil)
	check := func(name string, spec *btf.Spec, x *strIndex, s string) {
		t.Helper()
		wo, wok := spec.FindString(s)
		go_, gok := x.find(s)
		if wok != gok || (wok && wo != go_) {
			t.Fatalf("%s: %q: index gives %d, %v; FindString %d, %v", name, s, go_, gok, wo, wok)
		}
	}
	raw := base.RawStrings()
	x := newStrIndex(raw)
	n := 0
	for _, b := range bytes.Split(raw, []byte{0}) {
		s := string(b)
		check("vmlinux", base, x, s)
		if len(s) > 1 {
			check("vmlinux", base, x, s[1:])
			check("vmlinux", base, x, s[:len(s)-1])
		}
		check("vmlinux", base, x, s+"\x01absent")
		n++
	}
	if n < 50000 {
		t.Fatalf("only %d strings in the vmlinux BTF", n)
	}

	small := btf.NewSpec()
	tab := []byte("\x00a\x00bc\x00a\x00\x00bc\x00abc")
	small.SetRawStrings(append(tab, 0))
	xs := newStrIndex(tab) // no final NUL: "abc" is not a string of it
	for _, s := range []string{"", "a", "bc", "c", "abc", "ab", "x"} {
		want, wok := small.FindString(s)
		got, gok := xs.find(s)
		if s == "abc" {
			want, wok = 0, false
		}
		if wok != gok || (wok && want != got) {
			t.Errorf("small: %q: index gives %d, %v; want %d, %v", s, got, gok, want, wok)
		}
	}
}

// BenchmarkStrIndex compares the prepared base's string index with
// btf.Spec.FindString on the vmlinux BTF's strings in a scattered order,
// one in four absent (as a module's own strings are).
func BenchmarkStrIndex(b *testing.B) {
	_, data := embedded(b)
	base := mustParse(b, data, nil)
	var strs []string
	for i, s := range bytes.Split(base.RawStrings(), []byte{0}) {
		if i%4 == 0 {
			s = append(s, "\x01absent"...)
		}
		strs = append(strs, string(s))
	}
	for i := range strs { // a fixed scattering
		j := (i * 7919) % len(strs)
		strs[i], strs[j] = strs[j], strs[i]
	}
	x := newStrIndex(base.RawStrings())
	base.FindString("x") // its index is built on first use: not in the timing
	b.Run("index", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			x.find(strs[i%len(strs)])
		}
	})
	b.Run("FindString", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			base.FindString(strs[i%len(strs)])
		}
	})
}
