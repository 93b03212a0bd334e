package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// selftestsDir is the BPF selftests of a Linux source tree: the one in
// $BTFKIT_LINUX_SRC, else the 6.12 tree scripts/kernel-e2e unpacks.
func selftestsDir() string {
	src := os.Getenv("BTFKIT_LINUX_SRC")
	if src == "" {
		src = "/var/tmp/btfkit-e2e/linux-source-6.12"
	}
	return filepath.Join(src, "tools", "testing", "selftests", "bpf")
}

// TestMinimizeKernelSelftests: the kernel's own CO-RE relocation tests
// (tools/testing/selftests/bpf/progs: each test_core_reloc_X.c program
// against each btf__core_reloc_X*.c "kernel" of local types, flavors,
// bitfields, arrays, enums, existence, type IDs, type matches, and the
// ___err_ cases libbpf refuses), compiled by clang at test time: btfkit
// minimize and both bpftools agree on every pair, failing together or
// writing what 'btfkit diff' finds equal (and bpftool 7.1's bytes).
func TestMinimizeKernelSelftests(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: compiles ~90 BPF programs")
	}
	dir := selftestsDir()
	if _, err := os.Stat(filepath.Join(dir, "progs")); err != nil {
		// A Linux source tree is not a test input CI installs (the
		// kernel-e2e run unpacks one); without one there is nothing
		// to compile.
		t.Skipf("SKIP: no Linux source tree's BPF selftests at %s (set BTFKIT_LINUX_SRC): %v", dir, err)
	}
	testc.Require(t, "clang")
	tools := bpftools(t)
	work := t.TempDir()
	// vmlinux.h, which some of the programs include, from a kernel's BTF.
	vmlinux, _ := testenv.KernelInputs(t)
	if v := testenv.Vmlinux612(t); v != "" {
		vmlinux = v
	}
	header, stderr, code := btfkit(t, "dump", "--format", "c", vmlinux)
	if code != 0 {
		t.Fatalf("btfkit dump --format c: exit %d: %s", code, stderr)
	}
	os.WriteFile(filepath.Join(work, "vmlinux.h"), []byte(header), 0o644)
	progs, _ := filepath.Glob(filepath.Join(dir, "progs", "test_core_reloc_*.c"))
	kernels, _ := filepath.Glob(filepath.Join(dir, "progs", "btf__core_reloc_*.c"))
	sort.Strings(progs)
	compiled := map[string]string{}
	compile := func(src string) string {
		if obj, ok := compiled[src]; ok {
			return obj
		}
		obj := filepath.Join(work, strings.TrimSuffix(filepath.Base(src), ".c")+".o")
		compiled[src] = obj
		testc.Run(t, "clang", "-g", "-O2", "-target", "bpf", "-D__TARGET_ARCH_x86", "-I", work, "-I", dir, "-I", filepath.Join(dir, "progs"), "-I/usr/include/x86_64-linux-gnu", "-c", "-o", obj, src)
		return obj
	}
	pairs, failed, same := 0, 0, 0
	for _, p := range progs {
		x := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "test_core_reloc_"), ".c")
		obj := compile(p)
		for _, k := range kernels {
			kb := strings.TrimSuffix(filepath.Base(k), ".c")
			if rest := strings.TrimPrefix(kb, "btf__core_reloc_"+x); rest == kb || (rest != "" && !strings.HasPrefix(rest, "__")) {
				continue
			}
			kobj := compile(k)
			ours := filepath.Join(work, "ours.btf")
			os.Remove(ours)
			_, stderr, code := btfkit(t, "minimize", "--base", kobj, "-o", ours, obj)
			for name, tool := range tools {
				want := filepath.Join(work, name+".btf")
				os.Remove(want)
				out, err := exec.Command(tool, "gen", "min_core_btf", kobj, want, obj).CombinedOutput()
				pairs++
				switch {
				case err != nil && code != 0:
					failed++
				case err != nil || code != 0:
					t.Errorf("%s on %s: bpftool %s: %v, btfkit: exit %d\n%s%s", filepath.Base(p), kb, name, err, code, out, stderr)
				default:
					if stdout, _, dcode := btfkit(t, "diff", want, ours); dcode != 0 {
						t.Errorf("%s on %s: btfkit diff against bpftool %s: exit %d\n%s", filepath.Base(p), kb, name, dcode, stdout)
					}
					if name == "debian12" {
						w, _ := os.ReadFile(want)
						g, _ := os.ReadFile(ours)
						if !bytes.Equal(w, g) {
							t.Errorf("%s on %s: not bpftool 7.1's bytes", filepath.Base(p), kb)
						} else {
							same++
						}
					}
				}
			}
		}
	}
	t.Logf("%d program/kernel/bpftool runs: %d failed in both, %d byte-identical to bpftool 7.1", pairs, failed, same)
	if pairs < 100 || failed == 0 || failed == pairs {
		t.Errorf("%d runs, %d failing in both: the selftests were not found as expected", pairs, failed)
	}
}
