package e2e

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// The broken module tree of scripts/kernel-e2e (issue 32): copies of the
// kernel's modules with one kind of breakage each, of the kinds
// distributions have shipped, which the guest's module loader must refuse
// and `btfkit check` must report. Each function takes raw little-endian
// BTF (a module's .BTF split against base, or base BTF when base is nil)
// and returns the broken copy and the ID of the type it broke.

// BreakFuncName renames the first FUNC to NAME::clone, a Rust-style path
// as non-C compilers have written into BTF: the kernel requires a FUNC's
// name to be an identifier of letters, digits, '_' and '.' ("Invalid
// name", btf_func_check_meta).
func BreakFuncName(data []byte, base *btf.Spec) ([]byte, btf.TypeID, error) {
	s, err := btf.Parse(data, base)
	if err != nil {
		return nil, 0, err
	}
	for id := s.FirstID(); id < s.NextID(); id++ {
		t := s.Type(id)
		if t.Kind() != btf.KindFunc || t.Name() == "" {
			continue
		}
		s.SetRaw(id, s.AddString(t.Name()+"::clone"), t.Info(), t.SizeType(), t.Extra()...)
		return s.Marshal(binary.LittleEndian), id, nil
	}
	return nil, 0, errors.New("no named FUNC")
}

// BreakDatasec appends two int VARs and a DATASEC ".data" of 8 bytes
// whose entries overlap (bytes 0-3 and 2-5): the kernel requires a
// DATASEC's entries in ascending, non-overlapping order ("Invalid
// offset", btf_datasec_check_meta), the check that caught pahole's
// overlapping per-CPU variables. The DATASEC's ID is returned.
func BreakDatasec(data []byte, base *btf.Spec) ([]byte, btf.TypeID, error) {
	s, err := btf.Parse(data, base)
	if err != nil {
		return nil, 0, err
	}
	var intID btf.TypeID
	for id := btf.TypeID(1); id < s.NextID() && intID == 0; id++ {
		if t := s.Type(id); t.Kind() == btf.KindInt && t.Name() == "int" && t.Size() == 4 {
			intID = id
		}
	}
	if intID == 0 {
		return nil, 0, errors.New("no 4-byte int")
	}
	const global = 1 // BTF_VAR_GLOBAL_ALLOCATED
	a := s.Add("btfkit_e2e_overlap_a", btf.KindVar, 0, false, uint32(intID), global)
	b := s.Add("btfkit_e2e_overlap_b", btf.KindVar, 0, false, uint32(intID), global)
	sec := s.Add(".data", btf.KindDatasec, 2, false, 8, uint32(a), 0, 4, uint32(b), 2, 4)
	return s.Marshal(binary.LittleEndian), sec, nil
}

// GrowBase returns base BTF (raw, little-endian) with one empty struct
// added, whose long name lengthens the string section: the BTF of "another
// vmlinux". A module encoded against it has name offsets and type IDs
// that start later than the real vmlinux's, so on the real kernel its
// last names lie past the end of the strings ("Invalid name_offset"):
// what a module built against another build of the kernel gets. The last new
// struct's ID is returned.
func GrowBase(data []byte) ([]byte, btf.TypeID, error) {
	s, err := btf.Parse(data, nil)
	if err != nil {
		return nil, 0, err
	}
	if s.Base() != nil || s.FirstID() != 1 {
		return nil, 0, errors.New("not base BTF")
	}
	// 4 KiB of new strings (more than a module's last name is from the
	// end of its own string section) in names the kernel takes (an
	// identifier of fewer than KSYM_NAME_LEN characters).
	var id btf.TypeID
	for i := 0; i < 40; i++ {
		id = s.Add(fmt.Sprintf("btfkit_e2e_another_vmlinux_%02d_%s", i, strings.Repeat("x", 80)), btf.KindStruct, 0, false, 0)
	}
	return s.Marshal(binary.LittleEndian), id, nil
}

// BreakBaseStructSize adds 8 to the size of the first named struct with a
// size in a distilled base (a module's .BTF.base): the module's base no
// longer matches the vmlinux it is loaded on, so the kernel's relocation
// finds no struct of that name and size and refuses the module
// (btf_relocate), as it does for a module built against another kernel.
func BreakBaseStructSize(data []byte) ([]byte, btf.TypeID, error) {
	s, err := btf.Parse(data, nil)
	if err != nil {
		return nil, 0, err
	}
	for id := s.FirstID(); id < s.NextID(); id++ {
		t := s.Type(id)
		if t.Kind() != btf.KindStruct || t.Name() == "" || t.Size() == 0 {
			continue
		}
		s.SetRaw(id, t.NameOff(), t.Info(), t.Size()+8, t.Extra()...)
		return s.Marshal(binary.LittleEndian), id, nil
	}
	return nil, 0, fmt.Errorf("no named struct with a size among %d types", s.NumTypes())
}
