// Package diff compares two BTFs semantically, independently of type IDs.
//
// Types are matched by kind and name. Each named type of a "root" kind
// (INT, FLOAT, STRUCT, UNION, ENUM, ENUM64, FWD, TYPEDEF, FUNC, VAR,
// DATASEC, DECL_TAG) is rendered canonically: a header (size, vlen,
// linkage, target) and one item per member, enumerator, parameter or
// section entry. References are rendered as type expressions in which a
// named type appears by kind and name ("struct foo", "int") and an
// anonymous one is spelled out in full, recursively ("*const char",
// "[16]u8", "struct{size=8; a int @0; b int @32}"), so an anonymous type is
// identified by its place in the graph of named types. Types no other type
// refers to and that have no name of their own are compared as a multiset
// of their renderings, per kind.
//
// Two BTFs that differ only in type IDs (order) compare equal; so do a BTF
// and its deduplicated copy, except for the per-kind counts, which are part
// of the comparison. This package must not know about files or the CLI.
package diff

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// Options select what Compare looks at.
type Options struct {
	// Kinds, when not empty, limits the comparison (root types and counts)
	// to these kinds.
	Kinds []btf.Kind
	// ExcludeKinds leaves these kinds out of the comparison (root types
	// and counts). A type of an excluded kind still appears inside the
	// renderings of types that refer to it.
	ExcludeKinds []btf.Kind
}

