package btf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"
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
	// RuleInfo: bits 16-23 and 29-30 of a type's info word must be zero.
	RuleInfo Rule = "info-bits"
	// RuleKind: the kind must be one of the known kinds (1..19).
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
	// ENUM64, FWD, TYPE_TAG and DECL_TAG.
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
	// RuleLinkage: FUNC linkage is static or global, VAR linkage static or
	// global-allocated (extern is resolved by loaders, never loaded).
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
	// RuleKindLayout: no kind layout section (libbpf v1.8's, pahole's
	// "layout" feature): the kernel (6.18 included) rejects a header
	// whose bytes past the 24 it knows are not zero, and layout_off and
	// layout_len are such bytes. Also reported: entries that misdescribe
	// the records of a known kind.
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

// CheckOption changes what Check and CheckRaw check.
type CheckOption func(*checkConfig)

type checkConfig struct {
	base      bool
	strict    bool
	max       int
	hostOrder bool
}

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

// Kernel limits (kernel/bpf/btf.c, include/linux/btf.h).
const (
	maxTypeID     = 0xfffff  // BTF_MAX_TYPE
	maxNameOffset = 0xffffff // BTF_MAX_NAME_OFFSET
	maxRawSize    = 16 << 20 // BTF_MAX_SIZE
	maxNameLen    = 512      // KSYM_NAME_LEN: the longest name
	ptrSize       = 8        // sizeof(void *) of a 64-bit kernel
	infoMask      = 0x9f00ffff
	intMask       = 0x0fffffff
)

// Check validates the Spec by the rules the Linux kernel's BTF verifier
// applies to BPF_BTF_LOAD, and returns a *CheckError listing every problem
// found (nil when there is none). For a split Spec only its own types are
// checked, against its base; see CheckBase. The header and section layout
// of the raw bytes are not part of a Spec: CheckRaw checks those too.
func (s *Spec) Check(opts ...CheckOption) error {
	c := newChecker(s, opts)
	c.run()
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
		checkSections(h, len(data), base != nil, add)
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
	return s, c.result()
}

func orderName(bo binary.ByteOrder) string {
	if bo.Uint16([]byte{0x34, 0x12}) == 0x1234 {
		return "little-endian"
	}
	return "big-endian"
}

