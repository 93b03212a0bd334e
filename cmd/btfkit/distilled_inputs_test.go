package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestDistilledModuleInputs: modules whose ELF carries .BTF.base (encoded
// with a distilled base by pahole 1.32 and by btfkit) are read by every
// command as the kernel and libbpf read them (package input): with
// --base, the module's BTF relocated onto that vmlinux BTF; without, split
// against its own .BTF.base. `dump` must print what bpftool 7.8 prints
// for the same file with and without -B; `check --base` finds nothing;
// layouts and pfunct from BTF with the base are pahole's and pfunct's
// 1.32 output. (Before package input, dump --base listed garbage, check
// reported hundreds of problems and dump without --base refused the file.)
func TestDistilledModuleInputs(t *testing.T) {
	testc.Require(t, "pahole", "pfunct")
	// bpftool 7.8 (libbpf 1.7) relocates .BTF.base; Debian 12's bpftool
	// reads the module's BTF against the base as if it were not distilled.
	bpftool := filepath.Join(testenv.SidBin(), "bpftool")
	if testenv.SidBin() == "" {
		testenv.SkipOrFail(t, "sid's bpftool 7.8 is not installed (scripts/sid-tools)")
	}
	base := testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf")
	var mods []string
	for _, m := range testenv.Modules(t) {
		switch filepath.Base(m) {
		case "xfs.ko", "nf_tables.ko", "virtio_net.ko":
			mods = append(mods, m)
		}
	}
	if len(mods) != 3 {
		t.Fatalf("found %d of the 3 modules", len(mods))
	}
	dir := t.TempDir()
	for _, src := range mods {
		for _, maker := range []string{"pahole", "btfkit"} {
			name := strings.TrimSuffix(filepath.Base(src), ".ko")
			ko := filepath.Join(dir, name+"-"+maker+".ko")
			copyFile(t, src, ko)
			if maker == "pahole" {
				testc.Run(t, "pahole", "-J", "--btf_features=default,distilled_base", "--btf_base", base, ko)
			} else if out, code := runBtfkit(t, nil, "encode", "--base", base, "--features=+distilled_base", "--in-place", ko); code != 0 {
				t.Fatalf("btfkit encode --in-place: %s", out)
			}
			if !strings.Contains(string(testc.Output(t, "readelf", "-S", ko)), ".BTF.base") {
				t.Fatalf("%s: no .BTF.base: the input tests nothing", ko)
			}
			t.Run(filepath.Base(ko), func(t *testing.T) {
				same := func(what string, got string, code int, want string) {
					t.Helper()
					if code != 0 || got != want {
						t.Errorf("%s: exit %d, %d bytes; the oracle printed %d bytes%s", what, code, len(got), len(want), firstDiff(got, want))
					}
				}
				got, code := runBtfkitOut(t, "dump", "--base", base, ko)
				same("dump --base", got, code, string(testc.Output(t, bpftool, "btf", "dump", "file", ko, "-B", base)))
				got, code = runBtfkitOut(t, "dump", ko)
				same("dump (against .BTF.base)", got, code, string(testc.Output(t, bpftool, "btf", "dump", "file", ko)))
				if out, code := runBtfkit(t, nil, "check", "--base", base, ko); code != 0 || !strings.Contains(out, ": OK (") {
					t.Errorf("check --base: exit %d\n%.2000s", code, out)
				}
				got, code = runBtfkitOut(t, "pahole", "-F", "btf", "--btf_base", base, "-C", "list_head,sk_buff,xfs_mount,nft_ctx,virtnet_info", ko)
				same("pahole -F btf --btf_base", got, code, string(testc.Output(t, "pahole", "-F", "btf", "--btf_base", base, "-C", "list_head,sk_buff,xfs_mount,nft_ctx,virtnet_info", ko)))
				got, code = runBtfkitOut(t, "pfunct", "-F", "btf", "--btf_base", base, "-P", ko)
				same("pfunct -F btf --btf_base -P", got, code, string(testc.Output(t, "pfunct", "-F", "btf", "--btf_base", base, "-P", ko)))
			})
		}
	}
}

// runBtfkitOut runs the btfkit binary and returns its standard output
// alone (standard error goes to the test log) and exit status.
func runBtfkitOut(t *testing.T, args ...string) (string, int) {
	t.Helper()
	r := runWithStdin(t, nil, args...)
	return r.out, r.code
}
