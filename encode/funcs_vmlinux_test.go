package encode

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// encodeVmlinux encodes the Debian vmlinux once per feature set for the
// tests of this file.
func encodeVmlinux(t *testing.T, feat Features, rep *funcvar.Report) *btf.Spec {
	t.Helper()
	if testing.Short() {
		t.Skip("SKIP: vmlinux-sized encode in -short mode")
	}
	vmlinux := requireVmlinux(t)
	s, err := EncodeFile(vmlinux, Options{Features: feat, Report: rep})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestVmlinuxFuncsMatchPahole132 requires the whole BTF of the Debian
// vmlinux with default features, functions and per-CPU variables
// included, to equal pahole 1.32's: no semantic difference at all (FUNC
// names, linkage, prototypes with parameter names and types, VARs and the
// DATASEC), the same counts of every kind, and the same bytes.
func TestVmlinuxFuncsMatchPahole132(t *testing.T) {
	refBTF := vmlinux132(t)
	var rep funcvar.Report
	got := encodeVmlinux(t, DefaultFeatures, &rep)
	want, err := btf.LoadFile(refBTF, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := diff.Compare(got, want, diff.Options{})
	if !r.Equal() {
		t.Errorf("our BTF (A) differs from pahole 1.32's (B):\n%s", diffText(r))
	}
	for k := btf.KindInt; k <= btf.MaxKind; k++ {
		if r.CountsA[k] != r.CountsB[k] {
			t.Errorf("%v: %d, pahole 1.32 has %d", k, r.CountsA[k], r.CountsB[k])
		}
	}
	if rep.Encoded != r.CountsA[btf.KindFunc] {
		t.Errorf("report: %d functions encoded, BTF has %d FUNCs", rep.Encoded, r.CountsA[btf.KindFunc])
	}
	// Every skipped name really has no FUNC in the reference.
	names := map[string]bool{}
	for id := btf.TypeID(1); id < want.NextID(); id++ {
		if tt := want.Type(id); tt.Kind() == btf.KindFunc {
			names[tt.Name()] = true
		}
	}
	counts := map[string]int{}
	for _, s := range rep.Skipped {
		counts[s.Reason]++
		if names[s.Name] {
			t.Errorf("%s reported as skipped (%s) but pahole 1.32 encodes it", s.Name, s.Reason)
		}
	}
	var reasons []string
	for k := range counts {
		reasons = append(reasons, k)
	}
	sort.Strings(reasons)
	for _, k := range reasons {
		t.Logf("skipped: %5d %s", counts[k], k)
	}
	raw := got.Marshal(nil)
	validate(t, "vmlinux", raw)
	// Bytes: the whole file is pahole's, header (24 bytes), type section
	// and the string table (pahole's insertion order, unreferenced
	// strings included).
	ref, err := os.ReadFile(refBTF)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) != len(ref) || len(raw) < btf.HeaderLen {
		t.Fatalf("%d bytes, pahole 1.32 wrote %d", len(raw), len(ref))
	}
	hl := int(binary.LittleEndian.Uint32(ref[4:]))
	if !bytes.Equal(raw[:hl], ref[:hl]) {
		t.Errorf("header % x, pahole 1.32's % x", raw[:hl], ref[:hl])
	}
	strOff := hl + int(binary.LittleEndian.Uint32(ref[16:]))
	if !bytes.Equal(raw[strOff:], ref[strOff:]) {
		t.Errorf("string table differs from pahole 1.32's")
	}
	n := 0
	for i := hl; i < strOff; i++ {
		if raw[i] != ref[i] {
			n++
		}
	}
	t.Logf("type section: %d of %d bytes differ from pahole 1.32's", n, strOff-hl)
	if n != 0 {
		t.Errorf("type section: %d bytes differ from pahole 1.32's", n)
	}
}

// varPlace is one DATASEC entry with what its VAR says.
type varPlace struct {
	sec, name, typ string
	off, size      uint32
	linkage        uint32
}

// varPlaces lists every DATASEC entry of s.
func varPlaces(s *btf.Spec) []varPlace {
	var out []varPlace
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		t := s.Type(id)
		if t.Kind() != btf.KindDatasec {
			continue
		}
		for i := 0; i < t.Vlen(); i++ {
			e := t.SecVar(i)
			v := s.Type(e.Type)
			out = append(out, varPlace{t.Name(), v.Name(), typeDesc(s, v.Ref(), 0), e.Offset, e.Size, v.Linkage()})
		}
	}
	return out
}

