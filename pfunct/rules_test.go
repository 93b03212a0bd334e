package pfunct_test

import (
	"bufio"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// Table tests of pfunct's options, one row per option (pfunct.c's
// pfunct__options_parser and the formatter or filter it selects), on
// inputs small enough that what pfunct prints follows from them by hand:
// testdata/rules.c (gcc -O2) and rules0.c (gcc -O0) linked into a shared
// object for DWARF, and a BTF built with btf.NewSpec for -F btf. Each row's
// expectation is written from the input and pahole's source (what the
// row's rule names), or computed from the ELF symbol table with Go's
// debug/elf where the value is an address or a size; none is taken from
// btfkit's output. Where the order of the lines or the exact layout is
// not evident by hand (pfunct lists functions in the order of a list it
// prepends to), the row checks the set of lines, and the whole output is
// compared with pfunct 1.32's when it is on PATH (testenv), which also
// checks every hand expectation against pahole itself.

// ruleRow is one pfunct command line and what its output must be.
type ruleRow struct {
	rule string   // the option and the pfunct.c/dwarves code it follows
	args []string // before the file
	// Hand expectations, each optional:
	exact    *string  // the whole standard output
	set      []string // the output's lines, in any order
	contains []string // substrings of the output
	code     int      // exit status
}

func str(s string) *string { return &s }

// check reports how out (of a run of pfunct named who) misses r.
func (r ruleRow) check(t *testing.T, who string, res result) {
	t.Helper()
	if res.code != r.code {
		t.Errorf("%s: exit status %d, want %d", who, res.code, r.code)
	}
	if r.exact != nil && res.out != *r.exact {
		t.Errorf("%s: output\n%s\nwant\n%s", who, res.out, *r.exact)
	}
	if r.set != nil {
		got := strings.Split(strings.TrimSuffix(res.out, "\n"), "\n")
		if res.out == "" {
			got = nil
		}
		want := append([]string(nil), r.set...)
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: lines\n%s\nwant (in any order)\n%s", who, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	for _, c := range r.contains {
		if !strings.Contains(res.out, c) {
			t.Errorf("%s: output lacks %q:\n%s", who, c, res.out)
		}
	}
}

// oracle is pfunct 1.32 when the reference dwarves tools are on PATH,
// else "" (the hand expectations are still checked).
func oracle(t *testing.T) string {
	p, err := exec.LookPath("pfunct")
	if err != nil || !testenv.OnDwarvesPath(p) {
		t.Log("pfunct 1.32 not on PATH: checking the hand expectations only")
		return ""
	}
	return p
}

// runRules runs each row on obj with ours and, when there, pfunct 1.32.
func runRules(t *testing.T, obj string, rows []ruleRow) {
	ours := pfunctLink(t)
	ref := oracle(t)
	dir := filepath.Dir(obj)
	for _, r := range rows {
		t.Run(r.rule, func(t *testing.T) {
			args := append(append([]string{}, r.args...), filepath.Base(obj))
			got := runTool(t, dir, ours, args...)
			r.check(t, "btfkit pfunct "+strings.Join(args, " "), got)
			if ref == "" {
				return
			}
			want := runTool(t, dir, ref, args...)
			r.check(t, "pfunct 1.32 "+strings.Join(args, " "), want)
			if got != want {
				t.Errorf("differs from pfunct 1.32:\n%s", diffLines(got, want))
			}
		})
	}
}

// rulesObject builds testdata/rules.c (-O2) and rules0.c (-O0) into a
// shared object, with gcc, so that its addresses are the DWARF's.
func rulesObject(t *testing.T) string {
	t.Helper()
	testc.Require(t, "gcc")
	var objs []string
	for _, s := range []struct{ src, opt string }{{"rules.c", "-O2"}, {"rules0.c", "-O0"}} {
		src, err := filepath.Abs(filepath.Join("testdata", s.src))
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-g", s.opt, "-fPIC"}}))
	}
	so := filepath.Join(t.TempDir(), "rules.so")
	testc.Run(t, "gcc", append([]string{"-shared", "-o", so}, objs...)...)
	return so
}

// elfFuncs is what debug/elf says of so's function symbols.
type elfFunc struct {
	index       int // in the symbol table, counting the null symbol
	name        string
	value, size uint64
}

func elfFuncs(t *testing.T, so string, dynamic bool) (funcs []elfFunc, nsyms int) {
	t.Helper()
	f, err := elf.Open(so)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if dynamic {
		syms, err = f.DynamicSymbols()
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range syms {
		// elf_symtab.h elf_sym__is_local_function: STT_FUNC, named,
		// defined.
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Name != "" && s.Section != elf.SHN_UNDEF {
			funcs = append(funcs, elfFunc{i + 1, s.Name, s.Value, s.Size})
		}
	}
	return funcs, len(syms) + 1
}

// symtabListing is pfunct.c elf_symtab__show's listing of funcs, a
// table of nsyms symbols: "%*d: %-*s %#llx %5u", the index as wide as
// nsyms, names padded to the longest (at most 32).
func symtabListing(funcs []elfFunc, nsyms int) string {
	width := len(fmt.Sprint(nsyms))
	longest := 0
	for _, f := range funcs {
		longest = max(longest, len(f.name))
	}
	longest = min(longest, 32)
	var b strings.Builder
	for _, f := range funcs {
		addr := "0" // C's %#llx prints 0 without 0x
		if f.value != 0 {
			addr = fmt.Sprintf("%#x", f.value)
		}
		fmt.Fprintf(&b, "%*d: %-*s %s %5d\n", width, f.index, longest, f.name, addr, f.size)
	}
	return b.String()
}

// declLine is the line of src (under testdata) that starts with prefix.
func declLine(t *testing.T, src, prefix string) int {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", src))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.HasPrefix(sc.Text(), prefix) {
			return n
		}
	}
	t.Fatalf("%s: no line starts with %q", src, prefix)
	return 0
}