func (o Options) included(k btf.Kind) bool {
	for _, x := range o.ExcludeKinds {
		if x == k {
			return false
		}
	}
	if len(o.Kinds) == 0 {
		return true
	}
	for _, x := range o.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Result is the outcome of Compare.
type Result struct {
	// Diffs lists the differences, one line each, sorted by type kind and
	// name: "- KIND name" (only in A), "+ KIND name" (only in B),
	// "~ KIND name: what: a -> b" (changed), "# count KIND: a -> b".
	Diffs []string
	// CountsA and CountsB are the number of types of each kind (own types
	// of a split Spec); excluded kinds are left zero.
	CountsA, CountsB [btf.MaxKind + 1]int
}

// Equal reports whether no difference was found.
func (r *Result) Equal() bool { return len(r.Diffs) == 0 }

// Write prints the differences, then a per-kind count table.
func (r *Result) Write(w io.Writer) error {
	var b strings.Builder
	for _, d := range r.Diffs {
		b.WriteString(d)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%-10s %9s %9s\n", "kind", "A", "B")
	ta, tb := 0, 0
	for k := btf.Kind(1); k <= btf.MaxKind; k++ {
		a, c := r.CountsA[k], r.CountsB[k]
		if a == 0 && c == 0 {
			continue
		}
		mark := ""
		if a != c {
			mark = "  *"
		}
		fmt.Fprintf(&b, "%-10s %9d %9d%s\n", k, a, c, mark)
		ta += a
		tb += c
	}
	fmt.Fprintf(&b, "%-10s %9d %9d\n", "total", ta, tb)
	_, err := io.WriteString(w, b.String())
	return err
}

// Compare compares a and b (their own types, for split Specs).
func Compare(a, b *btf.Spec, opts Options) *Result {
	ra, rb := newRenderer(a), newRenderer(b)
	ga, gb := ra.roots(opts), rb.roots(opts)
	res := &Result{}
	for id := a.FirstID(); id < a.NextID(); id++ {
		if k := a.Type(id).Kind(); opts.included(k) {
			res.CountsA[k]++
		}
	}
	for id := b.FirstID(); id < b.NextID(); id++ {
		if k := b.Type(id).Kind(); opts.included(k) {
			res.CountsB[k]++
		}
	}
	keys := make(map[string]bool, len(ga)+len(gb))
	for k := range ga {
		keys[k] = true
	}
	for k := range gb {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, key := range sorted {
		la, lb := ga[key], gb[key]
		switch {
		case len(lb) == 0:
			res.Diffs = append(res.Diffs, "- "+key+multi(len(la)))
		case len(la) == 0:
			res.Diffs = append(res.Diffs, "+ "+key+multi(len(lb)))
		case len(la) == 1 && len(lb) == 1:
			res.Diffs = append(res.Diffs, compareOne(key, la[0], lb[0])...)
		default:
			res.Diffs = append(res.Diffs, compareMany(key, la, lb)...)
		}
	}
	for k := btf.Kind(1); k <= btf.MaxKind; k++ {
		if res.CountsA[k] != res.CountsB[k] {
			res.Diffs = append(res.Diffs, fmt.Sprintf("# count %s: %d -> %d", k, res.CountsA[k], res.CountsB[k]))
		}
	}
	return res
}

func multi(n int) string {
	if n > 1 {
		return fmt.Sprintf(" (%d of them)", n)
	}
	return ""
}

// item is one labelled line of a rendering: "member 3 'x'" -> "int @32".
type item struct{ label, value string }

// rendering is a root type's canonical form.
type rendering struct {
	header string
	items  []item
}

func (r rendering) text() string {
	var b strings.Builder
	b.WriteString(r.header)
	for _, it := range r.items {
		b.WriteString("; ")
		b.WriteString(it.label)
		b.WriteString(": ")
		b.WriteString(it.value)
	}
	return b.String()
}

func compareOne(key string, a, b rendering) []string {
	var out []string
	if a.header != b.header {
		out = append(out, fmt.Sprintf("~ %s: %s -> %s", key, a.header, b.header))
	}
	n := len(a.items)
	if len(b.items) > n {
		n = len(b.items)
	}
	for i := 0; i < n; i++ {
		switch {
		case i >= len(b.items):
			out = append(out, fmt.Sprintf("~ %s: %s: %s -> (none)", key, a.items[i].label, a.items[i].value))
		case i >= len(a.items):
			out = append(out, fmt.Sprintf("~ %s: %s: (none) -> %s", key, b.items[i].label, b.items[i].value))
		case a.items[i] == b.items[i]:
		case a.items[i].label == b.items[i].label:
			out = append(out, fmt.Sprintf("~ %s: %s: %s -> %s", key, a.items[i].label, a.items[i].value, b.items[i].value))
		default:
			out = append(out, fmt.Sprintf("~ %s: %s: %s -> %s: %s", key, a.items[i].label, a.items[i].value, b.items[i].label, b.items[i].value))
		}
	}
	return out
}

// compareMany compares the several types of one kind and name (C allows
// different definitions of one struct name in different units) as
// multisets of renderings.
func compareMany(key string, la, lb []rendering) []string {
	ta := make([]string, len(la))
	for i, r := range la {
		ta[i] = r.text()
	}
	tb := make([]string, len(lb))
	for i, r := range lb {
		tb[i] = r.text()
	}
	sort.Strings(ta)
	sort.Strings(tb)
	var out []string
	i, j := 0, 0
	for i < len(ta) || j < len(tb) {
		switch {
		case j >= len(tb) || (i < len(ta) && ta[i] < tb[j]):
			out = append(out, fmt.Sprintf("- %s (%d in A, %d in B): %s", key, len(ta), len(tb), clip(ta[i])))
			i++
		case i >= len(ta) || tb[j] < ta[i]:
			out = append(out, fmt.Sprintf("+ %s (%d in A, %d in B): %s", key, len(ta), len(tb), clip(tb[j])))
			j++
		default:
			i++
			j++
		}
	}
	return out
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// renderer renders the types of one Spec.
type renderer struct {
	s      *btf.Spec
	memo   map[btf.TypeID]string
	hashes map[btf.TypeID]uint64 // deepHash's memo
}

func newRenderer(s *btf.Spec) *renderer {
	return &renderer{s: s, memo: make(map[btf.TypeID]string), hashes: make(map[btf.TypeID]uint64)}
}

func isRootKind(k btf.Kind) bool {
	switch k {
	case btf.KindInt, btf.KindFloat, btf.KindStruct, btf.KindUnion, btf.KindEnum,
		btf.KindEnum64, btf.KindFwd, btf.KindTypedef, btf.KindFunc, btf.KindVar,
		btf.KindDatasec, btf.KindDeclTag:
		return true
	}
	return false
}

// roots renders the Spec's root types grouped by "KIND name", and its
// unreferenced anonymous types grouped by "KIND (anon)".
func (r *renderer) roots(opts Options) map[string][]rendering {
	s := r.s
	refd := make([]bool, s.NextID()-s.FirstID())
	for id := s.FirstID(); id < s.NextID(); id++ {
		_, info, st, ext := s.RawType(id)
		if !opts.included(btf.KindOf(info)) {
			continue // a reference from a left-out kind does not count
		}
		e := append([]uint32(nil), ext...)
		btf.ForEachTypeRef(info, &st, e, func(p *uint32) {
			if t := btf.TypeID(*p); t >= s.FirstID() && t < s.NextID() && t != id {
				refd[t-s.FirstID()] = true
			}
		})
	}
	g := make(map[string][]rendering)
	for id := s.FirstID(); id < s.NextID(); id++ {
		t := s.Type(id)
		k := t.Kind()
		if !opts.included(k) {
			continue
		}
		if isRootKind(k) && t.Name() != "" {
			key := k.String() + " " + t.Name()
			g[key] = append(g[key], r.render(t))
			continue
		}
		if refd[id-s.FirstID()] {
			continue
		}
		key := k.String() + " (anon)"
		g[key] = append(g[key], rendering{header: r.expr(id, 0)})
	}
	return g
}

func linkage(l uint32) string {
	switch l {
	case btf.LinkageStatic:
		return "static"
	case btf.LinkageGlobal:
		return "global"
	case btf.LinkageExtern:
		return "extern"
	}
	return "linkage(" + strconv.Itoa(int(l)) + ")"
}

func intEnc(enc uint8) string {
	var p []string
	if enc&btf.IntSigned != 0 {
		p = append(p, "signed")
	}
	if enc&btf.IntChar != 0 {
		p = append(p, "char")
	}
	if enc&btf.IntBool != 0 {
		p = append(p, "bool")
	}
	if len(p) == 0 {
		return "unsigned"
	}
	return strings.Join(p, "|")
}

func fwdKind(t btf.Type) string {
	if t.KindFlag() {
		return "union"
	}
	return "struct"
}

func (r *renderer) render(t btf.Type) rendering {
	s := r.s
	var out rendering
	switch t.Kind() {
	case btf.KindInt:
		enc, off, bits := t.IntEncoding()
		out.header = fmt.Sprintf("size=%d bits=%d offset=%d encoding=%s", t.Size(), bits, off, intEnc(enc))
	case btf.KindFloat:
		out.header = fmt.Sprintf("size=%d", t.Size())
	case btf.KindStruct, btf.KindUnion:
		out.header = fmt.Sprintf("size=%d vlen=%d", t.Size(), t.Vlen())
		for i := 0; i < t.Vlen(); i++ {
			m := t.Member(i)
			out.items = append(out.items, item{
				fmt.Sprintf("member %d '%s'", i, s.String(m.NameOff)),
				r.memberValue(t, i, 0),
			})
		}
	case btf.KindEnum, btf.KindEnum64:
		sign := "unsigned"
		if t.KindFlag() {
			sign = "signed"
		}
		out.header = fmt.Sprintf("size=%d vlen=%d %s", t.Size(), t.Vlen(), sign)
		for i := 0; i < t.Vlen(); i++ {
			e := t.Enum(i)
			out.items = append(out.items, item{
				fmt.Sprintf("value %d '%s'", i, s.String(e.NameOff)),
				enumVal(t, e.Val),
			})
		}
	case btf.KindFwd:
		out.header = fwdKind(t)
	case btf.KindTypedef:
		out.header = "type " + r.expr(t.Ref(), 0)
	case btf.KindFunc:
		out.header = "linkage=" + linkage(t.Linkage())
		if p := t.Ref(); s.Has(p) && s.Type(p).Kind() == btf.KindFuncProto {
			pt := s.Type(p)
			out.items = append(out.items, item{"return", r.expr(pt.Ref(), 0)})
			for i := 0; i < pt.Vlen(); i++ {
				pa := pt.Param(i)
				out.items = append(out.items, item{fmt.Sprintf("param %d '%s'", i, s.String(pa.NameOff)), r.paramType(pa)})
			}
		} else {
			out.header += " type " + r.expr(p, 0)
		}
	case btf.KindVar:
		out.header = "linkage=" + linkage(t.Linkage()) + " type " + r.expr(t.Ref(), 0)
	case btf.KindDatasec:
		out.header = fmt.Sprintf("size=%d vlen=%d", t.Size(), t.Vlen())
		for i := 0; i < t.Vlen(); i++ {
			v := t.SecVar(i)
			out.items = append(out.items, item{fmt.Sprintf("entry %d", i), fmt.Sprintf("%s offset=%d size=%d", r.expr(v.Type, 0), v.Offset, v.Size)})
		}
	case btf.KindDeclTag:
		out.header = fmt.Sprintf("component=%d on %s", t.ComponentIdx(), r.expr(t.Ref(), 0))
	default:
		out.header = r.expr(t.ID, 0)
	}
	return out
}

func enumVal(t btf.Type, v uint64) string {
	if t.KindFlag() {
		if t.Kind() == btf.KindEnum {
			return strconv.FormatInt(int64(int32(v)), 10)
		}
		return strconv.FormatInt(int64(v), 10)
	}
	if t.Kind() == btf.KindEnum {
		return strconv.FormatUint(uint64(uint32(v)), 10)
	}
	return strconv.FormatUint(v, 10)
}

func (r *renderer) memberValue(t btf.Type, i, depth int) string {
	m := t.Member(i)
	off, bits := t.MemberBits(i)
	v := r.expr(m.Type, depth) + " @" + strconv.Itoa(int(off))
	if bits != 0 {
		v += ":" + strconv.Itoa(int(bits))
	}
	return v
}

func (r *renderer) paramType(p btf.Param) string {
	if p.Type == 0 && p.NameOff == 0 {
		return "..."
	}
	return r.expr(p.Type, 0)
}

const maxDepth = 64

// expr renders a reference to type id: named types by kind and name,
// anonymous ones in full.
func (r *renderer) expr(id btf.TypeID, depth int) string {
	s := r.s
	if id == 0 {
		return "void"
	}
	if !s.Has(id) {
		return fmt.Sprintf("<bad id %d>", id)
	}
	t := s.Type(id)
	k := t.Kind()
	name := t.Name()
	if isRootKind(k) && name != "" {
		switch k {
		case btf.KindInt, btf.KindFloat, btf.KindTypedef:
			return name
		case btf.KindStruct:
			return "struct " + name
		case btf.KindUnion:
			return "union " + name
		case btf.KindEnum:
			return "enum " + name
		case btf.KindEnum64:
			return "enum64 " + name
		case btf.KindFwd:
			return "fwd " + fwdKind(t) + " " + name
		default:
			return strings.ToLower(k.String()) + " " + name
		}
	}
	if depth > maxDepth {
		// Spelled out no deeper (a chain of 100,000 pointers would make
		// strings of quadratic size), but not all alike either: two
		// types nested this deep compare by a hash of all they hold.
		return fmt.Sprintf("<nested: %016x>", r.deepHash(id))
	}
	if v, ok := r.memo[id]; ok {
		return v
	}
	var v string
	switch k {
	case btf.KindPtr:
		v = "*" + r.expr(t.Ref(), depth+1)
	case btf.KindConst:
		v = "const " + r.expr(t.Ref(), depth+1)
	case btf.KindVolatile:
		v = "volatile " + r.expr(t.Ref(), depth+1)
	case btf.KindRestrict:
		v = "restrict " + r.expr(t.Ref(), depth+1)
	case btf.KindTypeTag:
		v = "type_tag(" + name + ") " + r.expr(t.Ref(), depth+1)
	case btf.KindArray:
		a := t.Array()
		v = "[" + strconv.Itoa(int(a.Nelems)) + "]" + r.expr(a.Elem, depth+1)
		v += "{index " + r.expr(a.Index, depth+1) + "}"
	case btf.KindFuncProto:
		var b strings.Builder
		b.WriteString("func(")
		for i := 0; i < t.Vlen(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			p := t.Param(i)
			if n := s.String(p.NameOff); n != "" {
				b.WriteString(n)
				b.WriteByte(' ')
			}
			if p.Type == 0 && p.NameOff == 0 {
				b.WriteString("...")
			} else {
				b.WriteString(r.expr(p.Type, depth+1))
			}
		}
		b.WriteString(") ")
		b.WriteString(r.expr(t.Ref(), depth+1))
		if name != "" {
			b.WriteString(" '" + name + "'")
		}
		v = b.String()
	case btf.KindStruct, btf.KindUnion:
		var b strings.Builder
		if k == btf.KindStruct {
			b.WriteString("struct{")
		} else {
			b.WriteString("union{")
		}
		fmt.Fprintf(&b, "size=%d", t.Size())
		for i := 0; i < t.Vlen(); i++ {
			b.WriteString("; ")
			if n := s.String(t.Member(i).NameOff); n != "" {
				b.WriteString(n)
				b.WriteByte(' ')
			}
			b.WriteString(r.memberValue(t, i, depth+1))
		}
		b.WriteString("}")
		v = b.String()
	case btf.KindEnum, btf.KindEnum64:
		var b strings.Builder
		if k == btf.KindEnum {
			b.WriteString("enum{")
		} else {
			b.WriteString("enum64{")
		}
		fmt.Fprintf(&b, "size=%d", t.Size())
		if t.KindFlag() {
			b.WriteString(" signed")
		}
		for i := 0; i < t.Vlen(); i++ {
			e := t.Enum(i)
			b.WriteString("; ")
			b.WriteString(s.String(e.NameOff))
			b.WriteByte('=')
			b.WriteString(enumVal(t, e.Val))
		}
		b.WriteString("}")
		v = b.String()
	default:
		rr := r.render(t)
		v = strings.ToLower(k.String()) + "{" + rr.text() + "}"
	}
	r.memo[id] = v
	return v
}

// deepHash is a hash of everything type id is made of, as expr spells it:
// named types by kind and name, anonymous ones by their fields with the
// hashes of the types they refer to and the strings they name. Chains of
// pointers and modifiers are followed in a loop; a loop in them, or one
// through anonymous structs (malformed BTF), hashes as a constant where
// it closes.
func (r *renderer) deepHash(id btf.TypeID) uint64 {
	// Down the chain of pointers and modifiers to the first type that is
	// not one, or whose hash is known.
	var chain []btf.TypeID
	for {
		if _, ok := r.hashes[id]; ok {
			break
		}
		k := r.kindOf(id)
		if k != btf.KindPtr && k != btf.KindConst && k != btf.KindVolatile && k != btf.KindRestrict && k != btf.KindTypeTag {
			r.hashes[id] = r.hashOne(id)
			break
		}
		r.hashes[id] = loopHash // on the walk: a loop closes here
		chain = append(chain, id)
		id = r.s.Type(id).Ref()
	}
	h := r.hashes[id]
	for i := len(chain) - 1; i >= 0; i-- {
		t := r.s.Type(chain[i])
		h = mix(uint64(t.Kind()), hashString(t.Name()), h)
		r.hashes[chain[i]] = h
	}
	return h
}

// loopHash is what a type hashes to where a loop through it closes.
const loopHash = 0x6c6f6f70

func (r *renderer) kindOf(id btf.TypeID) btf.Kind {
	if id == 0 || !r.s.Has(id) {
		return btf.KindUnknown
	}
	return r.s.Type(id).Kind()
}

// hashOne is deepHash of a type that is not a pointer or modifier.
func (r *renderer) hashOne(id btf.TypeID) uint64 {
	s := r.s
	if id == 0 || !s.Has(id) {
		return mix(uint64(id), 0x766f6964)
	}
	t := s.Type(id)
	k := t.Kind()
	if isRootKind(k) && t.Name() != "" {
		return mix(uint64(k), hashString(t.Name()))
	}
	r.hashes[id] = loopHash
	parts := []uint64{uint64(t.Info()), hashString(t.Name())}
	ext := t.Extra()
	switch k {
	case btf.KindArray:
		a := t.Array()
		parts = append(parts, r.deepHash(a.Elem), r.deepHash(a.Index), uint64(a.Nelems))
	case btf.KindStruct, btf.KindUnion:
		parts = append(parts, uint64(t.Size()))
		for i := 0; i < t.Vlen(); i++ {
			m := t.Member(i)
			parts = append(parts, hashString(s.String(m.NameOff)), r.deepHash(m.Type), uint64(m.Offset))
		}
	case btf.KindFuncProto:
		parts = append(parts, r.deepHash(t.Ref()))
		for i := 0; i < t.Vlen(); i++ {
			p := t.Param(i)
			parts = append(parts, hashString(s.String(p.NameOff)), r.deepHash(p.Type))
		}
	case btf.KindEnum, btf.KindEnum64:
		parts = append(parts, uint64(t.Size()))
		for i := 0; i < t.Vlen(); i++ {
			e := t.Enum(i)
			parts = append(parts, hashString(s.String(e.NameOff)), e.Val)
		}
	default:
		parts = append(parts, uint64(t.SizeType()))
		for _, w := range ext {
			parts = append(parts, uint64(w))
		}
	}
	return mix(parts...)
}

func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// mix combines hashes and values into one.
func mix(vs ...uint64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, v := range vs {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	return h.Sum64()
}

// ParseKinds parses a comma-separated list of kind names ("FUNC,VAR",
// case-insensitive) as the CLI's --kinds and --exclude-kinds take them.
func ParseKinds(list string) ([]btf.Kind, error) {
	var out []btf.Kind
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		found := false
		for k := btf.Kind(1); k <= btf.MaxKind; k++ {
			if strings.EqualFold(k.String(), f) {
				out = append(out, k)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown BTF kind %q", f)
		}
	}
	return out, nil
}
