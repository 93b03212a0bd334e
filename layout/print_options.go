package layout

// How a layout is printed: the options that set pahole's conf_fprintf
// (-E, -p, -r, -M, -I, -l, --suppress_*, --classes_as_structs,
// --flat_arrays) and those its loader applies before printing
// (--fixup_silly_bitfields, -w).

// printConf is the conf a type printed on its own starts with: pahole's
// global conf_fprintf as its command line sets it.
func (l *Listing) printConf() conf {
	o := &l.opts
	return conf{
		emitStats:                true,
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

// SetInputName names the input the next units come from, which pahole -I
// prints as the unit a type was found in when the input is BTF (for DWARF
// it prints the compile unit's name).
func (l *Listing) SetInputName(name string) { l.inputName = name }

// prepare readies a unit for printing with the listing's options.
func (l *Listing) prepare(u *unit) {
	u.opts = &l.opts
	u.inputName = l.inputName
	if l.opts.WordSize != 0 && len(l.opts.ClassNames) == 0 {
		u.fixupWordSize(uint32(uint8(l.opts.WordSize))) // word_size.go
	}
}
