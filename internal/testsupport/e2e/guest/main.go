//go:build linux

// Command guest is the /init of scripts/kernel-e2e's initramfs: a static
// binary (CGO_ENABLED=0) for a tiny kernel that cannot run scripts. It
// mounts proc and sysfs, runs the e2e checks against /expected.btf, then
// loads the modules /modules/manifest names and checks their BTF (when the
// initramfs has one), prints one "CHECK name: PASS|FAIL detail" line per
// check and a final
// "E2E RESULT: ..." line on the console, then restarts the machine (qemu
// -no-reboot turns that into an exit).
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/btfkit/btfkit/internal/testsupport/e2e"
)

func main() {
	for _, m := range []struct{ src, dir, fs string }{
		{"proc", "/proc", "proc"},
		{"sysfs", "/sys", "sysfs"},
	} {
		os.MkdirAll(m.dir, 0o755)
		if err := unix.Mount(m.src, m.dir, m.fs, 0, ""); err != nil {
			fmt.Printf("e2e: mount %s: %v\n", m.dir, err)
		}
	}
	var uts unix.Utsname
	unix.Uname(&uts)
	fmt.Printf("e2e: guest checker on Linux %s\n", unix.ByteSliceToString(uts.Release[:]))

	var results []e2e.Result
	expected, err := os.ReadFile("/expected.btf")
	if err != nil {
		results = append(results, e2e.Result{Name: "expected_btf", Detail: err.Error()})
	} else {
		results = e2e.RunAll("/sys/kernel/btf/vmlinux", expected)
	}
	for _, r := range results {
		fmt.Println(r)
	}
	results = append(results, runModules("/modules/manifest")...)
	summary := e2e.Summary(results)
	if strings.Contains(summary, "FAIL") {
		printKernelLog()
	}
	fmt.Println(summary)
	os.Stdout.Sync()
	unix.Sync()
	unix.Reboot(unix.LINUX_REBOOT_CMD_RESTART)
	// Not reached; if it is, let the kernel panic (panic=-1 reboots).
	os.Exit(1)
}

// runModules loads the modules the manifest at path names, in its order,
// and checks each (e2e.RunModule). No manifest, no module checks.
func runModules(path string) []e2e.Result {
	text, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	var mods []e2e.Module
	if err == nil {
		mods, err = e2e.ParseManifest(string(text))
	}
	if err != nil {
		return []e2e.Result{{Name: "modules", Detail: err.Error()}}
	}
	var results []e2e.Result
	for _, m := range mods {
		fmt.Printf("e2e: module %s: %s %s\n", m.Name, m.Op, m.File)
		rs, verdict := e2e.RunModule(m)
		for _, r := range rs {
			fmt.Println(r)
			results = append(results, r)
		}
		if verdict != "" {
			fmt.Printf("VERDICT %s %s\n", m.File, verdict)
		}
	}
	return results
}

// printKernelLog prints the kernel log lines that mention BTF.
func printKernelLog() {
	klog, err := e2e.KernelLog()
	if err != nil {
		fmt.Printf("e2e: %v\n", err)
		return
	}
	for _, l := range strings.Split(klog, "\n") {
		if strings.Contains(strings.ToLower(l), "btf") {
			fmt.Printf("e2e: kernel log: %s\n", l)
		}
	}
}
