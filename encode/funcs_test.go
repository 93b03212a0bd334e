package encode

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// The expectations below follow pahole 1.31's documented rules for each
// feature (man pahole, --btf_features) and its encoder's selection rules;
// they are written from those rules and the fixtures' source, not taken
// from our output.

// fixtureLDS places sections the way the kernel's linker script does for
// what the encoder looks at: .data..percpu on its own at address 0, other
// data at real addresses, .BTF_ids kept.
const fixtureLDS = `SECTIONS {
	. = 0x400000;
	.text : { *(.text .text.*) }
	.rodata : { *(.rodata .rodata.*) }
	.BTF_ids : { *(.BTF_ids) }
	. = ALIGN(4096);
	.data : { *(.data .data.rel*) }
	.bss : { *(.bss .bss.*) }
	.data..percpu 0 : { *(.data..percpu) }
}
`

// linkFixture compiles the corpus files with v and links them into an
// executable-like ELF with fixtureLDS, so that variables have addresses.
func linkFixture(t *testing.T, v testc.Variant, srcs ...string) string {
	t.Helper()
	testc.Require(t, "ld")
	dir := t.TempDir()
	lds := filepath.Join(dir, "fixture.lds")
	if err := os.WriteFile(lds, []byte(fixtureLDS), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-o", filepath.Join(dir, "fixture.elf"), "-e", "0", "-T", lds}
	for _, s := range srcs {
		args = append(args, testc.Compile(t, filepath.Join(testc.CorpusDir(), s), v))
	}
	testc.Run(t, "ld", args...)
	return filepath.Join(dir, "fixture.elf")
}

// fx is a summary of an encoding: FUNC names (with their parameter
// names), VARs by DATASEC, DECL_TAGs as "value->FUNC-or-VAR name/comp".
type fxSummary struct {
	funcs map[string]string // name -> "param,param"
	vars  map[string]string // var name -> section
	tags  map[string]bool   // "value->name/comp"
	attrs int               // TYPE_TAGs with kind_flag (type attributes)
	kinds map[btf.Kind]int
}

func summarize(t *testing.T, s *btf.Spec) fxSummary {
	t.Helper()
	sum := fxSummary{funcs: map[string]string{}, vars: map[string]string{}, tags: map[string]bool{}, kinds: map[btf.Kind]int{}}
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		tt := s.Type(id)
		sum.kinds[tt.Kind()]++
		switch tt.Kind() {
		case btf.KindFunc:
			p := s.Type(tt.Ref())
			var names []string
			for i := 0; i < p.Vlen(); i++ {
				names = append(names, s.String(p.Param(i).NameOff))
			}
			if _, dup := sum.funcs[tt.Name()]; dup {
				t.Errorf("FUNC %s twice", tt.Name())
			}
			sum.funcs[tt.Name()] = strings.Join(names, ",")
		case btf.KindDatasec:
			for i := 0; i < tt.Vlen(); i++ {
				sum.vars[s.Type(tt.SecVar(i).Type).Name()] = tt.Name()
			}
		case btf.KindDeclTag:
			target := s.Type(tt.Ref())
			sum.tags[tt.Name()+"->"+target.Name()+"/"+itoa(int(tt.ComponentIdx()))] = true
		case btf.KindTypeTag:
			if tt.KindFlag() {
				sum.attrs++
			}
		}
	}
	return sum
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + itoa(i%10)
}

func encodeFixture(t *testing.T, path string, feat Features) fxSummary {
	t.Helper()
	var rep funcvar.Report
	s, err := EncodeFile(path, Options{Features: feat, Jobs: 2, Report: &rep})
	if err != nil {
		t.Fatal(err)
	}
	validate(t, filepath.Base(path), s.Marshal(nil))
	return summarize(t, s)
}

func keys[V any](m map[string]V) string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return strings.Join(k, " ")
}

var gccO2 = testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}}

// TestFeatureVarAndGlobalVar: var encodes the per-CPU variables only
// (DATASEC .data..percpu), global_var every global in its section, and
// without either there are no VARs or DATASECs.
func TestFeatureVarAndGlobalVar(t *testing.T) {
	elf := linkFixture(t, gccO2, "funcs_kfuncs.c")
	base := DefaultFeatures &^ FeatVar
	if s := encodeFixture(t, elf, base); s.kinds[btf.KindVar]+s.kinds[btf.KindDatasec] != 0 {
		t.Errorf("without var: VARs %v", s.vars)
	}
	s := encodeFixture(t, elf, DefaultFeatures)
	if got := keys(s.vars); got != "kf_percpu_counter" || s.vars["kf_percpu_counter"] != ".data..percpu" {
		t.Errorf("var: variables %v, want only kf_percpu_counter in .data..percpu", s.vars)
	}
	s = encodeFixture(t, elf, DefaultFeatures|FeatGlobalVar)
	want := map[string]string{
		"kf_percpu_counter": ".data..percpu", "kf_data_var": ".data",
		"kf_bss_var": ".bss", "kf_rodata_var": ".rodata",
	}
	for n, sec := range want {
		if s.vars[n] != sec {
			t.Errorf("global_var: %s in %q, want %q", n, s.vars[n], sec)
		}
	}
	if len(s.vars) != len(want) {
		t.Errorf("global_var: variables %v, want %v", s.vars, want)
	}
	// global_var alone (no var): the per-CPU one is a global too.
	s = encodeFixture(t, elf, base|FeatGlobalVar)
	if len(s.vars) != len(want) {
		t.Errorf("global_var without var: %v", s.vars)
	}
}

