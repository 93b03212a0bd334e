package encode

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// rustSrc has what Rust's DWARF has and C's has not: enums with data
// (a DW_TAG_variant_part of DW_TAG_variants in a struct, the variants'
// structs defined inside it), niche-optimised enums, a struct whose
// fields rustc lays out in another order than declared (its members come
// out of offset order), everything inside DW_TAG_namespace (the crate,
// its modules), #[no_mangle] functions there, methods (their
// declarations inside the enum's or the struct's entry: a
// DW_TAG_subprogram in a DW_TAG_enumeration_type, which pahole 1.32 reads),
// and statics.
const rustSrc = `#![allow(dead_code)]
pub enum Shape { Circle(f64), Rect { w: u32, h: u32 }, Empty }
#[repr(u8)] pub enum Small { A = 1, B = 5, C = 9 }
pub enum Niche { Ptr(&'static u64), Nothing }
pub struct Holder { pub s: Shape, pub o: Option<u64>, pub k: Small, pub r: Result<u16, i8>, pub n: Niche, pub t: (u8, u64, u16) }
#[no_mangle] pub static mut COUNTER: u64 = 7;
#[no_mangle] pub static TABLE: [u32; 4] = [1, 2, 3, 4];
pub mod inner {
    pub struct Deep { pub a: u16, pub b: u64, pub c: u8 }
    #[no_mangle] pub extern "C" fn deep_sum(d: &Deep) -> u64 { d.a as u64 + d.b + d.c as u64 }
}
#[no_mangle]
pub extern "C" fn area(h: &Holder) -> f64 {
    match &h.s { Shape::Circle(r) => r * r * 3.14, Shape::Rect { w, h } => (*w * *h) as f64, Shape::Empty => 0.0 }
}
#[no_mangle] pub extern "C" fn bump() -> u64 { unsafe { COUNTER += 1; COUNTER + TABLE[1] as u64 } }
impl Small { #[no_mangle] pub extern "C" fn small_next(self) -> u8 { self as u8 + 1 } }
impl inner::Deep { #[no_mangle] pub extern "C" fn deep_a(&self) -> u16 { self.a } }
`