// TestOptionRulesDWARF: each pfunct option on the DWARF of rules.so.
func TestOptionRulesDWARF(t *testing.T) {
	so := rulesObject(t)
	funcs, nsyms := elfFuncs(t, so, false)
	dynFuncs, nDyn := elfFuncs(t, so, true)
	// The fixture's functions with code, by the symbol table: two
	// static dup (one a unit), one shared_fn (weak in both units: the
	// first unit's is linked).
	ours := map[string]elfFunc{}
	var sizes []string // -s: every function with code, dup twice
	for _, f := range funcs {
		switch f.name {
		case "kept", "labels", "two_vars", "list_len", "slow", "use_slow", "dup", "shared_fn", "first_pt", "count":
			ours[f.name] = f
			sizes = append(sizes, fmt.Sprintf("%s: %d", f.name, f.size))
		}
	}
	if len(sizes) != 11 {
		t.Fatalf("rules.so's symbols: %v; want the eleven functions with code", funcs)
	}
	protos := map[string]string{
		"twice":    "inline int twice(int v);", // declared inline (DW_INL_declared_inlined)
		"kept":     "int kept(int v);",
		"once":     "int once(int v);", // inlined, not declared so: no "inline"
		"labels":   "int labels(int a);",
		"two_vars": "int two_vars(struct point * p, long int n);",
		"list_len": "int list_len(struct list * l);",
		// Declared inline, but gcc writes DW_AT_inline only on an
		// abstract instance, which -O0 makes none of.
		"slow":      "int slow(int v);",
		"use_slow":  "int use_slow(int v);",
		"dup":       "int dup(int v);",
		"shared_fn": "int shared_fn(int v);",
		"first_pt":  "struct point * first_pt(struct point * p);",
		"count":     "count_t count(count_t c);",
	}
	// pfunct.c function__filter: a name seen before is listed again when
	// the first was static (dup), counted as one more definition when it
	// was external (shared_fn).
	var names, allProtos, verbose []string
	for n, p := range protos {
		defs := 1
		switch n {
		case "dup":
			names, allProtos = append(names, n), append(allProtos, p)
			verbose = append(verbose, p+"\n/* definitions: 1 */\n\n")
		case "shared_fn":
			defs = 2
		}
		names = append(names, n)
		allProtos = append(allProtos, p)
		verbose = append(verbose, fmt.Sprintf("%s\n/* definitions: %d */\n\n", p, defs))
	}
	params := []string{"twice: 1", "kept: 1", "once: 1", "labels: 1", "two_vars: 2", "list_len: 1", "slow: 1", "use_slow: 1", "dup: 1", "dup: 1", "shared_fn: 1", "first_pt: 1", "count: 1"}
	var externalSizes []string
	for _, n := range []string{"labels", "two_vars", "list_len", "use_slow", "shared_fn", "first_pt", "count"} {
		externalSizes = append(externalSizes, fmt.Sprintf("%s: %d", n, ours[n].size))
	}
	src1, _ := filepath.Abs(filepath.Join("testdata", "rules.c"))
	src0, _ := filepath.Abs(filepath.Join("testdata", "rules0.c"))
	labelsAt := ours["labels"].value
	rows := []ruleRow{
		{rule: "no option: every named top-level function once, by name (pfunct.c fn_stats_fmtr)", set: names},
		{rule: "-p: name: parameters, every function (pfunct.c fn_stats_nr_parms_fmtr)", args: []string{"-p"},
			set: params},
		{rule: "-s -p: the last listing option wins (pfunct.c: each sets formatter)", args: []string{"-s", "-p"}, set: params},
		{rule: "-p -s: the last listing option wins", args: []string{"-p", "-s"}, set: sizes},
		{rule: "-s -E: a filter with a listing: the external functions' sizes", args: []string{"-s", "-E"},
			set: externalSizes},
		{rule: "-N: name: length of the name, every function (pfunct.c fn_stats_name_len_fmtr)", args: []string{"-N"},
			set: []string{"twice: 5", "kept: 4", "once: 4", "labels: 6", "two_vars: 8", "list_len: 8", "slow: 4", "use_slow: 8", "dup: 3", "dup: 3", "shared_fn: 9", "first_pt: 8", "count: 5"}},
		{rule: "-g: name: goto labels, functions with labels (pfunct.c fn_stats_labels_fmtr)", args: []string{"-g"},
			exact: str("labels: 2\n")},
		{rule: "-S: name: variables of the outer block, functions with any (pfunct.c fn_stats_variables_fmtr)", args: []string{"-S"},
			set: []string{"two_vars: 2", "list_len: 1"}},
		{rule: "-s: name: size, functions with code, sizes as the symbol table's (pfunct.c fn_stats_size_fmtr)", args: []string{"-s"},
			set: sizes},
		{rule: "-P: prototypes, \"inline\" for the declared inline (pfunct.c show_prototypes; dwarves_fprintf.c function__fprintf)", args: []string{"-P"},
			set: allProtos},
		{rule: "--prototypes: -P's long name", args: []string{"--prototypes"}, set: allProtos},
		{rule: "-P --no_parm_names: types without names (dwarves_fprintf.c ftype__fprintf_parms, conf.no_parm_names)", args: []string{"-P", "--no_parm_names"},
			contains: []string{"int two_vars(struct point *, long int);\n", "int labels(int);\n", "int slow(int);\n"}},
		{rule: "-E: external functions only (pfunct.c function__filter, show_externals)", args: []string{"-E"},
			set: []string{"labels", "two_vars", "list_len", "use_slow", "shared_fn", "first_pt", "count"}},
		// gcc 12 writes DW_INL_declared_inlined even for an inline
		// function only cloned, never DW_INL_declared_not_inlined: none.
		{rule: "-G: declared inline, not inlined: only DW_INL_declared_not_inlined (pfunct.c show_cc_uninlined)", args: []string{"-G"},
			exact: str("")},
		{rule: "-H: not declared inline, inlined: DW_INL_inlined (pfunct.c show_cc_inlined)", args: []string{"-H"},
			exact: str("once\n")},
		{rule: "-I: name: expansions bytes, functions with inline expansions (pfunct.c fn_stats_inline_exps_fmtr)", args: []string{"-I"},
			contains: []string{"two_vars: 3 "}},
		{rule: "-t: total inline stats, functions expanded more than once (pfunct.c print_total_inline_stats)", args: []string{"-t"},
			contains: []string{"name                              totsz /  exp# = avgsz  src#\n", "\ntwice   "}},
		// In the order of the unit's DIEs, which gcc writes last
		// function first: the order is left to pfunct 1.32.
		{rule: "-c point: functions with a parameter pointing to struct point (pfunct.c cu_class_iterator)", args: []string{"-c", "point"},
			set: []string{"two_vars", "first_pt"}},
		{rule: "--class=list -V: their prototypes (pfunct.c cu_class_iterator, verbose)", args: []string{"--class=list", "-V"},
			exact: str("int list_len(struct list * l);\n")},
		{rule: "-c of no struct: nothing", args: []string{"-c", "nonesuch"}, exact: str("")},
		{rule: "-f: just the function's prototype (pfunct.c function__show)", args: []string{"-f", "labels"},
			exact: str("int labels(int a);\n")},
		{rule: "--function: -f's long name", args: []string{"--function=two_vars"},
			exact: str("int two_vars(struct point * p, long int n);\n")},
		{rule: "-a: the function at ADDR, shown as -f shows it (pfunct.c main, addr)", args: []string{"-a", fmt.Sprintf("%#x", labelsAt+1)},
			exact: str("int labels(int a);\n")},
		{rule: "--addr in decimal (strtoull base 0)", args: []string{fmt.Sprintf("--addr=%d", ours["list_len"].value)},
			exact: str("int list_len(struct list * l);\n")},
		{rule: "-a of an address in no function: nothing on stdout, exit 1 (pfunct.c \"No function found at\")", args: []string{"-a", "0x1"},
			exact: str(""), code: 1},
		{rule: "-V: prototype and definitions count, each followed by an empty line (pfunct.c fn_stats_fmtr, verbose)", args: []string{"-V"},
			contains: verbose},
		{rule: "-V: an external function defined again with another size is reported while loading (pfunct.c fn_stats__chkdupdef)", args: []string{"-V"},
			contains: []string{fmt.Sprintf("function: shared_fn\nfirst: %s\ncurrent: %s\nsize: %d != ", src1, src0, ours["shared_fn"].size)}},
		{rule: "-A: every function of every unit, duplicates too, by prototype (pfunct.c pfunct_stealer, show_all_matches)", args: []string{"-A"},
			set: append(append([]string{}, allProtos...), protos["shared_fn"])},
		{rule: "-f of a static in two units: the first unit's only (pfunct_stealer: LSK__STOP_LOADING)", args: []string{"-f", "dup"},
			exact: str("int dup(int v);\n")},
		{rule: "-A -f: the function in every unit (pfunct_stealer: LSK__DELETE, loading goes on)", args: []string{"-A", "-f", "dup"},
			exact: str("int dup(int v);\nint dup(int v);\n")},
		{rule: "-V -T: the outer block's variables and goto labels (pfunct.c function__fprintf_stats)", args: []string{"-V", "-T"},
			contains: []string{"\tint a;", "\tint b;", "\tint n;", "\nbig:", "\nneg:", "goto labels: 2 */", fmt.Sprintf("}/* size: %d, variables: 2, inline expansions: 3", ours["two_vars"].size)}},
		{rule: "-i: inline expansions in the blocks, implies -V (pfunct.c show_inline_expansions = verbose = 1)", args: []string{"-i"},
			contains: []string{"\ttwice(int v);", "\tonce(int v);", "/* definitions: 1 */", "inline expansions: 3"}},
		{rule: "-P -l: where each function was declared (dwarves_fprintf.c tag__fprintf_decl_info)", args: []string{"-P", "-l"},
			contains: []string{
				fmt.Sprintf("/* Used at: %s */\n/* <", src1),
				fmt.Sprintf(" %s:%d */\nint labels(int a);\n", src1, declLine(t, "rules.c", "int labels(")),
				fmt.Sprintf(" %s:%d */\nint slow(int v);\n", src0, declLine(t, "rules0.c", "static inline int slow(")),
			}},
		{rule: "-i -f: one function's block with its inline expansions (pfunct.c function__show)", args: []string{"-i", "-f", "two_vars"},
			contains: []string{"int two_vars(struct point * p, long int n);\n{", "\ttwice(int v);", "\tonce(int v);", "inline expansions: 3"}},
		{rule: "-b: every function, the types its prototype needs first, each type once (pfunct.c cu_function_iterator, type_emissions)", args: []string{"-b"},
			contains: []string{"struct point {\n", "struct list {\n", "int list_len(struct list * l);\n"}},
		{rule: "--expand_types: -b's long name", args: []string{"--expand_types", "-f", "list_len"},
			contains: []string{"struct list {\n", "};\n\nint list_len(struct list * l);\n"}},
		{rule: "-l alone: names (decl info is part of prototypes only)", args: []string{"-l"}, set: names},
		{rule: "-b -f: the types the prototype needs, before it (pfunct.c function__emit_type_definitions)", args: []string{"-b", "-f", "two_vars"},
			contains: []string{"struct point {\n\tint                        x;                    /*     0     4 */\n", "};\n\nint two_vars(struct point * p, long int n);\n"}},
		// pfunct.c function__show looks at the type of the return type
		// (func->proto.tag.type's), 0 for a base type: no return.
		{rule: "--compile=NAME: a compilable stub, no return for a base type (pfunct.c function__show, compilable_output)", args: []string{"--compile=labels"},
			contains: []string{"int labels(int a)\n{\n}\n"}},
		// pfunct.c function__show returns a value by the type of the
		// return type (type->type): a pointer's and a typedef's are
		// not 0, a base type's and a struct's are.
		{rule: "--compile=NAME: a pointer return is (void *)0 (pfunct.c function__show)", args: []string{"--compile=first_pt"},
			contains: []string{"struct point * first_pt(struct point * p)\n{\n\treturn (void *)0;\n}\n"}},
		{rule: "--compile=NAME: a typedef return is *(NAME *)1 (pfunct.c function__show)", args: []string{"--compile=count"},
			contains: []string{"count_t count(count_t c)\n{\n\treturn *(count_t *)1;\n}\n"}},
		{rule: "-T -f: the function's outer block with its variables (pfunct.c function__show, show_variables)", args: []string{"-T", "-f", "two_vars"},
			contains: []string{"int two_vars(struct point * p, long int n);\n{", "\tint a;", "\tint b;", "variables: 2"}},
		{rule: "-T alone: names (show_variables is read only with -V, -f or -i)", args: []string{"-T"}, set: names},
		{rule: "--compile: stubs of every function, with the types first", args: []string{"--compile"},
			contains: []string{"int labels(int a)\n{\n}\n", "struct list {\n", "int list_len(struct list * l)\n{\n}\n", "int use_slow(int v)\n{\n}\n"}},
		{rule: "--symtab: .symtab's functions (pfunct.c elf_symtab__show)", args: []string{"--symtab"},
			exact: str(symtabListing(funcs, nsyms))},
		{rule: "--symtab of a table the file lacks: nothing, exit 1 (pfunct.c elf_symtab__show: elf_symtab__new fails)", args: []string{"--symtab=.nonesuch"},
			exact: str(""), code: 1},
		{rule: "--symtab=.dynsym: the named table", args: []string{"--symtab=.dynsym"},
			exact: str(symtabListing(dynFuncs, nDyn))},
	}
	runRules(t, so, rows)
}

