package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// The command lines of pahole's filter and listing options (package
// layout's tests compare the output of each option with pahole's): the
// order pahole reads them in, their errors and exit statuses, and btfkit
// layout's native flags for the same options.

// TestPaholeFilterCommandLines: against the pahole on PATH (1.32).
func TestPaholeFilterCommandLines(t *testing.T) {
	embedded := testenv.Reference(t, "debian-6.1.0-57-cloud/embedded.btf")
	for _, args := range [][]string{
		// One per-type printer: the last of -s, -n, -N and -z.
		{"-F", "btf", "-z", "16", "-s", embedded},
		{"-F", "btf", "-s", "-z", "16", embedded},
		{"-F", "btf", "-N", "-n", "-H", "8", embedded},
		{"-F", "btf", "--sizes", "--nr_mem", "--hole_size=24", embedded},
		// -i and -f take the -C list; the last of -C, -i and -f names it.
		{"-F", "btf", "-i", "hlist_node", "-C", "callback_head", embedded},
		{"-F", "btf", "-C", "callback_head", "-i", "hlist_node", embedded},
		{"-F", "btf", "-f", "callback_head,file", "-d", embedded},
		{"--btf_base", embedded, "--contains", "rb_node", "--recursive", embedded},
		// Separators: the first byte, or a NUL for an empty one.
		{"-F", "btf", "-t", "::", "-s", "-y", "list", embedded},
		{"-F", "btf", "-t", "", "-n", "-y", "list", embedded},
		{"-F", "btf", "--separator=;", "--class_name_len", "--prefix_filter=rb", embedded},
		// Empty prefixes: -x '' excludes every named type, -y '' none.
		{"-F", "btf", "-x", "", "-s", embedded},
		{"-F", "btf", "-y", "", "-z", "32", embedded},
		// From BTF no type has a declaration file, and the unit is named
		// by the path given.
		{"-F", "btf", "-D", "include", "-s", embedded},
		{"-F", "btf", "-X", filepath.Dir(embedded), "-s", embedded},
		{"-F", "btf", "--cu_exclude=/nonexistent", "--exclude=s", "-n", embedded},
		{"-F", "btf", "--structs", "--packed", "-s", embedded},
		{"-F", "btf", "--unions", "-a", "-A", "-n", embedded},
		{"-F", "btf", "--with_flexible_array", "-H", "2", "-s", embedded},
		{"-F", "btf", "--sort", "-y", "rcu", "-s", embedded},
		// pahole 1.32 applies the struct-only filters to unions, never
		// matches one with --with_flexible_array and no longer crashes
		// on --unions --packable.
		{"-F", "btf", "--unions", "-H", "1", embedded},
		{"-F", "btf", "--unions", "--with_flexible_array", "-s", embedded},
		{"-F", "btf", "--with_flexible_array", "-s", embedded},
		{"-F", "btf", "--unions", "--packable", embedded},
		{"-F", "btf", "--unions", "--padding_ge=1", "-n", embedded},
		// -T: the counts at the end; -C (also -i, -f) with -T is
		// refused (1.31 crashed), as -C with -m is (with the option's
		// name 1.32 fixed).
		{"-F", "btf", "-T", "-y", "rb", embedded},
		{"-F", "btf", "--nr_definitions", "-s", "-y", "list", embedded},
		{"-F", "btf", "-T", "-C", "list_head", embedded},
		{"-F", "btf", "-i", "list_head", "-T", embedded},
		{"-F", "btf", "-T", "-f", "list_head", embedded},
		{"-F", "btf", "-C", "list_head", "-m", embedded},
	} {
		runBoth(t, args...)
	}
	// A missing type: pahole says so and exits 0; with --sort it says
	// nothing, and btfkit adds a note (notfound_test.go).
	runBoth(t, "-F", "btf", "-i", "no_such_type", embedded)
	runBoth(t, "-F", "btf", "-f", "list_head,no_such_type,rb_node", embedded)
	runBothNote(t, "no_such_type", "-F", "btf", "--sort", "-C", "list_head,no_such_type", embedded)
}

