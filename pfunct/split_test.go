package pfunct_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestSplitBTF: pfunct on modules' split BTF (pfunct 1.32's --btf_base):
// the base is pahole 1.32's BTF of the Debian vmlinux (testdata/reference),
// the modules' BTF is what the pahole on PATH (1.32) makes of two Debian
// modules against it at test time. pfunct loads a split BTF and its base
// as one unit, so the base's functions are listed and found too; without
// -F, --btf_base selects BTF. Against the pfunct on PATH (1.32).
func TestSplitBTF(t *testing.T) {
	testc.Require(t, "pahole", "pfunct")
	base := testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf")
	dir := filepath.Dir(base)
	var mods []string
	for _, name := range []string{"vfat", "8021q"} {
		out := filepath.Join(t.TempDir(), name+".btf")
		testc.Run(t, "pahole", "-J", "--btf_features=default", "--btf_base", base, "--btf_encode_detached="+out, testenv.Module(t, name))
		mods = append(mods, out)
	}
	vfat, q := mods[0], mods[1]
	ours := pfunctLink(t)
	for _, args := range [][]string{
		{"-F", "btf", "--btf_base", base, vfat},
		{"--btf_base", base, vfat},
		{"--btf_base=" + base, "-P", vfat},
		{"-F", "btf", "--btf_base", base, "-P", "--no_parm_names", q},
		{"-F", "btf", "--btf_base", base, "-A", vfat},
		{"-F", "btf", "--btf_base", base, "-V", q},
		{"-F", "btf", "--btf_base", base, "-p", q},
		{"-F", "btf", "--btf_base", base, "-f", "vfat_create", "-P", vfat},
		// A base function, found through the module.
		{"-F", "btf", "--btf_base", base, "-f", "kfree", "-P", q},
		{"-F", "btf", "--btf_base", base, "-f", "vlan_dev_init", "-P", vfat, q},
		{"-F", "btf", "--btf_base", base, "-b", "-f", "vfat_lookup", vfat},
		{"-F", "btf", "--btf_base", base, "--compile=vlan_dev_init", q},
		// -c looks the struct up in the base.
		{"-F", "btf", "--btf_base", base, "-c", "net_device", q},
		{"-F", "btf", "-P", "--btf_base", base, q, vfat},
		{"--btf_base", base, "-F", "dwarf,btf", vfat},
		// No base: libbpf cannot read the strings; a base that does not
		// parse, or is split BTF itself.
		{"-F", "btf", vfat},
		{"--btf_base", filepath.Join(dir, "no-such-base.btf"), "-F", "btf", vfat},
		{"--btf_base", vfat, vfat},
	} {
		want := runTool(t, "", "pfunct", args...)
		got := runTool(t, "", ours, args...)
		name := strings.NewReplacer(base, "BASE", vfat, "vfat.btf", q, "8021q.btf").Replace(strings.Join(args, " "))
		if got != want {
			t.Errorf("pfunct %s: differs from pfunct 1.32:\n%s", name, diffLines(got, want))
		}
		if strings.Contains(name, "-A") && strings.Count(want.out, "\n") < 40000 {
			t.Errorf("pfunct %s: %d lines, want the base's functions too", name, strings.Count(want.out, "\n"))
		}
	}
}