// rulesBTF is raw BTF made by hand: the functions pfunct lists from BTF.
func rulesBTF(t *testing.T) string {
	t.Helper()
	s := btf.NewSpec()
	intID := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)                                 // 1
	point := s.Add("point", btf.KindStruct, 2, false, 8, s.AddString("x"), 1, 0, s.AddString("y"), 1, 32) // 2
	ptr := s.Add("", btf.KindPtr, 0, false, uint32(point))                                                // 3
	proto := s.Add("", btf.KindFuncProto, 2, false, uint32(intID), s.AddString("a"), 1, s.AddString("p"), uint32(ptr))
	add := s.Add("add", btf.KindFunc, btf.LinkageGlobal, false, uint32(proto)) // 5
	void := s.Add("", btf.KindFuncProto, 0, false, 0)
	s.Add("reset", btf.KindFunc, btf.LinkageStatic, false, uint32(void))
	s.Add("hot", btf.KindDeclTag, 0, false, uint32(add), 0xffffffff)
	s.Add("user", btf.KindDeclTag, 0, false, uint32(add), 1) // on p
	anon := s.Add("", btf.KindFuncProto, 2, false, uint32(intID), 0, 1, 0, 1)
	s.Add("decl", btf.KindFunc, btf.LinkageGlobal, false, uint32(anon))
	varargs := s.Add("", btf.KindFuncProto, 2, false, uint32(intID), s.AddString("fmt"), 1, 0, 0)
	s.Add("logf", btf.KindFunc, btf.LinkageGlobal, false, uint32(varargs))
	retPtr := s.Add("", btf.KindFuncProto, 1, false, uint32(ptr), s.AddString("p"), uint32(ptr))
	s.Add("mkptr", btf.KindFunc, btf.LinkageGlobal, false, uint32(retPtr))
	// Not s.Check(): the kernel refuses a FUNC of unnamed parameters
	// or varargs, but libbpf reads them, and so does pfunct.
	p := filepath.Join(t.TempDir(), "rules.btf")
	if err := os.WriteFile(p, s.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOptionRulesBTF: pfunct's options on BTF (btf_loader.c): FUNCs and
// their prototypes, nothing BTF does not carry.
func TestOptionRulesBTF(t *testing.T) {
	obj := rulesBTF(t)
	names := []string{"add", "reset", "decl", "logf", "mkptr"}
	protos := []string{
		// process_decl_tag (btf_loader.c) makes a DECL_TAG's name an
		// attribute of the FUNC, or of its parameter, which
		// tag__attributes_fprintf prints before it.
		`hot int add(int a, user struct point * p);`,
		"void reset(void);",
		// An unnamed parameter has no name: no space after its type.
		"int decl(int, int);",
		"int logf(int fmt, ...);",
		"struct point * mkptr(struct point * p);",
	}
	f := func(args ...string) []string { return append([]string{"-F", "btf"}, args...) }
	rows := []ruleRow{
		{rule: "no option: every FUNC by name, the last first (pfunct.c fn_stats__add: list_add prepends)", args: f(),
			exact: str("mkptr\nlogf\ndecl\nreset\nadd\n")},
		{rule: "-P: prototypes from FUNC_PROTOs, (void) for none, \", ...\" for varargs (dwarves_fprintf.c ftype__fprintf_parms)", args: f("-P"),
			set: protos},
		{rule: "-P --no_parm_names", args: f("-P", "--no_parm_names"),
			set: []string{"hot int add(int, user struct point *);", "void reset(void);", "int decl(int, int);", "int logf(int, ...);", "struct point * mkptr(struct point *);"}},
		{rule: "-p: 0 for every FUNC (btf_loader.c create_new_function: the FUNC's own parameter list stays empty, its prototype's type has them)", args: f("-p"),
			set: []string{"add: 0", "reset: 0", "decl: 0", "logf: 0", "mkptr: 0"}},
		{rule: "-N: name lengths", args: f("-N"), set: []string{"add: 3", "reset: 5", "decl: 4", "logf: 4", "mkptr: 5"}},
		// cu_unique_iterator calls function__filter only for DWARF.
		{rule: "-E: from BTF no filter: every FUNC (pfunct.c cu_unique_iterator skips function__filter for BTF)", args: f("-E"), set: names},
		{rule: "-G: from BTF no filter: every FUNC", args: f("-G"), set: names},
		{rule: "-H: from BTF no filter: every FUNC", args: f("-H"), set: names},
		// main's is_btf is strcasecmp(format_path, "btf"): a BTF file
		// read with the default formats (or "-F dwarf,btf") goes
		// through function__filter, and btf_loader.c sets no FUNC
		// external.
		{rule: "-E, BTF by the default formats: filtered, no FUNC is external (pfunct.c main: is_btf only for -F btf)", args: []string{"-E"}, exact: str("")},
		// is_btf's strcasecmp would take "BTF", but the loader names
		// formats by strcmp (dwarves.c debugging_formats__loader): none.
		{rule: "-F BTF: no such format, nothing read, exit 1 (dwarves.c: format names by strcmp)", args: []string{"-F", "BTF", "-E"}, exact: str(""), code: 1},
		{rule: "-E -F dwarf,btf: filtered", args: []string{"-F", "dwarf,btf", "-E"}, exact: str("")},
		{rule: "-H, BTF by the default formats: filtered, no FUNC is DW_INL_inlined", args: []string{"-H"}, exact: str("")},
		{rule: "-s: BTF has no sizes: nothing", args: f("-s"), exact: str("")},
		{rule: "-a: BTF has no addresses: no function there, exit 1", args: f("-a", "0x10"), exact: str(""), code: 1},
		// dwarves_fprintf.c tag__fprintf prints "/* Used at: CU */" and
		// tag__fprintf_decl_info "/* <ORIG_ID> FILE:LINE */": from BTF
		// no DWARF offset, a NULL file (glibc's "(null)"), line 0; the
		// unit is the file.
		{rule: "-P -l: from BTF the unit's name and an empty declaration site (dwarves_fprintf.c tag__fprintf_decl_info)", args: f("-P", "-l"),
			contains: []string{"/* Used at: rules.btf */\n/* <0> (null):0 */\nvoid reset(void);\n"}},
		{rule: "-A: every FUNC's prototype (pfunct_stealer, show_all_matches)", args: f("-A"), set: protos},

		{rule: "-g: BTF has no labels: nothing", args: f("-g"), exact: str("")},
		{rule: "-S: BTF has no variables: nothing", args: f("-S"), exact: str("")},
		{rule: "-I: nothing", args: f("-I"), exact: str("")},
		{rule: "-t: the header only", args: f("-t"), exact: str("name                              totsz /  exp# = avgsz  src#\n")},
		{rule: "-c point: FUNCs with a pointer to struct point, in ID order (pfunct.c cu_class_iterator)", args: f("-c", "point"), exact: str("add\nmkptr\n")},
		{rule: "-f: one prototype", args: f("-f", "reset"), exact: str("void reset(void);\n")},
		{rule: "-f of no function: nothing", args: f("-f", "nonesuch"), exact: str("")},
		{rule: "-b -f: struct point emitted before the prototype", args: f("-b", "-f", "add"),
			contains: []string{"struct point {\n", "\n};\n\nhot int add(int a, user struct point * p);\n"}},
		// pfunct.c function__show looks at the type of
		// func->proto.tag.type: from BTF the FUNC_PROTO, whose type is
		// the return type.
		{rule: "--compile=NAME: a stub returning 0 for an int (pfunct.c function__show, compilable_output)", args: f("--compile=logf"),
			contains: []string{"int logf(int fmt, ...)\n{\n\treturn 0;\n}\n"}},
		{rule: "--compile=NAME: no return for void", args: f("--compile=reset"), contains: []string{"void reset(void)\n{\n}\n"}},
		// The tag function__show looks at is the FUNC_PROTO, never a
		// pointer: 0 is returned for a pointer too (from DWARF, (void *)0).
		{rule: "--compile=NAME: a pointer return is 0 from BTF (pfunct.c function__show tests the FUNC_PROTO's tag)", args: f("--compile=mkptr"),
			contains: []string{"struct point * mkptr(struct point * p)\n{\n\treturn 0;\n}\n"}},
		{rule: "-V: prototypes and definitions", args: f("-V"), contains: []string{"void reset(void);\n/* definitions: 1 */\n\n"}},
	}
	runRules(t, obj, rows)
}
