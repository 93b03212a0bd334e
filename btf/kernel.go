package btf

import (
	"fmt"
	"strconv"
	"strings"
)

// KernelVersion is a Linux release, major.minor: the unit in which the BTF
// format grew. The zero value means "the newest kernel this package
// knows" wherever a version is optional.
type KernelVersion struct {
	Major, Minor int
}

// ParseKernelVersion reads "6.1", "v6.12", "6.1.0-57-cloud-amd64" or
// "6.18.44-fc": the first two numbers count, the rest is ignored.
func ParseKernelVersion(s string) (KernelVersion, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	end := strings.IndexFunc(t, func(r rune) bool { return r != '.' && (r < '0' || r > '9') })
	if end >= 0 {
		t = t[:end]
	}
	parts := strings.Split(t, ".")
	if len(parts) < 2 {
		return KernelVersion{}, fmt.Errorf("kernel version %q: want MAJOR.MINOR", s)
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || major < 1 || minor < 0 {
		return KernelVersion{}, fmt.Errorf("kernel version %q: want MAJOR.MINOR", s)
	}
	return KernelVersion{major, minor}, nil
}

func (v KernelVersion) String() string {
	if v.IsZero() {
		return "newest"
	}
	return fmt.Sprintf("%d.%d", v.Major, v.Minor)
}

// IsZero reports whether v is the zero value (the newest kernel).
func (v KernelVersion) IsZero() bool { return v == KernelVersion{} }

// Before reports whether v is older than w. The zero value is newer than
// every version.
func (v KernelVersion) Before(w KernelVersion) bool {
	switch {
	case v.IsZero():
		return false
	case w.IsZero():
		return true
	case v.Major != w.Major:
		return v.Major < w.Major
	}
	return v.Minor < w.Minor
}

// Has reports whether kernel v accepts BTF feature f (v zero: the newest
// kernel, which has them all).
func (v KernelVersion) Has(f Feature) bool { return !v.Before(f.Since) }

// Feature is one addition to the BTF format the kernel's verifier accepts
// from a given release on: older kernels reject BTF that uses it.
type Feature struct {
	Name  string        // short name, as in `btfkit downgrade --list`
	Since KernelVersion // the first release whose BPF_BTF_LOAD accepts it
	What  string        // what it is, for a person
}

// The BTF features, by the release that introduced them (kernel/bpf/btf.c
// and include/uapi/linux/btf.h of that release; libbpf probes the same
// ones in src/features.c). The versions of the last two are the releases
// whose merge window took the bpf-next branch that had them: the kind
// layout section was in bpf-next by April 2026 (libbpf's sync of
// 2026-04-09), 24-bit vlen and 7-bit kinds after the 7.1 merge window
// opened (libbpf's sync of 2026-05-30).
var (
	FeatureFunc       = Feature{"func", KernelVersion{5, 0}, "FUNC and FUNC_PROTO"}
	FeatureDatasec    = Feature{"datasec", KernelVersion{5, 2}, "VAR and DATASEC"}
	FeatureGlobalFunc = Feature{"global-func", KernelVersion{5, 6}, "FUNC with global linkage"}
	FeatureFloat      = Feature{"float", KernelVersion{5, 13}, "FLOAT"}
	FeatureDeclTag    = Feature{"decl-tag", KernelVersion{5, 16}, "DECL_TAG"}
	FeatureTypeTag    = Feature{"type-tag", KernelVersion{5, 17}, "TYPE_TAG"}
	FeatureEnum64     = Feature{"enum64", KernelVersion{6, 0}, "ENUM64, and signed ENUM (kind_flag on ENUM)"}
	FeatureTagFlag    = Feature{"tag-kind-flag", KernelVersion{6, 14}, "kind_flag on DECL_TAG and TYPE_TAG (attributes: __attribute__((...)) rather than a btf_decl_tag/btf_type_tag string)"}
	FeatureLayout     = Feature{"layout", KernelVersion{7, 1}, "the kind layout section (32-byte header with layout_off and layout_len)"}
	Feature24BitVlen  = Feature{"vlen24", KernelVersion{7, 2}, "24-bit vlen and 7-bit kind in the info word"}
)

// Features lists every Feature, oldest first.
func Features() []Feature {
	return []Feature{FeatureFunc, FeatureDatasec, FeatureGlobalFunc, FeatureFloat,
		FeatureDeclTag, FeatureTypeTag, FeatureEnum64, FeatureTagFlag,
		FeatureLayout, Feature24BitVlen}
}

// kindFeature returns the feature that introduced kind k, and false for
// the kinds BTF had from the start (Linux 4.18).
func kindFeature(k Kind) (Feature, bool) {
	switch k {
	case KindFunc, KindFuncProto:
		return FeatureFunc, true
	case KindVar, KindDatasec:
		return FeatureDatasec, true
	case KindFloat:
		return FeatureFloat, true
	case KindDeclTag:
		return FeatureDeclTag, true
	case KindTypeTag:
		return FeatureTypeTag, true
	case KindEnum64:
		return FeatureEnum64, true
	}
	return Feature{}, false
}