// checkSections applies the kernel's btf_check_sec_info and the section
// rules of btf_parse_hdr, btf_parse_type_sec and btf_parse_str_sec.
func checkSections(h Header, size int, split bool, add func(Rule, string, ...any)) {
	body := uint64(size) - uint64(h.HdrLen)
	if body == 0 && !split {
		add(RuleSections, "no data after the header")
		return
	}
	if h.TypeLen == 0 && !split {
		add(RuleSections, "no types in a base BTF")
	}
	secs := [][2]uint64{{uint64(h.TypeOff), uint64(h.TypeLen)}, {uint64(h.StrOff), uint64(h.StrLen)}}
	if h.LayoutLen != 0 {
		// A kind layout section is a section of its own here; that the
		// kernel refuses it is RuleKindLayout's (checkKindLayouts).
		secs = append(secs, [2]uint64{uint64(h.LayoutOff), uint64(h.LayoutLen)})
	} else if h.LayoutOff != 0 {
		add(RuleKindLayout, "header byte 24 (layout_off 0x%x) is not zero: the kernel rejects header bytes it does not know (\"Unsupported btf_header\")", h.LayoutOff)
	}
	sort.Slice(secs, func(i, j int) bool {
		return secs[i][0] < secs[j][0] || (secs[i][0] == secs[j][0] && secs[i][1] < secs[j][1])
	})
	var total uint64
	for _, sec := range secs {
		switch {
		case sec[0] > total:
			add(RuleSections, "gap before the section at 0x%x (unknown data between sections)", sec[0])
		case sec[0] < total:
			add(RuleSections, "sections overlap at 0x%x", sec[0])
		}
		if sec[0]+sec[1] > total {
			total = sec[0] + sec[1]
		}
	}
	if total < body {
		add(RuleSections, "%d bytes of unknown data after the sections", body-total)
	}
	if uint64(h.StrOff)+uint64(h.StrLen) != body {
		add(RuleSections, "string section [0x%x,0x%x) is not at the end of the data (0x%x)", h.StrOff, uint64(h.StrOff)+uint64(h.StrLen), body)
	}
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

// checker holds the state of one Check run: the problems found and
// memoized facts about types (what a chain of modifiers resolves to, the
// byte size of arrays), indexed by type ID.
type checker struct {
	s     *Spec
	cfg   checkConfig
	probs []Problem
	first TypeID // first type ID to check
	next  TypeID // one past the last type ID

	// resolved[id] is the type a chain of modifiers starting at id ends
	// on, plus one; state[id] says whether it is known yet, being followed
	// (to stop on loops) or bad (a loop or a dangling ID in the chain).
	// arrState and arrSize memoize the byte size of arrays likewise.
	resolved []TypeID
	state    []uint8
	arrState []uint8
	arrSize  []uint64
}

const (
	stUnknown uint8 = iota
	stBusy
	stDone
	stBad
)

func newChecker(s *Spec, opts []CheckOption) *checker {
	c := &checker{s: s, cfg: checkConfig{max: 1000}}
	for _, o := range opts {
		o(&c.cfg)
	}
	c.first = s.FirstID()
	if c.cfg.base {
		c.first = 1
	}
	c.next = s.NextID()
	n := int(c.next)
	c.resolved = make([]TypeID, n)
	c.state = make([]uint8, n)
	c.arrState = make([]uint8, n)
	c.arrSize = make([]uint64, n)
	return c
}

func (c *checker) result() error { return finish(c.probs, c.cfg.max) }

func (c *checker) add(t Type, r Rule, format string, args ...any) {
	c.probs = append(c.probs, Problem{ID: t.ID, Kind: t.Kind(), Name: c.name(t.NameOff()), Rule: r, Detail: fmt.Sprintf(format, args...)})
}

func (c *checker) addBlob(r Rule, format string, args ...any) {
	c.probs = append(c.probs, Problem{Rule: r, Detail: fmt.Sprintf(format, args...)})
}

// name returns the string at off for messages, or a marker if off is bad.
func (c *checker) name(off uint32) string {
	if !c.s.ValidStringOff(off) {
		return fmt.Sprintf("<bad name offset %d>", off)
	}
	return c.s.String(off)
}

func (c *checker) describe(id TypeID) string {
	if id == 0 {
		return "[0] void"
	}
	if !c.s.Has(id) {
		return fmt.Sprintf("[%d] (no such type)", id)
	}
	t := c.s.Type(id)
	if t.NameOff() == 0 {
		return fmt.Sprintf("[%d] %s", id, t.Kind())
	}
	return fmt.Sprintf("[%d] %s '%s'", id, t.Kind(), c.name(t.NameOff()))
}

func (c *checker) run() {
	s := c.s
	// The kernel's type table, void included, holds fewer than
	// BTF_MAX_TYPE entries: the last ID is at most BTF_MAX_TYPE-1.
	if last := int64(c.next) - 1; last >= maxTypeID {
		c.addBlob(RuleLimit, "last type ID %d, the kernel's limit is %d", last, maxTypeID-1)
	}
	if s.StringsLen() > 0 && s.RawStrings()[s.StringsLen()-1] != 0 {
		c.addBlob(RuleStrings, "string section does not end with a NUL byte")
	}
	if s.Base() == nil && (s.StringsLen() == 0 || s.RawStrings()[0] != 0) {
		c.addBlob(RuleStrings, "string section does not start with a NUL byte")
	}
	c.checkKindLayouts() // layout.go
	for id := c.first; id < c.next; id++ {
		c.checkType(s.Type(id))
	}
	c.checkLoops()
	c.checkDepth()
}

// isModifier reports the kinds the kernel treats as modifiers: they refer
// to another type and take its size.
func isModifier(k Kind) bool {
	switch k {
	case KindTypedef, KindVolatile, KindConst, KindRestrict, KindTypeTag:
		return true
	}
	return false
}

// sourceOnly kinds may refer to types but may not be referred to by
// pointers, modifiers, members or arrays.
func sourceOnly(k Kind) bool { return k == KindVar || k == KindDeclTag || k == KindDatasec }

// hasSizeField reports the kinds whose size-or-type word is a size.
func hasSizeField(k Kind) bool {
	switch k {
	case KindInt, KindStruct, KindUnion, KindEnum, KindEnum64, KindFloat, KindDatasec:
		return true
	}
	return false
}

// resolve follows a chain of modifiers from id and returns the first type
// that is not a modifier (possibly void). ok is false when the chain
// loops or reaches an ID that does not exist; those are reported by the
// types themselves.
func (c *checker) resolve(id TypeID) (TypeID, bool) {
	var path []TypeID
	cur := id
	for {
		if cur == 0 {
			break
		}
		if cur >= c.next {
			c.markPath(path, 0, false)
			return 0, false
		}
		switch c.state[cur] {
		case stDone:
			r := c.resolved[cur] - 1
			c.markPath(path, r, true)
			return r, true
		case stBad, stBusy:
			c.markPath(path, 0, false)
			return 0, false
		}
		t := c.s.Type(cur)
		if !isModifier(t.Kind()) {
			break
		}
		c.state[cur] = stBusy
		path = append(path, cur)
		cur = t.Ref()
	}
	c.markPath(path, cur, true)
	return cur, true
}

func (c *checker) markPath(path []TypeID, r TypeID, ok bool) {
	for _, p := range path {
		if ok {
			c.state[p] = stDone
			c.resolved[p] = r + 1
		} else {
			c.state[p] = stBad
		}
	}
}

// sizeOf returns the byte size of a type, following modifiers, as the
// kernel's btf_type_id_size does: sized kinds give their size, PTR 8,
// ARRAY its element size times its length. ok is false for void, FWD,
// FUNC, FUNC_PROTO, VAR, DECL_TAG, loops and bad IDs. It also returns the
// type the modifiers resolved to.
func (c *checker) sizeOf(id TypeID) (size uint64, rid TypeID, ok bool) {
	rid, ok = c.resolve(id)
	if !ok || rid == 0 {
		return 0, rid, false
	}
	t := c.s.Type(rid)
	switch k := t.Kind(); {
	case hasSizeField(k):
		return uint64(t.Size()), rid, true
	case k == KindPtr:
		return ptrSize, rid, true
	case k == KindArray:
		sz, ok := c.arraySize(rid)
		return sz, rid, ok
	}
	return 0, rid, false
}

// arraySize computes an ARRAY's byte size, memoized; false on loops, on
// elements without size and on sizes that overflow 32 bits.
func (c *checker) arraySize(id TypeID) (uint64, bool) {
	switch c.arrSizeState(id) {
	case stDone:
		return c.arrSize[id], true
	case stBad, stBusy:
		return 0, false
	}
	c.setArrState(id, stBusy)
	t := c.s.Type(id)
	if len(t.Extra()) != 3 {
		c.setArrState(id, stBad)
		return 0, false
	}
	a := t.Array()
	esz, _, ok := c.sizeOf(a.Elem)
	if !ok || (a.Nelems != 0 && esz > 0xffffffff/uint64(a.Nelems)) {
		c.setArrState(id, stBad)
		return 0, false
	}
	c.arrSize[id] = esz * uint64(a.Nelems)
	c.setArrState(id, stDone)
	return c.arrSize[id], true
}

func (c *checker) arrSizeState(id TypeID) uint8   { return c.arrState[id] }
func (c *checker) setArrState(id TypeID, s uint8) { c.arrState[id] = s }

// regularInt reports whether t is an INT of whole bytes (1, 2, 4, 8 or 16)
// at bit offset 0, what the kernel calls a regular int.
func regularInt(t Type) bool {
	if t.Kind() != KindInt || len(t.Extra()) != 1 {
		return false
	}
	_, off, bits := t.IntEncoding()
	if bits%8 != 0 || off != 0 {
		return false
	}
	switch bits / 8 {
	case 1, 2, 4, 8, 16:
		return true
	}
	return false
}

// validName implements the kernel's name rules (__btf_name_valid and
// btf_name_valid_section as of Linux 6.18). Identifiers are made of
// letters, digits, '_' and '.', not starting with a digit; letters are
// those of the kernel's Latin-1 ctype table. Section names (DATASEC) are
// any printable characters. Both are at most KSYM_NAME_LEN (512) bytes.
func validName(name string, section bool) bool {
	if name == "" || len(name) > maxNameLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		ch := name[i]
		var ok bool
		if section {
			ok = ch >= 0x20 && ch < 0x7f || ch >= 0xa0
		} else {
			ok = ch == '_' || ch == '.' || isAlpha(ch) || (i > 0 && ch >= '0' && ch <= '9')
		}
		if !ok {
			return false
		}
	}
	return true
}

