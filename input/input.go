// Package input opens the BTF a command or a caller is given, one way for
// every reader (dump, check, diff, sort, layout, pfunct, pretty):
//
//	s, err := input.Load("/sys/kernel/btf/xfs", nil) // base found: vmlinux
//	s, err := input.Load("xfs.ko", vmlinux)          // .BTF.base relocated onto vmlinux
//
// An input is a raw BTF file, an ELF file with a .BTF section (vmlinux, a
// module, an object), or a file under /sys/kernel/btf; "-" is standard
// input, which, like any pipe or device (/dev/stdin), is read whole, once,
// and kept for the process's later reads of that name. What each gives:
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
//
// The -F lists that say which formats to read an input in (dwarf, btf,
// tried in order) are parsed here too, one way for every command:
// ParseFormats for btfkit's own, PaholeFormats as pahole and pfunct read
// them.
package input

import (
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

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
	Where string // the input's BTF ("FILE: section .BTF"), the same for every member
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
	src, err := open(path)
	if err != nil {
		return nil, err
	}
	defer src.close()
	data, where, err := src.btf()
	if err != nil {
		return nil, err
	}
	dist, err := src.section(".BTF.base")
	switch {
	case err == nil:
		m, err := distilled(path, where, data, dist, base)
		return []Member{m}, err
	case !errors.Is(err, elfx.ErrNoSection) && !errors.Is(err, elfx.ErrNotELF):
		return nil, err
	}
	if base == nil && btf.IsSysfsModule(path) {
		if base, err = kernelBase(path); err != nil {
			return nil, err
		}
	}
	blobs, err := btf.SplitArchive(data)
	if err != nil || len(blobs) == 1 {
		return []Member{{Label: where, Where: where, Raw: data, Base: base}}, nil
	}
	ms := make([]Member, len(blobs))
	for i, b := range blobs {
		ms[i] = Member{Label: fmt.Sprintf("%s: archive member %d of %d", where, i, len(blobs)), Where: where, Raw: b, Base: base}
	}
	return ms, nil
}

