package btf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// Rule names one rule of the BTF format that Check enforces. Every Problem
// carries the rule it breaks, so tools and tests can tell problems apart
// without parsing messages.
type Rule string

// The rules Check enforces. Unless marked "strict", each is a rule the
// Linux kernel's BTF verifier (kernel/bpf/btf.c, run by BPF_BTF_LOAD)
// applies too: BTF that breaks one is rejected by the kernel.
const (
	// RuleLayout: the raw bytes are malformed (header, section bounds,
	// records that run past their section); found by CheckRaw and Parse.
	RuleLayout Rule = "layout"
	// RuleSections: the kernel wants exactly a type section and a string
	// section after the header, with no gap, no overlap and nothing after
	// them, the string section last, and a base BTF with at least one type.
	RuleSections Rule = "sections"
	// RuleStrings: the string section must be non-empty (except in split
	// BTF), start with a NUL in base BTF, end with a NUL, and stay below
	// 16 MiB of offsets.
	RuleStrings Rule = "strings"
	// RuleLimit: type IDs below 0xfffff (BTF_MAX_TYPE), at most 16 MiB of
	// raw BTF.
	RuleLimit Rule = "limit"
	// RuleInfo: bits 16-23 and 29-30 of a type's info word must be zero,
	// for kernels before Feature24BitVlen (ForKernel); newer ones use
	// every bit.
	RuleInfo Rule = "info-bits"
	// RuleKind: the kind must be one of the known kinds (1..19), and one
	// the kernel (ForKernel) knows.
	RuleKind Rule = "kind"
	// RuleNameOffset: a name offset must lie inside the string section.
	RuleNameOffset Rule = "name-offset"
	// RuleNameRequired: FWD, TYPEDEF, FUNC, VAR, DATASEC, DECL_TAG,
	// TYPE_TAG, enumerators and the parameters of a FUNC's prototype must
	// be named.
	RuleNameRequired Rule = "name-required"
	// RuleNameForbidden: PTR, ARRAY, CONST, VOLATILE, RESTRICT and
	// FUNC_PROTO must not be named.
	RuleNameForbidden Rule = "name-forbidden"
	// RuleNameInvalid: names must be C identifiers ([A-Za-z_][A-Za-z0-9_]*,
	// shorter than 512 bytes); VAR and DATASEC names may contain dots.
	RuleNameInvalid Rule = "name-invalid"
	// RuleKindFlag: kind_flag is allowed only on STRUCT, UNION, ENUM,
	// ENUM64, FWD, TYPE_TAG and DECL_TAG (on ENUM from FeatureEnum64, on
	// the tags from FeatureTagFlag: see ForKernel).
	RuleKindFlag Rule = "kind-flag"
	// RuleVlen: vlen must be 0 for INT, PTR, ARRAY, FWD, the modifiers,
	// VAR, FLOAT and DECL_TAG.
	RuleVlen Rule = "vlen"
	// RuleSize: ENUM and ENUM64 sizes are 1, 2, 4 or 8; FLOAT sizes 2, 4,
	// 8, 12 or 16; DATASEC size is not 0; the size-or-type field of ARRAY
	// and FWD is 0.
	RuleSize Rule = "size"
	// RuleInt: an INT's encoding word has no reserved bits set, at most
	// one encoding bit, offset+bits <= 128 and fits the INT's size.
	RuleInt Rule = "int"
	// RuleTypeID: a referenced type ID must exist, and must not be void
	// where a type is needed (array element and index, member, VAR, DATASEC
	// entry, parameter other than a final vararg).
	RuleTypeID Rule = "type-id"
	// RuleRefKind: a referenced type must be of a kind allowed there: no
	// VAR, DATASEC or DECL_TAG behind a pointer, modifier, member or array;
	// no FUNC behind a pointer or modifier; FUNC points at FUNC_PROTO;
	// DATASEC entries are VARs; members, elements, parameters, return
	// values and variables have a size (not void, FWD or a function).
	RuleRefKind Rule = "ref-kind"
	// RuleLoop: a chain of references must not loop, except through both
	// a pointer and a struct, union or array (struct s { struct s *next; }).
	RuleLoop Rule = "loop"
	// RuleMemberOffset: union members are at offset 0, struct members in
	// non-decreasing offset order, and non-bitfield members of types other
	// than INT at byte offsets (FLOAT at its natural alignment up to 8).
	RuleMemberOffset Rule = "member-offset"
	// RuleMemberBounds: a member must lie within its struct's size.
	RuleMemberBounds Rule = "member-bounds"
	// RuleBitfield: a bitfield (kind_flag form) must have an INT (a regular
	// one: whole bytes, no offset) or ENUM type and fit it; no bitfield may
	// span more than 128 bits.
	RuleBitfield Rule = "bitfield"
	// RuleArray: array elements that are INTs must be regular INTs, the
	// index type must be a regular INT, and the array's byte size must fit
	// in 32 bits.
	RuleArray Rule = "array"
	// RuleParam: only the last FUNC_PROTO parameter may be a vararg (type
	// 0), and it has no name.
	RuleParam Rule = "param"
	// RuleLinkage: FUNC linkage is static or global (global from
	// FeatureGlobalFunc), VAR linkage static or global-allocated (extern
	// is resolved by loaders, never loaded).
	RuleLinkage Rule = "linkage"
	// RuleDatasec: DATASEC entries are sorted, do not overlap, lie within
	// the section, are not empty and are at least as big as their VAR.
	RuleDatasec Rule = "datasec"
	// RuleDeclTag: a DECL_TAG targets a FUNC, STRUCT, UNION, VAR or
	// TYPEDEF; its component_idx is -1 or, for a struct, union or function,
	// a valid member or parameter index.
	RuleDeclTag Rule = "decl-tag"
	// RuleDepth: the kernel resolves references depth-first in ID order
	// and gives up ("Exceeded max resolving depth") when one walk meets
	// more than 32 types not resolved yet: long chains of forward
	// references (a type referring to a later one, which refers to a later
	// one, ...) are rejected.
	RuleDepth Rule = "depth"
	// RuleTypeTag: in a chain of modifiers TYPE_TAGs come first: TYPEDEF,
	// CONST, VOLATILE and RESTRICT must not point at a TYPE_TAG.
	RuleTypeTag Rule = "type-tag"
	// RuleKindLayout: the kind layout section (libbpf v1.8's, pahole's
	// "layout" feature) only for kernels from FeatureLayout on: older
	// ones (6.18 included) reject a header whose bytes past the 24 they
	// know are not zero, and layout_off and layout_len are such bytes.
	// Newer ones want it at least one entry long. With Strict, also
	// entries that misdescribe the records of a known kind (no kernel
	// checks those).
	RuleKindLayout Rule = "kind-layout"

	// RuleNameStart (strict): a name offset should point at the start of
	// a string, not into the middle of one (the kernel accepts suffixes).
	RuleNameStart Rule = "name-start"
	// RuleConvention (strict): conventions every BTF producer follows but
	// the kernel does not check: INT and FLOAT are named, INT sizes are
	// 1, 2, 4, 8 or 16, and only members of struct or union type are
	// anonymous.
	RuleConvention Rule = "convention"
)

