//go:build linux

// Command loadguest is the /init of scripts/downgrade-e2e's initramfs: a
// static binary (CGO_ENABLED=0) that loads every /btf/*.btf with
// BPF_BTF_LOAD into the kernel it runs on and compares the verdict with
// the one the file's name expects: accept-NAME.btf must load,
// reject-NAME.btf must be refused (the negative controls). It prints one
// "LOAD NAME: PASS|FAIL accepted|rejected detail" line per file and a
// final "DOWNGRADE RESULT: PASS|FAIL (...)" line on the console, then
// restarts the machine (qemu -no-reboot turns that into an exit).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/btfkit/btfkit/internal/testsupport/e2e"
)

func main() {
	for _, m := range []struct{ src, dir, fs string }{{"proc", "/proc", "proc"}, {"sysfs", "/sys", "sysfs"}} {
		os.MkdirAll(m.dir, 0o755)
		if err := unix.Mount(m.src, m.dir, m.fs, 0, ""); err != nil {
			fmt.Printf("downgrade: mount %s: %v\n", m.dir, err)
		}
	}
	var uts unix.Utsname
	unix.Uname(&uts)
	fmt.Printf("downgrade: guest on Linux %s\n", unix.ByteSliceToString(uts.Release[:]))
	files, _ := filepath.Glob("/btf/*.btf")
	failed := 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".btf")
		wantAccept := strings.HasPrefix(name, "accept-")
		data, err := os.ReadFile(f)
		if err != nil {
			fmt.Printf("LOAD %s: FAIL %v\n", name, err)
			failed++
			continue
		}
		r := e2e.CheckLoad(data)
		verdict, detail := "rejected", r.Detail
		if r.Pass {
			verdict = "accepted"
		} else if i := strings.LastIndex(strings.TrimSpace(detail), "\n"); i >= 0 {
			detail = "(" + strings.TrimSpace(detail[i+1:]) + ")"
		}
		status := "PASS"
		if r.Pass != wantAccept {
			status = "FAIL"
			failed++
		}
		fmt.Printf("LOAD %s: %s %s %s\n", name, status, verdict, strings.ReplaceAll(detail, "\n", " | "))
	}
	if len(files) == 0 {
		fmt.Println("DOWNGRADE RESULT: FAIL (no /btf/*.btf)")
	} else if failed > 0 {
		fmt.Printf("DOWNGRADE RESULT: FAIL (%d of %d verdicts wrong)\n", failed, len(files))
	} else {
		fmt.Printf("DOWNGRADE RESULT: PASS (%d verdicts)\n", len(files))
	}
	os.Stdout.Sync()
	unix.Sync()
	unix.Reboot(unix.LINUX_REBOOT_CMD_RESTART)
	os.Exit(1)
}
