package encode

import (
	"strings"

	"github.com/btfkit/btfkit/encode/internal/funcvar"
)

// Features is a set of BTF encoding features, named as pahole names them
// in --btf_features. Each feature is one bit; the encoder tests one bit per
// decision and nowhere else.
type Features uint32

// The features pahole 1.32 knows, in its order (Debian's build, linked
// with libbpf 1.7, leaves layout out of --supported_btf_features).
const (
	FeatEncodeForce       Features = 1 << iota // encode_force: ignore invalid symbols instead of failing
	FeatVar                                    // var: per-CPU variables (VAR, DATASEC)
	FeatFloat                                  // float: FLOAT for float/double/long double (else INT)
	FeatDeclTag                                // decl_tag: DECL_TAG from btf_decl_tag annotations
	FeatTypeTag                                // type_tag: TYPE_TAG from btf_type_tag annotations
	FeatEnum64                                 // enum64: ENUM64 for 8-byte enums (else 8-byte ENUM, values truncated)
	FeatOptimizedFunc                          // optimized_func: accepted; pahole 1.31 always considers .isra/.constprop clones (no effect)
	FeatConsistentFunc                         // consistent_func: skip functions with inconsistent prototypes
	FeatDeclTagKfuncs                          // decl_tag_kfuncs: bpf_kfunc DECL_TAGs from .BTF_ids
	FeatReproducibleBuild                      // reproducible_build: output independent of -j (always true here)
	FeatDistilledBase                          // distilled_base: .BTF.base for modules
	FeatGlobalVar                              // global_var: all global variables, not only per-CPU
	FeatAttributes                             // attributes: address_space(1) type attributes on arena kfuncs' pointers
	FeatTrueSignature                          // true_signature: optimized clones encoded under their symbol names (foo.isra.0)
	FeatLayout                                 // layout: libbpf v1.8's kind layout section, base BTF only (the kernel, 6.18 included, refuses to load it)
	FeatForceCUMerging                         // force_cu_merging: read all units as one, as an LTO link is read (merged.go)

	featEnd
)

// FeatureNames lists the feature names in bit order.
var FeatureNames = []string{
	"encode_force", "var", "float", "decl_tag", "type_tag", "enum64",
	"optimized_func", "consistent_func", "decl_tag_kfuncs",
	"reproducible_build", "distilled_base", "global_var", "attributes",
	"true_signature", "layout", "force_cu_merging",
}

// DefaultFeatures is pahole's "default" set: what
// `pahole -J --btf_features=default` encodes.
const DefaultFeatures = FeatEncodeForce | FeatVar | FeatFloat | FeatDeclTag |
	FeatTypeTag | FeatEnum64 | FeatOptimizedFunc | FeatConsistentFunc |
	FeatDeclTagKfuncs

// AllFeatures has every feature this package knows.
const AllFeatures = featEnd - 1

// AllListed is what "all" in a --btf_features list stands for: every
// feature but force_cu_merging, as pahole 1.32 reads "all" (and
// --btf_gen_all): its units stay separate.
const AllListed = AllFeatures &^ FeatForceCUMerging

// LegacyFeatures is what pahole 1.24 to 1.25 encode with a plain `pahole -J`
// (no --btf_features): variables, decl and type tags and ENUM64, but floats
// as INT.
const LegacyFeatures = FeatVar | FeatDeclTag | FeatTypeTag | FeatEnum64

// Has reports whether every feature of g is in f.
func (f Features) Has(g Features) bool { return f&g == g }

// String lists the features of f as a comma-separated list of names.
func (f Features) String() string {
	var b strings.Builder
	for i, n := range FeatureNames {
		if f&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(n)
		}
	}
	return b.String()
}

// FeatureByName returns the feature with pahole's name for it.
func FeatureByName(name string) (Features, bool) {
	for i, n := range FeatureNames {
		if n == name {
			return 1 << i, true
		}
	}
	return 0, false
}

// ParseFeatures parses a --btf_features list the way pahole does: a
// comma-separated list of feature names, where "default" stands for
// DefaultFeatures and a leading "+" means "the default set plus these".
// Only the named features are on: "float" alone means floats and nothing
// else; "all" stands for AllListed. Empty names are skipped, as pahole
// skips them. Unknown names are returned in unknown (pahole ignores them
// unless --btf_features_strict); err is nil (no list is malformed).
func ParseFeatures(list string) (f Features, unknown []string, err error) {
	list = strings.TrimSpace(list)
	if list == "default" {
		return DefaultFeatures, nil, nil
	}
	if strings.HasPrefix(list, "+") {
		f = DefaultFeatures
		list = list[1:]
	}
	if list == "" {
		return f, nil, nil
	}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		switch name {
		case "":
			continue // pahole's strtok skips empty names
		case "default":
			f |= DefaultFeatures
		case "all":
			f |= AllListed
		default:
			g, ok := FeatureByName(name)
			if !ok {
				unknown = append(unknown, name)
				continue
			}
			f |= g
		}
	}
	return f, unknown, nil
}

// funcOptions are the rules of function and variable selection that the
// features f switch on.
func funcOptions(f Features) funcvar.Options {
	return funcvar.Options{
		PerCPUVars:    f.Has(FeatVar),
		GlobalVars:    f.Has(FeatGlobalVar),
		DeclTags:      f.Has(FeatDeclTag),
		KfuncTags:     f.Has(FeatDeclTagKfuncs),
		ArenaAttrs:    f.Has(FeatAttributes),
		Consistent:    f.Has(FeatConsistentFunc),
		TrueSignature: f.Has(FeatTrueSignature),
		Force:         f.Has(FeatEncodeForce),
	}
}
