package minimize

import (
	"debug/elf"
	"errors"
	"fmt"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/elfx"
)

// Object is what minimizing needs of a BPF object: its BTF and its CO-RE
// relocation records.
type Object struct {
	Path  string
	BTF   *btf.Spec
	Relos []btf.CORERelo
}

// LoadObject reads the BPF object (an ELF file of machine BPF, as clang
// -target bpf writes it) at path: its .BTF and the CO-RE relocations of
// its .BTF.ext. An object without .BTF.ext is an error, as it is for
// bpftool; one whose .BTF.ext has no CO-RE relocations has none. Errors
// name path (and the section and offset where one applies).
func LoadObject(path string) (*Object, error) {
	f, err := elfx.Open(path)
	if err != nil {
		if errors.Is(err, elfx.ErrNotELF) {
			return nil, fmt.Errorf("%s: not a BPF object (not an ELF file)", path)
		}
		return nil, err
	}
	defer f.Close()
	if f.Machine != elf.EM_BPF {
		return nil, fmt.Errorf("%s: not a BPF object (ELF machine %v, want EM_BPF: compile with clang -target bpf)", path, f.Machine)
	}
	data, err := f.SectionData(".BTF")
	if err != nil {
		if errors.Is(err, elfx.ErrNoSection) {
			return nil, fmt.Errorf("%s: no .BTF section (compile with -g)", path)
		}
		return nil, err
	}
	s, err := btf.Parse(data, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: section .BTF: %w", path, err)
	}
	ext, err := f.SectionData(".BTF.ext")
	if err != nil {
		if errors.Is(err, elfx.ErrNoSection) {
			return nil, fmt.Errorf("%s: no .BTF.ext section, so no CO-RE relocations (compile with clang -g -target bpf)", path)
		}
		return nil, err
	}
	relos, err := btf.ParseCORERelos(ext, s)
	if err != nil {
		var pe *btf.ParseError
		if errors.As(err, &pe) {
			msg := strings.TrimPrefix(pe.Msg, ".BTF.ext: ")
			return nil, &elfx.Error{Path: path, Section: ".BTF.ext", Offset: uint64(pe.Off), Err: errors.New(msg)}
		}
		return nil, fmt.Errorf("%s: section .BTF.ext: %w", path, err)
	}
	return &Object{Path: path, BTF: s, Relos: relos}, nil
}
