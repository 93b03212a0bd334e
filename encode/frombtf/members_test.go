package frombtf

import (
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// gbtf is how the tests compile objects with BTF: gcc's -gbtf beside
// DWARF 5, as a kernel built with KCFLAGS=-gbtf compiles them.
var gbtf = testc.Variant{CC: testc.GCC, Flags: []string{"-O2", "-gdwarf-5", "-gbtf"}}

// memberSource is member i of the small archives: a struct, a per-CPU
// variable of its type, a static per-CPU variable of a name every member
// uses, a function taking the struct, a global outside the per-CPU
// section, a function that is always inlined, and an enum declared but
// not defined that a function pointer takes by value (gcc 12 writes a
// struct FWD for it, which the kernel refuses there).
func memberSource(i int) string {
	return fmt.Sprintf(`#define PERCPU __attribute__((section(".data..percpu")))
struct m%[1]d_s { int a; char b[%[1]d + 2]; unsigned long c%[1]d : %[2]d; struct m%[1]d_s *next; };
typedef struct m%[1]d_s m%[1]d_t;
PERCPU m%[1]d_t m%[1]d_pcpu;
static PERCPU long shared_static[%[1]d + 1];
int m%[1]d_plain = %[1]d;
static inline int m%[1]d_inlined(int k) { return k * %[1]d; }
enum m%[1]d_fwd_e;
struct m%[1]d_ops { int (*cb)(enum m%[1]d_fwd_e e); } m%[1]d_ops_v;
__attribute__((noinline)) int m%[1]d_func(struct m%[1]d_s *p, int k)
{
	shared_static[0] += k;
	return p->a + m%[1]d_inlined(k) + (int)shared_static[%[1]d];
}
`, i, i%20+1)
}

// buildArchive compiles n member sources with gcc -gbtf and links them:
// "r" with ld -r (a relocatable object, as a kernel module is), "exec"
// into an executable at fixed addresses (as vmlinux is). It returns the
// linked file and the objects.
func buildArchive(t *testing.T, n int, link string) (string, []string) {
	t.Helper()
	testc.Require(t, "gcc", "ld")
	dir := t.TempDir()
	var objs []string
	for i := 0; i < n; i++ {
		src := filepath.Join(dir, fmt.Sprintf("m%d.c", i))
		if err := os.WriteFile(src, []byte(memberSource(i)), 0o644); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, testc.Compile(t, src, gbtf))
	}
	out := filepath.Join(dir, "linked")
	args := []string{"-o", out}
	if link == "r" {
		args = append(args, "-r")
	} else {
		// ld's default script folds .data..percpu into .data; the
		// kernel's keeps it, at an address of its own.
		lds := filepath.Join(dir, "link.lds")
		script := `SECTIONS {
	. = 0x400000;
	.text : { *(.text .text.*) }
	. = ALIGN(0x1000);
	.data..percpu : { *(.data..percpu) }
	.data : { *(.data .data.*) }
	.bss : { *(.bss .bss.*) }
}
`
		if err := os.WriteFile(lds, []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "-T", lds, "-e", "m0_func")
	}
	testc.Run(t, "ld", append(args, objs...)...)
	return out, objs
}

