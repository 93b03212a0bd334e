package routediff

import (
	"testing"

	"github.com/btfkit/btfkit/btf"
)

func TestGCC12Enums(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"enum{size=4 signed; A=-1; B=2}", "enum{size=4; A=4294967295; B=2}"},
		{"enum{size=4; BIG=2147483648; S=1}", "enum{size=4; S=1}"},
		{"x enum{size=4; A=1} y enum{size=4 signed; B=-2}", "x enum{size=4; A=1} y enum{size=4; B=4294967294}"},
	} {
		if got := gcc12Enums(c.in); got != c.want {
			t.Errorf("gcc12Enums(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRenderings(t *testing.T) {
	r := "union{size=8; struct{size=8; from u32 @0; to u32 @32} @0; lbr u64 @0}"
	if got := firstItem(r); got != "" {
		t.Errorf("firstItem(%q) = %q, want \"\" (an anonymous member)", r, got)
	}
	if got := renderSize(r); got != "8" {
		t.Errorf("renderSize = %q", got)
	}
	if got := firstItem("struct{size=16; d [2]u64{index int} @0}"); got != "d" {
		t.Errorf("firstItem = %q, want d", got)
	}
	if got := firstItem("enum{size=4; ERASE=0; KILL=2}"); got != "ERASE" {
		t.Errorf("firstItem = %q, want ERASE", got)
	}
	if !enumRenderLossy("enum{size=4 signed; A=-1}") || !enumRenderLossy("enum{size=4; A=2147483648}") || enumRenderLossy("enum{size=4; A=1}") {
		t.Errorf("enumRenderLossy is wrong")
	}
}

// TestClassify: lines of each cause are put under it only when the
// inputs show the cause; the same lines without it stay unexplained.
func TestClassify(t *testing.T) {
	a := btf.NewSpec()
	intID := a.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	a.Add("neg", btf.KindEnum, 1, true, 4, a.AddString("N"), uint32(0xffffffff))
	a.Add("fwd_e", btf.KindEnum, 0, false, 4)
	proto := a.Add("", btf.KindFuncProto, 0, false, 0)
	a.Add("asm_func", btf.KindFunc, 0, false, uint32(proto))
	_ = intID
	b := btf.NewSpec()
	lines := []string{
		"~ ENUM neg: size=4 vlen=1 signed -> size=4 vlen=1 unsigned",
		"- ENUM fwd_e",
		"+ FWD fwd_e",
		"- STRUCT only_local",
		"- FUNC asm_func",
		"+ FUNC clone_kept",
		"~ FUNC weak_one: param 0 'regs': *int -> param 0 '__unused': *int",
		"- STRUCT unknown",
	}
	in := Inputs{DWARF: a, Archive: b,
		Local:         &Local{named: map[string]bool{"STRUCT only_local": true}, anon: map[string]bool{}},
		DWARFReport:   map[string]string{"clone_kept": "optimized parameters"},
		ArchiveReport: map[string]string{},
		MultiDefined:  map[string]bool{"weak_one": true},
	}
	b.Add("fwd_e", btf.KindFwd, 0, false, 0)
	res := Classify(lines, in)
	want := map[string]string{
		lines[0]: CauseEnum, lines[1]: CauseEnumFwd, lines[2]: CauseEnumFwd, lines[3]: CauseLocal,
		lines[4]: CauseAsmDWARF, lines[5]: CauseDWARFSkips + "optimized parameters", lines[6]: CauseWeak,
	}
	got := map[string]string{}
	for c, ls := range res.Causes {
		for _, l := range ls {
			got[l] = c
		}
	}
	for l, c := range want {
		if got[l] != c {
			t.Errorf("%q: cause %q, want %q", l, got[l], c)
		}
	}
	if len(res.Unexplained) != 1 || res.Unexplained[0] != lines[7] {
		t.Errorf("unexplained %q, want only %q", res.Unexplained, lines[7])
	}
	// Without the evidence, nothing is explained but a function the
	// DWARF route neither encoded nor left out with a reason: it had no
	// DWARF subprogram at all.
	bare := Classify(lines, Inputs{DWARF: btf.NewSpec(), Archive: btf.NewSpec()})
	if len(bare.Unexplained) != len(lines)-1 || len(bare.Causes[CauseAsmDecl]) != 1 {
		t.Errorf("with no evidence %d of %d lines unexplained: %v", len(bare.Unexplained), len(lines), bare.Causes)
	}
}

// TestLocalEnumBeforeValues: an enum defined in a function body that the
// archive lacks is put under the local cause even when its values are
// ones gcc 12 loses (gcc 14 writes those values, and still leaves the
// enum out); without the local evidence the values explain it, and a
// named enum the archive has (lossy) stays an enum line.
func TestLocalEnumBeforeValues(t *testing.T) {
	anon := "- ENUM (anon) (2 in A, 1 in B): enum{size=4; MIX_INFLIGHT=2147483648}"
	named := "- ENUM local_big"
	kept := "~ ENUM both_big: size=4 vlen=2 unsigned -> size=4 vlen=1 unsigned"
	a := btf.NewSpec()
	a.Add("local_big", btf.KindEnum, 1, false, 4, a.AddString("LB"), uint32(0x80000000))
	a.Add("both_big", btf.KindEnum, 2, false, 4, a.AddString("BB1"), 1, a.AddString("BB2"), uint32(0x80000000))
	b := btf.NewSpec()
	b.Add("both_big", btf.KindEnum, 1, false, 4, b.AddString("BB1"), 1)
	local := &Local{
		named: map[string]bool{"ENUM local_big": true, "ENUM both_big": true},
		anon:  map[string]bool{"ENUM MIX_INFLIGHT": true},
	}
	for _, c := range []struct {
		local *Local
		want  map[string]string
	}{
		{local, map[string]string{anon: CauseLocal, named: CauseLocal, kept: CauseEnum}},
		{nil, map[string]string{anon: CauseEnum, named: CauseEnum, kept: CauseEnum}},
	} {
		res := Classify([]string{anon, named, kept}, Inputs{DWARF: a, Archive: b, Local: c.local})
		got := map[string]string{}
		for cause, ls := range res.Causes {
			for _, l := range ls {
				got[l] = cause
			}
		}
		for l, w := range c.want {
			if got[l] != w {
				t.Errorf("local evidence %v: %q: cause %q, want %q", c.local != nil, l, got[l], w)
			}
		}
		if len(res.Unexplained) != 0 {
			t.Errorf("unexplained: %q", res.Unexplained)
		}
	}
}
