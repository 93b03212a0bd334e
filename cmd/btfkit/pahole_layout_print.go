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

// layoutPrintSwitches are the switches: pahole's names, letters and help,
// `btfkit layout`'s help, and the option each sets.
var layoutPrintSwitches = []struct {
	short, name, help string
	native            string // `btfkit layout`'s help
	field             func(o *layout.Options) *bool
}{
	{"E", "expand_types", "expand class members", "print the types of members in place (structs, unions, enums, through typedefs)",
		func(o *layout.Options) *bool { return &o.ExpandTypes }},
	{"p", "expand_pointers", "expand class pointer members", "print the types pointers point to in place",
		func(o *layout.Options) *bool { return &o.ExpandPointers }},
	{"r", "rel_offset", "show relative offsets of members in inner structs", "print the offsets in inner structs relative to them",
		func(o *layout.Options) *bool { return &o.RelOffset }},
	{"M", "show_only_data_members", "show only the members that use space in the class layout", "print only members, not the types a struct's body defines",
		func(o *layout.Options) *bool { return &o.ShowOnlyDataMembers }},
	{"I", "show_decl_info", "Show the file and line number where the tags were defined", "print the unit and the file and line where each type is declared",
		func(o *layout.Options) *bool { return &o.ShowDeclInfo }},
	{"l", "show_first_biggest_size_base_type_member", "show first biggest size base_type member", "add the first member of the largest base type to the summary",
		func(o *layout.Options) *bool { return &o.ShowFirstBiggestSizeBaseTypeMember }},
	{"", "suppress_aligned_attribute", "Suppress __attribute__((aligned(N))", "leave out __attribute__((__aligned__(N)))",
		func(o *layout.Options) *bool { return &o.SuppressAlignedAttribute }},
	{"", "suppress_force_paddings", "Suppress int :N paddings at the end", "leave out the \"Force padding\" members (DWARF)",
		func(o *layout.Options) *bool { return &o.SuppressForcePaddings }},
	{"", "suppress_packed", "Suppress output of inferred __attribute__((__packed__))", "leave out inferred __attribute__((__packed__))",
		func(o *layout.Options) *bool { return &o.SuppressPacked }},
	{"", "fixup_silly_bitfields", "Fix silly bitfields such as int foo:32", "print silly bitfields as plain members, as pahole does (DWARF)",
		func(o *layout.Options) *bool { return &o.FixupSillyBitfields }},
	{"", "classes_as_structs", "Use 'struct' when printing classes", "print C++ classes as structs",
		func(o *layout.Options) *bool { return &o.ClassesAsStructs }},
	{"", "flat_arrays", "Flat arrays", "print multi-dimensional arrays with one dimension",
		func(o *layout.Options) *bool { return &o.FlatArrays }},
	{"", "compile", "Emit compilable types", "print compilable C: each type after the types it needs",
		func(o *layout.Options) *bool { return &o.Compile }},
	{"", "skip_emitting_atomic_typedefs", "Do not emit 'typedef _Atomic int atomic_int' & friends.", "with --compile, leave out the typedefs of C11's atomic_* types",
		func(o *layout.Options) *bool { return &o.SkipEmittingAtomicTypedefs }},
	{"q", "quiet", "be quieter", "print no comments: no offsets and sizes, holes or summaries",
		func(o *layout.Options) *bool { return &o.Quiet }},
}

// layoutPrintOpts are `btfkit layout`'s values of these options.
var layoutPrintOpts layout.Options

func init() {
	for _, s := range layoutPrintSwitches {
		field := s.field
		registerPaholeLayoutFlags(paholeLayoutFlag{short: s.short, name: s.name, help: s.help,
			apply: func(l *paholeLayout, v string) error { *field(&l.opts) = true; return nil }})
		layoutCmd.Flags().BoolVarP(field(&layoutPrintOpts), strings.ReplaceAll(s.name, "_", "-"), s.short, false, s.native)
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
