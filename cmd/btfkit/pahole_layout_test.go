package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// paholeOracle runs the pahole on PATH (1.32: testenv puts sid's first)
// and returns its exit status, its standard output and the last line of
// its standard error.
func paholeOracle(t *testing.T, args ...string) (code int, stdout, lastErr string) {
	t.Helper()
	testc.Require(t, "pahole")
	cmd := exec.Command("pahole", args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, o.String(), lastLine(e.String())
}

// lastLine is the last line of a standard error, without the warnings of
// older pahole (1.24) about BTF kinds it does not know.
func lastLine(s string) string {
	last := ""
	for _, l := range strings.Split(s, "\n") {
		if l != "" && !strings.HasPrefix(l, "BTF: idx: ") {
			last = l
		}
	}
	return last
}

func layoutInputs(t *testing.T, files ...string) {
	t.Helper()
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			testenv.SkipOrFail(t, "%v", err)
		}
	}
}

// runBoth runs btfkit pahole and the pahole on PATH with the same
// arguments and compares exit status, output and last error line.
func runBoth(t *testing.T, args ...string) {
	t.Helper()
	out, errOut, code := runPahole(t, args...)
	wcode, wout, werr := paholeOracle(t, args...)
	if code != wcode || out != wout {
		t.Errorf("pahole %s: status %d, %d bytes of output; pahole on PATH: status %d, %d bytes\n--- got\n%.2000s\n--- want\n%.2000s",
			strings.Join(args, " "), code, len(out), wcode, len(wout), out, wout)
	}
	if got := lastLine(errOut); got != werr {
		t.Errorf("pahole %s: stderr ends %q, want %q", strings.Join(args, " "), got, werr)
	}
}

func TestPaholeLayoutBTF(t *testing.T) {
	embedded := testenv.Reference(t, "debian-6.1.0-57-cloud/embedded.btf")
	for _, args := range [][]string{
		{"-F", "btf", "-C", "list_head,callback_head,qspinlock", embedded},
		{"-F", "btf", "-C", "list_head,no_such_type,callback_head", embedded}, // stops at the missing name
		{"-F", "btf", "--skip_missing", "-C", "list_head,no_such_type,qspinlock", embedded},
		{"-F", "btf", "--hex", "--class_name=desc_struct", embedded},
		{"-F", "btf", "--cache", "32", "--class_n", "pt_regs", embedded}, // unique prefixes
		{"-F", "btf", "-c128", "-Cpt_regs", embedded},
		{"-F", "btf", "--hex", "--class_name", "u32,pid_type,cpumask_var_t", embedded}, // typedefs, an enum
		{"--btf_base", embedded, "-C", "list_head", embedded},                          // --btf_base means -F btf
	} {
		runBoth(t, args...)
	}
}

// TestPaholeLayoutRunningKernel: without FILE pahole reads
// /sys/kernel/btf/vmlinux, and a FILE that does not exist is a type name.
func TestPaholeLayoutRunningKernel(t *testing.T) {
	layoutInputs(t, "/sys/kernel/btf/vmlinux")
	runBoth(t, "-C", "list_head,callback_head")
	runBoth(t, "list_head")
	runBoth(t, "-F", "btf", "no_such_file_or_type")
	noFile, _, code := runPahole(t, "-C", "task_struct")
	withFile, _, _ := runPahole(t, "-F", "btf", "-C", "task_struct", "/sys/kernel/btf/vmlinux")
	if code != 0 || noFile != withFile || !strings.HasPrefix(noFile, "struct task_struct {") {
		t.Errorf("pahole -C task_struct: status %d, output differs from -F btf /sys/kernel/btf/vmlinux's:\n%.500s", code, noFile)
	}
}

