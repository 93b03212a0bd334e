package cdump

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// The raw listing's oracle is `bpftool [-B BASE] btf dump file FILE`, run
// at test time on the same input.

// bpftoolRaw runs `bpftool [-B base] btf dump file path` and returns its output.
func bpftoolRaw(t testing.TB, path, base string) []byte {
	t.Helper()
	testc.Require(t, "bpftool")
	var args []string
	if base != "" {
		args = append(args, "-B", base)
	}
	args = append(args, "btf", "dump", "file", path)
	return testc.Output(t, "bpftool", args...)
}

// ourRaw lists path (split against base when not "") with WriteRaw.
func ourRaw(t testing.TB, path, base string) []byte {
	t.Helper()
	var b *btf.Spec
	if base != "" {
		b = loadBase(t, base)
	}
	s, err := btf.LoadFile(path, b)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteRaw(&out, s); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// firstDiff describes where two listings first differ.
func firstDiff(got, want []byte) string {
	gl := bytes.Split(got, []byte("\n"))
	wl := bytes.Split(want, []byte("\n"))
	for i := 0; i < len(gl) && i < len(wl); i++ {
		if !bytes.Equal(gl[i], wl[i]) {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl[i], wl[i])
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(gl), len(wl))
}

// TestRawMatchesBpftool checks WriteRaw against `bpftool [-B BASE] btf
// dump file FILE`, byte for byte, on every oracle input: reference BTFs
// (and pahole 1.32's module and distilled BTFs from the reference
// tarballs), the running kernel's, the Debian vmlinux (ELF) and 20 of its
// modules (split), and objects compiled with BTF from the C corpus.
//
// With -short (the race-detector run) only the objects and three small
// Debian modules are listed: the vmlinux-sized inputs take minutes under
// -race.
func TestRawMatchesBpftool(t *testing.T) {
	testc.Require(t, "bpftool")
	var ins []oracleInput
	if !testing.Short() {
		ins = append(ins, referenceInputs(t)...)
		ins = append(ins, sysfsRawInputs(t)...)
		ins = append(ins, tarballInputs(t)...)
	}
	ins = append(ins, fixtureInputs(t)...)
	ins = append(ins, rawObjectInputs(t)...)
	t.Run("debian", func(t *testing.T) {
		vmlinux, _ := testenv.KernelInputs(t)
		if !testing.Short() {
			ins = append(ins, oracleInput{"debian/vmlinux", vmlinux, ""})
		}
		for _, m := range debianModules {
			p := testenv.Module(t, m)
			switch name := filepath.Base(p); {
			case !testing.Short(), name == "vfat.ko", name == "tun.ko", name == "8021q.ko":
				ins = append(ins, oracleInput{"debian/" + name, p, vmlinux})
			}
		}
	})
	if testing.Short() {
		t.Logf("-short: only objects and 3 Debian modules, no vmlinux-sized inputs")
	}
	for _, in := range ins {
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			got, want := ourRaw(t, in.path, in.base), bpftoolRaw(t, in.path, in.base)
			if !bytes.Equal(got, want) {
				t.Fatalf("WriteRaw differs from bpftool (%d vs %d bytes) at %s", len(got), len(want), firstDiff(got, want))
			}
		})
	}
}

// sysfsRawInputs are /sys/kernel/btf/vmlinux and up to five module BTFs of
// the running kernel (split against vmlinux).
func sysfsRawInputs(t *testing.T) []oracleInput {
	vm := filepath.Join(btf.SysfsDir, "vmlinux")
	if _, err := os.Stat(vm); err != nil {
		testenv.SkipPartOrFail(t, "%s: %v", vm, err)
		return nil
	}
	ins := []oracleInput{{"sysfs/vmlinux", vm, ""}}
	ents, _ := os.ReadDir(btf.SysfsDir)
	var mods []string
	for _, e := range ents {
		if e.Name() != "vmlinux" {
			mods = append(mods, e.Name())
		}
	}
	sort.Strings(mods)
	if len(mods) == 0 {
		// Plain: a kernel built without loadable modules has none, in CI too.
		t.Logf("SKIP: no module BTF under %s (no modules loaded)", btf.SysfsDir)
	}
	if len(mods) > 5 {
		mods = mods[:5]
	}
	for _, m := range mods {
		ins = append(ins, oracleInput{"sysfs/" + m, filepath.Join(btf.SysfsDir, m), vm})
	}
	return ins
}

