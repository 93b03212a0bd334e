package layout

import (
	"os"
	"strconv"
	"strings"
)

// Options are pahole's output options the printer knows.
type Options struct {
	// CachelineSize is the cache line size in bytes used for cache line
	// boundaries, the "cachelines" counts and, for BTF, the inference of
	// __aligned__ attributes (-c/--cacheline_size). 0 means the machine's,
	// or 64 when it cannot be found, as pahole does.
	CachelineSize int

	// Hex prints offsets and sizes in hexadecimal (--hex).
	Hex bool

	// ClassNames, when not empty, selects the types to print, by name, in
	// this order (-C). A name may be a struct, union, enum or typedef.
	ClassNames []string

	// SkipMissing goes on with the next -C name when one is missing from
	// an input; without it pahole stops looking at the rest of the names
	// in that input (--skip_missing).
	SkipMissing bool

	// The options below are pahole's too, declared here with pahole's
	// meaning so that each can be implemented in its own file without
	// touching this struct: the ones marked "Not implemented yet" are
	// ignored by the printer, and cmd/btfkit refuses their flags until a
	// file registers them (pahole_layout.go).

	// Which structs and unions the listing prints (pahole's class__filter,
	// filter.go). The prefixes are pointers because an empty prefix given
	// is not a prefix not given: pahole's -x '' excludes every named type.

	// AnonInclude includes anonymous structs and unions; one with a
	// typedef is printed as that typedef (-a/--anon_include).
	AnonInclude bool
	// NestedAnonInclude, with AnonInclude, also prints anonymous structs
	// and unions that no typedef names, such as the types of anonymous
	// members (-A/--nested_anon_include; alone it selects nothing more).
	NestedAnonInclude bool
	// JustStructs prints structs only (--structs).
	JustStructs bool
	// JustUnions prints unions only (--unions).
	JustUnions bool
	// JustPacked prints only structs inferred __packed__ (--packed, which
	// also sets JustStructs).
	JustPacked bool
	// ShowPrivateClasses also prints types defined inside functions or
	// other types (--show_private_classes; pahole's flag also sets
	// ShowOnlyDataMembers).
	ShowPrivateClasses bool
	// ExcludePrefix skips types whose name, or an anonymous type's first
	// typedef's name, starts with it (-x/--exclude).
	ExcludePrefix *string
	// IncludePrefix prints only types whose name, or an anonymous type's
	// first typedef's name, starts with it; anonymous types without a
	// typedef pass (-y/--prefix_filter).
	IncludePrefix *string
	// DeclExcludePrefix skips types declared in files whose name starts
	// with it, and types whose file is unknown: from BTF, every type
	// (-D/--decl_exclude).
	DeclExcludePrefix *string
	// CUExcludePrefix skips the compile units whose name starts with it;
	// a BTF input's unit is named by its file's path (-X/--cu_exclude).
	CUExcludePrefix *string
	// NrHoles prints only structs with at least that many holes
	// (-H/--holes).
	NrHoles int
	// NrBitHoles prints only structs with at least that many bit holes
	// (-B/--bit_holes).
	NrBitHoles int
	// HoleSizeGE prints only structs with a hole at least that large
	// (-z/--hole_size_ge, which also sets NamesOnly).
	HoleSizeGE int
	// PaddingGE prints only structs with at least that much padding at
	// their end (--padding_ge; pahole reads --padding=N as its unique
	// prefix).
	PaddingGE int
	// Packable lists, instead of layouts, the structs with holes that
	// Reorganize makes smaller: name, size, reorganized size and bytes
	// saved, separated by Separator (-P/--packable). Unions are left out;
	// with ClassNames it has no effect, as in pahole.
	Packable bool
	// WithFlexibleArray prints only structs ending in a flexible array
	// (--with_flexible_array).
	WithFlexibleArray bool
	// WithEmbeddedFlexibleArray prints only structs containing a struct
	// with a flexible array, at any depth (--with_embedded_flexible_array,
	// which also sets JustStructs).
	WithEmbeddedFlexibleArray bool

	// Other listings instead of layouts (pahole's formatters,
	// formatters.go): for each type selected, one line of fields. When
	// several are set the first of Sizes, NrMembers, ClassNameLen and
	// NamesOnly wins; pahole's command line keeps the last one given.

	// Sizes prints name, size and number of holes per type (-s/--sizes).
	Sizes bool
	// NrMembers prints name and number of members per type
	// (-n/--nr_members).
	NrMembers bool
	// ClassNameLen prints name and name length per type
	// (-N/--class_name_len).
	ClassNameLen bool
	// NamesOnly prints just the names (what -z/--hole_size_ge prints).
	NamesOnly bool
	// NrDefinitions prints, once every input was read (Finish), each
	// named struct and union listed with the number of inputs that define
	// it alike, in the order first listed (-T/--nr_definitions). Without
	// one of the four above, nothing is printed per type (pahole's -T
	// leaves no per-type printer; a later -s sets one).
	NrDefinitions bool
	// Separator separates the fields of those listings: its first byte
	// ("" means pahole's default, a tab; -t/--separator).
	Separator string
	// ContainsEnumerator prints, instead of each input's structs, its
	// first enum with an enumerator of that name; an input without one
	// is listed as usual (--contains_enumerator).
	ContainsEnumerator string
	// FindContainers prints, for each -C type, the names of the structs
	// and unions with a member of that type (-i/--contains NAME, which
	// also sets ClassNames).
	FindContainers bool
	// FindPointers prints, for each -C type, "struct: member" for each
	// member that points to it (-f/--find_pointers_to NAME, which also
	// sets ClassNames).
	FindPointers bool
	// Recursive makes FindContainers also list, indented, the member
	// types of each container that contain the type (-d/--recursive).
	Recursive bool

	// How a layout is printed.

	// ExpandTypes prints member types in place (-E/--expand_types).
	// pahole prints named enums in place too (1.24 did not).
	ExpandTypes bool
	// ExpandPointers prints pointed-to types in place
	// (-p/--expand_pointers).
	ExpandPointers bool
	// MaxPointerExpansions bounds, with ExpandPointers, how many
	// pointed-to types the listing of one type prints in place; past it,
	// a pointer is printed as a pointer, as pahole prints one to a type it
	// is already inside. pahole has no bound: on a kernel's type graph
	// (sk_buff, task_struct) the pointers lead from struct to struct along
	// ever new paths and its output does not end in practice (tens of GB).
	// 0 means DefaultMaxPointerExpansions; a negative value, no bound.
	MaxPointerExpansions int
	// ExpansionsCut, when not nil, is called with the name of each type
	// whose listing reached MaxPointerExpansions.
	ExpansionsCut func(name string)
	// RelOffset prints offsets in inner structs relative to them
	// (-r/--rel_offset).
	RelOffset bool
	// ShowOnlyDataMembers prints only members that take space
	// (-M/--show_only_data_members).
	ShowOnlyDataMembers bool
	// ShowDeclInfo prints where each type was declared
	// (-I/--show_decl_info): from DWARF the facts must have it
	// (encode.Options.DeclInfo); for BTF, SetInputName names the file.
	ShowDeclInfo bool
	// ShowFirstBiggestSizeBaseTypeMember adds that member to the summary
	// (-l).
	ShowFirstBiggestSizeBaseTypeMember bool
	// WordSize prints layouts as on a machine with that word size
	// (-w/--word_size; ignored with ClassNames, as pahole ignores it with
	// -C). pahole's heuristics, inconsistencies included.
	WordSize int
	// SuppressAlignedAttribute leaves out __aligned__ attributes and the
	// forced alignment summary (--suppress_aligned_attribute).
	SuppressAlignedAttribute bool
	// SuppressForcePaddings leaves out the "Force padding" members (DWARF)
	// (--suppress_force_paddings).
	SuppressForcePaddings bool
	// SuppressPacked leaves out inferred __packed__ attributes
	// (--suppress_packed).
	SuppressPacked bool
	// FixupSillyBitfields prints bitfields as wide as their type as plain
	// members (DWARF; --fixup_silly_bitfields), as pahole 1.32 does
	// (1.31's test caught one-bit bitfields of eight-byte types instead).
	FixupSillyBitfields bool
	// ClassesAsStructs prints C++ classes as structs
	// (--classes_as_structs).
	ClassesAsStructs bool
	// FlatArrays prints multi-dimensional arrays with one dimension, the
	// product of theirs (--flat_arrays), from DWARF and, as pahole 1.32
	// folds them, from BTF's one ARRAY per dimension.
	FlatArrays bool
	// Sort prints the layouts sorted by name, then size, number of
	// members and members, after every input was read (--sort, sort.go).
	Sort bool
	// Compile prints compilable C: each type after the types it needs
	// (--compile), as pahole does but for one line
	// that clang rejects: a typedef of a compiler builtin (compile.go).
	Compile bool
	// Reorganize prints each struct named in ClassNames with its members
	// moved into holes the way pahole's class__reorganize moves them,
	// followed by the bytes and cache lines saved (-R/--reorganize).
	// Unions, enums and typedefs named print nothing; without ClassNames
	// it has no effect, as in pahole. Two things differ from pahole (1.31
	// and 1.32), where its result is broken: a result larger than the original
	// (pahole's padding rule makes 350 of embedded.btf's structs larger,
	// "saved -4 bytes") is replaced by the original, and offsets are
	// computed in 32 bits where pahole wraps them at 64 KiB.
	Reorganize bool
	// ShowReorgSteps also prints, with Reorganize, each member moved and
	// the struct after each move (-S/--show_reorg_steps).
	ShowReorgSteps bool
	// SkipEmittingAtomicTypedefs leaves out, with Compile, the typedefs
	// of C11's atomic_* types a base type named so needs
	// (--skip_emitting_atomic_typedefs).
	SkipEmittingAtomicTypedefs bool
	// NrMethods lists, instead of layouts and once every input was read
	// (Finish, as NrDefinitions' counts), each struct that function
	// parameters point to and how many do, as pahole counts "methods"
	// (-m/--nr_methods; NamedUnitFunctions; not with ClassNames).
	NrMethods bool
	// DefinedIn prints, for each ClassNames type, the name of the input
	// (compile unit) it is found in instead of the type (-u/--defined_in);
	// pahole looks no further in that input.
	DefinedIn bool
	// FirstObjOnly stops after the first input (compile unit) printed,
	// or, with ClassNames, after the first input that has every name
	// still wanted (--first_obj_only).
	FirstObjOnly bool
	// Quiet prints layouts without comments: no offsets and sizes, no
	// holes, no summary (-q/--quiet).
	Quiet bool
}

// SystemCachelineSize is the machine's L1 data cache line size, or 64 when
// it cannot be read.
func SystemCachelineSize() int {
	b, err := os.ReadFile("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size")
	if err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && n > 0 {
			return n
		}
	}
	return 64
}

// cachelineSize resolves o.CachelineSize the way pahole does: pahole keeps
// it in 16 bits.
func (o *Options) cachelineSize() uint32 {
	n := o.CachelineSize
	if n == 0 {
		n = SystemCachelineSize()
	}
	return uint32(uint16(n))
}

// DefaultMaxPointerExpansions is Options.MaxPointerExpansions' default. On
// the Debian 6.1 kernel's BTF, 1,262 of its 7,477 structs and unions reach
// it with -p, each listing then about 7 MB (sk_buff's 6.9 MB): all of them
// in 37 s and 8.4 GB, where pahole prints without end.
const DefaultMaxPointerExpansions = 10000
