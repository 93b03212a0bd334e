//go:build linux

package e2e

import (
	"errors"
	"os"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/kernload"
)

// TestFindStructOnHost asks the running kernel's CO-RE relocation for
// structs of its own vmlinux BTF: the ID must be the one the sysfs file
// gives that struct, and a name no kernel BTF has must give 0.
func TestFindStructOnHost(t *testing.T) {
	const sysfs = "/sys/kernel/btf/vmlinux"
	raw, err := os.ReadFile(sysfs)
	if err != nil {
		t.Skipf("SKIP: no kernel BTF here: %v", err)
	}
	if err := kernload.Load(raw); errors.Is(err, kernload.ErrNotPermitted) {
		t.Skipf("SKIP: %v", err)
	}
	spec, err := btf.Parse(raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint32{}
	for id := btf.TypeID(1); id < spec.NextID(); id++ {
		ty := spec.Type(id)
		if ty.Kind() != btf.KindStruct || ty.Name() == "" {
			continue
		}
		switch ty.Name() {
		case "task_struct", "list_head", "bpf_prog":
			if _, dup := want[ty.Name()]; dup {
				t.Fatalf("%s twice in %s", ty.Name(), sysfs)
			}
			want[ty.Name()] = uint32(id)
		}
	}
	if len(want) != 3 {
		t.Fatalf("found %v in %s", want, sysfs)
	}
	want["btfkit_e2e_no_such_struct"] = 0
	for name, id := range want {
		got, err := FindStruct(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("struct %s: the kernel's CO-RE relocation gives [%d]", name, got)
		if got != id {
			t.Errorf("struct %s: got [%d], want [%d]", name, got, id)
		}
	}
}
