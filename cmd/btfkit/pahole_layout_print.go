package main

// pahole's options for how a layout is printed (package layout's
// print_options.go, expand.go, decl_info.go, biggest.go, word_size.go,
// flat_arrays.go, fixup_silly_bitfields.go and compile.go), registered for
// `btfkit pahole` and added to `btfkit layout` with '-' for '_' in their
// long names.

import (
	"strings"

	"github.com/btfkit/btfkit/layout"
)

// layoutPrintSwitches are the switches, with their pahole names, letters
// and help, and the option each sets.
var layoutPrintSwitches = []struct {
	short, name, help string
	field             func(o *layout.Options) *bool
}{
	{"E", "expand_types", "expand class members",
		func(o *layout.Options) *bool { return &o.ExpandTypes }},
	{"p", "expand_pointers", "expand class pointer members",
		func(o *layout.Options) *bool { return &o.ExpandPointers }},
	{"r", "rel_offset", "show relative offsets of members in inner structs",
		func(o *layout.Options) *bool { return &o.RelOffset }},
	{"M", "show_only_data_members", "show only the members that use space in the class layout",
		func(o *layout.Options) *bool { return &o.ShowOnlyDataMembers }},
	{"I", "show_decl_info", "Show the file and line number where the tags were defined",
		func(o *layout.Options) *bool { return &o.ShowDeclInfo }},
	{"l", "show_first_biggest_size_base_type_member", "show first biggest size base_type member",
		func(o *layout.Options) *bool { return &o.ShowFirstBiggestSizeBaseTypeMember }},
	{"", "suppress_aligned_attribute", "Suppress __attribute__((aligned(N))",
		func(o *layout.Options) *bool { return &o.SuppressAlignedAttribute }},
	{"", "suppress_force_paddings", "Suppress int :N paddings at the end",
		func(o *layout.Options) *bool { return &o.SuppressForcePaddings }},
	{"", "suppress_packed", "Suppress output of inferred __attribute__((__packed__))",
		func(o *layout.Options) *bool { return &o.SuppressPacked }},
	{"", "fixup_silly_bitfields", "Fix silly bitfields such as int foo:32",
		func(o *layout.Options) *bool { return &o.FixupSillyBitfields }},
	{"", "classes_as_structs", "Use 'struct' when printing classes",
		func(o *layout.Options) *bool { return &o.ClassesAsStructs }},
	{"", "flat_arrays", "Flat arrays",
		func(o *layout.Options) *bool { return &o.FlatArrays }},
	{"", "compile", "Emit compilable types",
		func(o *layout.Options) *bool { return &o.Compile }},
}

// layoutPrintOpts are `btfkit layout`'s values of these options.
var layoutPrintOpts layout.Options

func init() {
	for _, s := range layoutPrintSwitches {
		field := s.field
		registerPaholeLayoutFlags(paholeLayoutFlag{short: s.short, name: s.name, help: s.help,
			apply: func(l *paholeLayout, v string) error { *field(&l.opts) = true; return nil }})
		layoutCmd.Flags().BoolVarP(field(&layoutPrintOpts), strings.ReplaceAll(s.name, "_", "-"), s.short, false, s.help)
	}
	registerPaholeLayoutFlags(paholeLayoutFlag{short: "w", name: "word_size", arg: "WORD_SIZE",
		help:  "change the arch word size to WORD_SIZE",
		apply: func(l *paholeLayout, v string) error { l.opts.WordSize = paholeAtoi(v); return nil }})
	layoutCmd.Flags().IntVarP(&layoutPrintOpts.WordSize, "word-size", "w", 0,
		"lay structs out as on a machine whose words are `BYTES` bytes (as pahole -w: not with -C)")
}

// layoutPrintApply copies `btfkit layout`'s values of these options into o.
func layoutPrintApply(o *layout.Options) {
	for _, s := range layoutPrintSwitches {
		if *s.field(&layoutPrintOpts) {
			*s.field(o) = true
		}
	}
	o.WordSize = layoutPrintOpts.WordSize
}
