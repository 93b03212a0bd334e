package main

// Where `btfkit pretty` and `btfkit pahole --prettify` get the types that
// describe the data: the DWARF of an ELF file (encoded to BTF the way
// `btfkit encode` does), the BTF of an ELF (.BTF), a raw BTF file, a BTF
// archive (its members merged) or /sys/kernel/btf. The formats are tried in
// the order given, as pahole's -F does; pahole's default order is DWARF,
// then BTF.

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/input"
)

// loadTypeSource loads the types in path with the first of formats that
// the file has; basePath, when set, is the base BTF of split BTF (a
// module's). No path means the running kernel's BTF. It also returns the
// pointer size the file's ELF class says (0 when unknown).
func loadTypeSource(path string, formats input.Formats, basePath string) (*btf.Spec, int, error) {
	if path == "" {
		path = filepath.Join(btf.SysfsDir, "vmlinux")
		formats = input.Formats{input.BTF}
	}
	if err := input.Readable(path); err != nil {
		return nil, 0, err
	}
	ptrSize, sections := elfSections(path, ".debug_info", ".BTF")
	var base *btf.Spec
	if basePath != "" {
		b, err := input.Load(basePath, nil)
		if err != nil {
			return nil, 0, fmt.Errorf("--btf_base: %w", err)
		}
		base = b
	}
	var tried []string
	for _, f := range formats {
		var (
			s   *btf.Spec
			err error
		)
		switch f {
		case input.DWARF:
			if !sections[".debug_info"] {
				tried = append(tried, "dwarf")
				continue
			}
			s, err = loadDWARFTypes(path, base)
		case input.BTF:
			if ptrSize != 0 && !sections[".BTF"] {
				tried = append(tried, "btf")
				continue
			}
			s, err = loadBTFTypes(path, base)
		case input.CTF:
			// pahole's CTF loader; btfkit reads no CTF: next format.
			tried = append(tried, "ctf")
			continue
		default:
			// pahole gives up at a format it has no loader for.
			return nil, 0, fmt.Errorf("%s: Operation not supported", path)
		}
		if err != nil {
			return nil, 0, err
		}
		return s, ptrSize, nil
	}
	return nil, 0, fmt.Errorf("%s: no %s type information", path, strings.Join(tried, " or "))
}

// loadDWARFTypes encodes the DWARF of an ELF file to BTF.
func loadDWARFTypes(path string, base *btf.Spec) (*btf.Spec, error) {
	opts := encode.Options{Features: encode.DefaultFeatures}
	if base == nil {
		return encode.EncodeFile(path, opts)
	}
	b, err := dedup.PrepareBase(base)
	if err != nil {
		return nil, fmt.Errorf("--btf_base: %w", err)
	}
	return encode.EncodeSplit(path, b, opts)
}

// loadBTFTypes reads the BTF of a raw or ELF file; the members of a BTF
// archive are merged into one Spec.
func loadBTFTypes(path string, base *btf.Spec) (*btf.Spec, error) {
	s, err := input.Load(path, base)
	var ae *btf.ArchiveError
	if !errors.As(err, &ae) {
		return s, err
	}
	specs, err := input.LoadArchive(path, base)
	if err != nil {
		return nil, err
	}
	var merged *btf.Spec
	if base != nil {
		merged, err = dedup.MergeOnto(base, specs...)
	} else {
		merged, err = dedup.Merge(specs...)
	}
	if err != nil {
		return nil, err
	}
	out, _, err := dedup.Dedup(merged, dedup.Options{})
	return out, err
}

// elfSections returns the pointer size an ELF file's class says (0 when
// path is no ELF file) and which of the named sections it has.
func elfSections(path string, names ...string) (int, map[string]bool) {
	has := map[string]bool{}
	f, err := elfx.Open(path)
	if err != nil {
		return input.PointerSize(path), has
	}
	defer f.Close()
	for _, n := range names {
		has[n] = f.Section(n) != nil
	}
	return input.PointerSize(path), has
}
