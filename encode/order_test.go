package encode

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/internal/testc"
)

// nestedSrc defines anonymous unions in a function body with structs
// (and a union in a struct) defined in their bodies: gcc nests those
// DIEs in the union's, where at file scope C puts them side by side.
const nestedSrc = `unsigned long nest_read(unsigned long *p, int n)
{
	unsigned long sum = 0;
	for (int i = 0; i < n; i++) {
		union {
			struct { unsigned int from, to; };
			unsigned long lbr;
		} msr;
		union {
			struct {
				unsigned int lo;
				union { unsigned int hi; unsigned short half[2]; };
			};
			struct { unsigned char b0, b1, b2, b3, b4, b5, b6, b7; };
			unsigned long raw;
		} deep;
		msr.lbr = p[i];
		deep.raw = p[i] >> 1;
		sum += msr.from + msr.to + deep.lo + deep.half[1] + deep.b7;
	}
	return sum;
}
`

// TestNestedTypeOrder: pahole numbers a type once it has read its whole
// entry, so a struct or union defined in another's body comes before it
// (innermost first, siblings in order). Oracle: pahole 1.24 from Debian
// (pahole -J --btf_encode_detached) on the same gcc 12 -O2 object, whose
// listing (bpftool btf dump) must equal ours line for line; before this
// rule we listed each union before the structs defined in it.
func TestNestedTypeOrder(t *testing.T) {
	testc.Require(t, "gcc", "pahole", "bpftool")
	dir := t.TempDir()
	src := filepath.Join(dir, "nest.c")
	if err := os.WriteFile(src, []byte(nestedSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := filepath.Join(dir, "nest.o")
	testc.Run(t, "gcc", "-gdwarf-5", "-O2", "-c", "-o", obj, src)
	ref := filepath.Join(dir, "pahole.btf")
	testc.Run(t, "pahole", "-J", "--btf_encode_detached="+ref, obj)
	s, err := EncodeFile(obj, Options{Features: DefaultFeatures})
	if err != nil {
		t.Fatal(err)
	}
	ours := filepath.Join(dir, "ours.btf")
	if err := os.WriteFile(ours, s.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	dump := func(f string) []byte {
		out, err := exec.Command("bpftool", "btf", "dump", "file", f).Output()
		if err != nil {
			t.Fatalf("bpftool btf dump file %s: %v", f, err)
		}
		return out
	}
	want, got := dump(ref), dump(ours)
	if !bytes.Equal(got, want) {
		t.Errorf("our listing:\n%s\npahole 1.24's:\n%s", got, want)
	}
	// The fixture must nest: the first union's struct comes first.
	if !bytes.HasPrefix(want, []byte("[1] STRUCT '(anon)'")) {
		t.Errorf("pahole 1.24 does not list a nested struct first; the fixture tests nothing:\n%s", want)
	}
}

// TestVmlinuxBytesMatchPahole131: with the default features the Debian
// vmlinux's BTF is pahole 1.31's file byte for byte (the unreferenced
// anonymous union of arch/x86/events/intel/lbr.c, defined in a function
// body, after the struct defined in it).
func TestVmlinuxBytesMatchPahole131(t *testing.T) {
	vmlinux := requireVmlinux(t)
	requireFile(t, refBTF)
	got, err := EncodeFile(vmlinux, Options{Features: DefaultFeatures, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := os.ReadFile(refBTF)
	if err != nil {
		t.Fatal(err)
	}
	raw := got.Marshal(nil)
	if len(raw) != len(ref) {
		t.Fatalf("%d bytes, pahole 1.31 wrote %d", len(raw), len(ref))
	}
	n, first := 0, -1
	for i := range raw {
		if raw[i] != ref[i] {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	if n != 0 {
		t.Errorf("%d bytes differ from pahole 1.31's %s, the first at offset %d", n, refBTF, first)
	}
}
