package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReferencesDocumented: every file under testdata/reference is named in
// testdata/README.md, which says how it was made, and every reference the
// README names is there.
func TestReferencesDocumented(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(Root(t), "testdata", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	names := ReferenceNames(t, "*")
	names = append(names, ReferenceNames(t, "*/*")...)
	if len(names) == 0 {
		t.Fatal("no reference files")
	}
	dir := filepath.Join(Root(t), ReferenceDir)
	for _, n := range names {
		stored := filepath.Base(n)
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			stored += ".xz"
		}
		if !strings.Contains(string(readme), stored) {
			t.Errorf("testdata/README.md does not describe %s", stored)
		}
	}
}

// TestReference: a compressed reference unpacks into the test's temporary
// directory, bigger than what is stored; one stored as it is comes back in
// place; a missing one fails the test.
func TestReference(t *testing.T) {
	name := "host-6.18/vmlinux.btf"
	p := Reference(t, name)
	if !strings.HasSuffix(p, name) || strings.HasPrefix(p, Root(t)) {
		t.Errorf("Reference(%q) = %s, want a path under a temporary directory ending in the name", name, p)
	}
	got, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := os.Stat(filepath.Join(Root(t), ReferenceDir, name+".xz"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Size() <= stored.Size() {
		t.Errorf("%s unpacked to %d bytes, stored as %d", name, got.Size(), stored.Size())
	}
	if p := Reference(t, "pahole-1.31-cli.txt"); p != filepath.Join(Root(t), ReferenceDir, "pahole-1.31-cli.txt") {
		t.Errorf("a file stored uncompressed came back as %s", p)
	}
	r := &recorder{TB: t}
	done := make(chan bool)
	go func() { // Fatalf ends the goroutine as t.Fatalf would end a test
		defer close(done)
		Reference(r, "no/such.btf")
	}()
	<-done
	if !strings.Contains(r.fatal, "no reference no/such.btf") {
		t.Errorf("a missing reference: fatal %q, skip %q", r.fatal, r.skip)
	}
}

// recorder is a testing.TB that records Fatalf, Errorf, Skipf and Logf
// instead of stopping or failing the test.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Errorf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }
func (r *recorder) Logf(format string, args ...any)   { r.skip = fmt.Sprintf(format, args...) }

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skip = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestSkipOrFail: a skip (for SkipPartOrFail a log line) outside CI, a
// failure under CI=true.
func TestSkipOrFail(t *testing.T) {
	var said strings.Builder
	skipOut = &said
	t.Cleanup(func() { skipOut = os.Stderr })
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		r := &recorder{TB: t}
		done := make(chan bool)
		go func() {
			defer close(done)
			SkipOrFail(r, "no %s here", "widget")
		}()
		<-done
		if ci == "true" && (r.fatal != "CI=true, but no widget here" || r.skip != "") {
			t.Errorf("CI=true: fatal %q, skip %q; want a failure", r.fatal, r.skip)
		}
		if ci == "" && (r.skip != "SKIP: no widget here" || r.fatal != "") {
			t.Errorf("outside CI: fatal %q, skip %q; want a skip", r.fatal, r.skip)
		}
	}
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		r := &recorder{TB: t}
		SkipPartOrFail(r, "no %s here", "gadget")
		if ci == "true" && (r.fatal != "CI=true, but no gadget here" || r.skip != "") {
			t.Errorf("part, CI=true: error %q, log %q; want a failure", r.fatal, r.skip)
		}
		if ci == "" && (r.skip != "SKIP: no gadget here" || r.fatal != "") {
			t.Errorf("part, outside CI: error %q, log %q; want a log line", r.fatal, r.skip)
		}
	}
	want := "SKIP: " + t.Name() + ": no widget here\nSKIP: " + t.Name() + ": no gadget here\n"
	if testing.Verbose() {
		want = ""
	}
	if said.String() != want {
		t.Errorf("said on stderr %q, want %q", said.String(), want)
	}
}

// TestKernelInputs: scripts/kernel-inputs -n prints the installed
// vmlinux and module directory, and the module helpers find the modules.
func TestKernelInputs(t *testing.T) {
	KernelInputs(t)
	out, err := exec.Command(filepath.Join(Root(t), "scripts", "kernel-inputs"), "-n").Output()
	if err != nil {
		t.Fatalf("scripts/kernel-inputs -n: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) < 2 || len(lines) > 3 || !strings.HasPrefix(lines[0], "VMLINUX=/") || !strings.HasPrefix(lines[1], "MODULES=/") {
		t.Fatalf("scripts/kernel-inputs -n printed %q", out)
	}
	// The 6.12 vmlinux, when fetched, is the file Vmlinux612 finds.
	if len(lines) == 3 {
		v, ok := strings.CutPrefix(lines[2], "VMLINUX612=")
		if !ok {
			t.Fatalf("scripts/kernel-inputs -n printed %q", out)
		}
		if got := Vmlinux612(t); os.Getenv("VMLINUX612") == "" && got != v {
			t.Errorf("Vmlinux612 = %q, kernel-inputs says %q", got, v)
		}
	}
	if st, err := os.Stat(strings.TrimPrefix(lines[0], "VMLINUX=")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("%s: %v", lines[0], err)
	}
	_, dir := KernelInputs(t)
	if mods := Modules(t); len(mods) != 1121 || !strings.HasPrefix(Module(t, "vxlan"), dir+"/") {
		t.Errorf("%d modules, want 1121; vxlan.ko at %s", len(mods), Module(t, "vxlan"))
	}
	if s := ModuleSample(t, 3); len(s) != 3 || s[0] == s[1] || s[1] == s[2] {
		t.Errorf("ModuleSample(3) = %q", s)
	}
}
