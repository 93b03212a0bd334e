//go:build linux

// Command guest is the /init of scripts/kernel-e2e's initramfs: a static
// binary (CGO_ENABLED=0) for a tiny kernel that cannot run scripts. It
// mounts proc and sysfs, runs the e2e checks against /expected.btf, prints
// one "CHECK name: PASS|FAIL detail" line per check and a final
// "E2E RESULT: ..." line on the console, then restarts the machine (qemu
// -no-reboot turns that into an exit).
package main

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/btfkit/btfkit/internal/e2e"
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

// printKernelLog prints the kernel log lines that mention BTF.
func printKernelLog() {
	buf := make([]byte, 1<<20)
	n, err := unix.Klogctl(unix.SYSLOG_ACTION_READ_ALL, buf)
	if err != nil {
		fmt.Printf("e2e: syslog: %v\n", err)
		return
	}
	for _, l := range strings.Split(string(buf[:n]), "\n") {
		if strings.Contains(strings.ToLower(l), "btf") {
			fmt.Printf("e2e: kernel log: %s\n", l)
		}
	}
}
