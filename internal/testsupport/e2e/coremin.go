//go:build linux

package e2e

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	cbtf "github.com/cilium/ebpf/btf"
)

// RunCoreMin is the guest's mod_core check (issue 32): a CO-RE program
// that reads a module's structs loads against `btfkit minimize`'s
// minimized BTF, as BTFHub's users load theirs (libbpf's
// btf_custom_path; here cilium/ebpf's loader, KernelTypes and
// ExtraRelocationTargets), and every relocated constant is what the
// running kernel's own BTF says.
//
// m is a manifest line "core NAME OBJ MIN_VMLINUX MIN_MODULE": OBJ's
// programs are named STRUCT__MEMBER (the member's byte offset) or
// STRUCT__sizeof (the struct's size), each returning that one constant;
// MIN_VMLINUX and MIN_MODULE (split against it) are the minimized BTF of
// vmlinux and of the module NAME, which must be loaded by then. Its
// checks: mod_core/NAME, every program loaded with the minimized BTF and
// its constant, read back from the kernel's translated instructions,
// equal to the offset or size in /sys/kernel/btf; mod_core_negative/NAME,
// every program that reads a module's struct fails to load with the
// minimized vmlinux BTF alone (its relocation finds no target).
func RunCoreMin(m Module) []Result {
	pos := Result{Name: "mod_core/" + m.Name}
	neg := Result{Name: "mod_core_negative/" + m.Name}
	fail := func(err error) []Result {
		pos.Detail, neg.Detail = err.Error(), err.Error()
		return []Result{pos, neg}
	}
	coll, err := ebpf.LoadCollectionSpec(m.File)
	if err != nil {
		return fail(err)
	}
	minBase, err := cbtf.LoadSpec(m.MinBase)
	if err != nil {
		return fail(fmt.Errorf("%s: %v", m.MinBase, err))
	}
	minMod, err := cbtf.LoadSplitSpec(m.MinModule, minBase)
	if err != nil {
		return fail(fmt.Errorf("%s: %v", m.MinModule, err))
	}
	kern, err := cbtf.LoadKernelSpec()
	if err != nil {
		return fail(fmt.Errorf("the kernel's BTF: %v", err))
	}
	kmod, err := cbtf.LoadKernelModuleSpec(m.Name)
	if err != nil {
		return fail(fmt.Errorf("the kernel's BTF of %s: %v", m.Name, err))
	}
	names := make([]string, 0, len(coll.Programs))
	for n := range coll.Programs {
		names = append(names, n)
	}
	sort.Strings(names)
	var got, problems, refused, negProblems []string
	for _, n := range names {
		want, inModule, err := expectedConstant(n, kern, kmod)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		v, err := loadConstant(coll.Programs[n], ebpf.ProgramOptions{KernelTypes: minBase, ExtraRelocationTargets: []*cbtf.Spec{minMod}})
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: %v", n, err))
		case v != want:
			problems = append(problems, fmt.Sprintf("%s: %d with the minimized BTF, the kernel's BTF says %d", n, v, want))
		default:
			got = append(got, fmt.Sprintf("%s=%d", n, v))
		}
		if !inModule {
			continue
		}
		if _, err := loadConstant(coll.Programs[n], ebpf.ProgramOptions{KernelTypes: minBase}); err == nil {
			negProblems = append(negProblems, n+" loaded without the module's BTF")
		} else {
			refused = append(refused, n)
		}
	}
	if len(problems) > 0 {
		pos.Detail = strings.Join(problems, "; ")
	} else if len(got) == 0 {
		pos.Detail = m.File + " has no programs"
	} else {
		pos.Pass = true
		pos.Detail = fmt.Sprintf("%d programs loaded against %s + %s, each constant the kernel's: %s", len(got), m.MinBase, m.MinModule, strings.Join(got, " "))
	}
	switch {
	case len(negProblems) > 0:
		neg.Detail = strings.Join(negProblems, "; ")
	case len(refused) == 0:
		neg.Detail = "no program reads a struct of " + m.Name
	default:
		neg.Pass = true
		neg.Detail = fmt.Sprintf("without %s, %s failed to load", m.MinModule, strings.Join(refused, ", "))
	}
	return []Result{pos, neg}
}

// expectedConstant is what program name (STRUCT__MEMBER or STRUCT__sizeof)
// must return by the kernel's BTF, and whether STRUCT is the module's.
func expectedConstant(name string, kern, kmod *cbtf.Spec) (uint32, bool, error) {
	i := strings.LastIndex(name, "__")
	if i <= 0 {
		return 0, false, fmt.Errorf("program %s: not named STRUCT__MEMBER", name)
	}
	sname, member := name[:i], name[i+2:]
	var s *cbtf.Struct
	inModule := false
	if err := kern.TypeByName(sname, &s); err != nil {
		if err := kmod.TypeByName(sname, &s); err != nil {
			return 0, false, fmt.Errorf("program %s: struct %s in neither the kernel's nor the module's BTF: %v", name, sname, err)
		}
		inModule = true
	}
	if member == "sizeof" {
		return s.Size, inModule, nil
	}
	for _, m := range s.Members {
		if m.Name == member {
			return uint32(m.Offset.Bytes()), inModule, nil
		}
	}
	return 0, inModule, fmt.Errorf("program %s: struct %s has no member %s", name, sname, member)
}

// loadConstant loads spec with opts and returns the constant its first
// instruction puts in r0, read back from the kernel's translated program.
func loadConstant(spec *ebpf.ProgramSpec, opts ebpf.ProgramOptions) (uint32, error) {
	p, err := ebpf.NewProgramWithOptions(spec, opts)
	if err != nil {
		return 0, err
	}
	defer p.Close()
	info, err := p.Info()
	if err != nil {
		return 0, err
	}
	insns, err := info.Instructions()
	if err != nil {
		return 0, fmt.Errorf("translated instructions: %v", err)
	}
	if len(insns) == 0 || insns[0].Dst != asm.R0 || !insns[0].IsConstantLoad(asm.DWord) && insns[0].OpCode.ALUOp() != asm.Mov {
		return 0, errors.New("the first instruction sets no constant in r0")
	}
	return uint32(insns[0].Constant), nil
}