// typeDesc spells a type as a short C-like string for comparisons
// across two BTFs.
func typeDesc(s *btf.Spec, id btf.TypeID, depth int) string {
	if id == 0 {
		return "void"
	}
	if depth > 8 {
		return "..."
	}
	t := s.Type(id)
	switch t.Kind() {
	case btf.KindPtr:
		return "*" + typeDesc(s, t.Ref(), depth+1)
	case btf.KindConst:
		return "const " + typeDesc(s, t.Ref(), depth+1)
	case btf.KindVolatile:
		return "volatile " + typeDesc(s, t.Ref(), depth+1)
	case btf.KindArray:
		a := t.Array()
		return fmt.Sprintf("[%d]%s", a.Nelems, typeDesc(s, a.Elem, depth+1))
	case btf.KindFuncProto:
		return fmt.Sprintf("func/%d %s", t.Vlen(), typeDesc(s, t.Ref(), depth+1))
	}
	return t.Kind().String() + " " + t.Name()
}

// TestVmlinuxGlobalVar encodes the Debian vmlinux with global_var and
// compares the variables with pahole 1.32's: the same DATASEC entries
// (section, offset, size, name, linkage, type) except that pahole encodes
// 48 variables twice at one offset, which the kernel refuses ("Invalid
// offset"); ours has each once and the kernel accepts it.
func TestVmlinuxGlobalVar(t *testing.T) {
	refGlobalVarBTF := reference(t, "pahole-1.32-global_var.btf")
	got := encodeVmlinux(t, DefaultFeatures|FeatGlobalVar, nil)
	want, err := btf.LoadFile(refGlobalVarBTF, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Everything but VARs and DATASECs is as without global_var.
	r := diff.Compare(got, want, diff.Options{ExcludeKinds: []btf.Kind{btf.KindVar, btf.KindDatasec}})
	if !r.Equal() {
		t.Errorf("our BTF (A) differs from pahole 1.32's (B) outside variables:\n%s", diffText(r))
	}
	gp, wp := varPlaces(got), varPlaces(want)
	seen := map[varPlace]int{}
	for _, p := range gp {
		seen[p]++
		if seen[p] == 2 {
			t.Errorf("variable encoded twice: %+v", p)
		}
	}
	wantSet := map[varPlace]bool{}
	dups := map[string]int{}
	for _, p := range wp {
		if wantSet[p] {
			dups[p.sec]++
			continue
		}
		wantSet[p] = true
		if seen[p] == 0 {
			t.Errorf("pahole 1.32 has %+v, we do not", p)
		}
	}
	for p := range seen {
		if !wantSet[p] {
			t.Errorf("we have %+v, pahole 1.32 does not", p)
		}
	}
	// pahole 1.32's duplicates: 44 in .rodata, 3 in .bss, 1 in .data.
	if dups[".rodata"] != 44 || dups[".bss"] != 3 || dups[".data"] != 1 || len(dups) != 3 {
		t.Errorf("pahole 1.32's duplicate entries by section: %v, expected 44 .rodata, 3 .bss, 1 .data", dups)
	}
	if n := countKind(got, btf.KindDatasec); len(gp) != len(wantSet) || n != 13 {
		t.Errorf("%d variables in %d DATASECs, pahole 1.32 has %d distinct in 13", len(gp), n, len(wantSet))
	}
	if n := countKind(got, btf.KindVar); n != len(gp) {
		t.Errorf("%d VARs for %d DATASEC entries", n, len(gp))
	}
	if n := countKind(want, btf.KindVar); n != 22206 || len(wp) != 22206 {
		t.Errorf("reference: %d VARs, %d entries; expected 22206", n, len(wp))
	}
	t.Logf("%d variables, pahole 1.32 %d (%d duplicates)", len(gp), len(wp), len(wp)-len(wantSet))
	raw := got.Marshal(nil)
	validate(t, "vmlinux global_var", raw)
	// Variables are merged in unit order: -j1 gives the same bytes.
	one, err := EncodeFile(requireVmlinux(t), Options{Features: DefaultFeatures | FeatGlobalVar, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one.Marshal(nil), raw) {
		t.Errorf("global_var: -j1 output differs from -j%d's", runtime.NumCPU())
	}
	// The oracle for the bug: the kernel refuses pahole's BTF.
	raw, err = os.ReadFile(refGlobalVarBTF)
	if err != nil {
		t.Fatal(err)
	}
	err = kernload.Load(raw)
	var rej *kernload.RejectedError
	switch {
	case errors.As(err, &rej):
		if !strings.Contains(rej.Log, "Invalid offset") {
			t.Logf("the kernel rejects pahole 1.32's global_var BTF, log: %.300s", rej.Log)
		}
	case errors.Is(err, kernload.ErrNotPermitted):
		testenv.SkipPartOrFail(t, "kernel load: %v", err)
	default:
		t.Errorf("the kernel accepted pahole 1.32's global_var BTF (err %v); the duplicate test above is stale", err)
	}
}

func countKind(s *btf.Spec, k btf.Kind) int {
	n := 0
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		if s.Type(id).Kind() == k {
			n++
		}
	}
	return n
}

// dwarfFuncsWithAddress lists, with Go's debug/dwarf as an independent
// reader, the names of the top-level subprograms that have a low_pc
// (names of out-of-line instances from their abstract origin).
func dwarfFuncsWithAddress(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := f.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	names := map[dwarf.Offset]string{}
	var pending []dwarf.Offset // concrete instances without a name: their origin
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if e == nil {
			break
		}
		switch e.Tag {
		case dwarf.TagCompileUnit, dwarf.TagPartialUnit:
			continue // step into the unit
		case dwarf.TagSubprogram:
			name, _ := e.Val(dwarf.AttrName).(string)
			if name != "" {
				names[e.Offset] = name
			}
			if _, ok := e.Val(dwarf.AttrLowpc).(uint64); ok {
				if name != "" {
					pending = append(pending, e.Offset)
				} else if o, ok := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset); ok {
					pending = append(pending, o)
				} else if o, ok := e.Val(dwarf.AttrSpecification).(dwarf.Offset); ok {
					pending = append(pending, o)
				}
			}
		}
		if e.Children {
			r.SkipChildren()
		}
	}
	out := map[string]bool{}
	for _, o := range pending {
		if n := names[o]; n != "" {
			out[n] = true
		}
	}
	return out
}