// Problem is one violation of a BTF rule.
type Problem struct {
	ID     TypeID // the offending type; 0 for problems of the blob as a whole
	Kind   Kind   // its kind (KindUnknown when ID is 0)
	Name   string // its name, "" when anonymous
	Rule   Rule   // the rule broken
	Detail string // what exactly is wrong, for a person
}

// String formats the problem as
// "type [123] STRUCT 'foo': member 2 'bar' at bit 96 past struct size 8 bytes (member-bounds)".
func (p Problem) String() string {
	if p.ID == 0 {
		return fmt.Sprintf("%s (%s)", p.Detail, p.Rule)
	}
	return fmt.Sprintf("type [%d] %s '%s': %s (%s)", p.ID, p.Kind, p.Name, p.Detail, p.Rule)
}

// CheckError is the error Check and CheckRaw return when they find
// problems. Problems are ordered by type ID.
type CheckError struct {
	Problems []Problem
	// Truncated is set when more problems were found than the MaxProblems
	// option allowed to keep.
	Truncated bool
}

// Error describes the first problem and how many more there are.
func (e *CheckError) Error() string {
	if len(e.Problems) == 0 {
		return "invalid BTF"
	}
	s := "invalid BTF: " + e.Problems[0].String()
	if n := len(e.Problems) - 1; n > 0 || e.Truncated {
		more := fmt.Sprintf("%d", n)
		if e.Truncated {
			more += "+"
		}
		s += fmt.Sprintf(" (and %s more)", more)
	}
	return s
}

// Has reports whether one of the problems breaks rule r.
func (e *CheckError) Has(r Rule) bool {
	for _, p := range e.Problems {
		if p.Rule == r {
			return true
		}
	}
	return false
}

// onlyStrict reports whether every problem breaks a strict-only rule.
func (e *CheckError) onlyStrict() bool {
	for _, p := range e.Problems {
		if p.Rule != RuleNameStart && p.Rule != RuleConvention {
			return false
		}
	}
	return true
}