// TestFeatureKfuncs: decl_tag_kfuncs tags the functions of .BTF_ids sets
// flagged BTF_SET8_KFUNCS with bpf_kfunc, and those with KF_FASTCALL also
// with bpf_fastcall; a set without the flag tags nothing. The section is
// read in the file's byte order (s390x is big-endian). With attributes,
// KF_ARENA_RET puts the return pointer in address_space(1).
func TestFeatureKfuncs(t *testing.T) {
	variants := []testc.Variant{gccO2, {CC: testc.Clang, Flags: []string{"-gdwarf-5", "-O2"}},
		{CC: testc.Clang, Flags: []string{"-gdwarf-5", "-O2", "--target=s390x-linux-gnu"}}}
	for _, v := range variants {
		t.Run(v.Name(), func(t *testing.T) {
			obj := testc.Compile(t, filepath.Join(testc.CorpusDir(), "funcs_kfuncs.c"), v)
			want := []string{"bpf_kfunc->kf_plain/-1", "bpf_kfunc->kf_arena_ret/-1", "bpf_kfunc->kf_fast/-1", "bpf_fastcall->kf_fast/-1"}
			s := encodeFixture(t, obj, DefaultFeatures)
			for _, w := range want {
				if !s.tags[w] {
					t.Errorf("missing DECL_TAG %s; have %s", w, keys(s.tags))
				}
			}
			if len(s.tags) != len(want) {
				t.Errorf("DECL_TAGs %s, want %v", keys(s.tags), want)
			}
			if s.attrs != 0 {
				t.Errorf("%d type attributes without attributes", s.attrs)
			}
			if s := encodeFixture(t, obj, DefaultFeatures&^FeatDeclTagKfuncs); len(s.tags) != 0 {
				t.Errorf("without decl_tag_kfuncs: %s", keys(s.tags))
			}
			if s := encodeFixture(t, obj, DefaultFeatures|FeatAttributes); s.attrs != 1 {
				t.Errorf("attributes: %d address_space(1) type attributes, want 1 (kf_arena_ret's return)", s.attrs)
			}
		})
	}
}

// TestFeatureOptimizedClone: gcc -O2 turns kf_clone into an optimized
// clone (kf_clone.constprop.0.isra.0) without its parameters: by default
// it gets no FUNC ("optimized parameters"); with true_signature it is
// encoded under the clone's symbol name.
func TestFeatureOptimizedClone(t *testing.T) {
	elf := linkFixture(t, gccO2, "funcs_kfuncs.c")
	clone := ""
	for _, l := range strings.Split(string(testc.Output(t, "nm", elf)), "\n") {
		if f := strings.Fields(l); len(f) == 3 && strings.HasPrefix(f[2], "kf_clone.") {
			clone = f[2]
		}
	}
	if clone == "" || !funcvar.IsOptimizedClone(clone) {
		testenv.SkipOrFail(t, "gcc made no optimized clone of kf_clone (%q); CI's gcc 12 does", clone)
	}
	var rep funcvar.Report
	s, err := EncodeFile(elf, Options{Features: DefaultFeatures, Report: &rep})
	if err != nil {
		t.Fatal(err)
	}
	sum := summarize(t, s)
	if _, ok := sum.funcs["kf_clone"]; ok {
		t.Errorf("kf_clone encoded by default")
	}
	found := false
	for _, sk := range rep.Skipped {
		if sk.Name == "kf_clone" && sk.Reason == funcvar.ReasonOptimized {
			found = true
		}
	}
	if !found {
		t.Errorf("kf_clone not reported as %q: %v", funcvar.ReasonOptimized, rep.Skipped)
	}
	for _, n := range []string{"kf_plain", "kf_arena_ret", "kf_fast", "kf_use_clone"} {
		if _, ok := sum.funcs[n]; !ok {
			t.Errorf("FUNC %s missing (have %s)", n, keys(sum.funcs))
		}
	}
	sum = encodeFixture(t, elf, DefaultFeatures|FeatTrueSignature)
	if _, ok := sum.funcs[clone]; !ok {
		t.Errorf("true_signature: no FUNC %s (have %s)", clone, keys(sum.funcs))
	}
	// optimized_func and reproducible_build change nothing in pahole 1.31.
	a, _ := EncodeFile(elf, Options{Features: DefaultFeatures})
	for _, f := range []Features{DefaultFeatures &^ FeatOptimizedFunc, DefaultFeatures | FeatReproducibleBuild} {
		b, _ := EncodeFile(elf, Options{Features: f})
		if string(a.Marshal(nil)) != string(b.Marshal(nil)) {
			t.Errorf("features %v change the output", f)
		}
	}
}