func isAlpha(ch byte) bool {
	return ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' ||
		ch >= 0xc0 && ch != 0xd7 && ch != 0xf7
}

// dottedName reports an identifier with a dot, which kernels before the
// dot was allowed in BTF identifiers reject (a strict-mode convention).
func (c *checker) dottedName(t Type, what, name string) {
	if c.cfg.strict && strings.Contains(name, ".") {
		c.add(t, RuleConvention, "%sname '%s' contains a dot; older kernels reject that", what, name)
	}
}

// nameOffOK checks a name offset: in range, and in strict mode at the start
// of a string. what prefixes the message ("member 2: ").
func (c *checker) nameOffOK(t Type, off uint32, what string) bool {
	if off > maxNameOffset || !c.s.ValidStringOff(off) {
		c.add(t, RuleNameOffset, "%sname offset %d is outside the string section", what, off)
		return false
	}
	if c.cfg.strict && !c.atStringStart(off) {
		c.add(t, RuleNameStart, "%sname offset %d points into the middle of a string", what, off)
	}
	return true
}

func (c *checker) atStringStart(off uint32) bool {
	sp := c.s
	for sp != nil && off < sp.startStr {
		sp = sp.base
	}
	if sp == nil {
		return false
	}
	rel := off - sp.startStr
	return rel == 0 || sp.strs[rel-1] == 0
}

type namePolicy int

const (
	nameNone      namePolicy = iota // must be anonymous
	nameOptional                    // anonymous or a valid identifier
	nameIdent                       // a valid identifier
	nameVar                         // a valid identifier, dots expected
	nameSection                     // printable characters
	nameAny                         // any non-empty string
	nameUnchecked                   // anything (INT "long int", FLOAT); strict: named
)

func (c *checker) checkName(t Type, p namePolicy) {
	off := t.NameOff()
	if !c.nameOffOK(t, off, "") {
		return
	}
	name := c.s.String(off)
	switch p {
	case nameNone:
		if off != 0 {
			c.add(t, RuleNameForbidden, "%s must be anonymous, has name '%s'", t.Kind(), name)
		}
	case nameOptional:
		if off != 0 && !validName(name, false) {
			c.add(t, RuleNameInvalid, "name '%s' is not a valid identifier", name)
		} else if off != 0 {
			c.dottedName(t, "", name)
		}
	case nameIdent, nameVar, nameSection, nameAny:
		if off == 0 || name == "" {
			c.add(t, RuleNameRequired, "%s must be named", t.Kind())
		} else if p != nameAny && !validName(name, p == nameSection) {
			kind := "identifier"
			if p == nameSection {
				kind = "section name (printable characters)"
			}
			c.add(t, RuleNameInvalid, "name '%s' is not a valid %s", name, kind)
		} else if p == nameIdent {
			c.dottedName(t, "", name)
		}
	case nameUnchecked:
		if c.cfg.strict && name == "" {
			c.add(t, RuleConvention, "%s is anonymous", t.Kind())
		}
	}
}

func (c *checker) noVlen(t Type) {
	if t.Vlen() != 0 {
		c.add(t, RuleVlen, "vlen is %d, must be 0 for %s", t.Vlen(), t.Kind())
	}
}

func (c *checker) noKindFlag(t Type) {
	if t.KindFlag() {
		c.add(t, RuleKindFlag, "kind_flag set, not allowed on %s", t.Kind())
	}
}