// TestRustUnits: pahole 1.32 on Rust: a DW_TAG_variant_part leaves its
// struct without members (the variants' structs, defined inside it,
// are types of their own, numbered before it); the members of a Rust
// unit's structs are sorted by offset (pahole's cu__sort_types_by_offset);
// #[no_mangle] functions inside the crate's namespaces are FUNCs, and so
// are #[no_mangle] methods, named by their declarations inside the enum
// or struct; its statics are no VARs, even with global_var. Built as an object and as a
// shared object of four codegen units (cross-unit references), every
// type, function and byte must be pahole 1.32's. Names such as
// "Option<u64>" are no C identifiers, which the kernel refuses: EncodeFile
// refuses such BTF (the comparison is made without that check). With
// --lang_exclude=rust there is nothing left: pahole writes no file, and
// EncodeFile returns ErrExcluded.
func TestRustUnits(t *testing.T) {
	testc.Require(t, "rustc", "pahole")
	dir := t.TempDir()
	src := filepath.Join(dir, "lib.rs")
	if err := os.WriteFile(src, []byte(rustSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	obj, so := filepath.Join(dir, "lib.o"), filepath.Join(dir, "lib.so")
	testc.Run(t, "rustc", "--edition", "2021", "--crate-type=lib", "--emit=obj", "-C", "debuginfo=2", "-C", "opt-level=1", "-o", obj, src)
	testc.Run(t, "rustc", "--edition", "2021", "--crate-type=cdylib", "-C", "debuginfo=2", "-C", "opt-level=1", "-C", "codegen-units=4", "-o", so, src)
	if n := refAddrUnits(t, so); n == 0 {
		t.Logf("the shared object's units do not refer to each other")
	}
	for _, file := range []string{obj, so} {
		name := filepath.Base(file)
		variantParts, rust := 0, false
		d, err := dwarf.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		r := d.NewReader()
		units := d.Units()
		for i := range units {
			if err := r.Reset(&units[i]); err != nil {
				t.Fatal(err)
			}
			rust = rust || r.Language() == dwarf.LangRust
			var e dwarf.Entry
			for {
				ok, err := r.Next(&e)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				if e.Tag == dwarf.TagVariantPart {
					variantParts++
				}
			}
		}
		d.Close()
		if !rust || variantParts == 0 {
			t.Fatalf("%s: Rust units %v, %d variant parts: the fixture tests nothing", name, rust, variantParts)
		}
		for _, features := range []string{"default", "default,global_var"} {
			feat, _, err := ParseFeatures(features)
			if err != nil {
				t.Fatal(err)
			}
			want := paholeOutput(t, file, features)
			s, err := encodeFile(file, Options{Features: feat, Jobs: 2}, false)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got := s.Marshal(nil); !bytes.Equal(got, want) {
				ws, _ := btf.Parse(want, nil)
				t.Errorf("%s %s: %d bytes, pahole 1.32 wrote %d:\n%s", name, features, len(got), len(want), listingDiff(s, ws))
			}
			var vars, funcs []string
			for id := btf.TypeID(1); id < s.NextID(); id++ {
				switch ty := s.Type(id); ty.Kind() {
				case btf.KindVar:
					vars = append(vars, ty.Name())
				case btf.KindFunc:
					funcs = append(funcs, ty.Name())
				case btf.KindStruct:
					if ty.Name() == "Shape" && ty.Vlen() != 0 {
						t.Errorf("%s: struct Shape has %d members; its variant part gives none", name, ty.Vlen())
					}
				}
			}
			fs := " " + strings.Join(funcs, " ") + " "
			if len(vars) != 0 || !strings.Contains(fs, " deep_sum ") || !strings.Contains(fs, " small_next ") || !strings.Contains(fs, " deep_a ") {
				t.Errorf("%s %s: VARs %v, FUNCs %v; want no VAR, and deep_sum, small_next and deep_a among the FUNCs", name, features, vars, funcs)
			}
		}
		if _, err := EncodeFile(file, Options{Features: DefaultFeatures}); err == nil || !strings.Contains(err.Error(), "not a valid identifier") {
			t.Errorf("%s: EncodeFile: %v; want the invalid names refused", name, err)
		}
		langs, err := ParseLanguages("rust")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := EncodeFile(file, Options{Features: DefaultFeatures, LangExclude: langs}); !errors.Is(err, ErrExcluded) {
			t.Errorf("%s --lang_exclude=rust: %v; want ErrExcluded", name, err)
		}
		// pahole 1.32 writes nothing then, and exits 0.
		out := filepath.Join(t.TempDir(), "excluded.btf")
		testc.Run(t, "pahole", "-J", "--btf_features=default", "--lang_exclude=rust", "--btf_encode_detached="+out, file)
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: pahole 1.32 --lang_exclude=rust wrote %s (%v)", name, out, err)
		}
	}
}

// cxxNamespaceSrc has C++ extern "C" functions and variables inside
// namespaces: gcc writes the function's and the variable's declarations
// in the namespace and their definitions at the unit's top level with a
// DW_AT_specification pointing there.
const cxxNamespaceSrc = `namespace outer { namespace inner {
extern "C" int ns_func(int x) { return x * 3; }
extern "C" { int ns_var = 5; }
struct S { int a; };
} }
extern "C" int top_func(outer::inner::S *s) { return s->a + outer::inner::ns_var; }
`

// cxxClassSrc has a class with a static data member and methods, and a
// struct in a namespace with one: DWARF 5 declares the static members as
// DW_TAG_variables inside the class, the definitions at the top level
// name them with DW_AT_specification.
const cxxClassSrc = `struct A { static int count; int v; int get() const; static long total(int k); enum E { X = 1, Y = 2 }; };
int A::count = 3;
int A::get() const { return v + count; }
long A::total(int k) { return k * count; }
namespace N { struct B { static long bb; double d; }; long B::bb = 9; }
extern "C" int use_all(A *a, N::B *b) { return a->get() + A::total(2) + (int)N::B::bb + (int)b->d; }
int main() { A a{5}; N::B b{1.0}; return use_all(&a, &b); }
`

// TestCxxNamespaces: the definitions of C++ functions and variables
// declared in a namespace take their names (and a variable its type)
// from the declaration there, as pahole 1.32 does (the function's
// return type, which only the declaration has, is void in pahole's
// FUNC_PROTO); so do the definitions of a class's static members (a
// program with global_var: its VARs); the BTF, with and without
// global_var, is pahole's byte for byte.
func TestCxxNamespaces(t *testing.T) {
	testc.Require(t, "g++", "pahole")
	dir := t.TempDir()
	src := filepath.Join(dir, "ns.cc")
	if err := os.WriteFile(src, []byte(cxxNamespaceSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := filepath.Join(dir, "ns.o")
	testc.Run(t, "g++", "-gdwarf-5", "-O2", "-c", "-o", obj, src)
	cls := filepath.Join(dir, "cls.cc")
	if err := os.WriteFile(cls, []byte(cxxClassSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "cls")
	testc.Run(t, "g++", "-gdwarf-5", "-O1", "-o", prog, cls)
	for _, features := range []string{"default", "default,global_var"} {
		samePahole2(t, prog, features)
	}
	for _, features := range []string{"default", "default,global_var"} {
		feat, _, err := ParseFeatures(features)
		if err != nil {
			t.Fatal(err)
		}
		want := paholeOutput(t, obj, features)
		s, err := EncodeFile(obj, Options{Features: feat, Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Marshal(nil); !bytes.Equal(got, want) {
			ws, _ := btf.Parse(want, nil)
			t.Errorf("%s: %d bytes, pahole 1.32 wrote %d:\n%s", features, len(got), len(want), listingDiff(s, ws))
		}
		found := false
		for id := btf.TypeID(1); id < s.NextID(); id++ {
			found = found || s.Type(id).Kind() == btf.KindFunc && s.Type(id).Name() == "ns_func"
		}
		if !found {
			t.Errorf("%s: no FUNC ns_func", features)
		}
	}
}

// samePahole2 requires our BTF of file with the features to be pahole
// 1.32's byte for byte.
func samePahole2(t *testing.T, file, features string) {
	t.Helper()
	feat, _, err := ParseFeatures(features)
	if err != nil {
		t.Fatal(err)
	}
	want := paholeOutput(t, file, features)
	s, err := EncodeFile(file, Options{Features: feat, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Marshal(nil); !bytes.Equal(got, want) {
		ws, _ := btf.Parse(want, nil)
		t.Errorf("%s %s: %d bytes, pahole 1.32 wrote %d:\n%s", filepath.Base(file), features, len(got), len(want), listingDiff(s, ws))
	}
}
