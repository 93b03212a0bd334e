package routediff

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// Causes, as the lines are sorted under them.
const (
	CauseEnum     = "gcc 12 enums: no signedness flag, no enumerator of 2^31 or more, no ENUM64"
	CauseLocal    = "gcc -gbtf (12, 14 and 15 alike) leaves out the types defined inside function bodies (BTF_TYPE_EMIT in a function among them)"
	CauseEnumFwd  = "gcc 12 writes an enum's forward declaration (enum X;) as a struct FWD"
	CauseAsmDecl  = "defined in assembly, declared in C: gcc's BTF has a FUNC for the declaration, the DWARF no subprogram"
	CauseAsmDWARF = "defined in assembly: gas's DWARF gives the DWARF route a FUNC without parameters or return type; assembly has no BTF"
	CauseWeak     = "defined more than once (a __weak default and the definition that overrides it): BTF has no addresses, the archive route takes the first in link order"
	// CauseDWARFSkips and CauseArchiveSkips are followed by the
	// route's reason.
	CauseDWARFSkips   = "the DWARF route leaves it out (BTF has no parameter locations): "
	CauseArchiveSkips = "the archive route leaves it out: "
)

// Inputs are what the causes are checked against.
type Inputs struct {
	DWARF, Archive *btf.Spec // the two routes' BTF
	// Local are the types the file's DWARF defines inside function
	// bodies (LocalTypes).
	Local *Local
	// DWARFReport and ArchiveReport map each function a route left out
	// to its reason (btfkit encode -v's lines).
	DWARFReport, ArchiveReport map[string]string
	// MultiDefined are the functions that more than one archive member
	// defines (FUNCs with named parameters).
	MultiDefined map[string]bool
}

// Result is the lines sorted by cause.
type Result struct {
	Causes      map[string][]string
	Unexplained []string
}