// TestPaholeFilterOptions: what Debian's pahole 1.24 lacks, as pahole's
// command line reads it (the outputs are compared with pahole's in
// package layout).
func TestPaholeFilterOptions(t *testing.T) {
	embedded := testenv.Reference(t, "debian-6.1.0-57-cloud/embedded.btf")
	// pahole has no --padding: argp takes it for its unique prefix
	// --padding_ge.
	long, _, code := runPahole(t, "-F", "btf", "--padding_ge=16", "-s", embedded)
	short, _, code2 := runPahole(t, "-F", "btf", "--padding=16", "-s", embedded)
	if code != 0 || code2 != 0 || long != short || strings.Count(long, "\n") < 10 {
		t.Errorf("--padding=16 and --padding_ge=16: status %d and %d, %d and %d bytes", code2, code, len(short), len(long))
	}
	for _, c := range []struct {
		arg, want string
	}{
		{"--conta=S_VERSION", "pahole: option '--conta=S_VERSION' is ambiguous; possibilities: '--contains' '--contains_enumerator'\n"},
		{"--pa=3", "pahole: option '--pa=3' is ambiguous; possibilities: '--padding_ge' '--packable' '--packed'\n"},
	} {
		_, errOut, code := runPahole(t, "-F", "btf", c.arg, embedded)
		if code != 64 || !strings.HasPrefix(errOut, c.want) {
			t.Errorf("%s: status %d, %q; want 64, %q (pahole's)", c.arg, code, errOut, c.want)
		}
	}
	out, errOut, code := runPahole(t, "-F", "btf", "--contains_enumerator", "S_VERSION", embedded)
	if code != 0 || !strings.HasPrefix(out, "enum file_time_flags {\n") || !strings.HasSuffix(out, "}\n") {
		t.Errorf("--contains_enumerator S_VERSION: status %d, %s\n%s", code, errOut, out)
	}
}

// TestLayoutFilterFlags: btfkit layout's native flags print what btfkit
// pahole prints for pahole's spelling of the same options.
func TestLayoutFilterFlags(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "layout", "testdata", "filter.c"))
	if err != nil {
		t.Fatal(err)
	}
	// Two units: filter.c's and filterflex.c's (flexible arrays).
	testc.Require(t, "ld")
	v := testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O0"}}
	obj := filepath.Join(t.TempDir(), "filters.o")
	testc.Run(t, "ld", "-r", "-o", obj, testc.Compile(t, src, v),
		testc.Compile(t, filepath.Join(filepath.Dir(src), "filterflex.c"), v))
	header := filepath.Join(filepath.Dir(src), "filter.h")
	for _, c := range []struct{ native, pahole string }{
		{"--sizes", "-s"},
		{"-n -t ,", "--nr_members --separator=,"},
		{"--class-name-len", "-N"},
		{"--holes 2 --bit-holes 0", "-H 2"},
		{"-B 1 -s", "--bit_holes=1 --sizes"},
		{"--hole-size-ge 4", "-z 4"},
		{"--padding-ge 4", "--padding_ge=4"},
		{"--packed -s", "--packed -s"},
		{"--structs -n", "--structs -n"},
		{"--unions", "--unions"},
		{"-a -A -s", "-a -A -s"},
		{"--anon-include --nested-anon-include --prefix-filter flt_anon", "-a -A -y flt_anon"},
		{"--exclude flt_c -n", "-x flt_c -n"},
		{"--decl-exclude " + header, "-D " + header},
		{"--cu-exclude " + src + " -s", "-X " + src + " -s"},
		{"--with-flexible-array", "--with_flexible_array"},
		{"--with-embedded-flexible-array -s", "--with_embedded_flexible_array -s"},
		{"--contains-enumerator FLT_GREEN", "--contains_enumerator=FLT_GREEN"},
		{"--contains flt_target -d", "-i flt_target -d"},
		{"--find-pointers-to flt_target,flt_c1", "-f flt_target,flt_c1"},
		{"--sort", "--sort"},
		{"--sort -C flt_h2,flt_h1", "--sort -C flt_h2,flt_h1"},
		{"--show-private-classes", "--show_private_classes"},
		{"--nr-definitions -s", "-T -s"},
		{"-T", "--nr_definitions"},
	} {
		native, code := runBtfkit(t, nil, append(append([]string{"layout"}, strings.Fields(c.native)...), obj)...)
		want, errOut, wcode := runPahole(t, append(strings.Fields(c.pahole), obj)...)
		if code != 0 || wcode != 0 || native != want || want == "" {
			t.Errorf("btfkit layout %s: status %d, %d bytes; btfkit pahole %s: status %d, %s, %d bytes\n--- layout\n%.1500s\n--- pahole\n%.1500s",
				c.native, code, len(native), c.pahole, wcode, errOut, len(want), native, want)
		}
	}
	if out, code := runBtfkit(t, nil, "layout", "-C", "flt_h1", "--contains", "flt_target", obj); code == 0 {
		t.Errorf("btfkit layout -C and --contains: status 0, want an error\n%s", out)
	}
}
