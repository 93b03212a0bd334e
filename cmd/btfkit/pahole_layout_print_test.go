package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// The printing options on pahole's command line (pahole_layout_print.go):
// parsed as pahole parses them and handed to the printer, from DWARF and
// BTF. The printer itself is tested in package layout; here the pahole on
// PATH (1.32) is the oracle.

const printNames = "list_head,qspinlock,ratelimit_state,desc_struct,pt_regs,file_system_type"

func TestPaholeLayoutPrintOptions(t *testing.T) {
	vmlinux, _ := testenv.KernelInputs(t)
	embedded := testenv.Reference(t, "debian-6.1.0-57-cloud/embedded.btf")
	for _, opts := range [][]string{
		{"-I"}, // DWARF: the encoder's declaration facts; BTF: the file's name
		{"--show_decl"},
		{"-r", "-l", "--hex"},
		{"-M", "--flat_arrays"},
		{"--suppress_aligned_attribute", "--suppress_packed", "--suppress_force"},
		{"--classes_as_structs", "--fixup_silly_bitfields"},
	} {
		runBoth(t, append(append([]string{}, opts...), "-C", printNames, vmlinux)...)
		runBoth(t, append(append([]string{"-F", "btf"}, opts...), "-C", printNames, embedded)...)
	}
	// A prefix of several options is argp's error.
	if _, errOut, code := runPahole(t, "--suppress_", "-F", "btf", embedded); code != 64 || !strings.Contains(errOut, "is ambiguous") {
		t.Errorf("--suppress_: status %d, %q", code, errOut)
	}
}

// TestPaholeLayoutPrintExpand: -E, -p, --compile and -w against the
// pahole on PATH: -E, -p and --compile on kernel types, -w on a fixture;
// and `btfkit layout` with the same options.
func TestPaholeLayoutPrintExpand(t *testing.T) {
	vmlinux, _ := testenv.KernelInputs(t)
	embedded := testenv.Reference(t, "debian-6.1.0-57-cloud/embedded.btf")
	names := "list_head,callback_head,qspinlock,ratelimit_state,desc_struct,orc_entry,static_call_key,pt_regs,file_system_type,kernel_symbol"
	for _, c := range []struct {
		args   string
		native []string
	}{
		{"-E", []string{"--expand-types"}},
		{"-p", []string{"--expand-pointers"}},
		{"--compile", []string{"--compile"}},
		{"-E -p -r", []string{"-E", "-p", "--rel-offset"}},
	} {
		for _, in := range []struct{ format, file string }{{"dwarf", vmlinux}, {"btf", embedded}} {
			args := append(append([]string{"-F", in.format}, strings.Fields(c.args)...), "-C", names, in.file)
			runBoth(t, args...)
			_, want, _ := paholeOracle(t, args...)
			native := append(append([]string{"layout", "-F", in.format}, c.native...), "-C", names, in.file)
			if out, code := runBtfkit(t, nil, native...); code != 0 || out != want {
				t.Errorf("btfkit %s: status %d\n%.1500s", strings.Join(native, " "), code, out)
			}
		}
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "layout", "testdata", "print.c"))
	if err != nil {
		t.Fatal(err)
	}
	obj := testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})
	for _, args := range [][]string{{"-w", "4"}, {"--word_size=2"}, {"--word", "16"}} {
		runBoth(t, append(args, obj)...)
	}
}
