package btf

import (
	"bytes"
	"errors"
	"testing"

	"github.com/btfkit/btfkit/internal/kernload"
	"golang.org/x/sys/unix"
)

// fuzzBase is a small base Spec that FuzzParse reads inputs against as
// split BTF when they do not parse as a complete BTF.
func fuzzBase() *Spec {
	s := NewSpec()
	i := s.Add("int", KindInt, 0, false, 4, IntSigned<<24|32)
	s.Add("", KindPtr, 0, false, uint32(i))
	s.Add("s", KindStruct, 1, false, 4, s.AddString("a"), uint32(i), 0)
	return s
}

// FuzzParse feeds arbitrary bytes to Parse (as complete BTF, and as split
// BTF against a small base), runs Check on whatever parses, and checks the
// Marshal round trip: parsing the written bytes must succeed and writing
// the result again must reproduce them exactly. Nothing may panic or hang.
func FuzzParse(f *testing.F) {
	base := fuzzBase()
	f.Add(base.Marshal(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, nil)
		if err != nil {
			s, err = Parse(data, base)
			if err != nil {
				return
			}
		}
		checkErr := s.Check(Strict())
		if checkErr != nil {
			var ce *CheckError
			if !errors.As(checkErr, &ce) || len(ce.Problems) == 0 {
				t.Fatalf("Check returned %v, want a *CheckError with problems", checkErr)
			}
		}
		if _, err := CheckRaw(data, s.Base()); err == nil && checkErr != nil {
			var ce *CheckError
			errors.As(checkErr, &ce)
			if !ce.onlyStrict() {
				t.Fatalf("CheckRaw accepts what Check rejects: %v", checkErr)
			}
		}
		fuzzRoundTrip(t, s)
	})
}

func fuzzRoundTrip(t *testing.T, s *Spec) {
	out := s.Marshal(s.ByteOrder())
	s2, err := Parse(out, s.Base())
	if err != nil {
		t.Fatalf("parsing Marshal output: %v", err)
	}
	if s2.NumTypes() != s.NumTypes() {
		t.Fatalf("round trip: %d types, want %d", s2.NumTypes(), s.NumTypes())
	}
	out2 := s2.Marshal(s2.ByteOrder())
	if !bytes.Equal(out, out2) {
		t.Fatalf("Marshal(Parse(Marshal(x))) differs from Marshal(x): %d vs %d bytes", len(out2), len(out))
	}
}

// FuzzCheckKernel is a differential fuzz target with the running kernel as
// the oracle: for any bytes, CheckRaw (with HostByteOrder) and the kernel's
// BPF_BTF_LOAD must agree on whether they are valid BTF. It skips where
// bpf() is not permitted. Seeds: the every-kind BTF and some corruptions.
func FuzzCheckKernel(f *testing.F) {
	if err := kernload.Load(checkSpec().Marshal(nil)); errors.Is(err, kernload.ErrNotPermitted) {
		f.Skipf("SKIP: %v", err)
	}
	f.Add(checkSpec().Marshal(nil))
	for _, tc := range checkCases {
		if tc.mutate == nil || tc.strict || tc.rule == RuleKind {
			continue
		}
		s := checkSpec()
		tc.mutate(s)
		f.Add(s.Marshal(nil))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<20 {
			return
		}
		_, ours := CheckRaw(data, nil, HostByteOrder())
		err := kernload.Load(data)
		var rej *kernload.RejectedError
		rejected := errors.As(err, &rej)
		if err != nil && !rejected {
			t.Skipf("kernel: %v", err)
		}
		if rejected && rej.Errno == unix.ENOSPC {
			t.Skip("verifier log overflow")
		}
		if rejected != (ours != nil) {
			log := ""
			if rejected {
				log = rej.Log
				if len(log) > 400 {
					log = log[len(log)-400:]
				}
			}
			t.Fatalf("kernel rejects: %v; CheckRaw: %v\nkernel log: %s", rejected, ours, log)
		}
	})
}
