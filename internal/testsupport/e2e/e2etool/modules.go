package main

// The module commands: what scripts/kernel-e2e needs to know, on the host,
// about the module BTF the guest will check.

import (
	"fmt"
	"os"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/distill"
	"github.com/btfkit/btfkit/internal/testsupport/e2e"
)

func parseFile(path string, base *btf.Spec) (*btf.Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := btf.Parse(data, base)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// relocate SPLIT DISTILLED_BASE VMLINUX OUT: the BTF the kernel holds for
// a module with a distilled base once btf_parse_module has relocated it
// onto the running vmlinux (kernel/bpf/btf.c: btf_relocate rewrites the
// type IDs and string offsets of the module's .BTF in place, the header
// and string section stay; /sys/kernel/btf/MOD shows those bytes).
func relocate(splitPath, distPath, vmlinuxPath, outPath string) error {
	dist, err := parseFile(distPath, nil)
	if err != nil {
		return err
	}
	split, err := parseFile(splitPath, dist)
	if err != nil {
		return err
	}
	vmlinux, err := parseFile(vmlinuxPath, nil)
	if err != nil {
		return err
	}
	out, err := distill.Relocate(split, vmlinux)
	if err != nil {
		return fmt.Errorf("%s: %v", splitPath, err)
	}
	return os.WriteFile(outPath, out.Marshal(split.ByteOrder()), 0o644)
}

// distillCmd SPLIT VMLINUX OUT_SPLIT OUT_BASE: SPLIT (split against
// VMLINUX) as a distilled base and the split BTF against it, what pahole's
// distilled_base writes into .BTF.base and .BTF.
func distillCmd(splitPath, vmlinuxPath, outSplit, outBase string) error {
	vmlinux, err := parseFile(vmlinuxPath, nil)
	if err != nil {
		return err
	}
	split, err := parseFile(splitPath, vmlinux)
	if err != nil {
		return err
	}
	base, dsplit, err := distill.Distill(split)
	if err != nil {
		return fmt.Errorf("%s: %v", splitPath, err)
	}
	if err := os.WriteFile(outSplit, dsplit.Marshal(split.ByteOrder()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(outBase, base.Marshal(split.ByteOrder()), 0o644)
}

// moduleTypes VMLINUX FILE...: for each FILE, module BTF split against
// VMLINUX, prints "FILE KIND NAME ID": a type only FILE defines, once, that
// e2e.FindType can look for: the first named struct (by ID), else the
// first named union, else the first typedef of a struct. The kernel's
// CO-RE candidate search matches kind and name, names up to a "___"
// suffix, so names are compared that way.
func moduleTypes(vmlinuxPath string, files []string) error {
	vmlinux, err := parseFile(vmlinuxPath, nil)
	if err != nil {
		return err
	}
	type key struct {
		kind btf.Kind
		name string
	}
	keyOf := func(t btf.Type) key {
		name := t.Name()
		if i := strings.Index(name, "___"); i > 0 {
			name = name[:i]
		}
		return key{t.Kind(), name}
	}
	count := map[key]int{}
	tally := func(s *btf.Spec) {
		for id := s.FirstID(); id < s.NextID(); id++ {
			if t := s.Type(id); t.Name() != "" {
				count[keyOf(t)]++
			}
		}
	}
	tally(vmlinux)
	specs := make([]*btf.Spec, len(files))
	for i, f := range files {
		if specs[i], err = parseFile(f, vmlinux); err != nil {
			return err
		}
		tally(specs[i])
	}
	// namesStruct reports whether the typedef t names a struct, through
	// other typedefs and qualifiers.
	namesStruct := func(s *btf.Spec, t btf.Type) bool {
		for i := 0; i < 32; i++ {
			switch t.Kind() {
			case btf.KindStruct:
				return true
			case btf.KindTypedef, btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindTypeTag:
				t = s.Type(t.Ref())
			default:
				return false
			}
		}
		return false
	}
	kinds := []struct {
		kind btf.Kind
		word string
	}{{btf.KindStruct, "struct"}, {btf.KindUnion, "union"}, {btf.KindTypedef, "typedef"}}
	for i, s := range specs {
		found := false
		for _, k := range kinds {
			for id := s.FirstID(); id < s.NextID() && !found; id++ {
				t := s.Type(id)
				if t.Kind() != k.kind || t.Name() == "" || keyOf(t).name != t.Name() || count[keyOf(t)] != 1 {
					continue
				}
				if k.kind == btf.KindTypedef && !namesStruct(s, s.Type(t.Ref())) {
					continue
				}
				fmt.Printf("%s %s %s %d\n", files[i], k.word, t.Name(), id)
				found = true
			}
		}
		if !found {
			return fmt.Errorf("%s: no named struct, union or typedef of a struct that only it defines", files[i])
		}
	}
	return nil
}

// corruptName IN OUT: see e2e.CorruptName.
func corruptName(in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	bad, n, err := e2e.CorruptName(data)
	if err != nil {
		return fmt.Errorf("%s: %v", in, err)
	}
	if err := os.WriteFile(out, bad, 0o644); err != nil {
		return err
	}
	fmt.Printf("corrupted the name of type %d of %s: name offset 0xffffffff, beyond any string section\n", n, in)
	return nil
}

// breakBTF KIND IN OUT [BASE]: IN broken by one of the e2e package's
// breakages (the broken module tree): func-name and datasec-overlap on
// split BTF against BASE, base-struct-size on a distilled base,
// grow-base on vmlinux BTF.
func breakBTF(kind, in, out, basePath string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var base *btf.Spec
	if basePath != "" {
		if base, err = parseFile(basePath, nil); err != nil {
			return err
		}
	}
	var (
		bad []byte
		id  btf.TypeID
	)
	switch kind {
	case "func-name":
		bad, id, err = e2e.BreakFuncName(data, base)
	case "datasec-overlap":
		bad, id, err = e2e.BreakDatasec(data, base)
	case "base-struct-size":
		bad, id, err = e2e.BreakBaseStructSize(data)
	case "grow-base":
		bad, id, err = e2e.GrowBase(data)
	default:
		return fmt.Errorf("unknown breakage %q (func-name, datasec-overlap, base-struct-size, grow-base)", kind)
	}
	if err != nil {
		return fmt.Errorf("%s: %s: %v", in, kind, err)
	}
	if err := os.WriteFile(out, bad, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %s at type %d\n", in, kind, id)
	return nil
}
