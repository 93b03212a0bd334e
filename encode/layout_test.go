package encode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestEncodeLayout encodes a linked C fixture with and without the layout
// feature. Without it the output is what pahole 1.32 writes: libbpf's
// 24-byte header. With it, what pahole (v1.31-38-g1436daf and later) with
// libbpf v1.8 writes: btf_encoder__new asks btf__new_empty_opts for
// add_layout; libbpf keeps the table after the types
// (btf_hdr_update_type_len, btf_dedup_compact_types) and btf__raw_data
// writes header, types, table, strings. So: a 32-byte header with type_off
// 0, layout_off = type_len, layout_len = 4 * NR_BTF_KINDS, str_off =
// type_len + layout_len; the table's bytes those the uapi header gives;
// types and strings those of the output without the feature, byte for
// byte.
func TestEncodeLayout(t *testing.T) {
	elf := linkFixture(t, gccO2, "funcs.c")
	feat := DefaultFeatures | FeatGlobalVar
	plain, err := EncodeFile(elf, Options{Features: feat, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	withSpec, err := EncodeFile(elf, Options{Features: feat | FeatLayout, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	without, with := plain.Marshal(nil), withSpec.Marshal(nil)
	table := testc.KindLayoutTable(t)

	le := binary.LittleEndian
	word := func(b []byte, off int) uint32 { return le.Uint32(b[off:]) }
	if word(without, 4) != 24 {
		t.Fatalf("without layout: header length %d; want pahole 1.32's 24 bytes", word(without, 4))
	}
	typeLen, strLen := int(word(without, 12)), int(word(without, 20))
	want := map[string][2]uint32{
		"hdr_len":    {word(with, 4), 32},
		"type_off":   {word(with, 8), 0},
		"type_len":   {word(with, 12), uint32(typeLen)},
		"str_off":    {word(with, 16), uint32(typeLen + len(table))},
		"str_len":    {word(with, 20), uint32(strLen)},
		"layout_off": {word(with, 24), uint32(typeLen)},
		"layout_len": {word(with, 28), uint32(len(table))},
	}
	for name, v := range want {
		if v[0] != v[1] {
			t.Errorf("with layout: %s = %d, want %d", name, v[0], v[1])
		}
	}
	if len(with) != len(without)+8+len(table) {
		t.Fatalf("with layout: %d bytes, want %d + 8 + %d", len(with), len(without), len(table))
	}
	if !bytes.Equal(with[:4], without[:4]) {
		t.Errorf("magic/version/flags differ: % x vs % x", with[:4], without[:4])
	}
	if !bytes.Equal(with[32:32+typeLen], without[24:24+typeLen]) {
		t.Error("the type section differs from the output without layout")
	}
	if got := with[32+typeLen : 32+typeLen+len(table)]; !bytes.Equal(got, table) {
		t.Errorf("kind layout section:\n got % x\nwant % x (libbpf's table from <linux/btf.h>)", got, table)
	}
	if !bytes.Equal(with[32+typeLen+len(table):], without[24+typeLen:]) {
		t.Error("the string section differs from the output without layout")
	}

	// Read back: same bytes, the table as KindLayouts.
	back, err := btf.Parse(with, nil)
	if err != nil {
		t.Fatalf("reading our layout output: %v", err)
	}
	if out := back.Marshal(nil); !bytes.Equal(out, with) {
		t.Error("read→write of the layout output is not byte-identical")
	}
	if n := len(back.KindLayouts()); n != len(table)/4 {
		t.Errorf("KindLayouts(): %d entries, want %d", n, len(table)/4)
	}

	// bpftool 7.1 (libbpf 1.1) steps over the section: same listing.
	dir := t.TempDir()
	fWith, fWithout := filepath.Join(dir, "with.btf"), filepath.Join(dir, "without.btf")
	if err := os.WriteFile(fWith, with, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fWithout, without, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("bpftool"); err == nil {
		a, err := exec.Command("bpftool", "btf", "dump", "file", fWith).CombinedOutput()
		if err != nil {
			t.Errorf("bpftool refuses the layout output: %v\n%s", err, a)
		}
		b := testc.Output(t, "bpftool", "btf", "dump", "file", fWithout)
		if !bytes.Equal(a, b) {
			t.Error("bpftool lists the layout output differently from the output without layout")
		}
	} else {
		testenv.SkipPartOrFail(t, "bpftool half: bpftool not found")
	}

	// The kernel: without layout it loads; with it, the 6.18 kernel
	// refuses the header, and Check says so first.
	if _, err := btf.CheckRaw(without, nil); err != nil {
		t.Errorf("CheckRaw without layout: %v", err)
	}
	if _, err := btf.CheckRaw(with, nil); err != nil {
		t.Errorf("CheckRaw with layout, newest kernel's rules: %v", err)
	}
	linux618 := btf.ForKernel(btf.KernelVersion{Major: 6, Minor: 18})
	_, cerr := btf.CheckRaw(with, nil, linux618)
	var ce *btf.CheckError
	if !errors.As(cerr, &ce) || !ce.Has(btf.RuleKindLayout) || len(ce.Problems) != 1 {
		t.Errorf("CheckRaw with layout, Linux 6.18's rules: %v; want exactly one %s problem", cerr, btf.RuleKindLayout)
	}
	switch err := kernload.Load(without); {
	case errors.Is(err, kernload.ErrNotPermitted):
		testenv.SkipOrFail(t, "kernel half: %v", err)
	case err != nil:
		t.Fatalf("the kernel rejects the output without layout: %v", err)
	}
	err = kernload.Load(with)
	var rej *kernload.RejectedError
	if !errors.As(err, &rej) {
		t.Fatalf("kernel load of the layout output: %v; want a rejection", err)
	}
	if !strings.Contains(rej.Log, "Unsupported btf_header") || rej.Errno.Error() != "argument list too long" {
		t.Errorf("kernel: %v, log %q; want E2BIG \"Unsupported btf_header\"", rej.Errno, rej.Log)
	}
	t.Logf("kernel: %v: %s; btfkit check: %s", rej.Errno, strings.TrimSpace(rej.Log), ce.Problems[0])
}

// TestEncodeLayoutSplit: pahole adds the section to base BTF only
// (btf_encoder__new: add_layout = !base_btf && btf_gen_layout), so split
// BTF encoded with the feature has none, whether or not its base has one.
func TestEncodeLayoutSplit(t *testing.T) {
	baseObj := testc.Compile(t, filepath.Join(testc.CorpusDir(), "types.c"), gccO2)
	baseSpec, err := EncodeFile(baseObj, Options{Features: DefaultFeatures | FeatLayout, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if baseSpec.KindLayouts() == nil {
		t.Fatal("base BTF encoded with layout has no kind layout section")
	}
	base, err := dedup.PrepareBase(baseSpec)
	if err != nil {
		t.Fatal(err)
	}
	elf := linkFixture(t, gccO2, "funcs.c")
	split, err := EncodeSplit(elf, base, Options{Features: DefaultFeatures | FeatLayout, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if l := split.KindLayouts(); l != nil {
		t.Errorf("split BTF has a kind layout section of %d entries; pahole writes none", len(l))
	}
	raw := split.Marshal(nil)
	if hl := binary.LittleEndian.Uint32(raw[4:]); hl >= 32 && !bytes.Equal(raw[24:32], make([]byte, 8)) {
		t.Errorf("split BTF header layout words % x, want zero", raw[24:32])
	}
}

// TestVmlinuxLayout encodes the Debian vmlinux with default,layout and
// holds it to pahole 1.32's file made without the feature with libbpf
// v1.8's table inserted: the header is pahole's 24 bytes grown to 32, with
// str_off moved by the table and layout_off/layout_len (the end of the
// types, 4 * NR_BTF_KINDS) set; the type section is pahole's, the table is
// the uapi header's and the strings are pahole's.
func TestVmlinuxLayout(t *testing.T) {
	refBTF := vmlinux132(t)
	raw := encodeVmlinux(t, DefaultFeatures|FeatLayout, nil).Marshal(nil)
	ref, err := os.ReadFile(refBTF)
	if err != nil {
		t.Fatal(err)
	}
	table := testc.KindLayoutTable(t)
	le := binary.LittleEndian
	if len(ref) < 24 || le.Uint32(ref[4:]) != 24 {
		t.Fatal("the reference is not pahole 1.32's output without layout (24-byte header)")
	}
	if len(raw) != len(ref)+8+len(table) {
		t.Fatalf("%d bytes, want pahole 1.32's %d + 8 + %d", len(raw), len(ref), len(table))
	}
	typeLen := int(le.Uint32(ref[12:]))
	wantHdr := append(append([]byte(nil), ref[:24]...), make([]byte, 8)...)
	le.PutUint32(wantHdr[4:], 32)
	le.PutUint32(wantHdr[16:], uint32(typeLen+len(table)))
	le.PutUint32(wantHdr[24:], uint32(typeLen))
	le.PutUint32(wantHdr[28:], uint32(len(table)))
	if !bytes.Equal(raw[:32], wantHdr) {
		t.Errorf("header % x, want % x", raw[:32], wantHdr)
	}
	n := 0
	for i := 0; i < typeLen; i++ {
		if raw[32+i] != ref[24+i] {
			n++
		}
	}
	if n != 0 {
		t.Errorf("type section: %d bytes differ from pahole 1.32's", n)
	}
	if got := raw[32+typeLen : 32+typeLen+len(table)]; !bytes.Equal(got, table) {
		t.Errorf("kind layout section % x, want % x", got, table)
	}
	if !bytes.Equal(raw[32+typeLen+len(table):], ref[24+typeLen:]) {
		t.Error("string table differs from pahole 1.32's")
	}
	if _, err := btf.CheckRaw(raw, nil, btf.Strict()); err != nil {
		t.Errorf("CheckRaw, newest kernel's rules: %v", err)
	}
	_, err = btf.CheckRaw(raw, nil, btf.ForKernel(btf.KernelVersion{Major: 6, Minor: 18}))
	var ce *btf.CheckError
	if !errors.As(err, &ce) || len(ce.Problems) != 1 || !ce.Has(btf.RuleKindLayout) {
		t.Errorf("CheckRaw, Linux 6.18's rules: %v; want only the %s problem", err, btf.RuleKindLayout)
	}
}
