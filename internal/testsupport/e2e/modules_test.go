//go:build linux

package e2e

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseManifest(t *testing.T) {
	got, err := ParseManifest(`# the module negative control first
refuse binfmt_misc /modules/binfmt_misc.bad.ko
refuse fuse /modules/fuse.datasec-overlap.ko datasec-overlap

load binfmt_misc /modules/binfmt_misc.ko /modules/binfmt_misc.expected.btf typedef Node 30718
load fuse /modules/fuse.ko /modules/fuse.expected.btf struct fuse_forget_in 30716
core fuse /modules/core.bpf.o /modules/min/vmlinux /modules/min/fuse
`)
	if err != nil {
		t.Fatal(err)
	}
	want := []Module{
		{Op: "refuse", Name: "binfmt_misc", File: "/modules/binfmt_misc.bad.ko"},
		{Op: "refuse", Name: "fuse", File: "/modules/fuse.datasec-overlap.ko", Breakage: "datasec-overlap"},
		{Op: "load", Name: "binfmt_misc", File: "/modules/binfmt_misc.ko", Expected: "/modules/binfmt_misc.expected.btf", Kind: "typedef", Type: "Node", TypeID: 30718},
		{Op: "load", Name: "fuse", File: "/modules/fuse.ko", Expected: "/modules/fuse.expected.btf", Kind: "struct", Type: "fuse_forget_in", TypeID: 30716},
		{Op: "core", Name: "fuse", File: "/modules/core.bpf.o", MinBase: "/modules/min/vmlinux", MinModule: "/modules/min/fuse"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}

	for _, bad := range []string{
		"load fuse /modules/fuse.ko /modules/fuse.expected.btf struct fuse_forget_in",     // no ID
		"load fuse /modules/fuse.ko /modules/fuse.expected.btf struct fuse_forget_in 0",   // ID 0
		"load fuse /modules/fuse.ko /modules/fuse.expected.btf struct fuse_forget_in x12", // not a number
		"refuse binfmt_misc",              // no file
		"refuse binfmt_misc /a.ko x y",    // a field too many
		"core fuse /o.bpf.o /min/vmlinux", // no module BTF
		"unload fuse /modules/fuse.ko",    // no such operation
	} {
		_, err := ParseManifest("refuse a /a.ko\n" + bad + "\n")
		if err == nil {
			t.Errorf("%q: no error", bad)
		} else if !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%q: error %q does not name line 2", bad, err)
		}
	}
}
