package encode

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
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

// nestedCxxSrc: in C++ types defined in a class's body are its
// children at any scope, nested two deep here.
const nestedCxxSrc = `struct Outer {
	struct Inner { int a; struct Deep { long d; } deep; } in;
	enum Kind { K1, K2 } kind;
	union { int u1; float u2; };
	int f(int x) { return x + in.a; }
};
int use(Outer *o) { return o->f(3) + o->in.deep.d + o->kind + o->u1; }
`

// TestNestedTypeOrder: pahole numbers a type once it has read its whole
// entry, so a struct, union or enum defined in another's body comes
// before it (innermost first, siblings in order). Oracle: pahole 1.32
// (pahole -J --btf_encode_detached) on the same gcc 12 -O2 objects, whose
// listing (bpftool btf dump) must equal ours line for line (without
// float, which pahole does not encode without --btf_features); before
// this rule we listed each container before the types defined in it.
func TestNestedTypeOrder(t *testing.T) {
	testc.Require(t, "pahole", "bpftool")
	for _, tc := range []struct {
		cc, file, src, first string
	}{
		{"gcc", "nest.c", nestedSrc, "[1] STRUCT '(anon)'"},
		{"g++", "nest.cc", nestedCxxSrc, "[1] STRUCT 'Deep'"},
	} {
		t.Run(tc.cc, func(t *testing.T) {
			testc.Require(t, tc.cc)
			dir := t.TempDir()
			src := filepath.Join(dir, tc.file)
			if err := os.WriteFile(src, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			obj := filepath.Join(dir, "nest.o")
			testc.Run(t, tc.cc, "-gdwarf-5", "-O2", "-c", "-o", obj, src)
			ref := filepath.Join(dir, "pahole.btf")
			testc.Run(t, "pahole", "-J", "--btf_encode_detached="+ref, obj)
			s, err := EncodeFile(obj, Options{Features: DefaultFeatures &^ FeatFloat})
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
				t.Errorf("our listing:\n%s\npahole 1.32's:\n%s", got, want)
			}
			// The fixture must nest: a nested struct comes first.
			if !bytes.HasPrefix(want, []byte(tc.first)) {
				t.Errorf("pahole 1.32 does not list %q first; the fixture tests nothing:\n%s", tc.first, want)
			}
		})
	}
}

// TestVmlinuxBytesMatchPahole132: with the default features the Debian
// vmlinux's BTF is pahole 1.32's file byte for byte (the unreferenced
// anonymous union of arch/x86/events/intel/lbr.c, defined in a function
// body, after the struct defined in it).
func TestVmlinuxBytesMatchPahole132(t *testing.T) {
	vmlinux := requireVmlinux(t)
	refBTF := vmlinux132(t)
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
		t.Fatalf("%d bytes, pahole 1.32 wrote %d", len(raw), len(ref))
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
		t.Errorf("%d bytes differ from pahole 1.32's %s, the first at offset %d", n, refBTF, first)
	}
}
