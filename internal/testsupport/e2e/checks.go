//go:build linux

package e2e

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/btfkit/btfkit/internal/kernload"
)

// Result is the outcome of one check.
type Result struct {
	Name   string
	Pass   bool
	Detail string
}

// String formats the result as the line scripts/kernel-e2e greps:
// "CHECK name: PASS detail".
func (r Result) String() string {
	s := "FAIL"
	if r.Pass {
		s = "PASS"
	}
	return fmt.Sprintf("CHECK %s: %s %s", r.Name, s, r.Detail)
}

// Summary returns the final line: "E2E RESULT: PASS" when every check
// passed, "E2E RESULT: FAIL (n of m checks failed)" otherwise.
func Summary(rs []Result) string {
	failed := 0
	for _, r := range rs {
		if !r.Pass {
			failed++
		}
	}
	if failed == 0 && len(rs) > 0 {
		return fmt.Sprintf("E2E RESULT: PASS (%d checks)", len(rs))
	}
	return fmt.Sprintf("E2E RESULT: FAIL (%d of %d checks failed)", failed, len(rs))
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return fmt.Sprintf("%d bytes sha256 %x", len(b), h[:8])
}

// CheckSysfs compares the kernel's /sys/kernel/btf/vmlinux (or the file at
// path) with the expected bytes.
func CheckSysfs(path string, expected []byte) Result {
	r := Result{Name: "sysfs_btf"}
	got, err := os.ReadFile(path)
	if err != nil {
		r.Detail = err.Error()
		return r
	}
	if !bytes.Equal(got, expected) {
		r.Detail = fmt.Sprintf("%s: %s, expected %s", path, digest(got), digest(expected))
		return r
	}
	r.Pass = true
	r.Detail = fmt.Sprintf("%s equals the vmlinux .BTF (%s)", path, digest(got))
	return r
}

// CheckLoad passes the bytes through BPF_BTF_LOAD.
func CheckLoad(data []byte) Result {
	r := Result{Name: "btf_load"}
	err := kernload.Load(data)
	if err != nil {
		var rej *kernload.RejectedError
		if errors.As(err, &rej) {
			log := rej.Log
			if len(log) > 2000 {
				log = "..." + log[len(log)-2000:]
			}
			r.Detail = fmt.Sprintf("kernel rejected the BTF (%v); verifier log tail:\n%s", rej.Errno, log)
		} else {
			r.Detail = err.Error()
		}
		return r
	}
	r.Pass = true
	r.Detail = fmt.Sprintf("BPF_BTF_LOAD accepted %s", digest(data))
	return r
}

// bpf_attr pieces used here.
type getIDAttr struct {
	startID   uint32 // start_id / btf_id
	nextID    uint32
	openFlags uint32
	tokenFd   uint32
}

type infoAttr struct {
	fd      uint32
	infoLen uint32
	info    uint64
}

type btfInfo struct {
	btf       uint64
	btfSize   uint32
	id        uint32
	name      uint64
	nameLen   uint32
	kernelBTF uint32
}

type progLoadAttr struct {
	progType    uint32
	insnCnt     uint32
	insns       uint64
	license     uint64
	logLevel    uint32
	logSize     uint32
	logBuf      uint64
	kernVersion uint32
	progFlags   uint32
	progName    [16]byte
	// The fields after the name, up to the CO-RE relocations (FindType).
	progIfindex        uint32
	expectedAttachType uint32
	progBTFFd          uint32
	funcInfoRecSize    uint32
	funcInfo           uint64
	funcInfoCnt        uint32
	lineInfoRecSize    uint32
	lineInfo           uint64
	lineInfoCnt        uint32
	attachBTFID        uint32
	attachProgFd       uint32
	coreReloCnt        uint32
	fdArray            uint64
	coreRelos          uint64
	coreReloRecSize    uint32
	logTrueSize        uint32
	progTokenFd        int32
	_                  uint32
}

func bpf(cmd int, attr unsafe.Pointer, size uintptr) (uintptr, error) {
	r, _, errno := unix.Syscall(unix.SYS_BPF, uintptr(cmd), uintptr(attr), size)
	if errno != 0 {
		return 0, errno
	}
	return r, nil
}

// TriggerParse makes the kernel parse its vmlinux BTF: kernels since 6.12
// (and Debian's) parse it lazily, on the first use. Every BPF_PROG_LOAD
// runs bpf_check(), which asks for it first, whatever becomes of the
// program; a sleepable BPF_PROG_TYPE_SYSCALL program ("r0 = 0; exit")
// exists in every kernel with BPF_SYSCALL. It returns what became of the
// load, for the log.
func TriggerParse() string {
	insns := []uint64{
		0x00000000000000b7, // r0 = 0
		0x0000000000000095, // exit
	}
	license := []byte("GPL\x00")
	attr := progLoadAttr{
		progType:  unix.BPF_PROG_TYPE_SYSCALL,
		insnCnt:   uint32(len(insns)),
		insns:     uint64(uintptr(unsafe.Pointer(&insns[0]))),
		license:   uint64(uintptr(unsafe.Pointer(&license[0]))),
		progFlags: unix.BPF_F_SLEEPABLE,
	}
	fd, err := bpf(unix.BPF_PROG_LOAD, unsafe.Pointer(&attr), unsafe.Sizeof(attr))
	runtime.KeepAlive(insns)
	runtime.KeepAlive(license)
	if err != nil {
		return fmt.Sprintf("BPF_PROG_LOAD (syscall prog): %v", err)
	}
	unix.Close(int(fd))
	return "BPF_PROG_LOAD (syscall prog): ok"
}