// Load reads one BTF from path (see the package doc), split against base
// when base is not nil. A BTF archive is an error (*btf.ArchiveError).
func Load(path string, base *btf.Spec) (*btf.Spec, error) {
	ms, err := Members(path, base)
	if err != nil {
		return nil, err
	}
	if len(ms) > 1 {
		return nil, &btf.ArchiveError{Path: ms[0].Where, Members: len(ms)}
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

// kernelBase is the running kernel's vmlinux BTF, the base of the module
// path under /sys/kernel/btf, loaded once for the process.
func kernelBase(path string) (*btf.Spec, error) {
	kernel.Do(func() { kernel.spec, kernel.err = btf.LoadKernel() })
	if kernel.err != nil {
		return nil, fmt.Errorf("%s: loading its base %s: %w", path, filepath.Join(btf.SysfsDir, "vmlinux"), kernel.err)
	}
	return kernel.spec, nil
}

// kernel is the running kernel's BTF, the base of every module under
// /sys/kernel/btf, loaded once for the process.
var kernel struct {
	sync.Once
	spec *btf.Spec
	err  error
}

// distilled is the member of a module whose ELF holds .BTF.base (dist):
// its BTF (raw, at where) against dist, or relocated onto base when given.
func distilled(path, where string, raw, distRaw []byte, base *btf.Spec) (Member, error) {
	dist, err := btf.Parse(distRaw, nil)
	if err != nil {
		return Member{}, fmt.Errorf("%s: section .BTF.base: %w", path, err)
	}
	if base == nil {
		return Member{Label: where, Where: where, Raw: raw, Base: dist}, nil
	}
	split, err := btf.Parse(raw, dist)
	if err != nil {
		return Member{}, fmt.Errorf("%s (split against section .BTF.base): %w", where, err)
	}
	moved, err := distill.Relocate(split, base)
	if err != nil {
		return Member{}, fmt.Errorf("%s: relocating its BTF from .BTF.base onto the base: %w", path, err)
	}
	return Member{Label: where + " (relocated from .BTF.base onto the base)", Where: where, Raw: moved.Marshal(split.ByteOrder()), Base: base}, nil
}

// Stdin is the name of standard input as an input.
const Stdin = "-"

// Readable checks that path can be opened for reading, with the error
// every btfkit input error has for a file it cannot read ("FILE: open: no
// such file or directory", an *elfx.Error). Standard input is readable.
func Readable(path string) error {
	if path == Stdin {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("%s: %w", pe.Op, pe.Err)
		}
		return &elfx.Error{Path: path, Err: err}
	}
	return f.Close()
}

// IsStream reports whether path is read whole rather than in place:
// standard input ("-"), a pipe, a device. Readers that need to seek in a
// file (DWARF) cannot take one.
func IsStream(path string) bool {
	if path == Stdin {
		return true
	}
	st, err := os.Stat(path)
	return err == nil && !st.Mode().IsRegular()
}

// streams holds the bytes of inputs that cannot be read twice (standard
// input, pipes, devices), by name, once read.
var streams struct {
	sync.Mutex
	data map[string][]byte
}

// stream returns the whole contents of path when it is standard input or
// not a regular file (ok false for a regular file, which is read in place).
func stream(path string) (data []byte, ok bool, err error) {
	if path != Stdin {
		st, err := os.Stat(path)
		if err != nil || st.Mode().IsRegular() {
			return nil, false, nil // a regular file, or an error elfx names
		}
	}
	streams.Lock()
	defer streams.Unlock()
	if d, ok := streams.data[path]; ok {
		return d, true, nil
	}
	var r io.Reader = os.Stdin
	if path != Stdin {
		f, err := os.Open(path)
		if err != nil {
			return nil, true, err
		}
		defer f.Close()
		r = f
	}
	d, err := io.ReadAll(r)
	if err != nil {
		return nil, true, fmt.Errorf("%s: %w", label(path), err)
	}
	if streams.data == nil {
		streams.data = make(map[string][]byte)
	}
	streams.data[path] = d
	return d, true, nil
}

func label(path string) string {
	if path == Stdin {
		return "standard input"
	}
	return path
}

// source is an input opened once: an ELF image, or raw bytes.
type source struct {
	label string     // the input in messages: its path, or "standard input"
	elf   *elfx.File // nil for raw BTF
	raw   []byte     // the whole input when it is not ELF
	path  string     // a regular file that is not ELF, read on demand
}

// open opens path: a regular ELF file mapped (elfx.Open), standard input
// and other streams read whole, anything else read as raw BTF by btf().
func open(path string) (*source, error) {
	src := &source{label: label(path)}
	d, ok, err := stream(path)
	if err != nil {
		return nil, err
	}
	if ok {
		if !elfx.IsELF(d) {
			src.raw = d
			return src, nil
		}
		if src.elf, err = elfx.NewFile(d); err != nil {
			return nil, fmt.Errorf("%s: %w", src.label, err)
		}
		return src, nil
	}
	src.elf, err = elfx.Open(path)
	if errors.Is(err, elfx.ErrNotELF) {
		src.path = path
		return src, nil
	}
	return src, err
}

func (src *source) close() {
	if src.elf != nil {
		src.elf.Close()
	}
}

// btf returns the input's BTF bytes, valid after close: the whole input
// when it is raw BTF, its .BTF section when it is ELF; where names the
// place ("FILE", "FILE: section .BTF").
func (src *source) btf() (data []byte, where string, err error) {
	switch {
	case src.elf != nil:
		data, err = src.section(".BTF")
		return data, src.label + ": section .BTF", err
	case src.path != "":
		data, err = os.ReadFile(src.path)
		return data, src.label, err
	}
	return src.raw, src.label, nil
}

// section returns a copy of section name of an ELF input; an *elfx.Error
// with ErrNotELF for raw BTF, ErrNoSection when it has none.
func (src *source) section(name string) ([]byte, error) {
	if src.elf == nil {
		return nil, &elfx.Error{Path: src.label, Err: elfx.ErrNotELF}
	}
	data, err := src.elf.SectionCopy(name)
	var ee *elfx.Error
	if errors.As(err, &ee) && ee.Path == "" {
		ee.Path = src.label // an image read from a stream
	}
	return data, err
}

// ReadBytes returns the BTF bytes of an input: the whole input when it is
// raw BTF, its .BTF section when it is an ELF file, with where naming the
// place for messages ("FILE", "FILE: section .BTF"). A regular ELF file
// is not read whole (see elfx.ReadSection); standard input and other
// streams are.
func ReadBytes(path string) (data []byte, where string, err error) {
	src, err := open(path)
	if err != nil {
		return nil, label(path), err
	}
	defer src.close()
	return src.btf()
}

// PointerSize is the size of a pointer the input's ELF class says: 4 for
// ELFCLASS32, 8 for ELFCLASS64, 0 when path is not an ELF file (raw BTF).
// libbpf takes a BTF's pointer size from the ELF it came from, and guesses
// it from the types otherwise (ctype.PointerSize).
func PointerSize(path string) int {
	src, err := open(path)
	if err != nil || src.elf == nil {
		return 0
	}
	defer src.close()
	switch src.elf.Class {
	case elf.ELFCLASS32:
		return 4
	case elf.ELFCLASS64:
		return 8
	}
	return 0
}
