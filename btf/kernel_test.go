package btf

import (
	"testing"

	"golang.org/x/sys/unix"
)

// hostKernel is the CheckOption for the running kernel's rules, for the
// tests that compare Check with its BPF_BTF_LOAD.
func hostKernel(t testing.TB) CheckOption {
	t.Helper()
	var uts unix.Utsname
	if err := unix.Uname(&uts); err != nil {
		t.Fatal(err)
	}
	v, err := ParseKernelVersion(unix.ByteSliceToString(uts.Release[:]))
	if err != nil {
		t.Fatal(err)
	}
	return ForKernel(v)
}

func TestParseKernelVersion(t *testing.T) {
	for in, want := range map[string]KernelVersion{
		"6.1": {6, 1}, "v6.12": {6, 12}, "6.1.0-57-cloud-amd64": {6, 1},
		"6.18.44-fc-v657": {6, 18}, "7.1-rc3": {7, 1}, " 5.13\n": {5, 13},
	} {
		got, err := ParseKernelVersion(in)
		if err != nil || got != want {
			t.Errorf("ParseKernelVersion(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "6", "six.one", "v", "-1.2", "6.x"} {
		if v, err := ParseKernelVersion(in); err == nil {
			t.Errorf("ParseKernelVersion(%q) = %v; want an error", in, v)
		}
	}
	old, new := KernelVersion{6, 1}, KernelVersion{6, 12}
	if !old.Before(new) || new.Before(old) || old.Before(old) || !new.Before(KernelVersion{}) || (KernelVersion{}).Before(new) {
		t.Error("Before orders versions wrongly")
	}
	if !new.Has(FeatureEnum64) || old.Has(FeatureTagFlag) || !(KernelVersion{}).Has(Feature24BitVlen) {
		t.Error("Has answers wrongly")
	}
	fs := Features()
	for i := 1; i < len(fs); i++ {
		if fs[i].Since.Before(fs[i-1].Since) {
			t.Errorf("Features not oldest first: %s (%s) after %s (%s)", fs[i].Name, fs[i].Since, fs[i-1].Name, fs[i-1].Since)
		}
	}
}
