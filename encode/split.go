package encode

// Split BTF: a module's types deduplicated against a base (vmlinux), as
// `pahole -J --btf_base BASE mod.ko` makes them.

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
)

// Base is a base BTF (a vmlinux's) ready for EncodeSplit and SplitOnto:
// loaded and prepared for deduplication once, then only read, so any
// number of concurrent encodings may share it.
type Base struct {
	spec *btf.Spec
	prep *dedup.Base
}

// LoadBase reads the base BTF a module's BTF is split against: raw BTF
// (a vmlinux.btf, /sys/kernel/btf/vmlinux) or the .BTF section of an ELF
// file (a vmlinux with BTF).
func LoadBase(path string) (*Base, error) {
	spec, err := btf.LoadFile(path, nil)
	if err != nil {
		return nil, err
	}
	b, err := NewBase(spec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// NewBase prepares spec, a complete (not split) BTF, as a Base. spec must
// not be changed afterwards.
func NewBase(spec *btf.Spec) (*Base, error) {
	if spec.Base() != nil {
		return nil, fmt.Errorf("is split BTF; a base must be a complete BTF (vmlinux)")
	}
	p, err := dedup.PrepareBase(spec)
	if err != nil {
		return nil, err
	}
	return &Base{spec: spec, prep: p}, nil
}

// Spec returns the base BTF.
func (b *Base) Spec() *btf.Spec { return b.spec }

// EncodeSplit converts the DWARF of the ELF file at path (a kernel module,
// plain or compressed: .ko, .ko.xz, .ko.zst, .ko.gz) to BTF split against
// base: types equal to base types are not repeated but refer to the base's
// IDs, the module's own types are numbered from base.Spec().NextID() and
// its strings follow the base's. With a nil base it is EncodeFile.
//
// The module's merged fragments are deduplicated once, onto the base, the
// way pahole adds a module's types to a split BTF and runs libbpf's
// btf__dedup on it; VARs are never merged (libbpf's rule).
func EncodeSplit(path string, base *Base, o Options) (*btf.Spec, error) {
	if base == nil {
		return EncodeFile(path, o)
	}
	noDedup := o.NoDedup
	o.NoDedup = true
	merged, err := EncodeFile(path, o)
	if err != nil {
		return nil, err
	}
	if noDedup {
		return dedup.MergeOnto(base.spec, merged)
	}
	out, err := SplitOnto(base, merged)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// SplitOnto deduplicates the types of spec (a standalone BTF numbered from
// 1, or BTF split against base) onto base and returns BTF split against
// base: what EncodeSplit does after encoding, for BTF from elsewhere.
func SplitOnto(base *Base, spec *btf.Spec) (*btf.Spec, error) {
	if b := spec.Base(); b != nil && b != base.spec {
		return nil, fmt.Errorf("the BTF is split against another base")
	}
	// A standalone spec is placed after the base by DedupOnto itself.
	out, _, err := dedup.DedupOnto(base.prep, spec, dedup.Options{KeepDuplicateVars: true})
	if err != nil {
		return nil, fmt.Errorf("dedup against the base: %w", err)
	}
	return out, nil
}
