package btf

import (
	"bytes"
	"errors"
	"testing"

	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
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
		testenv.SkipOrFail(f, "%v", err)
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
		_, ours := CheckRaw(data, nil, HostByteOrder(), hostKernel(t))
		err := kernload.Load(data)
		var rej *kernload.RejectedError
		rejected := errors.As(err, &rej)
		// Plain skips: an input the kernel gives no verdict on (an
		// error other than a rejection, a verifier log too long for
		// the buffer) has nothing to compare with, in CI as anywhere.
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

// FuzzCheckSpec builds Specs with AddRaw from arbitrary words, trailing
// words not necessarily matching kind and vlen (what a buggy producer
// could build in memory), and runs Check on them: it must report, never
// panic or hang.
func FuzzCheckSpec(f *testing.F) {
	f.Add(checkSpec().Marshal(nil)[HeaderLen:])
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 4, 4, 0, 0, 0, 1, 32, 0, 0, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := NewSpec()
		s.AddString("a")
		s.AddString("b.c")
		word := func() uint32 {
			if len(data) < 4 {
				data = nil
				return 0
			}
			w := uint32(data[0]) | uint32(data[1])<<8 | uint32(data[2])<<16 | uint32(data[3])<<24
			data = data[4:]
			return w
		}
		for len(data) >= 13 && s.NumTypes() < 4096 {
			nameOff, info, sizeType := word(), word(), word()
			n := int(data[0] % 8)
			data = data[1:]
			// Mostly the right number of words, sometimes not.
			if want := ExtraWords(KindOf(info), VlenOf(info)); want >= 0 && want <= 64 && n < 6 {
				n = want
			}
			ext := make([]uint32, n)
			for i := range ext {
				ext[i] = word()
			}
			s.AddRaw(nameOff, info, sizeType, ext...)
		}
		_ = s.Check(Strict())
		if s.NumTypes() > 0 {
			split := NewSplitSpec(s)
			split.Add("", KindPtr, 0, false, uint32(s.NumTypes()))
			_ = split.Check(CheckBase())
		}
	})
}
