package layout_test

import (
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/layout"
)

// -R on the Debian kernel against pahole 1.32's output, committed by
// scripts/layout-testdata (testdata/README.md; pahole takes half a minute
// on the first, over a minute on the second): every named struct of
// embedded.btf, and the 50 largest structs of the vmlinux's DWARF.
//
// pahole (1.31 and 1.32) computes a moved member's new offset in 16 bits. In a
// struct of 64 KiB or more its result is no layout: members overlap,
// pahole's own check prints "BRAIN FART ALERT!", and it claims savings
// such as 328,212 of rcu_state's 334,016 bytes; on pglist_data (174,208
// bytes) it never stops moving members, which is why the references leave
// it out. btfkit uses 32 bits there. Those structs are the only ones
// allowed to differ from pahole, and only where pahole's text has the
// alert; pahole's structs made larger are replaced by their layout as in
// reorganize_test.go.

// pahole16BitStructs are the structs of the references whose text differs
// for that reason, with pglist_data, which has no text.
var pahole16BitStructs = map[string]bool{"rcu_state": true, "saved_cmdlines_buffer": true, "pglist_data": true}

// blocksByStruct maps each struct of a -R listing to its text; the first
// of a name wins.
func blocksByStruct(s string) map[string]string {
	m := map[string]string{}
	for _, b := range reorgBlocks(s) {
		if name := blockStruct(b); name != "" {
			if _, ok := m[name]; !ok {
				m[name] = b
			}
		}
	}
	return m
}

// compareReorganized compares btfkit's -R listing with pahole's,
// struct by struct, with pahole's larger structs replaced by their layout
// in listing (pahole's plain listing of the same input); it returns how
// many structs are identical.
func compareReorganized(t *testing.T, got, want, listing string) int {
	t.Helper()
	originals := blocksByStruct(listing)
	want, grownN := keepOriginals(t, want, func(name string) string {
		b, ok := originals[name]
		if !ok {
			t.Fatalf("struct %s is not in pahole's listing", name)
		}
		return b
	})
	t.Logf("%d structs pahole makes larger", grownN)
	g, w := blocksByStruct(got), blocksByStruct(want)
	same := 0
	for name, wb := range w {
		gb, ok := g[name]
		switch {
		case !ok:
			t.Errorf("struct %s: not printed", name)
		case gb == wb:
			same++
		case pahole16BitStructs[name] && strings.Contains(wb, "BRAIN FART ALERT!") && !strings.Contains(gb, "BRAIN FART ALERT!"):
			t.Logf("struct %s: pahole wraps offsets at 64 KiB; btfkit's: %s", name, lastLine(gb))
		default:
			t.Errorf("struct %s:\n--- got\n%s--- want\n%s", name, gb, wb)
		}
	}
	for name := range g {
		if _, ok := w[name]; !ok && !pahole16BitStructs[name] {
			t.Errorf("struct %s printed, pahole does not print it", name)
		}
	}
	return same
}

func lastLine(block string) string {
	lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestReorganizeReferenceBTF: `pahole -F btf -R -C NAMES embedded.btf`
// for every named struct but pglist_data (sorted), by name.
func TestReorganizeReferenceBTF(t *testing.T) {
	testc.Require(t, "pahole")
	want := readFile(t, testenv.Reference(t, refDir+"reorganize-btf-pahole-1.32.txt"))
	embedded, s := embeddedBTF(t)
	listing := paholeOut(t, "pahole", "-F", "btf", embedded)
	seen := map[string]bool{"pglist_data": true}
	var names []string
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		if ty := s.Type(id); ty.Kind() == btf.KindStruct && ty.Name() != "" && !seen[ty.Name()] {
			seen[ty.Name()] = true
			names = append(names, ty.Name())
		}
	}
	sort.Strings(names)
	got, missing := listBTF(t, s, layout.Options{CachelineSize: 64, Reorganize: true, ClassNames: names})
	if missing != "" {
		t.Errorf("type %q not found", missing)
	}
	same := compareReorganized(t, got, want, listing)
	if n := strings.Count(want, "\n}"); same < n-360 || n < 7000 {
		t.Errorf("%d of %d structs identical", same, n)
	}
	// And in pahole's order.
	if g, w := blockOrder(got), blockOrder(want); strings.Join(g, ",") != strings.Join(w, ",") {
		t.Errorf("structs printed in another order than pahole's")
	}
}

// blockOrder is the structs of a -R listing in order, without the
// 16-bit ones.
func blockOrder(s string) []string {
	var out []string
	for _, b := range reorgBlocks(s) {
		if name := blockStruct(b); name != "" && !pahole16BitStructs[name] {
			out = append(out, name)
		}
	}
	return out
}

// largestStructs are the n largest structs of a pahole listing, by size
// and then name.
func largestStructs(listing string, n int) []string {
	type sized struct {
		name string
		size int
	}
	var all []sized
	size := regexp.MustCompile(`^\t/\* size: (\d+),`)
	name := ""
	for _, line := range strings.Split(listing, "\n") {
		if m := structHeader.FindStringSubmatch(line); m != nil {
			name = m[1]
		} else if strings.HasPrefix(line, "union ") {
			name = ""
		} else if m := size.FindStringSubmatch(line); m != nil && name != "" {
			sz, _ := strconv.Atoi(m[1])
			all = append(all, sized{name, sz})
			name = ""
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].size != all[j].size {
			return all[i].size > all[j].size
		}
		return all[i].name < all[j].name
	})
	var out []string
	for _, s := range all[:min(n, len(all))] {
		out = append(out, s.name)
	}
	return out
}

