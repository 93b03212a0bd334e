package btf

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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

// IsELF reports whether data starts with the ELF magic.
func IsELF(data []byte) bool { return len(data) >= 4 && string(data[:4]) == elf.ELFMAG }

// ReadBTFBytes returns the BTF bytes of a file: the whole file when it is raw
// BTF, the .BTF section when it is an ELF (vmlinux, .ko, .o). where names
// the place for error messages ("FILE" or "FILE: section .BTF").
//
// An ELF is not read whole: only its headers and the section are, so a
// vmlinux with debug info (hundreds of MB) costs what its .BTF costs.
func ReadBTFBytes(path string) (data []byte, where string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, path, err
	}
	defer f.Close()
	var magic [4]byte
	if n, _ := io.ReadFull(f, magic[:]); !IsELF(magic[:n]) {
		raw, err := os.ReadFile(path)
		if err != nil {
			return nil, path, err
		}
		return raw, path, nil
	}
	sec, err := elfFileSection(f, path, ".BTF")
	if err != nil {
		return nil, path, err
	}
	return sec, path + ": section .BTF", nil
}

// elfFileSection is ELFSection for an open file, reading only the ELF
// headers and the section itself.
func elfFileSection(f *os.File, path, name string) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	ef, err := elf.NewFile(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	s := ef.Section(name)
	if s == nil {
		return nil, fmt.Errorf("%s: no %s section", path, name)
	}
	if s.Type == elf.SHT_NOBITS {
		return nil, fmt.Errorf("%s: section %s has no data (SHT_NOBITS)", path, name)
	}
	if s.Flags&elf.SHF_COMPRESSED != 0 {
		b, err := io.ReadAll(s.Open())
		if err != nil {
			return nil, fmt.Errorf("%s: section %s: %v", path, name, err)
		}
		return b, nil
	}
	end := s.Offset + s.FileSize
	if end < s.Offset || end > uint64(st.Size()) {
		return nil, fmt.Errorf("%s: section %s at file offset 0x%x size 0x%x runs past the end of the file (0x%x bytes)", path, name, s.Offset, s.FileSize, st.Size())
	}
	b := make([]byte, s.FileSize)
	if _, err := f.ReadAt(b, int64(s.Offset)); err != nil {
		return nil, fmt.Errorf("%s: section %s: %v", path, name, err)
	}
	return b, nil
}

// ELFSection returns the contents of the named section of an ELF image.
func ELFSection(image []byte, path, name string) ([]byte, error) {
	f, err := elf.NewFile(bytes.NewReader(image))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	s := f.Section(name)
	if s == nil {
		return nil, fmt.Errorf("%s: no %s section", path, name)
	}
	if s.Type == elf.SHT_NOBITS {
		return nil, fmt.Errorf("%s: section %s has no data (SHT_NOBITS)", path, name)
	}
	if s.Flags&elf.SHF_COMPRESSED != 0 {
		b, err := io.ReadAll(s.Open())
		if err != nil {
			return nil, fmt.Errorf("%s: section %s: %v", path, name, err)
		}
		return b, nil
	}
	end := s.Offset + s.FileSize
	if end < s.Offset || end > uint64(len(image)) {
		return nil, fmt.Errorf("%s: section %s at file offset 0x%x size 0x%x runs past the end of the file (0x%x bytes)", path, name, s.Offset, s.FileSize, len(image))
	}
	return image[s.Offset:end], nil
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
	if base == nil && isSysfsModule(path) {
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

func isSysfsModule(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	dir, name := filepath.Split(abs)
	return strings.TrimSuffix(dir, "/") == SysfsDir && name != "vmlinux"
}
