package dwarf

import (
	"bytes"
	godwarf "debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// diffStats is what a differential comparison saw.
type diffStats struct {
	units, dies, fields int
	tags                map[Tag]int
	typesSkipped        int   // .debug_types units debug/dwarf cannot walk
	riscvAddSub         int   // values debug/dwarf leaves unrelocated
	goErr               error // debug/dwarf could not read the file
}

// compareWithGo walks the .debug_info of the ELF file at path with this
// package and with Go's debug/dwarf in lockstep and fails on the first
// difference in unit boundaries, DIE offsets, tags, children flags,
// attribute lists, classes or values.
//
// Known differences of debug/dwarf, allowed for here:
//   - it cannot walk DWARF 4 .debug_types units (only look types up by
//     signature), so those are not compared here (the readelf test
//     covers them);
//   - it returns DW_FORM_loclistx as the raw index; the test resolves it
//     through .debug_loclists independently;
//   - it gives ClassUnknown to sec_offset attributes it has no class for
//     (DW_AT_macros, DW_AT_GNU_macros...); only the value is compared then;
//   - in DWARF 2 and 3 it classes data1/data2/udata values of
//     DW_AT_data_member_location and the like as section offsets, where the
//     standard says only data4 and data8 are: value compared only.
func compareWithGo(t *testing.T, path string) diffStats {
	t.Helper()
	d, err := Open(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer d.Close()
	ef, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	gd, err := ef.DWARF()
	if err != nil {
		return diffStats{goErr: err}
	}
	var loclists []byte
	if s := ef.Section(".debug_loclists"); s != nil {
		loclists, _ = s.Data()
	}
	bo := ef.ByteOrder

	st := diffStats{tags: map[Tag]int{}}
	gr := gd.Reader()
	r := d.NewReader()
	var e Entry
	var loclistsBase uint64
	for ui := range d.Units() {
		u := &d.Units()[ui]
		if u.Section == ".debug_types" {
			st.typesSkipped++
			continue
		}
		if err := r.Reset(u); err != nil {
			t.Fatalf("%s: unit %d: %v", path, ui, err)
		}
		st.units++
		for {
			ok, err := r.Next(&e)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if !ok {
				break
			}
			ge, err := gr.Next()
			if err != nil {
				st.goErr = err
				return st
			}
			if ge == nil {
				t.Fatalf("%s: debug/dwarf ended before DIE 0x%x", path, e.Offset)
			}
			if e.Tag == 0 {
				if ge.Tag != 0 {
					t.Fatalf("%s: null entry at 0x%x, debug/dwarf has %v at 0x%x", path, e.Offset, ge.Tag, ge.Offset)
				}
				continue
			}
			where := func() string {
				return fmt.Sprintf("%s: unit %d DIE 0x%x (%v)", filepath.Base(path), ui, e.Offset, e.Tag)
			}
			if godwarf.Offset(e.Offset) != ge.Offset || uint32(e.Tag) != uint32(ge.Tag) || e.Children != ge.Children {
				t.Fatalf("%s: debug/dwarf has DIE 0x%x tag 0x%x children %v", where(), ge.Offset, uint32(ge.Tag), ge.Children)
			}
			if e.Depth == 0 {
				if u.Version >= 5 {
					loclistsBase = 12
					if u.OffsetSize == 8 {
						loclistsBase = 20
					}
				}
				if v, ok := ge.Val(godwarf.AttrLoclistsBase).(int64); ok {
					loclistsBase = uint64(v)
				}
			}
			st.dies++
			st.tags[e.Tag]++
			if len(e.Fields) != len(ge.Field) {
				t.Fatalf("%s: %d fields, debug/dwarf %d", where(), len(e.Fields), len(ge.Field))
			}
			for i := range e.Fields {
				f, gf := &e.Fields[i], &ge.Field[i]
				st.fields++
				fw := func() string { return fmt.Sprintf("%s %v (%v)", where(), f.Attr, f.Form) }
				if uint32(f.Attr) != uint32(gf.Attr) {
					t.Fatalf("%s: debug/dwarf has attribute 0x%x", fw(), uint32(gf.Attr))
				}
				if u.Version < 4 && f.Class == ClassConstant && strings.HasSuffix(gf.Class.String(), "Ptr") &&
					f.Form != FormData4 && f.Form != FormData8 {
					// debug/dwarf makes every DWARF 2/3 constant of a
					// location-ish attribute a section offset; DWARF 3
					// (7.5.4) says only data4 and data8 are. Compare the
					// value only.
				} else if gf.Class != godwarf.ClassUnknown && f.Class.String() != gf.Class.String() {
					t.Fatalf("%s: class %v, debug/dwarf %v", fw(), f.Class, gf.Class)
				}
				if msg := compareValue(d, f, gf, loclists, loclistsBase, bo); msg != "" {
					if ef.Machine == elf.EM_RISCV && gf.Val == any(int64(0)) {
						// debug/elf does not apply R_RISCV_ADD32/SUB32
						// (the high_pc - low_pc of DWARF 4); elfx does.
						st.riscvAddSub++
						continue
					}
					t.Fatalf("%s: %s", fw(), msg)
				}
			}
		}
	}
	if ge, err := gr.Next(); err != nil || ge != nil {
		t.Fatalf("%s: debug/dwarf has more entries after ours ended: %v %v", path, ge, err)
	}
	return st
}

func compareValue(d *Data, f *Field, gf *godwarf.Field, loclists []byte, loclistsBase uint64, bo binary.ByteOrder) string {
	mismatch := func(ours, theirs any) string {
		return fmt.Sprintf("value %v (%#x), debug/dwarf %v (%T)", ours, f.Val, theirs, theirs)
	}
	switch gv := gf.Val.(type) {
	case string:
		s, err := d.String(f)
		if err != nil {
			return err.Error()
		}
		if s != gv {
			return mismatch(s, gv)
		}
	case []byte:
		if b := d.Bytes(f); !bytes.Equal(b, gv) {
			return mismatch(b, gv)
		}
	case bool:
		if (f.Val != 0) != gv {
			return mismatch(f.Val, gv)
		}
	case int64:
		if f.Int() != gv {
			return mismatch(f.Int(), gv)
		}
	case uint64:
		want := gv
		if f.Form == FormLoclistx {
			// debug/dwarf leaves the index; resolve it here.
			at := loclistsBase + gv*4
			if at+4 > uint64(len(loclists)) {
				return "loclistx index outside .debug_loclists"
			}
			want = loclistsBase + uint64(bo.Uint32(loclists[at:]))
		}
		if f.Val != want {
			return mismatch(f.Val, want)
		}
	case uint32:
		if f.Val != uint64(gv) {
			return mismatch(f.Val, gv)
		}
	case godwarf.Offset:
		if f.Val != uint64(gv) {
			return mismatch(f.Val, gv)
		}
	default:
		return fmt.Sprintf("unexpected debug/dwarf value type %T", gf.Val)
	}
	return ""
}

// corpusObjects compiles the C corpus in every DWARF variant, plus
// zlib- and zstd-compressed copies and type-unit builds, and returns the
// object paths.
func corpusObjects(t *testing.T) []string {
	var objs []string
	files := testc.CorpusFiles(t)
	for _, v := range testc.DWARFVariants() {
		if !testc.Have(v.CC) {
			testc.Require(t, string(v.CC))
		}
		for _, src := range files {
			objs = append(objs, testc.Compile(t, src, v))
		}
	}
	for _, v := range []testc.Variant{
		{CC: testc.GCC, Flags: []string{"-gdwarf-4", "-O2", "-fdebug-types-section"}},
		{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2", "-fdebug-types-section"}},
		{CC: testc.Clang, Flags: []string{"-gdwarf-4", "-O2", "-fdebug-types-section"}},
		{CC: testc.Clang, Flags: []string{"-gdwarf-5", "-O0", "-fdebug-types-section"}},
	} {
		for _, src := range files {
			objs = append(objs, testc.Compile(t, src, v))
		}
	}
	// DWARF 2 and 3, 64-bit DWARF, and DWARF 5 skeleton units
	// (-gsplit-dwarf; the .dwo files are not read by this package).
	for _, v := range []testc.Variant{
		{CC: testc.GCC, Flags: []string{"-gdwarf-2", "-O0"}},
		{CC: testc.GCC, Flags: []string{"-gdwarf-3", "-O2"}},
		{CC: testc.GCC, Flags: []string{"-gdwarf-4", "-gdwarf64", "-O0"}},
		{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-gdwarf64", "-O2"}},
		{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-gsplit-dwarf", "-O2"}},
	} {
		for _, src := range files {
			objs = append(objs, testc.Compile(t, src, v))
		}
	}
	dir := t.TempDir()
	for _, v := range []testc.Variant{
		{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}},
		{CC: testc.Clang, Flags: []string{"-gdwarf-4", "-O0"}},
	} {
		for _, src := range files {
			obj := testc.Compile(t, src, v)
			for _, z := range []string{"zlib", "zstd", "zlib-gnu"} {
				out := filepath.Join(dir, fmt.Sprintf("%s-%s-%s.o", filepath.Base(src), v.Name(), z))
				testc.Run(t, "objcopy", "--compress-debug-sections="+z, obj, out)
				objs = append(objs, out)
			}
		}
	}
	return objs
}

// linkedForGo returns obj itself, or, when obj has several .debug_info
// sections (DWARF 5 type units in COMDAT groups), obj linked into a static
// executable: debug/dwarf reads only one .debug_info of an object file.
func linkedForGo(t *testing.T, obj string) string {
	ef, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	n := 0
	for _, s := range ef.Sections {
		if s.Name == ".debug_info" {
			n++
		}
	}
	if n < 2 {
		return obj
	}
	exe := filepath.Join(t.TempDir(), filepath.Base(obj)+".exe")
	testc.Run(t, "gcc", "-nostdlib", "-static", "-Wl,-e,0", "-Wl,--unresolved-symbols=ignore-all", "-o", exe, obj)
	t.Logf("%s: %d .debug_info sections; debug/dwarf compared on the linked executable", filepath.Base(obj), n)
	return exe
}

func TestDiffCorpus(t *testing.T) {
	for _, obj := range corpusObjects(t) {
		st := compareWithGo(t, linkedForGo(t, obj))
		if st.goErr != nil {
			t.Fatalf("%s: debug/dwarf: %v", obj, st.goErr)
		}
		if st.dies == 0 || st.fields == 0 {
			t.Errorf("%s: nothing compared", obj)
		}
		t.Logf("%s: %d units, %d DIEs, %d attributes equal (%d .debug_types units left to the readelf test)", filepath.Base(obj), st.units, st.dies, st.fields, st.typesSkipped)
	}
}

// crossObjects compiles the corpus with clang for other targets: AArch64,
// RISC-V and (big-endian) s390x and ppc64 with RELA relocations, i386 with
// REL ones.
func crossObjects(t *testing.T) []string {
	testc.Require(t, "clang")
	var objs []string
	for _, tgt := range []string{"aarch64-linux-gnu", "riscv64-linux-gnu", "s390x-linux-gnu", "powerpc64-linux-gnu", "i386-linux-gnu"} {
		for _, dw := range []string{"-gdwarf-4", "-gdwarf-5"} {
			for _, src := range testc.CorpusFiles(t) {
				if tgt == "i386-linux-gnu" && strings.HasSuffix(src, "types.c") {
					continue // __int128
				}
				objs = append(objs, testc.Compile(t, src, testc.Variant{CC: testc.Clang,
					Flags: []string{"--target=" + tgt, "-ffreestanding", dw, "-O2"}}))
			}
		}
	}
	return objs
}

func TestDiffCrossTargets(t *testing.T) {
	for _, obj := range crossObjects(t) {
		st := compareWithGo(t, obj)
		if st.goErr != nil {
			// e.g. clang's DWARF 5 for s390x: debug/dwarf fails with
			// "decoding dwarf section str at offset 0x0: underflow".
			t.Logf("%s: debug/dwarf cannot read it (%v); compared with readelf instead", filepath.Base(obj), st.goErr)
			d, err := Open(obj)
			if err != nil {
				t.Fatal(err)
			}
			s, err := CountTags(d, 2)
			d.Close()
			if err != nil {
				t.Fatal(err)
			}
			compareHist(t, filepath.Base(obj), s, runReadelfHist(t, obj))
			continue
		}
		if st.dies == 0 {
			t.Errorf("%s: nothing compared", obj)
		}
		if st.riscvAddSub > 0 {
			t.Logf("%s: %d values relocated by R_RISCV_ADD/SUB pairs, which debug/elf leaves at 0", filepath.Base(obj), st.riscvAddSub)
		}
	}
}

func TestDiffKernelModules(t *testing.T) {
	n := 20
	if raceEnabled {
		n = 3 // the race detector makes debug/dwarf very slow
	}
	for _, ko := range testenv.ModuleSample(t, n) {
		st := compareWithGo(t, ko)
		if st.goErr != nil {
			t.Fatalf("%s: debug/dwarf: %v", ko, st.goErr)
		}
		t.Logf("%s: %d units, %d DIEs, %d attributes equal", filepath.Base(ko), st.units, st.dies, st.fields)
	}
}

func TestDiffVmlinux(t *testing.T) {
	vmlinux, _ := testenv.KernelInputs(t)
	if testing.Short() || raceEnabled {
		t.Skip("SKIP: -short or -race")
	}
	st := compareWithGo(t, vmlinux)
	if st.goErr != nil {
		t.Fatalf("debug/dwarf: %v", st.goErr)
	}
	if st.units != 2172 || st.dies != 14259548 {
		t.Errorf("vmlinux: %d units, %d DIEs; the issue measured 2,172 and 14,259,548", st.units, st.dies)
	}
	t.Logf("vmlinux: %d units, %d DIEs, %d attributes equal", st.units, st.dies, st.fields)
}