// rawObjectInputs are the objects the C header's fixtures do not build:
// the corpus compiled by gcc -gbtf at -O0, and by clang --target=bpf for
// the source it accepts (it writes the TYPE_TAG and DECL_TAG kinds gcc 12
// does not).
func rawObjectInputs(t *testing.T) []oracleInput {
	t.Helper()
	var ins []oracleInput
	for _, src := range testc.CorpusFiles(t) {
		base := strings.TrimSuffix(filepath.Base(src), ".c")
		o := testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-gbtf", "-O0"}})
		ins = append(ins, oracleInput{"gcc-gbtf-O0/" + base + ".o", o, ""})
	}
	if testc.Have(testc.Clang) {
		src := filepath.Join(testc.CorpusDir(), "tags.c")
		o := testc.Compile(t, src, testc.Variant{CC: testc.Clang, Flags: []string{"--target=bpf", "-g", "-O2"}})
		ins = append(ins, oracleInput{"clang-bpf/tags.o", o, ""})
	}
	return ins
}

// tarballInputs unpacks the reference tarballs of module BTF made by pahole
// 1.32: every 40th of the Debian modules' split BTF (against the reference
// pahole-1.32/debian-6.1.0-57-cloud.btf; the whole set of 1121 agrees with bpftool too, but
// takes minutes), and the 20 modules with distilled base BTF (X.BTF split
// against X.BTF.base, and X.BTF.base itself).
func tarballInputs(t *testing.T) []oracleInput {
	t.Helper()
	mods := testenv.Reference(t, "debian-6.1.0-57-cloud/modules-pahole-1.32.tar.xz")
	dist := testenv.Reference(t, "debian-6.1.0-57-cloud/distilled-pahole-1.32.tar.xz")
	base := testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf")
	out := t.TempDir()
	testc.Run(t, "tar", "-xJf", mods, "-C", out)
	testc.Run(t, "tar", "-xJf", dist, "-C", out)

	var ins []oracleInput
	m, _ := filepath.Glob(filepath.Join(out, "btf", "*.btf"))
	sort.Strings(m)
	for i := 0; i < len(m); i += 40 {
		ins = append(ins, oracleInput{"pahole-modules/" + filepath.Base(m[i]), m[i], base})
	}
	d, _ := filepath.Glob(filepath.Join(out, "*.BTF"))
	sort.Strings(d)
	for _, f := range d {
		ins = append(ins,
			oracleInput{"distilled/" + filepath.Base(f), f, f + ".base"},
			oracleInput{"distilled/" + filepath.Base(f) + ".base", f + ".base", ""})
	}
	if len(m) == 0 || len(d) == 0 {
		t.Fatalf("reference tarballs unpacked to %d module and %d distilled BTFs", len(m), len(d))
	}
	return ins
}

