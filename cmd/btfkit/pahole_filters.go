package main

// pahole's type filters and its other listings (names, sizes, member
// counts, containers, pointers, an enumerator's enum, sorted layouts),
// for `btfkit pahole` with pahole's flags and for `btfkit layout` with
// native ones: package layout's Options "which structs and unions" and
// "other listings" groups, and Sort.
//
// pahole keeps one per-type printer, the one of the last -s, -n, -N or -z
// given (-z sets it too; -T clears it and prints its counts at the end); -i and -f take the -C list, so the last of -C,
// -i and -f names the types. Not done: pahole's -V changes two of these
// listings (-z given after -V keeps the layout printer, and -i adds each
// container's count of members of the type); btfkit pahole's -V does not
// reach the layout options.

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/btfkit/btfkit/layout"
)

// paholeSwitch is a pahole option without an argument.
func paholeSwitch(short, name, help string, set func(o *layout.Options)) paholeLayoutFlag {
	return paholeLayoutFlag{short: short, name: name, help: help,
		apply: func(l *paholeLayout, _ string) error { set(&l.opts); return nil }}
}

// paholeNumber is a pahole option with a number, read with C's atoi.
func paholeNumber(short, name, arg, help string, set func(o *layout.Options, n int)) paholeLayoutFlag {
	return paholeLayoutFlag{short: short, name: name, arg: arg, help: help,
		apply: func(l *paholeLayout, v string) error { set(&l.opts, paholeAtoi(v)); return nil }}
}

// paholePrefix is a pahole option with a name prefix.
func paholePrefix(short, name, help string, field func(o *layout.Options) **string) paholeLayoutFlag {
	return paholeLayoutFlag{short: short, name: name, arg: "PREFIX", help: help,
		apply: func(l *paholeLayout, v string) error { *field(&l.opts) = &v; return nil }}
}

// setFormatter makes f pahole's per-type printer (the last one given wins).
func setFormatter(o *layout.Options, f *bool) {
	o.Sizes, o.NrMembers, o.ClassNameLen, o.NamesOnly = false, false, false, false
	*f = true
}

