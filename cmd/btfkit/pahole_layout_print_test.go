package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testc"
	"github.com/btfkit/btfkit/internal/testenv"
)

// The printing options on pahole's command line (pahole_layout_print.go):
// parsed as pahole parses them and handed to the printer, from DWARF and
// BTF. The printer itself is tested in package layout; here the pahole on
// PATH is the oracle where it prints as pahole 1.31, else the 1.31
// output committed in layout/testdata.

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
		runBoth(t, true, append(append([]string{}, opts...), "-C", printNames, vmlinux)...)
		runBoth(t, true, append(append([]string{"-F", "btf"}, opts...), "-C", printNames, embedded)...)
	}
	// A prefix of several options is argp's error.
	if _, errOut, code := runPahole(t, "--suppress_", "-F", "btf", embedded); code != 64 || !strings.Contains(errOut, "is ambiguous") {
		t.Errorf("--suppress_: status %d, %q", code, errOut)
	}
}

// section is the output of "=== pahole ARGS" in one of
// layout/testdata's files of pahole 1.31 outputs.
func section(t *testing.T, file, args string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "layout", "testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "=== pahole "+args+"\n")
	if !ok {
		t.Fatalf("%s has no section %q", file, args)
	}
	out, _, _ := strings.Cut(rest, "=== pahole")
	return out
}

// TestPaholeLayoutPrint131: the options pahole 1.24 prints differently,
// against pahole 1.31's committed output: -E, -p and --compile on kernel
// types, -w on a fixture; and `btfkit layout` with the same options.
func TestPaholeLayoutPrint131(t *testing.T) {
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
			want := section(t, "vmlinux-print-"+in.format+".txt", c.args+" -C "+names)
			args := append(append([]string{"-F", in.format}, strings.Fields(c.args)...), "-C", names, in.file)
			got, errOut, code := runPahole(t, args...)
			if code != 0 || got != want {
				t.Errorf("pahole %s: status %d, %s\n--- got\n%.1500s\n--- want\n%.1500s", strings.Join(args, " "), code, errOut, got, want)
			}
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
		want := section(t, "print-gccgdwarf-5O2-dwarf.txt", "-w "+strings.TrimPrefix(args[len(args)-1], "--word_size="))
		got, errOut, code := runPahole(t, append(args, obj)...)
		if code != 0 || got != want {
			t.Errorf("pahole %s print.o: status %d, %s\n--- got\n%.1500s\n--- want\n%.1500s", strings.Join(args, " "), code, errOut, got, want)
		}
	}
}