// everyKindSpec builds a base Spec with every kind and the format's corner
// cases: each INT encoding, signed and unsigned ENUM and ENUM64 (negative
// and 64-bit values), FWD of struct and union, bitfields with and without
// kind_flag, every FUNC and VAR linkage, a variadic FUNC_PROTO, DATASEC
// entries, DECL_TAGs on a declaration and on a member, TYPE_TAG, FLOAT, and
// anonymous types.
func everyKindSpec() *btf.Spec {
	s := btf.NewSpec()
	i32 := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)       // 1
	u8 := s.Add("unsigned char", btf.KindInt, 0, false, 1, 8)                 // 2
	s.Add("char", btf.KindInt, 0, false, 1, btf.IntChar<<24|8)                // 3
	s.Add("_Bool", btf.KindInt, 0, false, 1, btf.IntBool<<24|8)               // 4
	s.Add("u3", btf.KindInt, 0, false, 1, 3<<16|3)                            // 5: bits_offset 3
	ptr := s.Add("", btf.KindPtr, 0, false, uint32(i32))                      // 6
	idx := s.Add("__ARRAY_SIZE_TYPE__", btf.KindInt, 0, false, 4, 32)         // 7
	arr := s.Add("", btf.KindArray, 0, false, 0, uint32(u8), uint32(idx), 16) // 8
	st := s.Add("plain", btf.KindStruct, 2, false, 24,                        // 9
		s.AddString("p"), uint32(ptr), 0,
		s.AddString("buf"), uint32(arr), 64)
	s.Add("bits", btf.KindStruct, 3, true, 4, // 10: kind_flag bitfields
		s.AddString("a"), uint32(i32), 3<<24|0,
		s.AddString("b"), uint32(i32), 5<<24|3,
		0, uint32(i32), 0) // anonymous, not a bitfield
	s.Add("", btf.KindUnion, 2, false, 8, s.AddString("x"), uint32(i32), 0, s.AddString("y"), uint32(ptr), 0)     // 11
	s.Add("uenum", btf.KindEnum, 2, false, 4, s.AddString("A"), 0, s.AddString("B"), 0xffffffff)                  // 12
	s.Add("senum", btf.KindEnum, 2, true, 4, s.AddString("NEG"), 0xfffffffd, s.AddString("POS"), 3)               // 13
	s.Add("fs", btf.KindFwd, 0, false, 0)                                                                         // 14
	s.Add("fu", btf.KindFwd, 0, true, 0)                                                                          // 15
	td := s.Add("myint", btf.KindTypedef, 0, false, uint32(i32))                                                  // 16
	s.Add("", btf.KindVolatile, 0, false, uint32(td))                                                             // 17
	cst := s.Add("", btf.KindConst, 0, false, uint32(i32))                                                        // 18
	s.Add("", btf.KindRestrict, 0, false, uint32(ptr))                                                            // 19
	proto := s.Add("", btf.KindFuncProto, 2, false, uint32(i32), s.AddString("n"), uint32(i32), 0, 0)             // 20: variadic
	s.Add("f_static", btf.KindFunc, btf.LinkageStatic, false, uint32(proto))                                      // 21
	fg := s.Add("f_global", btf.KindFunc, btf.LinkageGlobal, false, uint32(proto))                                // 22
	s.Add("f_extern", btf.KindFunc, btf.LinkageExtern, false, uint32(proto))                                      // 23
	s.Add("", btf.KindFuncProto, 0, false, 0)                                                                     // 24: void (void)
	v1 := s.Add("v_static", btf.KindVar, 0, false, uint32(i32), btf.LinkageStatic)                                // 25
	v2 := s.Add("v_global", btf.KindVar, 0, false, uint32(cst), btf.LinkageGlobal)                                // 26
	v3 := s.Add("v_extern", btf.KindVar, 0, false, uint32(st), btf.LinkageExtern)                                 // 27
	s.Add(".data", btf.KindDatasec, 3, false, 40, uint32(v1), 0, 4, uint32(v2), 4, 4, uint32(v3), 8, 24)          // 28
	s.Add("double", btf.KindFloat, 0, false, 8)                                                                   // 29
	s.Add("tag_decl", btf.KindDeclTag, 0, false, uint32(fg), 0xffffffff)                                          // 30: component_idx -1
	s.Add("tag_member", btf.KindDeclTag, 0, false, uint32(st), 1)                                                 // 31
	s.Add("user", btf.KindTypeTag, 0, false, uint32(i32))                                                         // 32
	s.Add("u64enum", btf.KindEnum64, 2, false, 8, s.AddString("SMALL"), 1, 0, s.AddString("HUGE"), 0, 0xffffffff) // 33
	s.Add("s64enum", btf.KindEnum64, 2, true, 8, s.AddString("NBIG"), 0, 0xffffffff, s.AddString("MIN"), 0, 0x80000000)
	s.Add("", btf.KindEnum, 0, false, 4) // anonymous, no enumerators
	// kind_flag set on tags (attribute-style tags of newer kernels): bpftool
	// 7.1 does not show it.
	s.Add("attr_decl", btf.KindDeclTag, 0, true, uint32(fg), 0xffffffff)
	s.Add("attr_type", btf.KindTypeTag, 0, true, uint32(i32))
	return s
}