// TestFeatureConsistentFunc: fi_dup takes an int in one unit (inlined
// only) and a long in the other. consistent_func leaves it out
// ("inconsistent prototype"); without it the definition at the symbol's
// address gives the prototype.
func TestFeatureConsistentFunc(t *testing.T) {
	elf := linkFixture(t, gccO2, "funcs_incons_a.c", "funcs_incons_b.c")
	var rep funcvar.Report
	s, err := EncodeFile(elf, Options{Features: DefaultFeatures, Report: &rep})
	if err != nil {
		t.Fatal(err)
	}
	sum := summarize(t, s)
	if _, ok := sum.funcs["fi_dup"]; ok {
		t.Errorf("fi_dup encoded with consistent_func")
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0] != (funcvar.Skipped{Name: "fi_dup", Reason: funcvar.ReasonInconsistent}) {
		t.Errorf("report %v, want fi_dup: %s", rep.Skipped, funcvar.ReasonInconsistent)
	}
	s, err = EncodeFile(elf, Options{Features: DefaultFeatures &^ FeatConsistentFunc})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		if f := s.Type(id); f.Kind() == btf.KindFunc && f.Name() == "fi_dup" {
			p := s.Type(f.Ref())
			if p.Vlen() != 1 || s.Type(p.Param(0).Type).Name() != "long int" {
				t.Errorf("fi_dup's prototype: %d params, first %q; want (long int x)", p.Vlen(), s.Type(p.Param(0).Type).Name())
			}
			found = true
		}
	}
	if !found {
		t.Errorf("without consistent_func: no FUNC fi_dup")
	}
}

// TestFeatureDeclTagFuncs: clang's btf_decl_tag on a function, its
// parameter and a variable become DECL_TAGs (component -1 for the
// function or variable, the parameter's index for it) with decl_tag, and
// nothing without.
func TestFeatureDeclTagFuncs(t *testing.T) {
	v := testc.Variant{CC: testc.Clang, Flags: []string{"-gdwarf-5", "-O2"}}
	elf := linkFixture(t, v, "funcs_tags.c")
	s := encodeFixture(t, elf, DefaultFeatures|FeatGlobalVar)
	for _, w := range []string{"ft_func_tag->ft_tagged/-1", "ft_param_tag->ft_tagged/0", "ft_var_tag->ft_tagged_var/-1"} {
		if !s.tags[w] {
			t.Errorf("missing DECL_TAG %s; have %s", w, keys(s.tags))
		}
	}
	if s := encodeFixture(t, elf, (DefaultFeatures|FeatGlobalVar)&^FeatDeclTag); len(s.tags) != 0 {
		t.Errorf("without decl_tag: %s", keys(s.tags))
	}
}

// TestFeatureEncodeForce: a variable whose name is not a valid BTF name
// makes the encoding fail without encode_force (as pahole does); with it,
// the variable is left out and the rest encoded.
func TestFeatureEncodeForce(t *testing.T) {
	elf := linkFixture(t, gccO2, "funcs_force.c")
	if _, err := EncodeFile(elf, Options{Features: (DefaultFeatures | FeatGlobalVar) &^ FeatEncodeForce}); err == nil || !strings.Contains(err.Error(), "ff$bad_var") {
		t.Errorf("without encode_force: err %v, want one naming ff$bad_var", err)
	}
	s := encodeFixture(t, elf, DefaultFeatures|FeatGlobalVar)
	if s.vars["ff_good_var"] != ".data" || len(s.vars) != 1 {
		t.Errorf("encode_force: variables %v, want only ff_good_var in .data", s.vars)
	}
	if _, ok := s.funcs["ff_func"]; !ok {
		t.Errorf("encode_force: no FUNC ff_func")
	}
}

// TestStrongOverWeak: fw_hook is defined weak in one unit and strong in
// the next. The symbol is the strong one's, so its prototype (parameter
// strong_arg) is encoded, although the weak unit comes first.
func TestStrongOverWeak(t *testing.T) {
	elf := linkFixture(t, gccO2, "funcs_weak_a.c", "funcs_weak_b.c")
	s := encodeFixture(t, elf, DefaultFeatures)
	if got := s.funcs["fw_hook"]; got != "strong_arg" {
		t.Errorf("fw_hook(%s), want fw_hook(strong_arg)", got)
	}
}
