//go:build linux

package e2e

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/btfkit/btfkit/btf"
)

// coreTypeIDTarget is BPF_CORE_TYPE_ID_TARGET of enum bpf_core_relo_kind.
const coreTypeIDTarget = 7

// FindType asks the kernel's CO-RE relocation (the candidate search the
// verifier runs over vmlinux BTF and then every module's BTF) for the ID
// of the kernel's type of kind ("struct", "union", or "typedef" of a
// struct) named name: 0 when no kernel BTF has one.
//
// It loads a BPF program "r0 = 0; exit" whose BTF defines an empty type
// of that kind and name and whose one CO-RE relocation
// (BPF_CORE_TYPE_ID_TARGET) sits on the first instruction; the verifier
// replaces the constant by the ID of the matching type (kernel/bpf/btf.c
// bpf_core_apply, tools/lib/bpf/relo_core.c bpf_core_calc_type_relo: 0
// when there is no candidate). Candidates match by kind and name;
// typedefs then by what they name, after typedefs, being a struct too.
// The program is never run (a kernel without networking cannot test-run
// it): its translated instructions are read back with
// BPF_OBJ_GET_INFO_BY_FD.
func FindType(kind, name string) (uint32, error) {
	local, accessOff, err := probeBTF(kind, name)
	if err != nil {
		return 0, err
	}
	btfFd, err := loadBTF(local)
	if err != nil {
		return 0, fmt.Errorf("BPF_BTF_LOAD of the probe's BTF: %v", err)
	}
	defer unix.Close(btfFd)

	insns := []uint64{
		0x00000000000000b7, // r0 = 0 (imm patched by the relocation)
		0x0000000000000095, // exit
	}
	license := []byte("GPL\x00")
	funcInfo := []uint32{0, 3}                          // insn_off, type_id: e2e_probe
	relo := []uint32{0, 4, accessOff, coreTypeIDTarget} // insn_off, type_id (the local type), access_str_off, kind
	logBuf := make([]byte, 64<<10)
	attr := progLoadAttr{
		progType:        unix.BPF_PROG_TYPE_SYSCALL,
		insnCnt:         uint32(len(insns)),
		insns:           uint64(uintptr(unsafe.Pointer(&insns[0]))),
		license:         uint64(uintptr(unsafe.Pointer(&license[0]))),
		logLevel:        1,
		logSize:         uint32(len(logBuf)),
		logBuf:          uint64(uintptr(unsafe.Pointer(&logBuf[0]))),
		progFlags:       unix.BPF_F_SLEEPABLE,
		progBTFFd:       uint32(btfFd),
		funcInfoRecSize: 8,
		funcInfo:        uint64(uintptr(unsafe.Pointer(&funcInfo[0]))),
		funcInfoCnt:     1,
		coreReloCnt:     1,
		coreRelos:       uint64(uintptr(unsafe.Pointer(&relo[0]))),
		coreReloRecSize: 16,
	}
	copy(attr.progName[:], "e2e_find_struct")
	fd, err := bpf(unix.BPF_PROG_LOAD, unsafe.Pointer(&attr), unsafe.Sizeof(attr))
	runtime.KeepAlive(insns)
	runtime.KeepAlive(license)
	runtime.KeepAlive(funcInfo)
	runtime.KeepAlive(relo)
	runtime.KeepAlive(logBuf)
	if err != nil {
		return 0, fmt.Errorf("BPF_PROG_LOAD of the CO-RE probe: %v; verifier log: %s", err, cString(logBuf))
	}
	defer unix.Close(int(fd))

	xlated := make([]uint64, 16)
	info := progInfo{
		xlatedProgLen:   uint32(8 * len(xlated)),
		xlatedProgInsns: uint64(uintptr(unsafe.Pointer(&xlated[0]))),
	}
	a := infoAttr{fd: uint32(fd), infoLen: uint32(unsafe.Sizeof(info)), info: uint64(uintptr(unsafe.Pointer(&info)))}
	_, err = bpf(unix.BPF_OBJ_GET_INFO_BY_FD, unsafe.Pointer(&a), unsafe.Sizeof(a))
	runtime.KeepAlive(&info)
	runtime.KeepAlive(xlated)
	if err != nil {
		return 0, fmt.Errorf("BPF_OBJ_GET_INFO_BY_FD of the CO-RE probe: %v", err)
	}
	if info.xlatedProgLen < 16 {
		return 0, fmt.Errorf("the CO-RE probe's translated program has %d bytes", info.xlatedProgLen)
	}
	// The first instruction must still be "r0 = imm": code 0xb7, dst r0.
	if byte(xlated[0]) != 0xb7 || byte(xlated[0]>>8) != 0 {
		return 0, fmt.Errorf("the CO-RE probe's first instruction became %#016x, not r0 = imm", xlated[0])
	}
	return uint32(xlated[0] >> 32), nil
}

// probeBTF returns the CO-RE probe's BTF: [1] int, [2] int(void),
// [3] static FUNC e2e_probe of [2], [4] the local type the relocation
// names (struct NAME {}, union NAME {}, or typedef NAME of [5], an empty
// struct), and the offset of the access string "0" (type-based
// relocations take "0").
func probeBTF(kind, name string) (data []byte, accessOff uint32, err error) {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	proto := s.Add("", btf.KindFuncProto, 0, false, uint32(i))
	s.Add("e2e_probe", btf.KindFunc, 0, false, uint32(proto)) // vlen: linkage static
	switch kind {
	case "struct":
		s.Add(name, btf.KindStruct, 0, false, 0)
	case "union":
		s.Add(name, btf.KindUnion, 0, false, 0)
	case "typedef":
		s.Add(name, btf.KindTypedef, 0, false, uint32(s.NextID())+1)
		s.Add("", btf.KindStruct, 0, false, 0)
	default:
		return nil, 0, fmt.Errorf("CO-RE probe: kind %q is not struct, union or typedef", kind)
	}
	accessOff = s.AddString("0")
	return s.Marshal(nil), accessOff, nil
}

// loadBTF loads raw BTF and returns its file descriptor.
func loadBTF(data []byte) (int, error) {
	logBuf := make([]byte, 64<<10)
	attr := struct {
		btf      uint64
		logBuf   uint64
		size     uint32
		logSize  uint32
		logLevel uint32
		trueSize uint32
		flags    uint32
		tokenFd  int32
	}{
		btf:      uint64(uintptr(unsafe.Pointer(&data[0]))),
		logBuf:   uint64(uintptr(unsafe.Pointer(&logBuf[0]))),
		size:     uint32(len(data)),
		logSize:  uint32(len(logBuf)),
		logLevel: 1,
	}
	fd, err := bpf(unix.BPF_BTF_LOAD, unsafe.Pointer(&attr), unsafe.Sizeof(attr))
	runtime.KeepAlive(data)
	runtime.KeepAlive(logBuf)
	if err != nil {
		return -1, fmt.Errorf("%v: %s", err, cString(logBuf))
	}
	return int(fd), nil
}

func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// progInfo is struct bpf_prog_info up to the fields read here.
type progInfo struct {
	progType        uint32
	id              uint32
	tag             [8]byte
	jitedProgLen    uint32
	xlatedProgLen   uint32
	jitedProgInsns  uint64
	xlatedProgInsns uint64
}
