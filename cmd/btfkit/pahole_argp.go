package main

// GNU long-option rules pahole's argp has and pflag lacks: a long option
// may be shortened to any prefix that names one option ("--cache=32" is
// --cacheline_size=32), an exact name wins over longer ones, a prefix of
// several is an error naming them in pahole's option table order, and a
// switch given "=value" is an error.

import (
	"strings"

	"github.com/spf13/pflag"
)

// paholeLongOptions are pahole 1.32's long options in the order of its
// option table (pahole.c's pahole__options), then argp's own: the order
// argp lists them when a prefix is ambiguous.
var paholeLongOptions = strings.Fields(`bit_holes cacheline_size class_name count skip
seek_bytes size_bytes range header_type find_pointers_to format_path contains
contains_enumerator show_decl_info holes padding_ge hole_size_ge packable
with_flexible_array with_embedded_flexible_array expand_types nr_members rel_offset
recursive reorganize show_reorg_steps class_name_len
show_first_biggest_size_base_type_member nr_methods show_only_data_members
expand_pointers sizes separator nr_definitions decl_exclude exclude prefix_filter
cu_exclude anon_include nested_anon_include quiet defined_in verbose word_size
ctf_encode flat_arrays suppress_aligned_attribute suppress_force_paddings
suppress_packed show_private_classes fixup_silly_bitfields first_obj_only
classes_as_structs hex btf_base kabi_prefix jobs btf_encode btf_encode_detached
skip_encoding_btf_vars btf_encode_force btf_gen_floats btf_gen_all compile structs
unions packed numeric_version sort prettify hashbits ptr_table_stats
skip_encoding_btf_decl_tag skip_missing skip_encoding_btf_type_tag lang lang_exclude
skip_encoding_btf_enum64 skip_emitting_atomic_typedefs btf_gen_optimized
skip_encoding_btf_inconsistent_proto btf_features features supported_btf_features
btf_features_strict reproducible_build running_kernel_vmlinux btf_attributes
help usage version`)

// paholeLongPrefixes rewrites shortened long options in args to their full
// names, as getopt_long reads them, and reports argp's errors for an
// ambiguous prefix and for a switch given a value.
func paholeLongPrefixes(fs *pflag.FlagSet, args []string) ([]string, error) {
	return argpLongPrefixes(fs, paholeLongOptions, args, paholeUsageError)
}

// argpLongPrefixes is paholeLongPrefixes for any argp program: options
// lists its long options in its option table's order, usage makes its
// command line errors.
func argpLongPrefixes(fs *pflag.FlagSet, options, args []string, usage func(format string, args ...any) error) ([]string, error) {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...), nil
		}
		if !strings.HasPrefix(a, "--") || len(a) == 2 {
			out = append(out, a)
			continue
		}
		name, val, hasVal := strings.Cut(a[2:], "=")
		f := fs.Lookup(name)
		if f == nil {
			var matches []string
			for _, o := range options {
				if strings.HasPrefix(o, name) && fs.Lookup(o) != nil {
					matches = append(matches, o)
				}
			}
			switch len(matches) {
			case 0:
				out = append(out, a)
				continue
			case 1:
				name = matches[0]
				f = fs.Lookup(name)
			default:
				// getopt quotes the argument as given, "=value" too.
				return nil, usage("option '%s' is ambiguous; possibilities: '--%s'",
					a, strings.Join(matches, "' '--"))
			}
		}
		if hasVal && f.Value.Type() == "bool" {
			return nil, usage("option '--%s' doesn't allow an argument", name)
		}
		if hasVal {
			out = append(out, "--"+name+"="+val)
		} else {
			out = append(out, "--"+name)
		}
	}
	return out, nil
}
