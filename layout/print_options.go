package layout

import "github.com/btfkit/btfkit/internal/ctype"

// How a layout is printed: the options that set pahole's conf_fprintf
// (-E, -p, -r, -M, -I, -l, -q, --suppress_*, --classes_as_structs,
// --flat_arrays) and those its loader applies before printing
// (--fixup_silly_bitfields, -w).

// topConf is pahole's global conf_fprintf as its command line sets it:
// how a type printed on its own is laid out.
func (l *Listing) topConf() conf {
	o := &l.opts
	return conf{
		emitStats:                !o.Quiet,
		suppressComments:         o.Quiet,
		suppressOffsetComment:    o.Quiet,
		hex:                      o.Hex,
		relOffset:                o.RelOffset,
		expandTypes:              o.ExpandTypes,
		expandPointers:           o.ExpandPointers,
		showOnlyDataMembers:      o.ShowOnlyDataMembers || o.ShowPrivateClasses,
		showDeclInfo:             o.ShowDeclInfo,
		showFirstBiggest:         o.ShowFirstBiggestSizeBaseTypeMember,
		suppressAlignedAttribute: o.SuppressAlignedAttribute,
		suppressForcePaddings:    o.SuppressForcePaddings,
		suppressPacked:           o.SuppressPacked,
		classesAsStructs:         o.ClassesAsStructs,
		flatArrays:               o.FlatArrays,
	}
}

// prepare readies a unit for printing with the listing's options; name
// is the unit's (NamedUnit's), which -I prints.
func (l *Listing) prepare(u *unit, name string) {
	u.opts = &l.opts
	u.nm.SetOptions(ctype.Options{ClassesAsStructs: l.opts.ClassesAsStructs})
	u.inputName = name
	if l.opts.WordSize != 0 && len(l.opts.ClassNames) == 0 {
		u.fixupWordSize(uint32(uint8(l.opts.WordSize))) // word_size.go
	}
}