// Summary lists "N cause" per cause, sorted by cause.
func (r *Result) Summary() []string {
	keys := make([]string, 0, len(r.Causes))
	for c := range r.Causes {
		keys = append(keys, c)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, c := range keys {
		out = append(out, fmt.Sprintf("%d %s", len(r.Causes[c]), c))
	}
	return out
}

// line is one parsed diff line.
type line struct {
	text          string
	op            byte   // '-', '+', '~', '#'
	kind          string // ENUM, STRUCT, ... ("# count KIND:" too)
	name          string // "" for anonymous types
	render        string // an anonymous type's rendering
	before, after string // "~" lines: the two sides of " -> "
}

func parse(text string) (line, bool) {
	l := line{text: text}
	f := strings.Fields(text)
	if len(f) < 3 || len(f[0]) != 1 {
		return l, false
	}
	l.op = f[0][0]
	switch l.op {
	case '#':
		if f[1] != "count" {
			return l, false
		}
		l.kind = strings.TrimSuffix(f[2], ":")
		return l, true
	case '-', '+', '~':
	default:
		return l, false
	}
	l.kind = f[1]
	rest := strings.TrimPrefix(text[2:], l.kind+" ")
	if strings.HasPrefix(rest, "(anon)") {
		if _, r, ok := strings.Cut(rest, "): "); ok {
			l.render = r
		}
	} else {
		l.name = strings.TrimSuffix(strings.Fields(rest)[0], ":")
	}
	if l.op == '~' {
		if _, change, ok := strings.Cut(rest, ": "); ok {
			// "what: A -> B": the part before A is the same on both
			// sides.
			if b, a, ok := strings.Cut(change, " -> "); ok {
				if i := strings.LastIndex(b, ": "); i >= 0 && !strings.Contains(a, ": ") {
					a = b[:i+2] + a
				}
				l.before, l.after = b, a
			}
		}
	}
	return l, true
}

// Classify sorts diff lines (btfkit diff's "- + ~ #" lines of the DWARF
// route's BTF as A against the archive route's as B) by cause.
func Classify(lines []string, in Inputs) *Result {
	c := &classifier{in: in, res: &Result{Causes: map[string][]string{}}}
	c.index()
	var counts, later []line
	for _, t := range lines {
		l, ok := parse(t)
		if !ok {
			continue
		}
		if l.op == '#' {
			counts = append(counts, l)
			continue
		}
		if cause := c.cause(l); cause != "" {
			c.add(cause, l)
		} else {
			later = append(later, l)
		}
	}
	// Copies of anonymous types that a left-out local type held, once
	// every local type is known.
	for _, l := range later {
		if cause := c.heldByLocal(l); cause != "" {
			c.add(cause, l)
			continue
		}
		c.res.Unexplained = append(c.res.Unexplained, l.text)
		c.unexplainedKinds[l.kind] = true
	}
	// A count differs because of the kind's other lines.
	for _, l := range counts {
		k := l.kind
		if k == "ENUM64" {
			k = "ENUM"
		}
		if cause := c.kindCause[k]; cause != "" && !c.unexplainedKinds[l.kind] {
			c.res.Causes[cause] = append(c.res.Causes[cause], l.text)
		} else if cause := c.kindCause[l.kind]; cause != "" && !c.unexplainedKinds[l.kind] {
			c.res.Causes[cause] = append(c.res.Causes[cause], l.text)
		} else {
			c.res.Unexplained = append(c.res.Unexplained, l.text)
		}
	}
	return c.res
}

type classifier struct {
	in               Inputs
	res              *Result
	lossyEnums       map[string]bool // named enums gcc 12 cannot write right
	lossyEnumerators map[string]bool // the enumerators of those, anonymous ones included
	enumFwds         map[string]bool // DWARF route: enums declared only (vlen 0)
	localTexts       []string        // the lines put under CauseLocal
	kindCause        map[string]string
	unexplainedKinds map[string]bool
}

func (c *classifier) add(cause string, l line) {
	c.res.Causes[cause] = append(c.res.Causes[cause], l.text)
	if c.kindCause[l.kind] == "" {
		c.kindCause[l.kind] = cause
	}
	if cause == CauseLocal {
		c.localTexts = append(c.localTexts, l.text)
	}
}

// index records the DWARF route's lossy and forward enums.
func (c *classifier) index() {
	c.lossyEnums, c.lossyEnumerators, c.enumFwds = map[string]bool{}, map[string]bool{}, map[string]bool{}
	c.kindCause, c.unexplainedKinds = map[string]string{}, map[string]bool{}
	s := c.in.DWARF
	if s == nil {
		return
	}
	for id := s.FirstID(); id < s.NextID(); id++ {
		t := s.Type(id)
		lossy := false
		switch t.Kind() {
		case btf.KindEnum64:
			lossy = true
		case btf.KindEnum:
			if t.Vlen() == 0 {
				c.enumFwds[t.Name()] = true
			}
			lossy = t.KindFlag()
			for i := 0; i < t.Vlen() && !lossy; i++ {
				lossy = uint32(t.Enum(i).Val) >= 1<<31
			}
		default:
			continue
		}
		if !lossy {
			continue
		}
		if t.Name() != "" {
			c.lossyEnums[t.Name()] = true
		}
		for i := 0; i < t.Vlen(); i++ {
			c.lossyEnumerators[s.String(t.Enum(i).NameOff)] = true
		}
	}
}

// cause finds the cause of one "-", "+" or "~" line, or "".
func (c *classifier) cause(l line) string {
	switch l.kind {
	case "FUNC":
		return c.funcCause(l)
	case "ENUM", "ENUM64":
		// An enum defined in a function body is missing from the
		// archive whatever its values: no gcc writes it (gcc 14 and 15
		// write the values gcc 12 loses, so with them the values
		// explain nothing). Named: when the archive has no enum of the
		// name at all, which a lossy one of gcc 12 would be.
		if l.name != "" {
			switch {
			case l.op == '-' && c.in.Local.hasNamed(l.kind, l.name) &&
				!c.archiveHas(btf.KindEnum, l.name) && !c.archiveHas(btf.KindEnum64, l.name):
				return CauseLocal
			case c.lossyEnums[l.name]:
				return CauseEnum
			case l.op == '-' && c.enumFwds[l.name] && c.archiveHas(btf.KindFwd, l.name):
				return CauseEnumFwd
			case l.op == '-' && c.in.Local.hasNamed(l.kind, l.name):
				return CauseLocal
			}
			return ""
		}
		if l.op == '-' && c.in.Local.hasAnon(l.kind, l.render) {
			return CauseLocal
		}
		if l.kind == "ENUM64" || enumRenderLossy(l.render) || c.lossyEnumerators[firstItem(l.render)] {
			// gcc 12 writes no ENUM64 at all.
			return CauseEnum
		}
		return ""
	case "FWD":
		if l.op == '+' && c.enumFwds[l.name] {
			return CauseEnumFwd
		}
		if l.op == '-' && c.in.Local.hasNamed(l.kind, l.name) {
			return CauseLocal
		}
	case "STRUCT", "UNION", "TYPEDEF":
		if l.op == '-' && l.name != "" && c.in.Local.hasNamed(l.kind, l.name) {
			return CauseLocal
		}
		if l.op == '-' && l.name == "" && c.in.Local.hasAnon(l.kind, l.render) {
			return CauseLocal
		}
	}
	if l.op == '~' && l.before != "" {
		return c.changeCause(l)
	}
	if l.name == "" && c.mentionsEnumFwd(l) {
		return CauseEnumFwd
	}
	return ""
}

// mentionsEnumFwd reports whether an anonymous type's rendering refers to
// an enum declared only: "enum X" on the DWARF route's side ("-"), "fwd
// struct X" on the archive route's ("+").
func (c *classifier) mentionsEnumFwd(l line) bool {
	for name := range c.enumFwds {
		switch {
		case l.op == '-' && containsWord(l.render, "enum "+name):
			return true
		case l.op == '+' && containsWord(l.render, "fwd struct "+name):
			return true
		}
	}
	return false
}

// containsWord reports whether s has w not followed by a name character.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		end := i + j + len(w)
		if end == len(s) || !isNameChar(s[end]) {
			return true
		}
		i = end
	}
}