// TestVmlinuxSkipReport checks the -v report against two oracles: the
// names debug/dwarf finds with an address, and pahole 1.32's FUNCs. Every
// name with an address but no FUNC in pahole's BTF is reported, once,
// with a reason; nothing else is.
func TestVmlinuxSkipReport(t *testing.T) {
	refBTF := vmlinux132(t)
	var rep funcvar.Report
	encodeVmlinux(t, DefaultFeatures, &rep)
	vmlinux := requireVmlinux(t)
	withAddr := dwarfFuncsWithAddress(t, vmlinux)
	want, err := btf.LoadFile(refBTF, nil)
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]bool{}
	for id := btf.TypeID(1); id < want.NextID(); id++ {
		if tt := want.Type(id); tt.Kind() == btf.KindFunc {
			funcs[tt.Name()] = true
		}
	}
	reported := map[string]string{}
	for _, s := range rep.Skipped {
		if r, dup := reported[s.Name]; dup {
			t.Errorf("%s reported twice (%s, %s)", s.Name, r, s.Reason)
		}
		reported[s.Name] = s.Reason
	}
	missing := 0
	for n := range withAddr {
		if !funcs[n] && reported[n] == "" {
			if missing++; missing <= 20 {
				t.Errorf("%s has an address and no FUNC but is not reported", n)
			}
		}
	}
	// The others have an address through their ELF symbol only (their
	// DWARF code ranges are in DW_AT_ranges).
	noLowPC := 0
	for n := range reported {
		if !withAddr[n] {
			noLowPC++
		}
	}
	t.Logf("%d names with a low_pc, %d FUNCs, %d reported (%d of them with an ELF address but no low_pc)", len(withAddr), len(funcs), len(reported), noLowPC)
}