// KernelBTF is one BTF object the kernel has registered.
type KernelBTF struct {
	ID     uint32
	Name   string
	Kernel bool
	Data   []byte
}

// ListBTF returns every BTF object the kernel has registered, with its
// bytes.
func ListBTF() ([]KernelBTF, error) {
	var out []KernelBTF
	var id uint32
	for {
		a := getIDAttr{startID: id}
		if _, err := bpf(unix.BPF_BTF_GET_NEXT_ID, unsafe.Pointer(&a), unsafe.Sizeof(a)); err != nil {
			if err == unix.ENOENT {
				return out, nil
			}
			return out, fmt.Errorf("BPF_BTF_GET_NEXT_ID after %d: %v", id, err)
		}
		id = a.nextID
		b, err := getBTF(id)
		if err != nil {
			return out, err
		}
		out = append(out, b)
	}
}

func getBTF(id uint32) (KernelBTF, error) {
	a := getIDAttr{startID: id}
	fd, err := bpf(unix.BPF_BTF_GET_FD_BY_ID, unsafe.Pointer(&a), unsafe.Sizeof(a))
	if err != nil {
		return KernelBTF{}, fmt.Errorf("BPF_BTF_GET_FD_BY_ID %d: %v", id, err)
	}
	defer unix.Close(int(fd))
	name := make([]byte, 64)
	var info btfInfo
	info.name = uint64(uintptr(unsafe.Pointer(&name[0])))
	info.nameLen = uint32(len(name))
	if err := objInfo(fd, &info); err != nil {
		return KernelBTF{}, fmt.Errorf("BPF_OBJ_GET_INFO_BY_FD (btf %d): %v", id, err)
	}
	size := info.btfSize
	data := make([]byte, size)
	info = btfInfo{btfSize: size, name: uint64(uintptr(unsafe.Pointer(&name[0]))), nameLen: uint32(len(name))}
	if size > 0 {
		info.btf = uint64(uintptr(unsafe.Pointer(&data[0])))
	}
	if err := objInfo(fd, &info); err != nil {
		return KernelBTF{}, fmt.Errorf("BPF_OBJ_GET_INFO_BY_FD (btf %d, data): %v", id, err)
	}
	runtime.KeepAlive(data)
	runtime.KeepAlive(name)
	n := bytes.IndexByte(name, 0)
	if n < 0 {
		n = len(name)
	}
	return KernelBTF{ID: info.id, Name: string(name[:n]), Kernel: info.kernelBTF != 0, Data: data}, nil
}

func objInfo(fd uintptr, info *btfInfo) error {
	a := infoAttr{fd: uint32(fd), infoLen: uint32(unsafe.Sizeof(*info)), info: uint64(uintptr(unsafe.Pointer(info)))}
	_, err := bpf(unix.BPF_OBJ_GET_INFO_BY_FD, unsafe.Pointer(&a), unsafe.Sizeof(a))
	runtime.KeepAlive(info)
	return err
}

// CheckRegistered triggers the kernel's parse of its BTF, then looks for
// the kernel BTF object named "vmlinux" and compares its bytes with the
// expected ones.
func CheckRegistered(expected []byte) Result {
	r := Result{Name: "vmlinux_registered"}
	trig := TriggerParse()
	list, err := ListBTF()
	if err != nil {
		r.Detail = fmt.Sprintf("%s; %v", trig, err)
		return r
	}
	for _, b := range list {
		if b.Name != "vmlinux" {
			continue
		}
		switch {
		case !b.Kernel:
			r.Detail = fmt.Sprintf("BTF id %d named vmlinux is not a kernel BTF", b.ID)
		case !bytes.Equal(b.Data, expected):
			r.Detail = fmt.Sprintf("BTF id %d (vmlinux): %s, expected %s", b.ID, digest(b.Data), digest(expected))
		default:
			r.Pass = true
			r.Detail = fmt.Sprintf("kernel BTF id %d named vmlinux, %s", b.ID, digest(b.Data))
		}
		return r
	}
	r.Detail = fmt.Sprintf("no BTF object named vmlinux among %d registered (%s); the kernel did not accept its BTF", len(list), trig)
	return r
}

// RunAll runs every check against the kernel's BTF, with expected the
// vmlinux .BTF section the kernel was built with.
func RunAll(sysfsPath string, expected []byte) []Result {
	return []Result{
		CheckSysfs(sysfsPath, expected),
		CheckRegistered(expected),
		CheckLoad(expected),
	}
}