func TestPaholeLayoutErrors(t *testing.T) {
	notDebug := filepath.Join(t.TempDir(), "plain.txt")
	if err := os.WriteFile(notDebug, []byte("not debug info\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runBoth(t, notDebug)                    // has no supported type information, status 1
	runBoth(t, "-F", "dwarf", notDebug)     // has no dwarf type information
	runBoth(t, "-C", "list_head", notDebug) // Invalid argument
	// argp lists an ambiguous prefix's options in pahole's table order.
	_, errOut, code := runPahole(t, "--he", notDebug)
	if want := "pahole: option '--he' is ambiguous; possibilities: '--header_type' '--hex' '--help'\n"; code != 64 || !strings.HasPrefix(errOut, want) {
		t.Errorf("--he: status %d, %q, want 64, %q", code, errOut, want)
	}
}

// TestPaholeLayoutModule: a module's split BTF with its base, also
// compressed (.ko.xz), and its DWARF.
func TestPaholeLayoutModule(t *testing.T) {
	embedded := testenv.Reference(t, "debian-6.1.0-57-cloud/embedded.btf")
	vfat := testenv.Module(t, "vfat")
	names := "msdos_dir_entry,msdos_dir_slot,shortname_info"
	runBoth(t, "-F", "btf", "--btf_base", embedded, "-C", names, vfat)
	runBoth(t, "-C", names, vfat)              // DWARF
	runBoth(t, "-F", "btf", "-C", names, vfat) // split BTF without its base: an error

	xzPath := filepath.Join(t.TempDir(), "vfat.ko.xz")
	raw, err := os.ReadFile(vfat)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w, err := xz.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(xzPath, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--btf_base", embedded, "-C", names}, {"-C", names}} {
		want, _, _ := runPahole(t, append(args, vfat)...)
		got, errOut, code := runPahole(t, append(args, xzPath)...)
		if code != 0 || got != want || !strings.HasPrefix(got, "struct msdos_dir_entry {") {
			t.Errorf("pahole %s vfat.ko.xz: status %d, %s; output differs from vfat.ko's", strings.Join(args, " "), code, errOut)
		}
	}
}

// TestPaholeLayoutArchive: every member of a BTF archive is printed, in
// order, as pahole prints each alone.
func TestPaholeLayoutArchive(t *testing.T) {
	dir := t.TempDir()
	var members [][]byte
	var want string
	for i, src := range []string{
		"struct first { char c; long l; }; struct first v_first;",
		"struct second { int a:3, b:20; char c; }; struct second v_second;",
	} {
		name := filepath.Join(dir, "m"+string(rune('0'+i)))
		if err := os.WriteFile(name+".c", []byte(src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		obj := testc.Compile(t, name+".c", testc.Variant{CC: testc.GCC, Flags: []string{"-g"}})
		testc.Run(t, "pahole", "-J", "--btf_encode_detached="+name+".btf", obj)
		b, err := os.ReadFile(name + ".btf")
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, b, make([]byte, 4)) // linkers pad between sections
		_, out, _ := paholeOracle(t, "-F", "btf", name+".btf")
		want += out
	}
	archive := filepath.Join(dir, "archive.btf")
	if err := os.WriteFile(archive, bytes.Join(members, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	got, errOut, code := runPahole(t, "-F", "btf", archive)
	if code != 0 || got != want || !strings.Contains(got, "struct second {") {
		t.Errorf("pahole -F btf archive: status %d, %s\n--- got\n%s\n--- want\n%s", code, errOut, got, want)
	}
}

// TestLayoutClassNames: how -C lists are split.
func TestLayoutClassNames(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "names")
	if err := os.WriteFile(list, []byte("b\nc\n\nd"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"a", []string{"a"}},
		{"a,b", []string{"a", "b"}},
		{"a,", []string{"a"}}, // a trailing comma ends the list
		{"a,,b", []string{"a", "", "b"}},
		{"x(sizeof=len,type=t),y", []string{"x(sizeof=len,type=t)", "y"}},
		// pahole drops each line's last byte: the newline, or the last
		// character of a last line without one.
		{"a,file://" + list, []string{"a", "b", "c", "", ""}},
		{"@" + list + ",z", []string{"b", "c", "", "", "z"}},
	} {
		got, err := paholeClassNames(c.in)
		if err != nil || strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("-C %q: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestPaholeLayoutLookupDWARF: -C from DWARF, where btfkit stops reading
// units at the one where the last name is found (a lookup walk, as
// pahole stops loading): pahole's command line and `btfkit layout -C`
// print what pahole 1.32 prints, on a program linked from three gcc
// units (layout/testdata/lookup*.c: names defined alike, differently
// and once; -E; missing names) and, when it is installed, on the Debian
// vmlinux (task_struct is in its second unit).
func TestPaholeLayoutLookupDWARF(t *testing.T) {
	testc.Require(t, "pahole", "gcc")
	var srcs []string
	for _, f := range []string{"lookup1.c", "lookup2.c", "lookup3.c"} {
		src, err := filepath.Abs(filepath.Join("..", "..", "layout", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	prog := filepath.Join(t.TempDir(), "lookup")
	testc.Run(t, "gcc", append([]string{"-g", "-O2", "-o", prog}, srcs...)...)
	lookups := [][]string{
		{"-C", "outer"},
		{"-C", "variant,second_only"},
		{"-C", "third_only,variant"},
		{"-E", "-C", "first_only"},
		{"--expand_types", "-C", "second_only,outer"},
		{"-C", "second_only,missing_one,third_only"},
		{"-C", "no_such_type"},
	}
	for _, args := range lookups {
		runBoth(t, append(args, prog)...)
	}
	// btfkit layout takes -C and -E (pahole's --expand_types) alike.
	for _, args := range [][]string{{"-C", "variant,second_only"}, {"-C", "third_only,variant"}, {"-E", "-C", "first_only"}} {
		_, want, _ := paholeOracle(t, append(args, prog)...)
		got, code := runBtfkitOut(t, append(append([]string{"layout"}, args...), prog)...)
		if code != 0 || got != want {
			t.Errorf("btfkit layout %s: status %d\n--- got\n%s\n--- want\n%s", strings.Join(args, " "), code, got, want)
		}
	}
	if testing.Short() {
		return
	}
	vmlinux, _ := testenv.KernelInputs(t)
	for _, args := range [][]string{{"-C", "task_struct"}, {"-C", "task_struct,sk_buff"}, {"-E", "-C", "sk_buff"}} {
		runBoth(t, append(args, vmlinux)...)
	}
}
