package encode

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// An LTO build: gcc -flto keeps each source file's early debug info as a
// unit of its own (names, prototypes, types) and puts the code's debug
// info in one unit of the link ("<artificial>", GNU GIMPLE), whose
// out-of-line instances point to their abstract origins in the other
// units with DW_FORM_ref_addr.
const (
	ltoSrcA = `struct pt { int x, y; };
extern int lto_b(struct pt *p, int k);
__attribute__((noinline)) int lto_a(int v, long w) { return v * 3 + (int)w; }
__attribute__((noinline)) static int lto_k(int a, int mode) { return mode ? a * 7 : a - 1; }
int lto_main(int n) { struct pt p = {n, n + 1}; return lto_b(&p, n) + lto_a(n, 7) + lto_k(n, 1) + lto_k(n + 3, 1); }
`
	ltoSrcB = `struct pt { int x, y; };
extern int lto_a(int v, long w);
__attribute__((noinline)) int lto_b(struct pt *p, int k) { return p->x * k + p->y + lto_a(k, k); }
__attribute__((noinline)) static int lto_s(struct pt *p) { return p->x - p->y; }
int lto_c(struct pt *p) { return lto_s(p) + lto_s(p + 1); }
`
)

// buildLTO compiles the two files with gcc -flto -O2 and links them into
// a shared object (so that the external functions stay).
func buildLTO(t *testing.T) string {
	t.Helper()
	testc.Require(t, "gcc")
	dir := t.TempDir()
	flags := []string{"-gdwarf-5", "-O2", "-flto", "-fPIC"}
	var objs []string
	for name, src := range map[string]string{"lto_a": ltoSrcA, "lto_b": ltoSrcB} {
		c := filepath.Join(dir, name+".c")
		if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		o := filepath.Join(dir, name+".o")
		testc.Run(t, "gcc", append(append([]string{"-c", "-o", o}, flags...), c)...)
		objs = append(objs, o)
	}
	// Link in a fixed order (a, b) whatever the map gave.
	if strings.HasSuffix(objs[0], "lto_b.o") {
		objs[0], objs[1] = objs[1], objs[0]
	}
	out := filepath.Join(dir, "lto.so")
	testc.Run(t, "gcc", append(append([]string{"-shared", "-nostdlib", "-o", out}, flags...), objs...)...)
	return out
}

// crossUnitOrigins counts the top-level subprograms whose
// DW_AT_abstract_origin lies in another unit.
func crossUnitOrigins(t *testing.T, path string) int {
	t.Helper()
	d, err := dwarf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	n := 0
	r := d.NewReader()
	units := d.Units()
	for i := range units {
		u := &units[i]
		if err := r.Reset(u); err != nil {
			t.Fatal(err)
		}
		var e dwarf.Entry
		for {
			ok, err := r.Next(&e)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			if e.Depth != 1 || e.Tag != dwarf.TagSubprogram {
				continue
			}
			if o, ok := e.Ref(dwarf.AttrAbstractOrigin); ok && (o < u.Offset || o >= u.End) {
				n++
			}
		}
	}
	return n
}

// funcProtos describes every FUNC of s as "ret(type name, ...)", types by
// name with '*' for pointers.
func funcProtos(s *btf.Spec) map[string]string {
	var desc func(id uint32, depth int) string
	desc = func(id uint32, depth int) string {
		if id == 0 {
			return "void"
		}
		if depth > 16 {
			return "?"
		}
		tt := s.Type(btf.TypeID(id))
		switch tt.Kind() {
		case btf.KindPtr:
			return desc(tt.SizeType(), depth+1) + "*"
		case btf.KindConst:
			return "const " + desc(tt.SizeType(), depth+1)
		case btf.KindStruct:
			return "struct " + tt.Name()
		}
		return tt.Name()
	}
	out := map[string]string{}
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		tt := s.Type(id)
		if tt.Kind() != btf.KindFunc {
			continue
		}
		p := s.Type(tt.Ref())
		var ps []string
		for i := 0; i < p.Vlen(); i++ {
			pp := p.Param(i)
			ps = append(ps, desc(uint32(pp.Type), 0)+" "+s.String(pp.NameOff))
		}
		out[tt.Name()] = desc(p.SizeType(), 0) + "(" + strings.Join(ps, ", ") + ")"
	}
	return out
}

