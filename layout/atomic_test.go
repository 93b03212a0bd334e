package layout_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// atomicCases are the command lines run on testdata/atomic.c.
var atomicCases = []printCase{
	{"default", nil},
	{"E", []string{"-E"}},
	{"compile", []string{"--compile"}},
	{"compile-skip_atomic", []string{"--compile", "--skip_emitting_atomic_typedefs"}},
	{"C-typedefs", []string{"-C", "my_atomic_int,my_atomic_ulong,atomic_int_ptr,const_atomic_int,atomic_int"}},
	{"R", []string{"-R"}},
}

// TestFixturesAtomic: C11 _Atomic (DW_TAG_atomic_type) from gcc and
// clang, DWARF 4 and 5, against the pahole on PATH (1.32). From DWARF
// pahole says _Atomic where the type has it: before a member's type as it
// says const, after "typedef ", and through tag__name in pointers and
// nested types. BTF has no _Atomic (encoders look through it), so the
// listing of the BTF has none.
//
// The BTF is package encode's: pahole 1.32 -J stops at a
// DW_TAG_atomic_type ("Unsupported DW_TAG_atomic_type(0x47)", "Error
// while encoding BTF.") and leaves the object without .BTF, yet exits 0.
func TestFixturesAtomic(t *testing.T) {
	testc.Require(t, "pahole")
	objs := fixtureObjects(t, "atomic.c")
	for _, v := range testc.DWARFVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			obj := objs[v.Name()]
			s, err := encode.EncodeFile(obj, encode.Options{Features: encode.DefaultFeatures})
			if err != nil {
				t.Fatal(err)
			}
			raw := filepath.Join(t.TempDir(), "atomic.btf")
			if err := os.WriteFile(raw, s.Marshal(binary.LittleEndian), 0o644); err != nil {
				t.Fatal(err)
			}
			loaded, err := btf.LoadFile(raw, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range atomicCases {
				o := printOpts(t, c.args)
				oc := optionCase{c.name, c.args, o}
				t.Run(c.name+"/dwarf", func(t *testing.T) {
					want, wantMissing := pahole(t, oc, obj)
					got, missing := listDWARF(t, obj, o)
					if got != want || missing != wantMissing {
						t.Errorf("pahole %s %s: missing %q (want %q); %s", strings.Join(c.args, " "), obj, missing, wantMissing, diffTypes(got, want))
					}
					// gcc writes DW_TAG_atomic_type in DWARF 5 (DWARF 4
					// has no such tag);
					// clang 14 leaves _Atomic out of its DWARF.
					if c.name == "default" && strings.HasPrefix(v.Name(), "gcc") && strings.Contains(v.Name(), "dwarf-5") && !strings.Contains(got, "_Atomic long int") {
						t.Errorf("no _Atomic member in gcc's listing:\n%s", got)
					}
				})
				t.Run(c.name+"/btf", func(t *testing.T) {
					want, wantMissing := pahole(t, oc, "-F", "btf", raw)
					got, missing := listBTFFile(t, loaded, raw, o)
					if got != want || missing != wantMissing {
						t.Errorf("pahole -F btf %s %s: missing %q (want %q); %s", strings.Join(c.args, " "), raw, missing, wantMissing, diffTypes(got, want))
					}
				})
			}
		})
	}
}