func (c *checker) checkType(t Type) {
	k := t.Kind()
	if t.Info()&^infoMask != 0 {
		c.add(t, RuleInfo, "reserved bits set in info word 0x%08x", t.Info())
	}
	if k == KindUnknown || k > MaxKind {
		c.add(t, RuleKind, "unknown kind %d", uint8(k))
		return
	}
	if want := ExtraWords(k, t.Vlen()); want != len(t.Extra()) {
		c.add(t, RuleLayout, "%d trailing words, %s with vlen %d needs %d", len(t.Extra()), k, t.Vlen(), want)
		return
	}
	switch k {
	case KindInt:
		c.checkInt(t)
	case KindPtr, KindTypedef, KindVolatile, KindConst, KindRestrict, KindTypeTag:
		c.checkRef(t)
	case KindArray:
		c.checkArray(t)
	case KindStruct, KindUnion:
		c.checkStruct(t)
	case KindEnum, KindEnum64:
		c.checkEnum(t)
	case KindFwd:
		c.noVlen(t)
		if t.SizeType() != 0 {
			c.add(t, RuleSize, "type/size field is %d, must be 0 for FWD", t.SizeType())
		}
		c.checkName(t, nameIdent)
	case KindFunc:
		c.checkFunc(t)
	case KindFuncProto:
		c.checkName(t, nameNone)
		c.noKindFlag(t)
		c.checkProto(t)
	case KindVar:
		c.checkVar(t)
	case KindDatasec:
		c.checkDatasec(t)
	case KindFloat:
		c.noVlen(t)
		c.noKindFlag(t)
		c.checkName(t, nameUnchecked)
		switch t.Size() {
		case 2, 4, 8, 12, 16:
		default:
			c.add(t, RuleSize, "size %d, FLOAT size must be 2, 4, 8, 12 or 16", t.Size())
		}
	case KindDeclTag:
		c.checkDeclTag(t)
	}
}

func (c *checker) checkInt(t Type) {
	c.noVlen(t)
	c.noKindFlag(t)
	c.checkName(t, nameUnchecked)
	w := t.Extra()[0]
	enc, off, bits := t.IntEncoding()
	if w&^intMask != 0 {
		c.add(t, RuleInt, "reserved bits set in encoding word 0x%08x", w)
	}
	if int(off)+int(bits) > 128 {
		c.add(t, RuleInt, "bit offset %d + %d bits exceed 128", off, bits)
	} else if (uint32(off)+uint32(bits)+7)/8 > t.Size() {
		c.add(t, RuleInt, "bit offset %d + %d bits exceed the size of %d bytes", off, bits, t.Size())
	}
	switch enc {
	case 0, IntSigned, IntChar, IntBool:
	default:
		c.add(t, RuleInt, "encoding 0x%x: at most one of SIGNED, CHAR, BOOL", enc)
	}
	if c.cfg.strict {
		switch t.Size() {
		case 1, 2, 4, 8, 16:
		default:
			c.add(t, RuleConvention, "size %d, INT sizes are 1, 2, 4, 8 or 16", t.Size())
		}
	}
}

// checkRef checks PTR and the modifiers: the target exists, is not a
// source-only kind, and resolves to something with a size, void, a FWD
// or a FUNC_PROTO.
func (c *checker) checkRef(t Type) {
	k := t.Kind()
	c.noVlen(t)
	if k != KindTypeTag {
		c.noKindFlag(t)
	}
	switch k {
	case KindTypedef:
		c.checkName(t, nameIdent)
	case KindTypeTag:
		c.checkName(t, nameAny)
	default:
		c.checkName(t, nameNone)
	}
	ref := t.Ref()
	if ref >= c.next {
		c.add(t, RuleTypeID, "refers to type %d, which does not exist", ref)
		return
	}
	if ref == 0 {
		return
	}
	rt := c.s.Type(ref)
	if sourceOnly(rt.Kind()) {
		c.add(t, RuleRefKind, "refers to %s, which only a DATASEC or nothing may refer to", c.describe(ref))
		return
	}
	if isModifier(k) && k != KindTypeTag && rt.Kind() == KindTypeTag {
		c.add(t, RuleTypeTag, "refers to %s: type tags must come before other modifiers", c.describe(ref))
	}
	rid, ok := c.resolve(ref)
	if !ok || rid == 0 {
		return
	}
	// Whether a pointer or modifier may refer to a FUNC depends on the
	// order the kernel resolves types in: see checkDepth.
	if rid, ok := c.resolve(ref); ok && rid != 0 && sourceOnly(c.s.Type(rid).Kind()) {
		c.add(t, RuleRefKind, "resolves to %s, which only a DATASEC or nothing may refer to", c.describe(rid))
	}
}

func (c *checker) checkArray(t Type) {
	c.checkName(t, nameNone)
	c.noVlen(t)
	c.noKindFlag(t)
	if t.SizeType() != 0 {
		c.add(t, RuleSize, "size field is %d, must be 0 for ARRAY", t.SizeType())
	}
	a := t.Array()
	idxOK := c.refNeedsSize(t, a.Index, "index type")
	elemOK := c.refNeedsSize(t, a.Elem, "element type")
	if idxOK {
		if rid, ok := c.resolve(a.Index); ok && rid != 0 && !regularInt(c.s.Type(rid)) {
			c.add(t, RuleArray, "index type %s is not a regular INT", c.describe(rid))
		}
	}
	if elemOK {
		esz, rid, ok := c.sizeOf(a.Elem)
		if !ok {
			return
		}
		if rt := c.s.Type(rid); rt.Kind() == KindInt && !regularInt(rt) {
			c.add(t, RuleArray, "element type %s is not a regular INT (whole bytes, no bit offset)", c.describe(rid))
		}
		if a.Nelems != 0 && esz > 0xffffffff/uint64(a.Nelems) {
			c.add(t, RuleArray, "%d elements of %d bytes overflow 32 bits", a.Nelems, esz)
		}
	}
}

