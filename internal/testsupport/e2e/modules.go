//go:build linux

package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Module is one line of the guest's module manifest: what to load and
// what the kernel must then hold.
//
//	load NAME FILE EXPECTED KIND TYPE ID
//	refuse NAME FILE [BREAKAGE]
//	core NAME OBJECT MIN_VMLINUX MIN_MODULE
//
// load: FILE is the module NAME; once loaded, the kernel must hold the
// bytes of the file EXPECTED as its BTF (the module's .BTF, or for a
// module with a distilled base that BTF relocated onto the vmlinux BTF),
// and the type TYPE of kind KIND (see FindType), which no other kernel BTF
// has, must be found as type ID (IDs of split BTF follow vmlinux's).
// refuse: FILE is NAME with corrupted BTF, which the kernel must refuse
// to load; BREAKAGE names how it was broken (the broken module tree,
// issue 32), when there are several copies of NAME to refuse.
// core: the BPF OBJECT's CO-RE programs load against the minimized BTF
// MIN_VMLINUX and MIN_MODULE (of the loaded module NAME) and read what
// the kernel's BTF says (RunCoreMin).
type Module struct {
	Op       string
	Name     string
	File     string
	Expected string
	Kind     string
	Type     string
	TypeID   uint32
	Breakage string
	// core: the minimized vmlinux BTF (File is the object) and the
	// module's, split against it.
	MinBase, MinModule string
}

// Verdicts of the kernel's module loader on a module's BTF, as the guest
// prints them ("VERDICT FILE accepted|refused|error: ...") for the host
// to compare with `btfkit check`.
const (
	Accepted = "accepted" // insmod succeeded
	Refused  = "refused"  // EINVAL, "failed to validate module [NAME] BTF"
)

// ParseManifest reads a module manifest: one Module a line, fields
// separated by spaces; empty lines and lines starting with # are skipped.
func ParseManifest(text string) ([]Module, error) {
	var out []Module
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		bad := func(why string) error { return fmt.Errorf("manifest line %d %q: %s", i+1, line, why) }
		switch {
		case f[0] == "load" && len(f) == 7:
			id, err := strconv.ParseUint(f[6], 10, 32)
			if err != nil || id == 0 {
				return nil, bad("the type's ID must be a positive number")
			}
			out = append(out, Module{Op: "load", Name: f[1], File: f[2], Expected: f[3], Kind: f[4], Type: f[5], TypeID: uint32(id)})
		case f[0] == "refuse" && (len(f) == 3 || len(f) == 4):
			m := Module{Op: "refuse", Name: f[1], File: f[2]}
			if len(f) == 4 {
				m.Breakage = f[3]
			}
			out = append(out, m)
		case f[0] == "core" && len(f) == 5:
			out = append(out, Module{Op: "core", Name: f[1], File: f[2], MinBase: f[3], MinModule: f[4]})
		default:
			return nil, bad("want 'load NAME FILE EXPECTED KIND TYPE ID', 'refuse NAME FILE [BREAKAGE]' or 'core NAME OBJECT MIN_VMLINUX MIN_MODULE'")
		}
	}
	return out, nil
}

// RunModule loads m's module and checks what the kernel made of its BTF:
// for load, the checks mod_load, mod_sysfs, mod_registered and mod_type
// (each named CHECK/MODULE); for refuse, mod_refused (CHECK/MODULE, or
// CHECK/MODULE/BREAKAGE); for core, RunCoreMin's. It also returns the
// loader's verdict: Accepted, Refused, or what else insmod said ("" for
// core, which loads no module).
func RunModule(m Module) ([]Result, string) {
	if m.Op == "core" {
		return RunCoreMin(m), ""
	}
	if m.Op == "refuse" {
		r, verdict := checkRefused(m)
		return []Result{r}, verdict
	}
	var all []Result
	for _, check := range []string{"mod_load", "mod_sysfs", "mod_registered", "mod_type"} {
		all = append(all, Result{Name: check + "/" + m.Name})
	}

	expected, err := os.ReadFile(m.Expected)
	if err != nil {
		for i := range all {
			all[i].Detail = err.Error()
		}
		return all, "error: " + err.Error()
	}
	// Before the module is loaded no kernel BTF may have the type.
	before, errBefore := FindType(m.Kind, m.Type)

	if err := insmod(m.File); err != nil {
		for i := range all {
			all[i].Detail = fmt.Sprintf("insmod %s: %v", m.File, err)
		}
		klog := kernelLogAbout(m.Name)
		all[0].Detail += "; kernel log: " + klog
		return all, loaderVerdict(err, m.Name, klog)
	}
	all[0].Pass = true
	all[0].Detail = fmt.Sprintf("insmod %s: ok", m.File)

	sysfsPath := filepath.Join("/sys/kernel/btf", m.Name)
	sysfs := CheckSysfs(sysfsPath, expected)
	all[1].Pass, all[1].Detail = sysfs.Pass, sysfs.Detail
	if all[1].Pass {
		all[1].Detail = fmt.Sprintf("%s equals %s (%s)", sysfsPath, m.Expected, digest(expected))
	}

	reg := checkModuleRegistered(m.Name, expected)
	all[2].Pass, all[2].Detail = reg.Pass, reg.Detail

	after, errAfter := FindType(m.Kind, m.Type)
	switch {
	case errBefore != nil:
		all[3].Detail = fmt.Sprintf("before insmod: %v", errBefore)
	case errAfter != nil:
		all[3].Detail = fmt.Sprintf("after insmod: %v", errAfter)
	case before != 0:
		all[3].Detail = fmt.Sprintf("%s %s was found as [%d] before the module was loaded: it is not the module's own", m.Kind, m.Type, before)
	case after != m.TypeID:
		all[3].Detail = fmt.Sprintf("%s %s: the kernel's CO-RE relocation gives [%d] after insmod, expected [%d]", m.Kind, m.Type, after, m.TypeID)
	default:
		all[3].Pass = true
		all[3].Detail = fmt.Sprintf("%s %s: the kernel's CO-RE relocation gives [%d] after insmod (the expected ID), none before", m.Kind, m.Type, after)
	}
	return all, Accepted
}

