package funcvar

// Options switch the rules that pahole's --btf_features turn on and off.
// The zero value encodes functions without tags and no variables.
type Options struct {
	PerCPUVars    bool // var: the variables of .data..percpu
	GlobalVars    bool // global_var: the variables of every section
	DeclTags      bool // decl_tag: DECL_TAGs from the btf_decl_tag annotations of functions, parameters and variables
	KfuncTags     bool // decl_tag_kfuncs: the kfunc sets of .BTF_ids are read; their functions get bpf_kfunc (and bpf_fastcall) DECL_TAGs
	ArenaAttrs    bool // attributes: address_space(1) TYPE_TAGs on the pointers of arena kfuncs
	Consistent    bool // consistent_func: a function whose prototypes differ between units is left out
	TrueSignature bool // true_signature: a clone whose signature the compiler changed is encoded as it is called
	Force         bool // encode_force: a variable that cannot be encoded is left out instead of failing
	// FromBTF: the functions and variables come from a compiler's BTF
	// (AddFunc, AddVar; btfinput.go), not from DWARF: ReadELF also
	// indexes the object symbols by name, for VarSymbol.
	FromBTF bool
}

func (o Options) vars() bool { return o.PerCPUVars || o.GlobalVars }
