package encode

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// withoutFuncs returns a copy of s without what belongs to functions and
// variables (the next encoder issue): FUNC, VAR, DATASEC, the FUNC_PROTOs
// that only FUNCs refer to, and DECL_TAGs on FUNCs and VARs.
func withoutFuncs(s *btf.Spec) *btf.Spec {
	n := int(s.NextID())
	usedByType := make([]bool, n)
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		_, info, st, ext := s.RawType(id)
		k := btf.KindOf(info)
		if k == btf.KindFunc || k == btf.KindVar || k == btf.KindDatasec || k == btf.KindDeclTag {
			continue
		}
		e := append([]uint32(nil), ext...)
		btf.ForEachTypeRef(info, &st, e, func(p *uint32) { usedByType[*p] = true })
	}
	keep := make([]bool, n)
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		t := s.Type(id)
		switch t.Kind() {
		case btf.KindFunc, btf.KindVar, btf.KindDatasec:
		case btf.KindFuncProto:
			keep[id] = usedByType[id]
		case btf.KindDeclTag:
			k := s.Type(t.Ref()).Kind()
			keep[id] = k != btf.KindFunc && k != btf.KindVar
		default:
			keep[id] = true
		}
	}
	return subset(s, keep)
}

// subset copies the kept types of s, renumbered in order.
func subset(s *btf.Spec, keep []bool) *btf.Spec {
	newID := make([]uint32, len(keep))
	next := uint32(1)
	for id := 1; id < len(keep); id++ {
		if keep[id] {
			newID[id] = next
			next++
		}
	}
	out := btf.NewSpec()
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		if !keep[id] {
			continue
		}
		name, info, st, ext := s.RawType(id)
		e := append([]uint32(nil), ext...)
		btf.ForEachTypeRef(info, &st, e, func(p *uint32) { *p = newID[*p] })
		btf.ForEachStringRef(info, &name, e, func(p *uint32) { *p = out.AddString(s.String(*p)) })
		out.AddRaw(name, info, st, e...)
	}
	return out
}

// requireVmlinux returns the Debian vmlinux, or stops the test through
// testenv.SkipOrFail when it is not installed.
func requireVmlinux(t testing.TB) string {
	t.Helper()
	if raceEnabled {
		// An encode of the vmlinux takes minutes under the race detector;
		// TestReproducibleUnits races the same parallel code on a
		// multi-unit object instead. (A plain skip: CI's race run is
		// -short, and its full run covers these tests.)
		t.Skip("SKIP: vmlinux tests do not run under the race detector")
	}
	v, _ := testenv.KernelInputs(t)
	return v
}

// reference returns the path of a reference output for the Debian kernel
// (testdata/reference/debian-6.1.0-57-cloud/NAME), unpacked for t.
func reference(t testing.TB, name string) string {
	t.Helper()
	return testenv.Reference(t, "debian-6.1.0-57-cloud/"+name)
}

// vmlinux132 is pahole 1.32's BTF of the Debian vmlinux
// (--btf_features=default, -j2; scripts/pahole132-references), the
// modules' base in the pahole 1.32 references.
func vmlinux132(t testing.TB) string {
	t.Helper()
	return testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf")
}

// validate runs the independent checks every encoder output must pass:
// btf.Spec.Check, bpftool and the running kernel's verifier.
func validate(t *testing.T, name string, data []byte) {
	t.Helper()
	s, err := btf.Parse(data, nil)
	if err != nil {
		t.Fatalf("%s: reading our own output: %v", name, err)
	}
	if err := s.Check(); err != nil {
		t.Errorf("%s: btf check: %v", name, err)
	}
	if _, err := exec.LookPath("bpftool"); err == nil {
		f := filepath.Join(t.TempDir(), "out.btf")
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bpftool", "btf", "dump", "file", f)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Stdout = nil
		if err := cmd.Run(); err != nil {
			t.Errorf("%s: bpftool btf dump: %v\n%s", name, err, stderr.String())
		}
	} else if os.Getenv("CI") == "true" {
		t.Errorf("bpftool not found")
	}
	err = kernload.Load(data)
	var rej *kernload.RejectedError
	switch {
	case errors.As(err, &rej):
		log := rej.Log
		if len(log) > 2000 {
			log = log[len(log)-2000:]
		}
		t.Errorf("%s: the kernel rejected our BTF (%v):\n%s", name, rej.Errno, log)
	case errors.Is(err, kernload.ErrNotPermitted):
		testenv.SkipPartOrFail(t, "kernel load: %v", err)
	case err != nil:
		t.Errorf("%s: kernel load: %v", name, err)
	}
}

func diffText(r *diff.Result) string {
	var b bytes.Buffer
	r.Write(&b)
	return b.String()
}