// refNeedsSize checks a reference that must be to a type with a size:
// array element and index, member, parameter, return value, variable.
func (c *checker) refNeedsSize(t Type, ref TypeID, what string) bool {
	if ref == 0 {
		c.add(t, RuleTypeID, "%s is void", what)
		return false
	}
	if ref >= c.next {
		c.add(t, RuleTypeID, "%s %d does not exist", what, ref)
		return false
	}
	rk := c.s.Type(ref).Kind()
	if sourceOnly(rk) {
		c.add(t, RuleRefKind, "%s %s is not a data type", what, c.describe(ref))
		return false
	}
	_, rid, ok := c.sizeOf(ref)
	if ok {
		return true
	}
	if _, rok := c.resolve(ref); !rok {
		return false // a loop or dangling modifier: reported there
	}
	if c.s.Type(rid).Kind() == KindArray {
		return false // an array without size is reported by the array
	}
	c.add(t, RuleRefKind, "%s %s has no size", what, c.describe(ref))
	return false
}

func (c *checker) checkStruct(t Type) {
	c.checkName(t, nameOptional)
	isUnion := t.Kind() == KindUnion
	ssize := uint64(t.Size())
	var last uint32
	for i := 0; i < t.Vlen(); i++ {
		m := t.Member(i)
		mname := ""
		what := fmt.Sprintf("member %d: ", i)
		if c.nameOffOK(t, m.NameOff, what) {
			mname = c.s.String(m.NameOff)
			if m.NameOff != 0 && !validName(mname, false) {
				c.add(t, RuleNameInvalid, "member %d name '%s' is not a valid identifier", i, mname)
			} else if m.NameOff != 0 {
				c.dottedName(t, what, mname)
			}
		}
		mdesc := fmt.Sprintf("member %d '%s'", i, mname)
		off, bfs := t.MemberBits(i)
		if isUnion && off != 0 {
			c.add(t, RuleMemberOffset, "%s at bit %d, union members must be at offset 0", mdesc, off)
		}
		if off < last {
			c.add(t, RuleMemberOffset, "%s at bit %d before the previous member's bit %d", mdesc, off, last)
		}
		last = off
		if (uint64(off)+7)/8 > ssize {
			c.add(t, RuleMemberBounds, "%s at bit %d past struct size %d bytes", mdesc, off, ssize)
			continue
		}
		if !c.refNeedsSize(t, m.Type, mdesc+" type") {
			continue
		}
		msize, rid, _ := c.sizeOf(m.Type)
		rt := c.s.Type(rid)
		rk := rt.Kind()
		if c.cfg.strict && m.NameOff == 0 && rk != KindStruct && rk != KindUnion {
			c.add(t, RuleConvention, "%s is anonymous but of type %s", mdesc, c.describe(rid))
		}
		byteOff := uint64(off / 8)
		switch {
		case rk == KindInt:
			c.checkIntMember(t, mdesc, rt, off, bfs)
			continue
		case (rk == KindEnum || rk == KindEnum64) && t.KindFlag():
			// The kernel's btf_enum_check_kflag_member takes every enum
			// member of a kind_flag struct as 32 bits wide.
			nbits := uint64(bfs)
			if bfs == 0 {
				if off%8 != 0 {
					c.add(t, RuleMemberOffset, "%s at bit %d is not byte aligned", mdesc, off)
					continue
				}
				nbits = 32
			} else if bfs > 32 {
				c.add(t, RuleBitfield, "%s enum bitfield of %d bits; the kernel allows at most 32", mdesc, bfs)
				continue
			}
			if (uint64(off)+nbits+7)/8 > ssize {
				c.add(t, RuleMemberBounds, "%s at bit %d of %d bits past struct size %d bytes", mdesc, off, nbits, ssize)
			} else if c.cfg.strict && bfs == 0 && byteOff+msize > ssize {
				c.add(t, RuleConvention, "%s at bit %d of %d bytes past struct size %d bytes", mdesc, off, msize, ssize)
			}
			continue
		default:
			if bfs != 0 {
				c.add(t, RuleBitfield, "%s is a bitfield of %d bits but of type %s; only INT and ENUM bitfields exist", mdesc, bfs, c.describe(rid))
				continue
			}
		}
		if rk == KindFloat {
			align := min(msize, ptrSize) * 8
			if align > 0 && uint64(off)%align != 0 {
				c.add(t, RuleMemberOffset, "%s at bit %d is not aligned to %d bytes", mdesc, off, align/8)
			}
		} else if off%8 != 0 {
			c.add(t, RuleMemberOffset, "%s at bit %d is not byte aligned", mdesc, off)
		}
		if byteOff+msize > ssize {
			c.add(t, RuleMemberBounds, "%s at bit %d of %d bytes past struct size %d bytes", mdesc, off, msize, ssize)
		}
	}
}