// loaderVerdict is the verdict on a failed insmod: Refused when the
// kernel refused the module's BTF (EINVAL, with btf_module_notify's
// message in klog), else the error.
func loaderVerdict(err error, name, klog string) string {
	if errors.Is(err, unix.EINVAL) && strings.Contains(klog, fmt.Sprintf("failed to validate module [%s] BTF", name)) {
		return Refused
	}
	return "error: " + err.Error()
}

// checkModuleRegistered looks for the kernel BTF object named name and
// compares its bytes with expected.
func checkModuleRegistered(name string, expected []byte) Result {
	r := Result{}
	list, err := ListBTF()
	if err != nil {
		r.Detail = err.Error()
		return r
	}
	for _, b := range list {
		if b.Name != name {
			continue
		}
		switch {
		case !b.Kernel:
			r.Detail = fmt.Sprintf("BTF id %d named %s is not a kernel BTF", b.ID, name)
		case !bytes.Equal(b.Data, expected):
			r.Detail = fmt.Sprintf("BTF id %d (%s): %s, expected %s", b.ID, name, digest(b.Data), digest(expected))
		default:
			r.Pass = true
			r.Detail = fmt.Sprintf("kernel BTF id %d named %s, %s", b.ID, name, digest(b.Data))
		}
		return r
	}
	r.Detail = fmt.Sprintf("no BTF object named %s among %d registered", name, len(list))
	return r
}

// checkRefused loads a module with corrupted BTF: the load must fail, the
// kernel log must carry btf_module_notify's refusal, and neither a sysfs
// file nor a BTF object may exist for the module.
func checkRefused(m Module) (Result, string) {
	r := Result{Name: "mod_refused/" + m.Name}
	if m.Breakage != "" {
		r.Name += "/" + m.Breakage
	}
	err := insmod(m.File)
	if err == nil {
		r.Detail = fmt.Sprintf("insmod %s succeeded: the kernel took the corrupted BTF", m.File)
		return r, Accepted
	}
	var problems []string
	refusal := fmt.Sprintf("failed to validate module [%s] BTF", m.Name)
	klog := kernelLogAbout(m.Name)
	verdict := loaderVerdict(err, m.Name, klog)
	if !strings.Contains(klog, refusal) {
		problems = append(problems, fmt.Sprintf("no %q in the kernel log", refusal))
	}
	if !errors.Is(err, unix.EINVAL) {
		problems = append(problems, fmt.Sprintf("insmod failed with %v, not EINVAL", err))
	}
	sysfsPath := filepath.Join("/sys/kernel/btf", m.Name)
	if _, err := os.Stat(sysfsPath); !errors.Is(err, os.ErrNotExist) {
		problems = append(problems, fmt.Sprintf("%s exists (stat: %v)", sysfsPath, err))
	}
	if list, err := ListBTF(); err != nil {
		problems = append(problems, err.Error())
	} else {
		for _, b := range list {
			if b.Name == m.Name {
				problems = append(problems, fmt.Sprintf("BTF id %d is named %s", b.ID, m.Name))
			}
		}
	}
	if len(problems) > 0 {
		r.Detail = strings.Join(problems, "; ") + "; kernel log: " + klog
		return r, verdict
	}
	r.Pass = true
	r.Detail = fmt.Sprintf("insmod %s: %v; no %s, no BTF object named %s; kernel log: %s", m.File, err, sysfsPath, m.Name, klog)
	return r, verdict
}

// insmod loads the module file at path (finit_module, no parameters).
func insmod(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.FinitModule(int(f.Fd()), "", 0)
}

// KernelLog returns the kernel's log buffer.
func KernelLog() (string, error) {
	buf := make([]byte, 1<<20)
	n, err := unix.Klogctl(unix.SYSLOG_ACTION_READ_ALL, buf)
	if err != nil {
		return "", fmt.Errorf("syslog: %v", err)
	}
	return string(buf[:n]), nil
}

// kernelLogAbout returns the last four kernel log lines that mention BTF,
// BPF's verifier or the module, joined by " | ".
func kernelLogAbout(module string) string {
	klog, err := KernelLog()
	if err != nil {
		return err.Error()
	}
	var lines []string
	for _, l := range strings.Split(klog, "\n") {
		if strings.Contains(l, "BTF") || strings.Contains(l, "BPF:") || strings.Contains(l, module) {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if len(lines) > 4 {
		lines = lines[len(lines)-4:]
	}
	return strings.Join(lines, " | ")
}
