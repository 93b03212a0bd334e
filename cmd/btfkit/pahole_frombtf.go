package main

// pahole -J -F btf: the BTF-archive route (encode/frombtf) on pahole's
// command line. -F lists formats in the order to try: with -J, "dwarf"
// encodes from DWARF, "btf" merges the file's .BTF (an archive of the
// objects' BTF when they were compiled with gcc -gbtf, or a single BTF);
// "btf,dwarf" takes the .BTF when the file has one, else the DWARF.

import (
	"fmt"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/encode/frombtf"
	"github.com/btfkit/btfkit/input"
)

// paholeFromBTFHelp is --help's word on -J -F btf.
const paholeFromBTFHelp = `
With -J, -F btf reads no DWARF: the members of FILE's .BTF (the archive a
linker makes of objects compiled with BTF, e.g. gcc -gbtf) are merged in
order, fixed with FILE's section and symbol tables and deduplicated
('btfkit encode --from btf'); -F btf,dwarf does so when FILE has a .BTF,
else encodes its DWARF. What BTF does not carry does not apply to -F btf:
parameter locations (the optimized, reordered or unexpectedly placed
parameter checks of optimized_func and consistent_func, true_signature)
and --lang_exclude. Written in place, the archive read stays in the file as
.BTF.archive, which a later run reads instead of .BTF.
`

// paholeEncodeFormats checks -F for -J and records the formats to try.
func paholeEncodeFormats(c *paholeConfig, formats []string) error {
	c.from = []string{"dwarf"}
	if len(formats) == 0 {
		return nil
	}
	list := formats[len(formats)-1]
	var from []string
	fs := input.PaholeFormats(list)
	if strings.Trim(list, ", ") == "" {
		fs = nil // no format named (not the default order): none to encode from
	}
	for _, f := range fs {
		switch f {
		case input.DWARF, input.BTF:
			from = append(from, f.String())
		case input.Unknown:
			return &paholeError{1, fmt.Sprintf("pahole: unknown format %q in -F %s", input.UnknownFormat(list), list)}
		}
	}
	if len(from) == 0 {
		return &paholeError{1, fmt.Sprintf("pahole: -F %s: btfkit pahole encodes BTF from DWARF (-F dwarf) or from a .BTF archive (-F btf)", list)}
	}
	c.from = from
	return nil
}

// paholeEncodeSpec makes the BTF of c.file by the first format of c.from
// the file has, with the encoder options o (its Report, when set, gets
// the functions left out by either route).
func paholeEncodeSpec(c *paholeConfig, base *dedup.Base, o encode.Options) (*btf.Spec, error) {
	from := "dwarf"
	if len(c.from) > 0 {
		from = c.from[0]
	}
	if len(c.from) > 1 {
		from = ""
		for _, f := range c.from {
			ok, err := paholeFileHas(c.file, f)
			if err != nil {
				return nil, err
			}
			if ok {
				from = f
				break
			}
		}
		if from == "" {
			return nil, fmt.Errorf("%s: has none of the formats %s", c.file, strings.Join(c.from, ","))
		}
	}
	if from == "dwarf" {
		return encode.EncodeSplit(c.file, base, o)
	}
	if len(c.langExclude) > 0 {
		// The kernel passes --lang_exclude=rust; BTF input has no
		// language, and a Rust object leaves no .BTF to merge.
		c.langExclude = nil
	}
	if c.features.Has(encode.FeatTrueSignature) {
		return nil, fmt.Errorf("%s: true_signature needs DWARF (parameter locations and addresses); -F btf cannot apply it", c.file)
	}
	if c.detached == "" {
		// The .BTF about to be replaced is the archive: keep it as
		// .BTF.archive, which a later run reads (a kernel build runs a
		// module's BTF step again, on the same .ko, when vmlinux changes).
		f, err := elfx.Open(c.file)
		if err != nil {
			return nil, err
		}
		if f.Section(frombtf.ArchiveSection) == nil && f.Section(frombtf.Section) != nil {
			data, err := f.SectionData(frombtf.Section)
			if err != nil {
				f.Close()
				return nil, err
			}
			c.keep = []elfx.Section{{Name: frombtf.ArchiveSection, Data: append([]byte(nil), data...)}}
		}
		f.Close()
	}
	fromBTFGC() // encode_frombtf.go
	return frombtf.EncodeFile(c.file, frombtf.Options{Features: o.Features, Jobs: o.Jobs, Base: base, Report: o.Report})
}

// paholeFileHas reports whether the file has debugging information of
// the format: a .BTF section, or DWARF.
func paholeFileHas(path, format string) (bool, error) {
	f, err := elfx.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if format == "btf" {
		return frombtf.HasBTF(f), nil
	}
	return f.FindDebug(".debug_info") != nil, nil
}