// checkIntMember applies the kernel's btf_int_check_member and
// btf_int_check_kflag_member.
func (c *checker) checkIntMember(t Type, mdesc string, it Type, off, bfs uint32) {
	ssize := uint64(t.Size())
	if len(it.Extra()) != 1 {
		return // a malformed INT, reported as such
	}
	_, ioff, ibits := it.IntEncoding()
	var bitOff, nbits uint64
	if t.KindFlag() {
		if !regularInt(it) {
			c.add(t, RuleBitfield, "%s: in a kind_flag struct an INT member must be a regular INT, %s is not", mdesc, c.describe(it.ID))
			return
		}
		bitOff, nbits = uint64(off), uint64(bfs)
		if bfs == 0 {
			if off%8 != 0 {
				c.add(t, RuleMemberOffset, "%s at bit %d is not byte aligned", mdesc, off)
				return
			}
			nbits = uint64(ibits)
		} else if bfs > uint32(ibits) {
			c.add(t, RuleBitfield, "%s bitfield of %d bits wider than its %d-bit INT", mdesc, bfs, ibits)
			return
		}
	} else {
		bitOff, nbits = uint64(off)+uint64(ioff), uint64(ibits)
	}
	copyBits := nbits + bitOff%8
	if copyBits > 128 {
		c.add(t, RuleBitfield, "%s at bit %d spans %d bits, more than 128", mdesc, bitOff, copyBits)
		return
	}
	if bitOff/8+(copyBits+7)/8 > ssize {
		c.add(t, RuleMemberBounds, "%s at bit %d of %d bits past struct size %d bytes", mdesc, bitOff, nbits, ssize)
	}
}

func (c *checker) checkEnum(t Type) {
	c.checkName(t, nameOptional)
	switch t.Size() {
	case 1, 2, 4, 8:
	default:
		c.add(t, RuleSize, "size %d, %s size must be 1, 2, 4 or 8", t.Size(), t.Kind())
	}
	for i := 0; i < t.Vlen(); i++ {
		off := t.Enum(i).NameOff
		if !c.nameOffOK(t, off, fmt.Sprintf("enumerator %d: ", i)) {
			continue
		}
		if name := c.s.String(off); name == "" {
			c.add(t, RuleNameRequired, "enumerator %d has no name", i)
		} else if !validName(name, false) {
			c.add(t, RuleNameInvalid, "enumerator %d name '%s' is not a valid identifier", i, name)
		} else {
			c.dottedName(t, fmt.Sprintf("enumerator %d: ", i), name)
		}
	}
}

func (c *checker) checkFunc(t Type) {
	c.checkName(t, nameIdent)
	c.noKindFlag(t)
	if l := t.Vlen(); l > LinkageGlobal {
		c.add(t, RuleLinkage, "linkage %d, FUNC linkage must be static (0) or global (1)", l)
	}
	ref := t.Ref()
	if ref == 0 || ref >= c.next || c.s.Type(ref).Kind() != KindFuncProto {
		if ref >= c.next {
			c.add(t, RuleTypeID, "refers to type %d, which does not exist", ref)
		} else {
			c.add(t, RuleRefKind, "refers to %s, FUNC must refer to a FUNC_PROTO", c.describe(ref))
		}
		return
	}
	p := c.s.Type(ref)
	if len(p.Extra()) != 2*p.Vlen() {
		return
	}
	for i := 0; i < p.Vlen(); i++ {
		if prm := p.Param(i); prm.NameOff == 0 && prm.Type != 0 {
			c.add(t, RuleNameRequired, "parameter %d of its prototype %s has no name", i, c.describe(ref))
		}
	}
}

func (c *checker) checkProto(t Type) {
	if ret := t.Ref(); ret != 0 {
		c.refNeedsSize(t, ret, "return type")
	}
	n := t.Vlen()
	for i := 0; i < n; i++ {
		p := t.Param(i)
		what := fmt.Sprintf("parameter %d", i)
		if p.Type == 0 && i == n-1 {
			if p.NameOff != 0 {
				c.add(t, RuleParam, "%s is a vararg (type 0) but has a name '%s'", what, c.name(p.NameOff))
			}
			continue
		}
		if p.Type == 0 {
			c.add(t, RuleParam, "%s has type void; only the last parameter may be a vararg", what)
			continue
		}
		if p.NameOff != 0 && c.nameOffOK(t, p.NameOff, what+": ") {
			if name := c.s.String(p.NameOff); !validName(name, false) {
				c.add(t, RuleNameInvalid, "%s name '%s' is not a valid identifier", what, name)
			} else {
				c.dottedName(t, what+": ", name)
			}
		}
		c.refNeedsSize(t, p.Type, what+" type")
	}
}

func (c *checker) checkVar(t Type) {
	c.noVlen(t)
	c.noKindFlag(t)
	c.checkName(t, nameVar)
	c.refNeedsSize(t, t.Ref(), "type")
	if l := t.Linkage(); l != LinkageStatic && l != LinkageGlobal {
		c.add(t, RuleLinkage, "linkage %d, VAR linkage must be static (0) or global (1)", l)
	}
}

func (c *checker) checkDatasec(t Type) {
	c.noKindFlag(t)
	c.checkName(t, nameSection)
	size := uint64(t.Size())
	if size == 0 {
		c.add(t, RuleSize, "DATASEC size is 0")
	}
	var lastEnd uint64
	for i := 0; i < t.Vlen(); i++ {
		v := t.SecVar(i)
		what := fmt.Sprintf("entry %d (%s)", i, c.describe(v.Type))
		if v.Type == 0 || v.Type >= c.next {
			c.add(t, RuleTypeID, "%s refers to type %d, which does not exist", what, v.Type)
		} else if vt := c.s.Type(v.Type); vt.Kind() != KindVar {
			c.add(t, RuleRefKind, "%s refers to %s, DATASEC entries must be VARs", what, c.describe(v.Type))
		} else if vsz, _, ok := c.sizeOf(vt.Ref()); ok && uint64(v.Size) < vsz {
			c.add(t, RuleDatasec, "%s has size %d, smaller than its type's %d", what, v.Size, vsz)
		}
		off, esz := uint64(v.Offset), uint64(v.Size)
		switch {
		case off < lastEnd:
			c.add(t, RuleDatasec, "%s at offset %d overlaps or precedes the previous entry ending at %d", what, off, lastEnd)
		case size > 0 && off >= size:
			c.add(t, RuleDatasec, "%s at offset %d is past the section size %d", what, off, size)
		case esz == 0:
			c.add(t, RuleDatasec, "%s has size 0", what)
		case off+esz > size:
			c.add(t, RuleDatasec, "%s [%d,%d) runs past the section size %d", what, off, off+esz, size)
		}
		lastEnd = max(lastEnd, off+esz)
	}
}

