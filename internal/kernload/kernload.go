// Package kernload loads raw BTF into the running kernel with the bpf(2)
// command BPF_BTF_LOAD, which runs the kernel's full BTF verifier. Tests use
// it as the final oracle for whatever btfkit writes; `btfkit check --kernel`
// uses it for users. It knows nothing about BTF's structure.
package kernload

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ErrNotPermitted means the kernel refused the bpf(2) call itself (no
// privilege, seccomp, or bpf disabled), not the BTF.
var ErrNotPermitted = errors.New("bpf(BPF_BTF_LOAD) not permitted here")

// RejectedError is the kernel verifier's rejection, with its log.
type RejectedError struct {
	Errno unix.Errno
	Log   string
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("kernel rejected BTF (%v): %s", e.Errno, e.Log)
}

// btfLoadAttr is the BPF_BTF_LOAD part of union bpf_attr.
type btfLoadAttr struct {
	btf            uint64
	btfLogBuf      uint64
	btfSize        uint32
	btfLogSize     uint32
	btfLogLevel    uint32
	btfLogTrueSize uint32
	btfFlags       uint32
	btfTokenFd     int32
}

// Load asks the running kernel to load data as BTF. On success the BTF
// object is released at once. A rejection returns *RejectedError with the
// verifier log; a refused syscall returns an error wrapping ErrNotPermitted.
func Load(data []byte) error {
	if len(data) == 0 {
		return &RejectedError{Errno: unix.EINVAL, Log: "empty input"}
	}
	err := load(data, 1)
	var rej *RejectedError
	if errors.As(err, &rej) && rej.Errno == unix.ENOSPC {
		// With log level 1 the kernel logs every type; for BTF of more
		// than a few hundred thousand types that overflows the 16 MiB
		// buffer and the load fails with ENOSPC whatever the verdict.
		// Load again without a log to learn the real verdict.
		if err2 := load(data, 0); err2 == nil {
			return nil
		} else if errors.As(err2, &rej) {
			rej.Log = "(verifier log overflowed 16 MiB; verdict from a load without log) " + rej.Log
			return rej
		} else {
			return err2
		}
	}
	return err
}

func load(data []byte, level uint32) error {
	logBuf := make([]byte, 16<<20)
	if level == 0 {
		logBuf = logBuf[:1]
	}
	attr := btfLoadAttr{
		btf:         uint64(uintptr(unsafe.Pointer(&data[0]))),
		btfSize:     uint32(len(data)),
		btfLogLevel: level,
	}
	if level > 0 {
		attr.btfLogBuf = uint64(uintptr(unsafe.Pointer(&logBuf[0])))
		attr.btfLogSize = uint32(len(logBuf))
	}
	fd, _, errno := unix.Syscall(unix.SYS_BPF, unix.BPF_BTF_LOAD, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr))
	runtime.KeepAlive(data)
	runtime.KeepAlive(logBuf)
	if errno == 0 {
		unix.Close(int(fd))
		return nil
	}
	if errno == unix.EPERM || errno == unix.ENOSYS {
		return fmt.Errorf("%w: %v", ErrNotPermitted, errno)
	}
	n := 0
	for n < len(logBuf) && logBuf[n] != 0 {
		n++
	}
	return &RejectedError{Errno: errno, Log: string(logBuf[:n])}
}