// TestLTOCrossUnitOrigins: the out-of-line instances of an LTO build take
// name, prototype and parameters from abstract origins in other units,
// as pahole does (it loads such a file as one unit).
//
// Oracle: pahole 1.32 (pahole -J --btf_encode_detached) on the same
// object, with --btf_features=default and default,true_signature: the
// same FUNCs with the same prototypes. For gcc's clones (lto_k.constprop.0,
// lto_s.isra.0) the expectation is also spelled out from the DWARF facts
// (readelf --debug-dump=info, --debug-dump=loc): each clone's instance
// sits at its symbol's address, with an origin in the other unit, and a
// parameter with no register (lto_k's mode is a constant, lto_s's p a
// DW_OP_GNU_parameter_ref), so by default each name is skipped for
// optimized parameters, and with true_signature it is encoded under the
// clone's symbol name with the origin's parameters. (pahole 1.24 matched
// functions to ELF symbols by their whole name and encoded neither.)
// Before following origins across units, the clones' abstract origins
// (with no address) were encoded as lto_k and lto_s.
func TestLTOCrossUnitOrigins(t *testing.T) {
	so := buildLTO(t)
	if n := crossUnitOrigins(t, so); n == 0 {
		t.Fatalf("gcc -flto made no cross-unit abstract origins; the fixture tests nothing")
	}
	testc.Require(t, "pahole")
	paholeFuncs := func(features string) map[string]string {
		ref := filepath.Join(t.TempDir(), "pahole.btf")
		testc.Run(t, "pahole", "-J", "--btf_features="+features, "--btf_encode_detached="+ref, so)
		data, err := os.ReadFile(ref)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := btf.Parse(data, nil)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		want := funcProtos(rs)
		if len(want) == 0 {
			t.Fatalf("pahole 1.32 (%s) encoded no FUNCs", features)
		}
		return want
	}
	compare := func(features string, got map[string]string) {
		want := paholeFuncs(features)
		if keys(got) != keys(want) {
			t.Errorf("%s: FUNCs %s, pahole 1.32: %s", features, keys(got), keys(want))
		}
		for n, p := range want {
			if got[n] != p {
				t.Errorf("%s: FUNC %s: %s, pahole 1.32: %s", features, n, got[n], p)
			}
		}
	}

	var rep funcvar.Report
	s, err := EncodeFile(so, Options{Features: DefaultFeatures, Jobs: 2, Report: &rep})
	if err != nil {
		t.Fatal(err)
	}
	raw := s.Marshal(nil)
	validate(t, "lto.so", raw)
	compare("default", funcProtos(s))
	s1, err := EncodeFile(so, Options{Features: DefaultFeatures, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(s1.Marshal(nil), raw) {
		t.Errorf("-j1 and -j2 differ")
	}

	// The clones gcc made (the names vary with gcc's choices).
	clones := map[string]string{} // source name -> symbol
	for _, l := range strings.Split(string(testc.Output(t, "nm", so)), "\n") {
		if f := strings.Fields(l); len(f) == 3 {
			if base, _, ok := strings.Cut(f[2], "."); ok && (base == "lto_k" || base == "lto_s") && funcvar.IsOptimizedClone(f[2]) {
				clones[base] = f[2]
			}
		}
	}
	if len(clones) == 0 {
		testenv.SkipOrFail(t, "gcc made no .isra/.constprop clone of lto_k or lto_s; CI's gcc 12 does")
	}
	skipped := map[string]string{}
	for _, sk := range rep.Skipped {
		skipped[sk.Name] = sk.Reason
	}
	ts, err := EncodeFile(so, Options{Features: DefaultFeatures | FeatTrueSignature, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	tsProtos := funcProtos(ts)
	compare("default,true_signature", tsProtos)
	wantTS := map[string]string{"lto_k": "int(int a, int mode)", "lto_s": "int(struct pt* p)"}
	for base, sym := range clones {
		if skipped[base] != funcvar.ReasonOptimized {
			t.Errorf("%s (%s): skip reason %q, want %q", base, sym, skipped[base], funcvar.ReasonOptimized)
		}
		if tsProtos[sym] != wantTS[base] {
			t.Errorf("true_signature: FUNC %s: %q, want %q", sym, tsProtos[sym], wantTS[base])
		}
		if p, ok := tsProtos[base]; ok {
			t.Errorf("true_signature: FUNC %s %s besides %s", base, p, sym)
		}
	}
}