func (c *checker) checkDeclTag(t Type) {
	c.noVlen(t)
	c.checkName(t, nameAny)
	idx := t.ComponentIdx()
	if idx < -1 {
		c.add(t, RuleDeclTag, "component_idx %d, must be -1 or a member/parameter index", idx)
		return
	}
	ref := t.Ref()
	if ref == 0 || ref >= c.next {
		c.add(t, RuleTypeID, "refers to type %d, which does not exist", ref)
		return
	}
	rt := c.s.Type(ref)
	var vlen int
	switch rt.Kind() {
	case KindStruct, KindUnion:
		vlen = rt.Vlen()
	case KindFunc:
		if p := rt.Ref(); p != 0 && p < c.next && c.s.Type(p).Kind() == KindFuncProto {
			vlen = c.s.Type(p).Vlen()
		} else {
			return // reported by the FUNC
		}
	case KindVar, KindTypedef:
		vlen = -1
	default:
		c.add(t, RuleDeclTag, "tags %s; only FUNC, STRUCT, UNION, VAR and TYPEDEF can be tagged", c.describe(ref))
		return
	}
	if idx == -1 {
		return
	}
	if vlen < 0 {
		c.add(t, RuleDeclTag, "component_idx %d on %s, which has no components", idx, c.describe(ref))
	} else if int(idx) >= vlen {
		c.add(t, RuleDeclTag, "component_idx %d out of range: %s has %d", idx, c.describe(ref), vlen)
	}
}

// checkLoops finds reference loops the kernel rejects. The kernel resolves
// references in two modes: following pointers, where structs, unions and
// arrays end the walk, and following members and elements, where pointers
// end it. So a loop is legal only when it passes through both a PTR and a
// STRUCT, UNION or ARRAY. Equivalently: the graph of modifiers and
// pointers must be acyclic, and so must the graph of modifiers, structs,
// unions and arrays.
func (c *checker) checkLoops() {
	ptrGraph := func(k Kind) bool { return isModifier(k) || k == KindPtr }
	valGraph := func(k Kind) bool {
		return isModifier(k) || k == KindStruct || k == KindUnion || k == KindArray
	}
	reported := make(map[TypeID]bool)
	c.findCycles(ptrGraph, "pointer/modifier", reported)
	c.findCycles(valGraph, "by-value member/element", reported)
}

// edges returns the references of t that stay inside a graph.
func (c *checker) edges(t Type, in func(Kind) bool, buf []TypeID) []TypeID {
	buf = buf[:0]
	add := func(id TypeID) {
		if id >= c.first && id < c.next && in(c.s.Type(id).Kind()) {
			buf = append(buf, id)
		}
	}
	switch k := t.Kind(); {
	case isModifier(k) || k == KindPtr:
		add(t.Ref())
	case k == KindArray && len(t.Extra()) == 3:
		a := t.Array()
		add(a.Elem)
		add(a.Index)
	case (k == KindStruct || k == KindUnion) && len(t.Extra()) == 3*t.Vlen():
		for i := 0; i < t.Vlen(); i++ {
			add(t.Member(i).Type)
		}
	}
	return buf
}

// findCycles runs an iterative depth-first search over the types of the
// graph and reports each cycle once, at the first type of it found.
func (c *checker) findCycles(in func(Kind) bool, what string, reported map[TypeID]bool) {
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, int(c.next-c.first))
	type frame struct {
		id    TypeID
		edges []TypeID
		i     int
	}
	var stack []frame
	for root := c.first; root < c.next; root++ {
		if color[root-c.first] != white || !in(c.s.Type(root).Kind()) {
			continue
		}
		color[root-c.first] = grey
		stack = append(stack[:0], frame{id: root, edges: c.edges(c.s.Type(root), in, nil)})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.i == len(f.edges) {
				color[f.id-c.first] = black
				stack = stack[:len(stack)-1]
				continue
			}
			next := f.edges[f.i]
			f.i++
			switch color[next-c.first] {
			case white:
				color[next-c.first] = grey
				stack = append(stack, frame{id: next, edges: c.edges(c.s.Type(next), in, nil)})
			case grey:
				// A back edge: the cycle is the stack from next to the top.
				j := len(stack) - 1
				for j > 0 && stack[j].id != next {
					j--
				}
				var ids []string
				dup := false
				for _, fr := range stack[j:] {
					ids = append(ids, c.describe(fr.id))
					dup = dup || reported[fr.id]
				}
				if dup {
					continue
				}
				for _, fr := range stack[j:] {
					reported[fr.id] = true
				}
				ids = append(ids, fmt.Sprintf("[%d]", next))
				c.add(c.s.Type(next), RuleLoop, "%s reference loop: %s", what, strings.Join(ids, " -> "))
			}
		}
	}
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

// maxResolveDepth is the kernel's MAX_RESOLVE_DEPTH.
const maxResolveDepth = 32

