package encode

// Split BTF: a module's types deduplicated against a base (vmlinux), as
// `pahole -J --btf_base BASE mod.ko` makes them.

import (
	"fmt"
	"github.com/btfkit/btfkit/elfx"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
)

// LoadBase reads the base BTF a module's BTF is split against, raw BTF (a
// vmlinux.btf, /sys/kernel/btf/vmlinux) or the .BTF section of an ELF file
// (a vmlinux with BTF), and prepares it for deduplication once
// (dedup.PrepareBase): then it is only read, so any number of concurrent
// encodings may share it.
func LoadBase(path string) (*dedup.Base, error) {
	spec, err := btf.LoadFile(path, nil)
	if err != nil {
		return nil, err
	}
	if spec.Base() != nil {
		return nil, fmt.Errorf("%s: is split BTF; a base must be a complete BTF (vmlinux)", path)
	}
	b, err := dedup.PrepareBase(spec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// EncodeSplit converts the DWARF of the ELF file at path (a kernel module,
// plain or compressed: .ko, .ko.xz, .ko.zst, .ko.gz) to BTF split against
// base: types equal to base types are not repeated but refer to the base's
// IDs, the module's own types are numbered from base.Spec().NextID() and
// its strings follow the base's. With a nil base it is EncodeFile.
//
// The module's merged fragments are deduplicated once, onto the base, the
// way pahole adds a module's types to a split BTF and runs libbpf's
// btf__dedup on it; VARs are never merged (libbpf's rule).
func EncodeSplit(path string, base *dedup.Base, o Options) (*btf.Spec, error) {
	if base == nil {
		return EncodeFile(path, o)
	}
	noDedup := o.NoDedup
	o.NoDedup = true
	merged, err := encodeFile(path, o, false)
	if err != nil {
		return nil, err
	}
	if noDedup {
		out, err := dedup.MergeOnto(base.Spec(), merged)
		if err == nil {
			err = checkOutput(out)
		}
		if err != nil {
			return nil, elfx.NamingFile(path, err)
		}
		return out, nil
	}
	// A standalone spec is placed after the base by Dedup itself.
	clk := newStageClock(o.Stats != nil)
	defer clk.stop()
	dopts := dedup.Options{KeepDuplicateVars: true, Base: base}
	if o.Stats != nil {
		dopts.Stats = &o.Stats.DedupPhases
	}
	out, _, err := dedup.Dedup(merged, dopts)
	if err != nil {
		return nil, fmt.Errorf("%s: dedup against the base: %w", path, err)
	}
	keepStringOrder(out, merged) // strorder.go
	if o.Stats != nil {
		clk.lap(&o.Stats.Dedup)
		o.Stats.Out += out.NumTypes()
	}
	// The split output is checked (its own types, against the base), as
	// EncodeFile checks a complete one.
	if err := checkOutput(out); err != nil {
		return nil, elfx.NamingFile(path, err)
	}
	return out, nil
}