// CheckOption changes what Check and CheckRaw check.
type CheckOption func(*checkConfig)

type checkConfig struct {
	base      bool
	strict    bool
	max       int
	hostOrder bool
	kernel    KernelVersion // zero: the newest kernel
}

// ForKernel makes Check apply the rules of Linux release v rather than
// those of the newest kernel this package knows: the kinds, kind_flags,
// linkages, info-word bits and kind layout section v accepts (Features
// lists what came when). Use it to tell whether BTF loads into an older
// kernel, or to compare Check with the running kernel's BPF_BTF_LOAD.
func ForKernel(v KernelVersion) CheckOption { return func(c *checkConfig) { c.kernel = v } }

// CheckBase makes Check validate the types of a split Spec's base too.
// By default base types are trusted (check the base on its own first).
func CheckBase() CheckOption { return func(c *checkConfig) { c.base = true } }

// Strict makes Check also apply conventions the kernel does not enforce
// (RuleNameStart, RuleConvention). BTF that only breaks those still loads.
func Strict() CheckOption { return func(c *checkConfig) { c.strict = true } }

// HostByteOrder makes CheckRaw reject BTF whose byte order is not this
// machine's, as the running kernel does. By default either order is fine
// (BTF for another architecture is valid BTF).
func HostByteOrder() CheckOption { return func(c *checkConfig) { c.hostOrder = true } }

// MaxProblems caps the number of problems kept (0 means no cap; the default
// is 1000). Checking always runs to the end.
func MaxProblems(n int) CheckOption { return func(c *checkConfig) { c.max = n } }

// Check validates the Spec by the rules the Linux kernel's BTF verifier
// applies to BPF_BTF_LOAD, and returns a *CheckError listing every problem
// found (nil when there is none). For a split Spec only its own types are
// checked, against its base; see CheckBase. The header and section layout
// of the raw bytes are not part of a Spec: CheckRaw checks those too.
func (s *Spec) Check(opts ...CheckOption) error {
	c := newChecker(s, opts)
	c.run()
	c.release()
	return c.result()
}

// CheckRaw validates raw BTF: the header and section layout as the kernel
// wants them (which Parse is more lenient about), then, if the bytes
// parse, every rule of Check. base is nil for complete BTF, the base Spec
// for split BTF. It returns the parsed Spec when parsing succeeded (even
// if problems were found) and a *CheckError listing the problems.
func CheckRaw(data []byte, base *Spec, opts ...CheckOption) (*Spec, error) {
	var cfg checkConfig
	cfg.max = 1000
	for _, o := range opts {
		o(&cfg)
	}
	var probs []Problem
	add := func(r Rule, format string, args ...any) {
		probs = append(probs, Problem{Rule: r, Detail: fmt.Sprintf(format, args...)})
	}
	if len(data) > maxRawSize {
		add(RuleLimit, "BTF is %d bytes, more than the kernel's limit of %d", len(data), maxRawSize)
	}
	h, bo, _, err := ParseHeader(data)
	if err == nil && cfg.hostOrder && bo.Uint16([]byte{0x34, 0x12}) != binary.NativeEndian.Uint16([]byte{0x34, 0x12}) {
		add(RuleLayout, "BTF is %s; the running kernel loads only its own byte order", orderName(bo))
	}
	if err == nil {
		checkSections(h, len(data), base != nil, cfg.kernel, add)
		strs := data[h.HdrLen+h.StrOff:][:h.StrLen]
		switch {
		case h.StrLen == 0 && base == nil:
			add(RuleStrings, "empty string section")
		case h.StrLen > 0 && strs[len(strs)-1] != 0:
			// Parse reports this one.
		case h.StrLen > 0 && h.StrLen-1 > maxNameOffset:
			add(RuleStrings, "string section of %d bytes exceeds the kernel's %d", h.StrLen, maxNameOffset+1)
		}
	}
	s, err := Parse(data, base)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			add(RuleLayout, "%s", err)
		} else {
			add(RuleLayout, "%v", err)
		}
		return nil, finish(probs, cfg.max)
	}
	c := newChecker(s, opts)
	c.probs = append(probs, c.probs...)
	c.run()
	c.release()
	return s, c.result()
}

func finish(probs []Problem, max int) error {
	if len(probs) == 0 {
		return nil
	}
	sort.SliceStable(probs, func(i, j int) bool { return probs[i].ID < probs[j].ID })
	e := &CheckError{Problems: probs}
	if max > 0 && len(probs) > max {
		e.Problems = probs[:max]
		e.Truncated = true
	}
	return e
}
