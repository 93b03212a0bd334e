//go:build linux

package e2e

import (
	"errors"
	"os"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestFindTypeOnHost asks the running kernel's CO-RE relocation for types
// of its own vmlinux BTF, one of each kind FindType takes: the ID must be
// the one the sysfs file gives that type, and a name no kernel BTF has
// must give 0.
func TestFindTypeOnHost(t *testing.T) {
	const sysfs = "/sys/kernel/btf/vmlinux"
	raw, err := os.ReadFile(sysfs)
	if err != nil {
		testenv.SkipOrFail(t, "no kernel BTF here: %v", err)
	}
	if err := kernload.Load(raw); errors.Is(err, kernload.ErrNotPermitted) {
		testenv.SkipOrFail(t, "%v", err)
	}
	spec, err := btf.Parse(raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	type probe struct{ kind, name string }
	want := map[probe]uint32{
		{"struct", "task_struct"}: 0,
		{"union", "bpf_attr"}:     0,
		{"typedef", "spinlock_t"}: 0, // typedef struct spinlock spinlock_t
	}
	kinds := map[btf.Kind]string{btf.KindStruct: "struct", btf.KindUnion: "union", btf.KindTypedef: "typedef"}
	for id := btf.TypeID(1); id < spec.NextID(); id++ {
		ty := spec.Type(id)
		p := probe{kinds[ty.Kind()], ty.Name()}
		if old, ok := want[p]; ok {
			if old != 0 {
				t.Fatalf("%s %s twice in %s", p.kind, p.name, sysfs)
			}
			want[p] = uint32(id)
		}
	}
	for p, id := range want {
		if id == 0 {
			t.Fatalf("no %s %s in %s", p.kind, p.name, sysfs)
		}
	}
	for _, k := range []string{"struct", "union", "typedef"} {
		want[probe{k, "btfkit_e2e_no_such_type"}] = 0
	}
	for p, id := range want {
		got, err := FindType(p.kind, p.name)
		if err != nil {
			t.Fatalf("%s %s: %v", p.kind, p.name, err)
		}
		t.Logf("%s %s: the kernel's CO-RE relocation gives [%d]", p.kind, p.name, got)
		if got != id {
			t.Errorf("%s %s: got [%d], want [%d]", p.kind, p.name, got, id)
		}
	}
	if _, err := FindType("enum", "bpf_cmd"); err == nil {
		t.Error("kind enum: no error")
	}
}