// TestReorganizeReferenceDWARF: `pahole --skip_missing -R -C NAMES
// vmlinux` for the 50 largest structs of the vmlinux's DWARF.
func TestReorganizeReferenceDWARF(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: converts the vmlinux DWARF")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	want := readFile(t, testenv.Reference(t, refDir+"reorganize-dwarf-top50-pahole-1.32.txt"))
	listing := readFile(t, testenv.Reference(t, refDir+"layout-dwarf-pahole-1.32.txt"))
	names := largestStructs(listing, 50)
	if len(names) != 50 || names[0] != "rcu_state" {
		t.Fatalf("the 50 largest structs: %v", names)
	}
	if w := blocksByStruct(want); len(w) != 49 || w["pglist_data"] != "" {
		t.Fatalf("pahole's output has %d structs, want the 49 largest but pglist_data", len(w))
	}
	got, missing := listDWARF(t, vmlinux, layout.Options{CachelineSize: 64, Reorganize: true, SkipMissing: true, ClassNames: names})
	if missing != "" {
		t.Errorf("type %q not found", missing)
	}
	if same := compareReorganized(t, got, want, listing); same != 47 {
		t.Errorf("%d of 49 structs identical, want 47 (all but rcu_state and saved_cmdlines_buffer)", same)
	}
	// pglist_data has holes: it gets smaller by what it says it saves.
	orig, pg := blocksByStruct(listing)["pglist_data"], blocksByStruct(got)["pglist_data"]
	origSize, size, saved := sizeOf(orig), sizeOf(pg), savedBytes(pg)
	if !strings.Contains(orig, "hole, try to pack */") || saved <= 0 || size+saved != origSize || strings.Contains(pg, "BRAIN FART") {
		t.Errorf("pglist_data of %d bytes reorganized to %d, saving %d:\n%s", origSize, size, saved, pg)
	}
}

var (
	sizeLine  = regexp.MustCompile(`(?m)^\t/\* size: (\d+),`)
	savedLine = regexp.MustCompile(`/\* saved (-?\d+) bytes?`)
)

// sizeOf is the size in the summary of a struct printed on its own.
func sizeOf(block string) int {
	m := sizeLine.FindAllStringSubmatch(block, -1)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[len(m)-1][1])
	return n
}

// savedBytes is what -R says it saved, 0 when it says nothing.
func savedBytes(block string) int {
	m := savedLine.FindStringSubmatch(block)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestPackableKernel: -P on embedded.btf and on the vmlinux's DWARF
// against Debian's pahole 1.24 at test time. pahole 1.32, like 1.31,
// never ends there (scripts/layout-testdata checks that it still runs
// after 5 minutes): -P reorganizes pglist_data, as -R does. 1.24 does end
// (its holes are 16 bits wide too, which happens to stop the moves) and
// agrees with btfkit but for rcu_state, where its 16-bit offsets wrap (it
// says 6,184 bytes).
func TestPackableKernel(t *testing.T) {
	pahole124 := debianPahole(t)
	embedded, s := embeddedBTF(t)
	for _, dwarf := range []bool{false, true} {
		t.Run(format(dwarf), func(t *testing.T) {
			var want, got string
			o := layout.Options{CachelineSize: 64, Packable: true}
			if dwarf {
				if testing.Short() {
					t.Skip("SKIP: -short: converts the whole vmlinux DWARF")
				}
				vmlinux, _ := testenv.KernelInputs(t)
				want = paholeOut(t, pahole124, "-P", vmlinux)
				got, _ = listDWARF(t, vmlinux, o)
			} else {
				want = paholeOut(t, pahole124, "-F", "btf", "-P", embedded)
				got, _ = listBTF(t, s, o)
			}
			g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
			if len(g) != len(w) || len(g) < 400 {
				t.Fatalf("%d lines, pahole 1.24 prints %d", len(g), len(w))
			}
			for i := range g {
				if g[i] == w[i] {
					continue
				}
				f := strings.Split(g[i], "\t")
				if len(f) == 4 && pahole16BitStructs[f[0]] && strings.HasPrefix(w[i], f[0]+"\t") {
					size, _ := strconv.Atoi(f[1])
					packed, _ := strconv.Atoi(f[2])
					saved, _ := strconv.Atoi(f[3])
					if packed < size && size-packed == saved {
						continue
					}
				}
				t.Errorf("line %d: %q, pahole 1.24: %q", i+1, g[i], w[i])
			}
		})
	}
}

// debianPahole is Debian 12's own pahole, 1.24 (/usr/bin/pahole, package
// dwarves, which scripts/install-test-deps installs): the one pahole that
// finishes -P on the Debian kernel.
func debianPahole(t *testing.T) string {
	t.Helper()
	const path = "/usr/bin/pahole"
	out, err := exec.Command(path, "--version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "v1.24" {
		testenv.SkipOrFail(t, "%s is not Debian's pahole 1.24 (%q, %v): apt-get install dwarves", path, out, err)
	}
	return path
}
