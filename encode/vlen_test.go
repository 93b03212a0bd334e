package encode

import (
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// TestVlenBeyondBTF: a type with more entries than the info word's 24
// bits of vlen hold (16,777,216 enumerators, say) cannot be encoded: the
// unit's conversion reports it by kind and name instead of writing a
// vlen cut to its low bits, and a reset conversion starts clean.
func TestVlenBeyondBTF(t *testing.T) {
	c := newUnitConv(Options{}, false)
	f := c.newFragment()
	c.strs.reset(f)
	c.addType(f, "many", btf.KindEnum, btf.MaxVlen, false, 4)
	if c.tooLong != nil {
		t.Fatalf("vlen %d (the largest): %v", btf.MaxVlen, c.tooLong)
	}
	c.addType(f, "too_many", btf.KindEnum, btf.MaxVlen+1, false, 4)
	if c.tooLong == nil || !strings.Contains(c.tooLong.Error(), "ENUM 'too_many' has 16777216") {
		t.Errorf("vlen %d: %v", btf.MaxVlen+1, c.tooLong)
	}
	c.reset()
	if c.tooLong != nil {
		t.Errorf("after reset: %v", c.tooLong)
	}
}
