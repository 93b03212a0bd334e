package main

// Pretty printing parts of the Debian kernel with its own types, against
// the pahole on PATH (1.32): the vmlinux's ELF header (and its section and program
// headers) with the vmlinux's BTF, and a module's __versions section with
// the module's DWARF and with the vmlinux's BTF, in the man page's forms.

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// embeddedBTF is the Debian vmlinux's own BTF (its .BTF section).
const embeddedBTF = "debian-6.1.0-57-cloud/embedded.btf"

func TestPrettifyVmlinuxELFHeader(t *testing.T) {
	requirePahole(t)
	vmlinux, _ := testenv.KernelInputs(t)
	embedded := testenv.Reference(t, embeddedBTF)
	for _, types := range [][]string{
		{"-F", "btf", embedded}, // the raw BTF
		{"-F", "btf", vmlinux},  // the ELF's .BTF section
	} {
		for _, args := range [][]string{
			{"-C", "elf64_hdr", "--count", "1"},
			{"--header", "elf64_hdr"},
			{"--hex", "--header=elf64_hdr"},
			{"--header=elf64_hdr", "--seek_bytes=$header.e_shoff", "-C", "elf64_shdr", "--count=6"},
			{"--header=elf64_hdr", "--seek_bytes=$header.e_phoff", "-C", "elf64_phdr", "--count=5", "--hex"},
			{"--header=elf64_hdr", "--seek_bytes=$header.e_phoff", "-C", "elf64_phdr(filter=p_type==1)", "--count=2"},
			{"--seek_bytes=64", "-C", "elf64_phdr", "--skip=1", "--count=2"},
		} {
			samePaholeOutput(t, "", append(append(append([]string{}, types...), args...), "--prettify="+vmlinux)...)
		}
	}
}

// versionsOf extracts a module's __versions section as pahole's man page
// does: objcopy -O binary --only-section=__versions.
func versionsOf(t *testing.T, module string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "versions")
	runOK(t, "objcopy", "-O", "binary", "--only-section=__versions", module, out)
	if st, err := os.Stat(out); err != nil || st.Size() == 0 || st.Size()%64 != 0 {
		t.Fatalf("%s: __versions of %v bytes", module, st)
	}
	return out
}

func runOK(t *testing.T, name string, args ...string) {
	t.Helper()
	if _, errOut, code := runCmd(t, name, args...); code != 0 {
		t.Fatalf("%s %s: exit %d: %s", name, strings.Join(args, " "), code, errOut)
	}
}

func TestPrettifyModuleVersions(t *testing.T) {
	requirePahole(t)
	testc.Require(t, "objcopy")
	_, modules := testenv.KernelInputs(t)
	embedded := testenv.Reference(t, embeddedBTF)
	var mods []string
	filepath.WalkDir(modules, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".ko") {
			mods = append(mods, p)
		}
		return nil
	})
	sort.Strings(mods)
	if len(mods) == 0 {
		t.Fatalf("no modules under %s", modules)
	}
	// A small module and one from the middle of the package.
	for _, mod := range []string{testenv.Module(t, "vsock_loopback"), mods[len(mods)/2]} {
		versions := versionsOf(t, mod)
		for _, args := range [][]string{
			{mod, "-C", "modversion_info", "--prettify", versions},
			{mod, "--count", "3", "-C", "modversion_info", "--prettify", versions},
			{mod, "--skip", "1", "--count", "2", "-C", "modversion_info", "--prettify", "-"},
			{mod, "--seek_bytes", "64", "--count", "1", "-C", "modversion_info", "--prettify", versions},
			{mod, "--hex", "--count", "3", "-C", "modversion_info", "--prettify=" + versions},
			{"-F", "btf", embedded, "-C", "modversion_info", "--prettify", versions},
		} {
			stdin := ""
			if args[len(args)-1] == "-" {
				stdin = versions
			}
			samePaholeOutput(t, stdin, args...)
		}
	}
}

// TestPrettifyTypeSources: the running kernel's /sys/kernel/btf/vmlinux
// against pahole reading the same, and a BTF archive (two BTF blobs back
// to back, merged) printing what its single member prints.
func TestPrettifyTypeSources(t *testing.T) {
	requirePahole(t)
	vmlinux, _ := testenv.KernelInputs(t)
	embedded := testenv.Reference(t, embeddedBTF)
	if _, err := os.Stat("/sys/kernel/btf/vmlinux"); err == nil {
		samePaholeOutput(t, "", "-F", "btf", "/sys/kernel/btf/vmlinux", "-C", "elf64_hdr", "--count=1", "--prettify", vmlinux)
	} else {
		t.Logf("SKIP part: no /sys/kernel/btf/vmlinux: %v", err)
	}
	raw, err := os.ReadFile(embedded)
	if err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(t.TempDir(), "archive.btf")
	if err := os.WriteFile(archive, append(append([]byte{}, raw...), raw...), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-C", "elf64_hdr", "--count=1", "--hex", "--prettify", vmlinux}
	want := samePaholeOutput(t, "", append([]string{"-F", "btf", embedded}, args...)...)
	got, errOut, code := runPahole(t, append([]string{"-F", "btf", archive}, args...)...)
	if code != 0 || got != want {
		t.Errorf("from a BTF archive: exit %d (%s):\n%s", code, errOut, firstDiff(got, want))
	}
}
