package btf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/btfkit/btfkit/elfx"
)

// SysfsDir is where a running kernel exposes its BTF: vmlinux and one split
// BTF per loaded module.
const SysfsDir = "/sys/kernel/btf"

// ErrArchive is returned (wrapped in an *ArchiveError) when a single BTF
// was asked for but the input is a BTF archive of several blobs.
var ErrArchive = errors.New("input is a BTF archive (several BTF blobs back to back)")

// ArchiveError says how many members an archive has.
type ArchiveError struct {
	Path    string
	Members int
}

func (e *ArchiveError) Error() string {
	return fmt.Sprintf("%s: %v of %d members; read it with LoadArchive or merge it with 'btfkit dedup'", e.Path, ErrArchive, e.Members)
}

func (e *ArchiveError) Unwrap() error { return ErrArchive }

// ReadBTFBytes returns the BTF bytes of a file: the whole file when it is raw
// BTF, the .BTF section when it is an ELF (vmlinux, .ko, .o; see
// elfx.ReadSection). where names the place for error messages ("FILE" or
// "FILE: section .BTF").
//
// An ELF is not read whole: only its headers and the section are, so a
// vmlinux with debug info (hundreds of MB) costs what its .BTF costs.
func ReadBTFBytes(path string) (data []byte, where string, err error) {
	sec, err := elfx.ReadSection(path, ".BTF")
	if errors.Is(err, elfx.ErrNotELF) {
		raw, err := os.ReadFile(path)
		if err != nil {
			return nil, path, err
		}
		return raw, path, nil
	}
	if err != nil {
		return nil, path, err
	}
	return sec, path + ": section .BTF", nil
}

// SplitArchive splits BTF bytes into blobs. Plain BTF gives one blob. A BTF
// archive, several complete BTF blobs back to back as a BTF-unaware linker
// concatenates per-object .BTF sections (with zero padding for alignment
// between them), gives one blob per member.
func SplitArchive(data []byte) ([][]byte, error) {
	var blobs [][]byte
	off := 0
	for off < len(data) {
		_, _, n, err := ParseHeader(data[off:])
		if err != nil {
			var pe *ParseError
			if len(blobs) == 0 {
				// A bad first blob is a bad BTF, archive or not.
				return nil, err
			}
			if errors.As(err, &pe) {
				return nil, perr(int64(off)+pe.Off, "archive member %d: %s", len(blobs), pe.Msg)
			}
			return nil, err
		}
		blobs = append(blobs, data[off:off+n])
		off += n
		// Skip the padding a linker puts between input sections.
		for off < len(data) && data[off] == 0 {
			off++
		}
	}
	if len(blobs) == 0 {
		return nil, perr(0, "empty BTF")
	}
	return blobs, nil
}

// LoadFile reads one BTF from path: raw BTF or an ELF's .BTF section, split
// against base when base is not nil. A module's BTF under /sys/kernel/btf
// gets /sys/kernel/btf/vmlinux as its base automatically. A BTF archive is
// an error (*ArchiveError); see LoadArchive.
func LoadFile(path string, base *Spec) (*Spec, error) {
	if base == nil && IsSysfsModule(path) {
		b, err := LoadFile(filepath.Join(SysfsDir, "vmlinux"), nil)
		if err != nil {
			return nil, fmt.Errorf("loading base for %s: %w", path, err)
		}
		base = b
	}
	data, where, err := ReadBTFBytes(path)
	if err != nil {
		return nil, err
	}
	blobs, err := SplitArchive(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	if len(blobs) > 1 {
		return nil, &ArchiveError{Path: where, Members: len(blobs)}
	}
	s, err := Parse(blobs[0], base)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	return s, nil
}

// LoadArchive reads every member of a BTF archive (or the single BTF of a
// plain input) as a separate Spec, each split against base when base is
// not nil.
func LoadArchive(path string, base *Spec) ([]*Spec, error) {
	data, where, err := ReadBTFBytes(path)
	if err != nil {
		return nil, err
	}
	blobs, err := SplitArchive(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	specs := make([]*Spec, len(blobs))
	off := 0
	for i, b := range blobs {
		s, err := Parse(b, base)
		if err != nil {
			return nil, fmt.Errorf("%s: archive member %d at offset 0x%x: %w", where, i, off, err)
		}
		specs[i] = s
		off += len(b)
	}
	return specs, nil
}

// LoadKernel reads the running kernel's BTF from /sys/kernel/btf/vmlinux.
func LoadKernel() (*Spec, error) { return LoadFile(filepath.Join(SysfsDir, "vmlinux"), nil) }

// IsSysfsModule reports whether path is a module's BTF under SysfsDir,
// split against SysfsDir/vmlinux.
func IsSysfsModule(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	dir, name := filepath.Split(abs)
	return strings.TrimSuffix(dir, "/") == SysfsDir && name != "vmlinux"
}
