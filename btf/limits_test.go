package btf

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// problemsByRule runs Check and groups what it finds by rule.
func problemsByRule(t *testing.T, s *Spec) map[Rule][]Problem {
	t.Helper()
	var ce *CheckError
	if err := s.Check(MaxProblems(0)); !errors.As(err, &ce) {
		t.Fatalf("Check: %v, want a *CheckError", err)
	}
	out := map[Rule][]Problem{}
	for _, p := range ce.Problems {
		out[p.Rule] = append(out[p.Rule], p)
	}
	return out
}

// TestBeyondLimits: BTF past the kernel's limits gets problems that say
// which limit: more types than BTF_MAX_TYPE, a string section past
// BTF_MAX_NAME_OFFSET (and the names out there), and a name of megabytes
// quoted short.
func TestBeyondLimits(t *testing.T) {
	s := NewSpec()
	i := s.Add("int", KindInt, 0, false, 4, IntSigned<<24|32)
	for n := 0; n < 1100000; n++ {
		s.Add(fmt.Sprintf("t%014d", n), KindTypedef, 0, false, uint32(i))
	}
	got := problemsByRule(t, s)
	if p := got[RuleLimit]; len(p) != 1 || !strings.Contains(p[0].Detail, "last type ID 1100001, the kernel's limit is 1048574") {
		t.Errorf("type count: %v", p)
	}
	if p := got[RuleStrings]; len(p) != 1 || !strings.Contains(p[0].Detail, "past the kernel's limit of 16777215") {
		t.Errorf("string section: %v", p)
	}
	// The names from offset 16 MiB on: 1,100,000 - 1,048,576 of them.
	if p := got[RuleNameOffset]; len(p) != 1100000-1048576 || !strings.Contains(p[0].Detail, "past the kernel's limit") {
		t.Errorf("%d names past the limit, want %d; first %v", len(p), 1100000-1048576, p[:min(1, len(p))])
	}

	s = NewSpec()
	i = s.Add("int", KindInt, 0, false, 4, IntSigned<<24|32)
	s.Add(strings.Repeat("x", 1<<20)+"-", KindTypedef, 0, false, uint32(i))
	p := problemsByRule(t, s)[RuleNameInvalid]
	if len(p) != 1 || len(p[0].String()) > 400 || !strings.Contains(p[0].String(), "(1048577 bytes)") {
		t.Errorf("a 1 MiB name: %d problems, the first %d bytes long", len(p), len(p[0].String()))
	}
}