// TestRawEveryKind runs WriteRaw and bpftool over a hand-built BTF with
// every kind and corner case, and over a split BTF on top of it that refers
// to base types and strings.
func TestRawEveryKind(t *testing.T) {
	dir := t.TempDir()
	base := everyKindSpec()
	basePath := filepath.Join(dir, "base.btf")
	if err := os.WriteFile(basePath, base.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	split := btf.NewSplitSpec(base)
	p := split.Add("", btf.KindPtr, 0, false, 9) // to base struct plain
	v := split.Add("split_var", btf.KindVar, 0, false, uint32(p), btf.LinkageGlobal)
	split.Add("plain", btf.KindStruct, 1, false, 8, split.AddString("p"), uint32(p), 0) // "p": a base string
	split.Add(".bss", btf.KindDatasec, 2, false, 12, uint32(v), 0, 8, 25, 8, 4)         // own VAR, base VAR
	splitPath := filepath.Join(dir, "split.btf")
	if err := os.WriteFile(splitPath, split.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}

	// The same in big endian: bpftool reads either byte order.
	beBasePath := filepath.Join(dir, "base-be.btf")
	beSplitPath := filepath.Join(dir, "split-be.btf")
	if err := os.WriteFile(beBasePath, base.Marshal(binary.BigEndian), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(beSplitPath, split.Marshal(binary.BigEndian), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name       string
		s          *btf.Spec
		path, base string
	}{
		{"base", base, basePath, ""},
		{"split", split, splitPath, basePath},
		{"base-be", base, beBasePath, ""},
		{"split-be", split, beSplitPath, beBasePath},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got bytes.Buffer
			if err := WriteRaw(&got, c.s); err != nil {
				t.Fatal(err)
			}
			want := bpftoolRaw(t, c.path, c.base)
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("WriteRaw differs from bpftool at %s\nbpftool:\n%s", firstDiff(got.Bytes(), want), want)
			}
			// And the file read back (little or big endian) lists the same.
			if read := ourRaw(t, c.path, c.base); !bytes.Equal(read, want) {
				t.Fatalf("WriteRaw of %s read back differs from bpftool at %s", filepath.Base(c.path), firstDiff(read, want))
			}
		})
	}

	// AppendRaw of one type equals its lines in the full listing, also for a
	// base type seen through the split Spec.
	var full bytes.Buffer
	WriteRaw(&full, base)
	for id := btf.TypeID(1); id < base.NextID(); id++ {
		line := AppendRaw(nil, split, id)
		if !bytes.Contains(full.Bytes(), line) || !strings.HasPrefix(string(line), "[") {
			t.Errorf("AppendRaw(%d) = %q not in the listing", id, line)
		}
	}
}

// TestRawKindLayout: BTF with libbpf v1.8's kind layout section (a 32-byte
// header) lists as bpftool 7.1 lists it: bpftool steps over the longer
// header, and the section changes no type.
func TestRawKindLayout(t *testing.T) {
	s := everyKindSpec()
	s.SetKindLayouts(btf.StandardKindLayouts())
	path := filepath.Join(t.TempDir(), "layout.btf")
	if err := os.WriteFile(path, s.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	got, want := ourRaw(t, path, ""), bpftoolRaw(t, path, "")
	if !bytes.Equal(got, want) {
		t.Fatalf("WriteRaw differs from bpftool at %s", firstDiff(got, want))
	}
}

// TestRawInvalidName checks the cases bpftool's loader refuses, so
// bpftool cannot be the oracle: a name offset outside the string table
// prints (invalid), as bpftool's btf_str does.
func TestRawInvalidName(t *testing.T) {
	s := btf.NewSpec()
	s.AddRaw(1000, btf.Info(btf.KindInt, 0, false), 4, 32)
	s.AddRaw(0, btf.Info(btf.KindDatasec, 1, false), 4, 99, 0, 4) // entry type out of range: no "(KIND 'name')"
	var got bytes.Buffer
	WriteRaw(&got, s)
	want := "[1] INT '(invalid)' size=4 bits_offset=0 nr_bits=32 encoding=(none)\n" +
		"[2] DATASEC '(anon)' size=4 vlen=1\n\ttype_id=99 offset=0 size=4\n"
	if got.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", got.String(), want)
	}
}