func isNameChar(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// heldByLocal explains a line about a copy of an anonymous type that a
// type left out as local held: its rendering is part of such a line.
func (c *classifier) heldByLocal(l line) string {
	if l.name != "" || l.render == "" {
		return ""
	}
	for _, t := range c.localTexts {
		if strings.Contains(t, l.render) {
			return CauseLocal
		}
	}
	return ""
}

// changeCause explains a "~" line by what gcc 12 does to enums: the two
// sides agree once enum forwards are written as struct FWDs and enum
// bodies as gcc 12 writes them.
func (c *classifier) changeCause(l line) string {
	before := l.before
	fwd := false
	for name := range c.enumFwds {
		if r := strings.ReplaceAll(before, "enum "+name, "fwd struct "+name); r != before {
			before, fwd = r, true
		}
	}
	// Only the DWARF side is rewritten: gcc's side is what gcc wrote.
	b, a := gcc12Enums(before), l.after
	if b != a {
		return ""
	}
	if fwd && before == l.after {
		return CauseEnumFwd
	}
	return CauseEnum
}

func (c *classifier) archiveHas(k btf.Kind, name string) bool {
	s := c.in.Archive
	if s == nil {
		return false
	}
	for id := s.FirstID(); id < s.NextID(); id++ {
		if t := s.Type(id); t.Kind() == k && t.Name() == name {
			return true
		}
	}
	return false
}

// funcCause explains a FUNC line.
func (c *classifier) funcCause(l line) string {
	switch l.op {
	case '+':
		if r := c.in.DWARFReport[l.name]; r != "" {
			return CauseDWARFSkips + r
		}
		if !hasFunc(c.in.DWARF, l.name) && c.in.DWARFReport[l.name] == "" {
			return CauseAsmDecl
		}
	case '-':
		if r := c.in.ArchiveReport[l.name]; r != "" {
			return CauseArchiveSkips + r
		}
		if isVoidVoid(c.in.DWARF, l.name) {
			return CauseAsmDWARF
		}
	case '~':
		if strings.HasPrefix(l.text, "~ FUNC "+l.name+": param ") && c.in.MultiDefined[l.name] && sameButNames(l.before, l.after) {
			return CauseWeak
		}
		if strings.HasPrefix(l.text, "~ FUNC "+l.name+": return: ") && isVoidVoid(c.in.DWARF, l.name) {
			return CauseAsmDWARF
		}
	}
	return ""
}

// hasFunc reports whether s has a FUNC of this name.
func hasFunc(s *btf.Spec, name string) bool {
	_, ok := funcProto(s, name)
	return ok
}

func funcProto(s *btf.Spec, name string) (btf.Type, bool) {
	if s == nil {
		return btf.Type{}, false
	}
	for id := s.FirstID(); id < s.NextID(); id++ {
		if t := s.Type(id); t.Kind() == btf.KindFunc && t.Name() == name && s.Has(t.Ref()) {
			return s.Type(t.Ref()), true
		}
	}
	return btf.Type{}, false
}

// isVoidVoid reports whether s's FUNC name has no parameters and returns
// void: what gas's DWARF for an assembly function gives.
func isVoidVoid(s *btf.Spec, name string) bool {
	p, ok := funcProto(s, name)
	return ok && p.Kind() == btf.KindFuncProto && p.Vlen() == 0 && p.Ref() == 0
}

// sameButNames reports whether two "param N 'name': type" renderings
// differ only in the parameter's name.
func sameButNames(a, b string) bool {
	strip := func(s string) string {
		if i := strings.Index(s, "'"); i >= 0 {
			if j := strings.Index(s[i+1:], "'"); j >= 0 {
				return s[:i] + s[i+1+j+1:]
			}
		}
		return s
	}
	return strip(a) == strip(b)
}

// enumRenderLossy reports whether an anonymous enum's rendering shows
// what gcc 12 cannot write: a signed enum, a value of 2^31 or more, an
// 8-byte enum.
func enumRenderLossy(r string) bool {
	if strings.HasPrefix(r, "enum{size=8") || strings.HasPrefix(r, "enum64{") || strings.Contains(r, " signed;") {
		return true
	}
	for _, it := range enumItems(r) {
		if _, v, ok := strings.Cut(it, "="); ok {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && (n < 0 || n >= 1<<31) {
				return true
			}
		}
	}
	return false
}

// enumItems returns the top-level items of an anonymous type's
// rendering ("NAME=VALUE" of an enum, "NAME TYPE @OFF" of a struct),
// without its "size=N" header.
func enumItems(r string) []string {
	i := strings.IndexByte(r, '{')
	if i < 0 || !strings.HasSuffix(r, "}") {
		return nil
	}
	body := r[i+1 : len(r)-1]
	var out []string
	depth, start := 0, 0
	for k := 0; k < len(body); k++ {
		switch body[k] {
		case '{', '(', '[':
			depth++
		case '}', ')', ']':
			depth--
		case ';':
			if depth == 0 {
				out = append(out, body[start:k])
				start = k + 2
			}
		}
	}
	if start < len(body) {
		out = append(out, body[start:])
	}
	if len(out) > 0 && strings.HasPrefix(out[0], "size=") {
		out = out[1:]
	}
	return out
}

// renderSize is the "size=N" of an anonymous type's rendering.
func renderSize(r string) string {
	i := strings.Index(r, "{size=")
	if i < 0 {
		return ""
	}
	s := r[i+len("{size="):]
	if j := strings.IndexAny(s, "; }"); j >= 0 {
		s = s[:j]
	}
	return s
}

// firstItem is the name of the first member or enumerator of an
// anonymous type's rendering, "" for an anonymous member.
func firstItem(r string) string {
	items := enumItems(r)
	if len(items) == 0 {
		return ""
	}
	it := items[0]
	if strings.HasPrefix(it, "struct{") || strings.HasPrefix(it, "union{") {
		return ""
	}
	if n, _, ok := strings.Cut(it, "="); ok && !strings.ContainsAny(n, " {") {
		return n
	}
	f := strings.Fields(it)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// gcc12Enums rewrites every enum body in a rendering as gcc 12 writes
// it: no signedness, negative values as their 32-bit two's complement,
// enumerators of 2^31 or more (non-negative in the source) left out.
func gcc12Enums(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "enum{")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		body := s[i+len("enum{") : i+j]
		var parts []string
		for _, p := range strings.Split(body, "; ") {
			if strings.HasPrefix(p, "size=") {
				parts = append(parts, strings.TrimSuffix(p, " signed"))
				continue
			}
			n, v, ok := strings.Cut(p, "=")
			if x, err := strconv.ParseInt(v, 10, 64); ok && err == nil {
				if x < 0 {
					v = strconv.FormatUint(uint64(uint32(x)), 10)
				} else if x >= 1<<31 {
					continue
				}
				p = n + "=" + v
			}
			parts = append(parts, p)
		}
		b.WriteString("enum{" + strings.Join(parts, "; ") + "}")
		s = s[i+j+1:]
	}
}