// TestThreeMembers: an archive of three members, linked both ways; the
// route reads every member, not member 0 alone (acceptance 5): each
// member's struct, function and per-CPU variables arrive, the variables
// at the offsets the ELF symbol table gives (read here with debug/elf),
// and nothing that is not a per-CPU variable or a function with a symbol.
func TestThreeMembers(t *testing.T) {
	for _, link := range []string{"r", "exec"} {
		t.Run(link, func(t *testing.T) {
			file, _ := buildArchive(t, 3, link)
			raw, _, err := btf.ReadBTFBytes(file)
			if err != nil {
				t.Fatal(err)
			}
			blobs, err := btf.SplitArchive(raw)
			if err != nil {
				t.Fatal(err)
			}
			if len(blobs) != 3 {
				t.Fatalf("the linked .BTF has %d members, want 3", len(blobs))
			}
			spec, err := EncodeFile(file, Options{Features: encode.DefaultFeatures, Jobs: 2})
			if err != nil {
				t.Fatal(err)
			}
			if err := spec.Check(); err != nil {
				t.Fatalf("Check: %v", err)
			}
			byName := map[string][]btf.Type{}
			for id := spec.FirstID(); id < spec.NextID(); id++ {
				ty := spec.Type(id)
				byName[ty.Kind().String()+" "+ty.Name()] = append(byName[ty.Kind().String()+" "+ty.Name()], ty)
			}
			for i := 0; i < 3; i++ {
				for _, want := range []string{
					fmt.Sprintf("STRUCT m%d_s", i), fmt.Sprintf("TYPEDEF m%d_t", i),
					fmt.Sprintf("FUNC m%d_func", i), fmt.Sprintf("VAR m%d_pcpu", i),
				} {
					if len(byName[want]) != 1 {
						t.Errorf("%s: %d in the output, want 1 (member %d's)", want, len(byName[want]), i)
					}
				}
				for _, absent := range []string{fmt.Sprintf("VAR m%d_plain", i), fmt.Sprintf("FUNC m%d_inlined", i)} {
					if len(byName[absent]) != 0 {
						t.Errorf("%s is in the output: not a per-CPU variable / no ELF symbol", absent)
					}
				}
			}
			if n := len(byName["VAR shared_static"]); n != 3 {
				t.Errorf("VAR shared_static: %d, want 3 (one static per member)", n)
			}
			// Each VAR's DATASEC entry against the symbol table.
			want := percpuSymbols(t, file)
			secs := byName["DATASEC .data..percpu"]
			if len(secs) != 1 {
				t.Fatalf("%d DATASECs .data..percpu, want 1", len(secs))
			}
			var got []string
			end := uint32(0)
			for i := 0; i < secs[0].Vlen(); i++ {
				e := secs[0].SecVar(i)
				v := spec.Type(e.Type)
				got = append(got, fmt.Sprintf("%s@%d+%d", v.Name(), e.Offset, e.Size))
				end = max(end, e.Offset+e.Size)
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("DATASEC .data..percpu entries:\n got %v\nwant %v (symbol table)", got, want)
			}
			if secs[0].Size() != end {
				t.Errorf("DATASEC size %d, want %d (the end of its last variable)", secs[0].Size(), end)
			}
		})
	}
}

// percpuSymbols lists the object symbols of .data..percpu as
// "name@offset+size", sorted.
func percpuSymbols(t *testing.T, path string) []string {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) != elf.STT_OBJECT || int(s.Section) >= len(f.Sections) || s.Section == elf.SHN_UNDEF {
			continue
		}
		sec := f.Sections[s.Section]
		if sec.Name != ".data..percpu" {
			continue
		}
		off := s.Value
		if f.Type != elf.ET_REL {
			off -= sec.Addr
		}
		out = append(out, fmt.Sprintf("%s@%d+%d", s.Name, off, s.Size))
	}
	sort.Strings(out)
	return out
}

// TestEnumSizeZero: gcc 14 and 15 write an enum that is only declared
// ("enum foo;") as an ENUM of no values and size 0, which the kernel
// refuses (scripts/gcc-btf-causes shows it with those compilers; gcc 12
// here cannot write it, so the member is made by hand and appended to a
// gcc archive). The route writes it as the DWARF route does, size 4, and
// the result loads.
func TestEnumSizeZero(t *testing.T) {
	file, _ := buildArchive(t, 2, "r")
	testc.Require(t, "objcopy")
	m := btf.NewSpec()
	i := m.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	e := m.Add("declared_only", btf.KindEnum, 0, false, 0)
	proto := m.Add("", btf.KindFuncProto, 1, false, uint32(i), m.AddString("e"), uint32(e))
	m.Add("", btf.KindPtr, 0, false, uint32(proto))
	old, err := exec.Command("objcopy", "--dump-section", ".BTF=/dev/stdout", file, "/dev/null").Output()
	if err != nil {
		t.Fatalf("objcopy --dump-section: %v", err)
	}
	archive := append(append([]byte(nil), old...), m.Marshal(nil)...)
	sec := filepath.Join(t.TempDir(), "btf")
	if err := os.WriteFile(sec, archive, 0o644); err != nil {
		t.Fatal(err)
	}
	testc.Run(t, "objcopy", "--update-section", ".BTF="+sec, file)
	spec, err := EncodeFile(file, Options{Features: encode.DefaultFeatures, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for id := spec.FirstID(); id < spec.NextID(); id++ {
		if ty := spec.Type(id); ty.Kind() == btf.KindEnum && ty.Name() == "declared_only" {
			found = true
			if ty.Size() != 4 || ty.Vlen() != 0 {
				t.Errorf("enum declared_only: size %d vlen %d, want size 4 vlen 0", ty.Size(), ty.Vlen())
			}
		}
	}
	if !found {
		t.Fatal("enum declared_only is missing from the result")
	}
	if err := spec.Check(); err != nil {
		t.Fatalf("Check: %v", err)
	}
	switch err := kernload.Load(spec.Marshal(nil)); {
	case errors.Is(err, kernload.ErrNotPermitted):
		t.Logf("BPF_BTF_LOAD not permitted here: the kernel's verdict is not checked")
	case err != nil:
		t.Fatalf("the running kernel refuses the result: %v", err)
	}
}