// Resolve modes of the kernel's walk: which kinds end it.
const (
	modeAny    = iota // not decided yet: only kinds that need no resolving end it
	modePtr           // after a PTR: anything but modifiers and pointers ends it
	modeStruct        // after a STRUCT, UNION or ARRAY: pointers end it too
)

// needsResolve reports the kinds the kernel's btf_type_needs_resolve
// names: those whose references it walks.
func needsResolve(k Kind) bool {
	switch k {
	case KindPtr, KindStruct, KindUnion, KindArray, KindVar, KindFunc, KindDeclTag, KindDatasec:
		return true
	}
	return isModifier(k)
}

func isSink(mode int, k Kind) bool {
	switch mode {
	case modePtr:
		return !isModifier(k) && k != KindPtr
	case modeStruct:
		return !isModifier(k) && k != KindArray && k != KindStruct && k != KindUnion
	}
	return !needsResolve(k)
}

// checkDepth replays the order in which the kernel resolves references
// (btf_check_all_types: each type in ID order, then each FUNC_PROTO's
// return and parameter types) and reports walks deeper than the kernel's
// stack of 32, and the one order-dependent reference rule: a pointer or
// modifier reached from a pointer or struct may refer to a FUNC only if the
// kernel has resolved that FUNC already. Loops are left to checkLoops.
func (c *checker) checkDepth() {
	first := c.s.FirstID()
	done := make([]uint8, int(c.next-first)) // 0 new, 1 on the walk, 2 resolved
	resolved := func(id TypeID) bool { return id < first || done[id-first] == 2 }
	type frame struct {
		id   TypeID
		next int
	}
	var stack []frame
	walk := func(root TypeID) {
		mode := modeAny
		push := func(id TypeID) {
			k := c.s.Type(id).Kind()
			if mode == modeAny {
				if k == KindPtr {
					mode = modePtr
				} else if k == KindStruct || k == KindUnion || k == KindArray {
					mode = modeStruct
				}
			}
			done[id-first] = 1
			stack = append(stack, frame{id: id})
		}
		push(root)
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			child, more := c.resolveChild(c.s.Type(f.id), f.next)
			if !more {
				done[f.id-first] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			f.next++
			if child == 0 || child >= c.next || resolved(child) || done[child-first] == 1 {
				continue
			}
			ft := c.s.Type(f.id)
			if f.next == 1 && mode != modeAny && (ft.Kind() == KindPtr || isModifier(ft.Kind())) && c.s.Type(child).Kind() == KindFunc {
				// The kernel takes a FUNC as its prototype only once it
				// has resolved it; walking from a pointer (or a struct)
				// it does not resolve it first, and rejects the reference.
				c.add(ft, RuleRefKind, "refers to %s, which the kernel has not resolved yet when it resolves this %s (walking from %s); refer to a FUNC only after it, or through a TYPEDEF resolved first", c.describe(child), ft.Kind(), c.describe(root))
				continue
			}
			if isSink(mode, c.s.Type(child).Kind()) {
				continue
			}
			if len(stack) == maxResolveDepth {
				c.add(c.s.Type(root), RuleDepth, "resolving it walks more than %d types not resolved yet (%s -> ... -> %s -> %s); the kernel gives up", maxResolveDepth, c.describe(root), c.describe(f.id), c.describe(child))
				for _, fr := range stack {
					done[fr.id-first] = 2
				}
				stack = stack[:0]
				return
			}
			push(child)
		}
	}
	for id := first; id < c.next; id++ {
		t := c.s.Type(id)
		k := t.Kind()
		if k > MaxKind || len(t.Extra()) != ExtraWords(k, t.Vlen()) {
			continue
		}
		if needsResolve(k) && !resolved(id) {
			walk(id)
		}
		if k == KindFuncProto {
			refs := []TypeID{t.Ref()}
			for i := 0; i < t.Vlen(); i++ {
				refs = append(refs, t.Param(i).Type)
			}
			for _, r := range refs {
				if r != 0 && r < c.next && !resolved(r) && done[r-first] == 0 && needsResolve(c.s.Type(r).Kind()) {
					walk(r)
				}
			}
		}
	}
}

// resolveChild returns reference i of t that the kernel's resolve walk
// follows, and false when there are no more.
func (c *checker) resolveChild(t Type, i int) (TypeID, bool) {
	k := t.Kind()
	if k > MaxKind || len(t.Extra()) != ExtraWords(k, t.Vlen()) {
		return 0, false
	}
	switch {
	case isModifier(k) || k == KindDeclTag:
		return t.Ref(), i == 0
	case k == KindPtr || k == KindVar:
		// After its target, a pointer or variable whose target is a
		// modifier resolved to a pointer continues with that pointer.
		switch i {
		case 0:
			return t.Ref(), true
		case 1:
			ref := t.Ref()
			if ref == 0 || ref >= c.next || !isModifier(c.s.Type(ref).Kind()) {
				return 0, true
			}
			if rid, ok := c.resolve(ref); ok && rid != 0 && c.s.Type(rid).Kind() == KindPtr {
				return rid, true
			}
			return 0, true
		}
	case k == KindStruct || k == KindUnion:
		if i < t.Vlen() {
			return t.Member(i).Type, true
		}
	case k == KindArray:
		a := t.Array()
		switch i {
		case 0:
			return a.Index, true
		case 1:
			return a.Elem, true
		}
	case k == KindDatasec:
		if i < t.Vlen() {
			return t.SecVar(i).Type, true
		}
	}
	return 0, false
}
