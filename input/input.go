// Package input opens the BTF a command or a caller is given, one way for
// every reader (dump, check, diff, sort, layout, pfunct, pretty):
//
//	s, err := input.Load("/sys/kernel/btf/xfs", nil) // base found: vmlinux
//	s, err := input.Load("xfs.ko", vmlinux)          // .BTF.base relocated onto vmlinux
//
// An input is a raw BTF file, an ELF file with a .BTF section (vmlinux, a
// module, an object), or a file under /sys/kernel/btf. What each gives:
//
//   - /sys/kernel/btf/MODULE is split BTF whose base is
//     /sys/kernel/btf/vmlinux; without a base given, that one is loaded.
//   - An ELF with .BTF.base (a module encoded with a distilled base,
//     pahole's and btfkit's distilled_base feature) holds split BTF against
//     that small base: with a base given, the module's BTF is relocated
//     onto it as the kernel's module loader and libbpf's btf__relocate do
//     (package distill); without one, it is read against its own
//     .BTF.base, as bpftool lists it.
//   - A BTF archive (several BTFs back to back, as a linker concatenates
//     objects' .BTF sections) is one BTF per member: Load refuses it with
//     a *btf.ArchiveError, LoadArchive and Members read every member.
//
// Errors name the file, the section and the offset where they are known.
package input

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/distill"
	"github.com/btfkit/btfkit/elfx"
)

// Member is one BTF of an input, as bytes with the base they are split
// against (nil for a complete BTF): the whole input, or one member of a
// BTF archive. Label names it in messages ("FILE: section .BTF", "...:
// archive member 2 of 5").
type Member struct {
	Label string
	Raw   []byte
	Base  *btf.Spec
}

// Members reads path's BTF bytes: one Member, or one per member of a BTF
// archive, each with the base it is split against (see the package doc:
// base, a sysfs module's vmlinux, or an ELF's .BTF.base). A distilled
// module with a base given is relocated onto it: its Raw is then the
// relocated BTF, as the kernel would hold it. Bytes that are not a clean
// archive come back whole, for the caller's parser to report.
func Members(path string, base *btf.Spec) ([]Member, error) {
	ms, _, err := members(path, base)
	return ms, err
}

func members(path string, base *btf.Spec) (ms []Member, where string, err error) {
	if m, ok, err := distilled(path, base); ok || err != nil {
		if len(m) > 0 {
			where = m[0].Label
		}
		return m, where, err
	}
	base, err = sysfsBase(path, base)
	if err != nil {
		return nil, "", err
	}
	data, where, err := btf.ReadBTFBytes(path)
	if err != nil {
		return nil, where, err
	}
	blobs, err := btf.SplitArchive(data)
	if err != nil || len(blobs) == 1 {
		return []Member{{Label: where, Raw: data, Base: base}}, where, nil
	}
	ms = make([]Member, len(blobs))
	for i, b := range blobs {
		ms[i] = Member{Label: fmt.Sprintf("%s: archive member %d of %d", where, i, len(blobs)), Raw: b, Base: base}
	}
	return ms, where, nil
}

// Load reads one BTF from path (see the package doc), split against base
// when base is not nil. A BTF archive is an error (*btf.ArchiveError).
func Load(path string, base *btf.Spec) (*btf.Spec, error) {
	ms, where, err := members(path, base)
	if err != nil {
		return nil, err
	}
	if len(ms) > 1 {
		return nil, &btf.ArchiveError{Path: where, Members: len(ms)}
	}
	return ms[0].Spec()
}

// LoadArchive reads every member of a BTF archive (or the one BTF of
// another input) as a Spec of its own.
func LoadArchive(path string, base *btf.Spec) ([]*btf.Spec, error) {
	ms, err := Members(path, base)
	if err != nil {
		return nil, err
	}
	specs := make([]*btf.Spec, len(ms))
	for i, m := range ms {
		if specs[i], err = m.Spec(); err != nil {
			return nil, err
		}
	}
	return specs, nil
}

// LoadBase reads a base BTF (--base): a complete BTF, not split, not an
// archive.
func LoadBase(path string) (*btf.Spec, error) {
	s, err := Load(path, nil)
	if err != nil {
		return nil, err
	}
	if s.Base() != nil {
		return nil, fmt.Errorf("%s: split BTF cannot be a base", path)
	}
	return s, nil
}

// Spec parses the member against its base; errors name the member.
func (m Member) Spec() (*btf.Spec, error) {
	s, err := btf.Parse(m.Raw, m.Base)
	if err != nil {
		if m.Base == nil && LooksSplit(m.Raw) {
			err = fmt.Errorf("%w (this is split BTF, a module's: give its base with --base VMLINUX)", err)
		}
		return nil, fmt.Errorf("%s: %w", m.Label, err)
	}
	return s, nil
}

// LooksSplit reports whether BTF bytes are split BTF: their string section
// does not start with the empty string, which only a complete BTF's must.
func LooksSplit(data []byte) bool {
	h, _, _, err := btf.ParseHeader(data)
	if err != nil {
		return false
	}
	off := uint64(h.HdrLen) + uint64(h.StrOff)
	return h.StrLen > 0 && off < uint64(len(data)) && data[off] != 0
}

// IsSysfsModule reports whether path is a module's BTF under
// /sys/kernel/btf (split against /sys/kernel/btf/vmlinux).
func IsSysfsModule(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	dir, name := filepath.Split(abs)
	return strings.TrimSuffix(dir, "/") == btf.SysfsDir && name != "vmlinux"
}

// sysfsBase is the base of path: base when given, the running kernel's
// vmlinux BTF for a module under /sys/kernel/btf, else nil.
func sysfsBase(path string, base *btf.Spec) (*btf.Spec, error) {
	if base != nil || !IsSysfsModule(path) {
		return base, nil
	}
	b, err := btf.LoadKernel()
	if err != nil {
		return nil, fmt.Errorf("loading base for %s: %w", path, err)
	}
	return b, nil
}

// distilled reads an ELF with .BTF.base (ok false when path has none).
func distilled(path string, base *btf.Spec) (ms []Member, ok bool, err error) {
	distRaw, err := elfx.ReadSection(path, ".BTF.base")
	if errors.Is(err, elfx.ErrNoSection) || errors.Is(err, elfx.ErrNotELF) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	dist, err := btf.Parse(distRaw, nil)
	if err != nil {
		return nil, true, fmt.Errorf("%s: section .BTF.base: %w", path, err)
	}
	raw, where, err := btf.ReadBTFBytes(path)
	if err != nil {
		return nil, true, err
	}
	if base == nil {
		return []Member{{Label: where, Raw: raw, Base: dist}}, true, nil
	}
	split, err := btf.Parse(raw, dist)
	if err != nil {
		return nil, true, fmt.Errorf("%s (split against section .BTF.base): %w", where, err)
	}
	moved, err := distill.Relocate(split, base)
	if err != nil {
		return nil, true, fmt.Errorf("%s: relocating its BTF from .BTF.base onto the base: %w", path, err)
	}
	return []Member{{Label: where + " (relocated from .BTF.base onto the base)", Raw: moved.Marshal(split.ByteOrder()), Base: base}}, true, nil
}