func init() {
	registerPaholeLayoutFlags(
		paholeSwitch("s", "sizes", "show size of classes", func(o *layout.Options) { setFormatter(o, &o.Sizes) }),
		paholeSwitch("n", "nr_members", "show number of members", func(o *layout.Options) { setFormatter(o, &o.NrMembers) }),
		paholeSwitch("N", "class_name_len", "show size of classes", func(o *layout.Options) { setFormatter(o, &o.ClassNameLen) }),
		// -T leaves no per-type printer (a later -s, -n, -N or -z sets
		// one) and prints the counts at the end.
		paholeSwitch("T", "nr_definitions", "show how many times struct was defined", func(o *layout.Options) {
			o.Sizes, o.NrMembers, o.ClassNameLen, o.NamesOnly = false, false, false, false
			o.NrDefinitions, o.NrMethods = true, false // the last of -T and -m counts
		}),
		paholeLayoutFlag{short: "t", name: "separator", arg: "SEP", help: "use SEP as the field separator",
			apply: func(l *paholeLayout, v string) error {
				if v == "" {
					v = "\x00" // pahole takes the argument's first byte: its NUL
				}
				l.opts.Separator = v
				return nil
			}},
		paholeNumber("H", "holes", "NR_HOLES", "show only structs with at least NR_HOLES holes",
			func(o *layout.Options, n int) { o.NrHoles = n }),
		paholeNumber("B", "bit_holes", "NR_HOLES", "Show only structs at least NR_HOLES bit holes",
			func(o *layout.Options, n int) { o.NrBitHoles = n }),
		paholeNumber("z", "hole_size_ge", "HOLE_SIZE", "show only structs with at least one hole greater or equal to HOLE_SIZE",
			func(o *layout.Options, n int) { o.HoleSizeGE = n; setFormatter(o, &o.NamesOnly) }),
		paholeNumber("", "padding_ge", "SIZE_PADDING", "show only structs with at least SIZE_PADDING bytes padding at its end",
			func(o *layout.Options, n int) { o.PaddingGE = n }),
		paholeSwitch("", "packed", "Show just packed structs", func(o *layout.Options) { o.JustStructs, o.JustPacked = true, true }),
		paholeSwitch("", "structs", "Show just structs", func(o *layout.Options) { o.JustStructs = true }),
		paholeSwitch("", "unions", "Show just unions", func(o *layout.Options) { o.JustUnions = true }),
		paholeSwitch("a", "anon_include", "include anonymous classes", func(o *layout.Options) { o.AnonInclude = true }),
		paholeSwitch("A", "nested_anon_include", "include nested (inside other structs) anonymous classes",
			func(o *layout.Options) { o.NestedAnonInclude = true }),
		paholePrefix("x", "exclude", "exclude PREFIXed classes", func(o *layout.Options) **string { return &o.ExcludePrefix }),
		paholePrefix("y", "prefix_filter", "include PREFIXed classes", func(o *layout.Options) **string { return &o.IncludePrefix }),
		paholePrefix("D", "decl_exclude", "exclude classes declared in files with PREFIX",
			func(o *layout.Options) **string { return &o.DeclExcludePrefix }),
		paholePrefix("X", "cu_exclude", "exclude PREFIXed compilation units", func(o *layout.Options) **string { return &o.CUExcludePrefix }),
		paholeSwitch("", "with_flexible_array", "show only structs with a flexible array",
			func(o *layout.Options) { o.WithFlexibleArray = true }),
		paholeSwitch("", "with_embedded_flexible_array", "show only structs with an embedded flexible array (containing a struct that has a flexible array)",
			func(o *layout.Options) { o.JustStructs, o.WithEmbeddedFlexibleArray = true, true }),
		paholeLayoutFlag{name: "contains_enumerator", arg: "ENUMERATOR", help: "Show enumerations that contains ENUMERATOR",
			apply: func(l *paholeLayout, v string) error { l.opts.ContainsEnumerator = v; return nil }},
		paholeLayoutFlag{short: "i", name: "contains", arg: "CLASS_NAME", help: "Show classes that contains CLASS_NAME",
			apply: func(l *paholeLayout, v string) error {
				l.classNames, l.hasClasses, l.opts.FindContainers = v, true, true
				return nil
			}},
		paholeLayoutFlag{short: "f", name: "find_pointers_to", arg: "CLASS_NAME", help: "Find pointers to CLASS_NAME",
			apply: func(l *paholeLayout, v string) error {
				l.classNames, l.hasClasses, l.opts.FindPointers = v, true, true
				return nil
			}},
		paholeSwitch("d", "recursive", "recursive mode, affects several other flags", func(o *layout.Options) { o.Recursive = true }),
		paholeSwitch("", "sort", "Sort types by name", func(o *layout.Options) { o.Sort = true }),
		paholeSwitch("", "show_private_classes", "Show classes that are defined inside other classes or in functions",
			func(o *layout.Options) { o.ShowPrivateClasses, o.ShowOnlyDataMembers = true, true }),
	)

	// btfkit layout's flags for the same options.
	f := layoutCmd.Flags()
	var n struct {
		sizes, members, nameLen                     bool
		holes, bitHoles, holeSize, padding          int
		separator, enumerator, contains, pointersTo string
		exclude, include, declExclude, cuExclude    string
		packed, structs, unions, anon, nestedAnon   bool
		flex, embFlex, recursive, sorted, private   bool
		nrDefs                                      bool
	}
	f.BoolVarP(&n.sizes, "sizes", "s", false, "print each type's name, size and number of holes instead of its layout")
	f.BoolVarP(&n.members, "nr-members", "n", false, "print each type's name and number of members instead of its layout")
	f.BoolVarP(&n.nameLen, "class-name-len", "N", false, "print each type's name and the name's length instead of its layout")
	f.BoolVarP(&n.nrDefs, "nr-definitions", "T", false, "print, at the end, each type's name and how many inputs define it alike (no layouts)")
	f.StringVarP(&n.separator, "separator", "t", "\t", "field separator of --sizes, --nr-members and --class-name-len (its first byte)")
	f.IntVarP(&n.holes, "holes", "H", 0, "only structs with at least `N` holes")
	f.IntVarP(&n.bitHoles, "bit-holes", "B", 0, "only structs with at least `N` bit holes")
	f.IntVarP(&n.holeSize, "hole-size-ge", "z", 0, "print the names of the structs with a hole of at least `BYTES`")
	f.IntVar(&n.padding, "padding-ge", 0, "only structs with at least `BYTES` of padding at their end")
	f.BoolVar(&n.packed, "packed", false, "only structs inferred __packed__")
	f.BoolVar(&n.structs, "structs", false, "only structs")
	f.BoolVar(&n.unions, "unions", false, "only unions")
	f.BoolVarP(&n.anon, "anon-include", "a", false, "also anonymous structs and unions named by a typedef")
	f.BoolVarP(&n.nestedAnon, "nested-anon-include", "A", false, "with -a, also anonymous structs and unions no typedef names")
	f.StringVarP(&n.exclude, "exclude", "x", "", "skip types whose name starts with `PREFIX`")
	f.StringVarP(&n.include, "prefix-filter", "y", "", "only types whose name starts with `PREFIX`")
	f.StringVarP(&n.declExclude, "decl-exclude", "D", "", "skip types declared in files whose name starts with `PREFIX` (DWARF; from BTF, every type)")
	f.StringVarP(&n.cuExclude, "cu-exclude", "X", "", "skip compile units whose name starts with `PREFIX` (a BTF file's unit is named by its path)")
	f.BoolVar(&n.flex, "with-flexible-array", false, "only structs ending in a flexible array")
	f.BoolVar(&n.embFlex, "with-embedded-flexible-array", false, "only structs containing a struct that ends in a flexible array")
	f.StringVar(&n.enumerator, "contains-enumerator", "", "print each input's first enum with the enumerator `NAME` instead of its structs")
	f.StringVarP(&n.contains, "contains", "i", "", "print the structs and unions with a member of the types in `LIST` (as -C)")
	f.StringVarP(&n.pointersTo, "find-pointers-to", "f", "", "print the members that point to the types in `LIST` (as -C)")
	f.BoolVarP(&n.recursive, "recursive", "d", false, "with --contains, also the containers' member types that contain the type, indented")
	f.BoolVar(&n.sorted, "sort", false, "print the layouts sorted by name, after reading every input")
	f.BoolVar(&n.private, "show-private-classes", false, "also types defined inside functions or other types (and print only data members)")

	layoutFlagHooks = append(layoutFlagHooks, func(cmd *cobra.Command, o *layout.Options) error {
		fl := cmd.Flags()
		o.Sizes, o.NrMembers, o.ClassNameLen = n.sizes, n.members, n.nameLen
		o.NrHoles, o.NrBitHoles, o.HoleSizeGE, o.PaddingGE = n.holes, n.bitHoles, n.holeSize, n.padding
		o.NamesOnly = fl.Changed("hole-size-ge")
		o.NrDefinitions = n.nrDefs
		if fl.Changed("separator") {
			o.Separator = n.separator
			if o.Separator == "" {
				o.Separator = "\x00"
			}
		}
		o.JustStructs = n.structs || n.packed || n.embFlex
		o.JustUnions, o.JustPacked = n.unions, n.packed
		o.AnonInclude, o.NestedAnonInclude = n.anon, n.nestedAnon
		for _, p := range []struct {
			flag string
			val  string
			dst  **string
		}{
			{"exclude", n.exclude, &o.ExcludePrefix}, {"prefix-filter", n.include, &o.IncludePrefix},
			{"decl-exclude", n.declExclude, &o.DeclExcludePrefix}, {"cu-exclude", n.cuExclude, &o.CUExcludePrefix},
		} {
			if fl.Changed(p.flag) {
				v := p.val
				*p.dst = &v
			}
		}
		o.WithFlexibleArray, o.WithEmbeddedFlexibleArray = n.flex, n.embFlex
		o.ContainsEnumerator = n.enumerator
		o.Recursive, o.Sort = n.recursive, n.sorted
		o.ShowPrivateClasses = n.private
		if n.private {
			o.ShowOnlyDataMembers = true
		}
		given := 0
		for _, name := range []string{"class", "contains", "find-pointers-to"} {
			if fl.Changed(name) {
				given++
			}
		}
		if given > 1 {
			return fmt.Errorf("give the types with one of -C, --contains and --find-pointers-to")
		}
		var list string
		switch {
		case fl.Changed("contains"):
			list, o.FindContainers = n.contains, true
		case fl.Changed("find-pointers-to"):
			list, o.FindPointers = n.pointersTo, true
		default:
			return nil
		}
		names, err := layoutClassNames(list)
		if err != nil {
			return err
		}
		o.ClassNames = names
		return nil
	})
}
