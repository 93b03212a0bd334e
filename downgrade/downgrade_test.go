package downgrade

import (
	"errors"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

var (
	linux61  = btf.KernelVersion{Major: 6, Minor: 1}
	linux612 = btf.KernelVersion{Major: 6, Minor: 12}
	linux510 = btf.KernelVersion{Major: 5, Minor: 10}
)

// everyFeature is BTF that uses each feature of the rule table once.
func everyFeature() *btf.Spec {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, uint32(btf.IntSigned)<<24|32) // 1
	tt := s.Add("user", btf.KindTypeTag, 0, false, uint32(i))                 // 2
	tf := s.Add("address_space(1)", btf.KindTypeTag, 0, true, uint32(tt))     // 3
	p := s.Add("", btf.KindPtr, 0, false, uint32(tf))                         // 4
	f := s.Add("double", btf.KindFloat, 0, false, 8)                          // 5
	e64 := s.Add("big", btf.KindEnum64, 1, false, 8, s.AddString("B"), 1, 2)  // 6
	se := s.Add("small", btf.KindEnum, 1, true, 4, s.AddString("S"), ^uint32(0))
	st := s.Add("s", btf.KindStruct, 4, false, 32,
		s.AddString("p"), uint32(p), 0, s.AddString("f"), uint32(f), 64,
		s.AddString("e"), uint32(e64), 128, s.AddString("x"), uint32(se), 192)
	s.Add("tag", btf.KindDeclTag, 0, false, uint32(st), ^uint32(0))
	s.Add("attr", btf.KindDeclTag, 0, true, uint32(st), 1)
	proto := s.Add("", btf.KindFuncProto, 1, false, uint32(i), s.AddString("a"), uint32(p))
	s.Add("fn", btf.KindFunc, btf.LinkageGlobal, false, uint32(proto))
	s.SetKindLayouts(btf.StandardKindLayouts())
	return s
}

func TestForKernelRules(t *testing.T) {
	in := everyFeature()
	if err := in.Check(btf.Strict()); err != nil {
		t.Fatalf("the input is not valid BTF: %v", err)
	}
	for _, c := range []struct {
		v    btf.KernelVersion
		want Report
	}{
		{linux612, Report{"layout": 1, "tag-kind-flag": 2}},
		{linux61, Report{"layout": 1, "tag-kind-flag": 2}},
		{btf.KernelVersion{Major: 5, Minor: 16}, Report{"layout": 1, "tag-kind-flag": 1, "type-tag": 2, "enum64": 2}},
		{linux510, Report{"layout": 1, "type-tag": 2, "decl-tag": 2, "enum64": 2, "float": 1}},
		{btf.KernelVersion{Major: 5, Minor: 2}, Report{"layout": 1, "type-tag": 2, "decl-tag": 2, "enum64": 2, "float": 1, "global-func": 1}},
	} {
		// Without downgrading, that kernel rejects the input.
		if err := in.Check(btf.ForKernel(c.v)); err == nil {
			t.Errorf("Linux %s: Check accepts the input; the test needs features it lacks", c.v)
		}
		out, rep, err := ForKernel(in, c.v)
		if err != nil {
			t.Fatalf("Linux %s: %v", c.v, err)
		}
		if err := out.Check(btf.ForKernel(c.v), btf.Strict()); err != nil {
			t.Errorf("Linux %s: the output fails Check: %v", c.v, err)
		}
		if len(rep) != len(c.want) {
			t.Errorf("Linux %s: report %v, want %v", c.v, rep, c.want)
		}
		for k, n := range c.want {
			if rep[k] != n {
				t.Errorf("Linux %s: report %v, want %v", c.v, rep, c.want)
				break
			}
		}
		if out.KindLayouts() != nil || out.HeaderLen() != btf.HeaderLen {
			t.Errorf("Linux %s: layout section or 32-byte header kept", c.v)
		}
	}
	// The newest kernel: nothing changes.
	out, rep, err := ForKernel(in, btf.KernelVersion{})
	if err != nil || len(rep) != 0 || string(out.Marshal(nil)) != string(in.Marshal(nil)) {
		t.Errorf("newest kernel: %v, %v; want the input unchanged", rep, err)
	}
	// 5.10: the pointer goes straight to int now; the struct's float
	// member is an INT named double.
	out, _, _ = ForKernel(in, linux510)
	p := out.Type(2)
	if p.Kind() != btf.KindPtr || p.Ref() != 1 {
		t.Errorf("5.10: type 2 is %v -> %d, want PTR -> 1 (the type tags dropped)", p.Kind(), p.Ref())
	}
	if d := out.Type(3); d.Kind() != btf.KindInt || d.Name() != "double" || d.Size() != 8 {
		t.Errorf("5.10: type 3 %v '%s' size %d, want INT 'double' size 8", d.Kind(), d.Name(), d.Size())
	}
	if e := out.Type(4); e.Kind() != btf.KindEnum || e.Size() != 8 || e.Enum(0).Val != 1 {
		t.Errorf("5.10: type 4 %v size %d, want ENUM of 8 bytes, B = 1", e.Kind(), e.Size())
	}
}

func TestForKernelErrors(t *testing.T) {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, 32)
	var w []uint32
	for n := 0; n < 70000; n++ {
		w = append(w, 0, uint32(i), uint32(32*n))
	}
	s.Add("wide", btf.KindStruct, 70000, false, 4*70000, w...)
	if _, _, err := ForKernel(s, linux61); err == nil || !strings.Contains(err.Error(), "vlen 70000") {
		t.Errorf("vlen 70000 for 6.1: %v; want an error naming the vlen", err)
	}
	if _, _, err := ForKernel(s, btf.KernelVersion{}); err != nil {
		t.Errorf("vlen 70000 for the newest kernel: %v", err)
	}
	if _, _, err := ForKernel(btf.NewSplitSpec(s), linux61); err == nil {
		t.Error("split BTF: no error")
	}
	if _, _, err := ForKernel(s, btf.KernelVersion{Major: 5, Minor: 1}); err == nil {
		t.Error("Linux 5.1: no error")
	}
}

// TestForKernel618: the 6.18 kernel's own BTF (DECL_TAG, TYPE_TAG, ENUM64,
// FLOAT) made for 6.1 and 6.12 passes Check with their rules, and fails
// it unchanged (for 6.1: ENUM64 and signed ENUM); the running kernel loads
// the result.
func TestForKernel618(t *testing.T) {
	in, err := btf.LoadFile(testenv.Reference(t, "host-6.18/vmlinux.btf"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Check(btf.ForKernel(linux61)); err == nil {
		t.Error("Linux 6.1's rules accept the 6.18 BTF unchanged")
	}
	for _, v := range []btf.KernelVersion{linux61, linux612} {
		out, rep, err := ForKernel(in, v)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("Linux %s: %v", v, rep)
		if err := out.Check(btf.ForKernel(v)); err != nil {
			t.Errorf("Linux %s: %v", v, err)
		}
		err = kernload.Load(out.Marshal(nil))
		if errors.Is(err, kernload.ErrNotPermitted) {
			testenv.SkipPartOrFail(t, "kernel half: %v", err)
		} else if err != nil {
			t.Errorf("Linux %s output, running kernel: %v", v, err)
		}
	}
}
