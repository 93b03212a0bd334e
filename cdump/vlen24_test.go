package cdump

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// wideVlen is the vlen of the wide types of wideVlenSpec: more than the
// 65,535 a 16-bit vlen holds.
const wideVlen = 70000

// wideVlenSpec is BTF of today's format at its widest: a 32-byte header
// with libbpf v1.8's kind layout section, a STRUCT of wideVlen int
// members, an ENUM of wideVlen enumerators and a FUNC_PROTO of wideVlen
// parameters (vlen in 24 bits), around a few ordinary types.
func wideVlenSpec() *btf.Spec {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, uint32(btf.IntSigned)<<24|32)
	ptr := s.Add("", btf.KindPtr, 0, false, uint32(i))
	var members, enums, params []uint32
	for n := 0; n < wideVlen; n++ {
		members = append(members, s.AddString(fmt.Sprintf("m%d", n)), uint32(i), uint32(32*n))
		enums = append(enums, s.AddString(fmt.Sprintf("E%d", n)), uint32(n-wideVlen/2))
		params = append(params, s.AddString(fmt.Sprintf("p%d", n)), uint32(ptr))
	}
	st := s.Add("wide", btf.KindStruct, wideVlen, false, 4*wideVlen, members...)
	s.Add("wide_enum", btf.KindEnum, wideVlen, true, 4, enums...)
	proto := s.Add("", btf.KindFuncProto, wideVlen, false, uint32(i), params...)
	s.Add("wide_fn", btf.KindFunc, btf.LinkageGlobal, false, uint32(proto))
	s.Add("wide_t", btf.KindTypedef, 0, false, uint32(st))
	s.SetKindLayouts(btf.StandardKindLayouts())
	return s
}

// TestWideVlen: BTF with a kind layout section and types of vlen > 65,535
// (testdata/reference/format/wide-vlen.raw, made by wideVlenSpec; not
// named .btf, so the tests that hand every reference .btf to bpftool 7.1
// and cilium/ebpf, which cannot read it, leave it out) reads and writes
// back byte for byte, passes Check with the newest kernel's rules and
// fails it with 6.18's (RuleInfo: the vlen bits; RuleKindLayout), and
// WriteRaw lists it exactly as bpftool v7.8.0 with libbpf v1.8 does
// (format/wide-vlen.bpftool-7.8.txt, see testdata/README.md; bpftool 7.1
// with libbpf 1.1 cannot read it). Set BTFKIT_WRITE_WIDE_VLEN=FILE to
// write the generated BTF.
func TestWideVlen(t *testing.T) {
	raw := wideVlenSpec().Marshal(nil)
	if out := os.Getenv("BTFKIT_WRITE_WIDE_VLEN"); out != "" {
		if err := os.WriteFile(out, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ref, err := os.ReadFile(testenv.Reference(t, "format/wide-vlen.raw"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, ref) {
		t.Fatalf("wideVlenSpec() (%d bytes) is not the committed format/wide-vlen.raw (%d bytes)", len(raw), len(ref))
	}
	s, err := btf.Parse(ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Marshal(s.ByteOrder()); !bytes.Equal(got, ref) {
		t.Fatalf("Parse then Marshal: %d bytes differ from the %d read", len(got), len(ref))
	}
	if n := s.Type(3).Vlen(); n != wideVlen {
		t.Fatalf("STRUCT wide: vlen %d, want %d", n, wideVlen)
	}
	if len(s.KindLayouts()) != int(btf.MaxKind)+1 {
		t.Fatalf("kind layout section: %d entries, want %d", len(s.KindLayouts()), btf.MaxKind+1)
	}
	if _, err := btf.CheckRaw(ref, nil, btf.Strict()); err != nil {
		t.Errorf("CheckRaw (newest kernel): %v", err)
	}
	_, err = btf.CheckRaw(ref, nil, btf.ForKernel(btf.KernelVersion{Major: 6, Minor: 18}))
	var ce *btf.CheckError
	if !errors.As(err, &ce) || !ce.Has(btf.RuleInfo) || !ce.Has(btf.RuleKindLayout) {
		t.Errorf("CheckRaw for Linux 6.18: %v; want %s and %s problems", err, btf.RuleInfo, btf.RuleKindLayout)
	}

	var got bytes.Buffer
	if err := WriteRaw(&got, s); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(testenv.Reference(t, "format/wide-vlen.bpftool-7.8.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("WriteRaw differs from bpftool 7.8's listing: %s", firstDiff(got.Bytes(), want))
	}
}
