package pfunct

// pahole's codiff: what changed between two builds of an object, unit by
// unit: structs (size, members, holes, padding) and functions (size,
// prototype, inlining), in its terse (-t), default and verbose (-V)
// forms; and, for btfkit's own command, the same changes as data
// (CodiffResult) for a JSON report.

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/internal/ctype"
	"github.com/btfkit/btfkit/layout"
)

// CodiffOptions are codiff's options.
type CodiffOptions struct {
	Structs   bool   // -s: struct diffs
	Functions bool   // -f: function diffs
	Terse     bool   // -t: terse type changes
	Verbose   bool   // -V: details
	Quiet     bool   // -q: no unit names
	Format    string // -F: formats to try, comma separated ("" is dwarf,btf)
	Jobs      int    // DWARF units converted in parallel (0: one per CPU)

	// LangExclude lists DW_LANG codes of DWARF units to leave out.
	LangExclude []uint16
	// Warnings is where the loader's diagnostics go; nil discards them.
	Warnings io.Writer
}

// CodiffError is what codiff says of a file it cannot read, after
// "codiff: " (its exit status is 1).
type CodiffError struct{ Msg string }

func (e *CodiffError) Error() string { return e.Msg }

// cdFunc is what codiff reads of a function.
type cdFunc struct {
	name               string
	hasName            bool
	inlined            bool // DW_AT_inline, any value
	origin             bool // DW_AT_abstract_origin
	size               uint32
	nrBlocks, nrInline uint16
	sizeInline         uint32
	proto              string // function__prototype
	priv               *cdDiff
}

// cdStruct is what codiff reads of a struct.
type cdStruct struct {
	name    string
	hasName bool
	info    layout.StructInfo
	types   []string // the members' type names (tag__name)
	priv    *cdDiff
}

// cdDiff is codiff's diff_info: the twin (nil: none) and the difference.
type cdDiff struct {
	fn     *cdFunc
	st     *cdStruct
	cu     *cdUnit
	diff   int32
	hasTag bool
}

// cdUnit is a unit with codiff's counters.
type cdUnit struct {
	name             string
	funcs            []*cdFunc
	structs          []*cdStruct
	maxLen           uint32
	nrFuncsChanged   uint32
	nrStructsChanged uint32
	funcBytesAdded   int64
	funcBytesRemoved int64
}

func (c *cdUnit) checkMaxLen(name string, addend int) {
	if l := uint32(len(name) + addend); l > c.maxLen {
		c.maxLen = l
	}
}

// codiffUnit summarizes a loaded unit for codiff.
func (p *printer) codiffUnit(u *unit) *cdUnit {
	cu := &cdUnit{name: strings.Clone(u.name)}
	n := p.namer(u)
	for _, f := range u.funcs {
		var b buf
		if u.spec != nil {
			n.AppendFtype(&b, n.funcProto(f), "", false, false, 0, true)
		}
		proto := string(b)
		if len(proto) > 1023 {
			proto = proto[:1023]
		}
		cu.funcs = append(cu.funcs, &cdFunc{
			name: strings.Clone(f.name), hasName: f.hasName, inlined: f.inlined != 0, origin: f.origin,
			size: f.block.size, nrBlocks: f.block.nrBlocks, nrInline: f.block.nrInline, sizeInline: f.block.sizeInline,
			proto: proto,
		})
	}
	if u.spec == nil {
		return cu
	}
	tp := layout.NewTypePrinter(u.spec, u.facts, layout.Options{})
	addStruct := func(id btf.TypeID, name string, hasName bool) {
		st := &cdStruct{name: strings.Clone(name), hasName: hasName}
		t, ok := n.Type(id)
		if ok && t.IsStruct() {
			st.info = tp.Struct(id)
		}
		for _, m := range st.info.Members {
			st.types = append(st.types, n.TagName(m.Type, ctype.NameBuf))
		}
		cu.structs = append(cu.structs, st)
	}
	if u.btf {
		for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
			if t := u.spec.Type(id); t.Kind() == btf.KindStruct {
				addStruct(id, t.Name(), t.NameOff() != 0)
			}
		}
		return cu
	}
	for _, te := range u.types {
		switch te.tag {
		case dwarf.TagStructureType, dwarf.TagClassType, dwarf.TagInterfaceType:
			id, _ := u.facts.TypeAt(te.off)
			addStruct(id, te.name, te.name != "")
		}
	}
	return cu
}

// Codiff does what codiff does with options o on the files oldPath and
// newPath, writing to w: byte for byte pahole 1.32's codiff's output. It
// reports whether anything changed.
func Codiff(w io.Writer, oldPath, newPath string, o CodiffOptions) (changed bool, err error) {
	d, oldCUs, newCUs, err := runCodiff(oldPath, newPath, &o)
	if err != nil {
		return false, err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	d.w = bw
	d.printed = map[string]bool{}
	for _, cu := range oldCUs {
		d.show(cu, false)
	}
	if len(newCUs) > 1 {
		for _, cu := range newCUs {
			d.show(cu, true)
		}
	}
	if d.totalCUs > 1 && o.Functions {
		fmt.Fprintf(bw, "\n%s:\n", newPath)
		fmt.Fprintf(bw, " %d function%s changed", d.totalFuncs, plural(d.totalFuncs))
		if d.totalAdded != 0 {
			fmt.Fprintf(bw, ", %d bytes added", d.totalAdded)
		}
		if d.totalRemoved != 0 {
			fmt.Fprintf(bw, ", %d bytes removed", d.totalRemoved)
		}
		fmt.Fprintf(bw, ", diff: %+d\n", int32(d.totalAdded-d.totalRemoved))
	}
	return anyChanged(oldCUs, newCUs), bw.Flush()
}

// anyChanged reports whether a unit of either build has a change.
func anyChanged(oldCUs, newCUs []*cdUnit) bool {
	for _, cus := range [][]*cdUnit{oldCUs, newCUs} {
		for _, cu := range cus {
			if cu.nrFuncsChanged != 0 || cu.nrStructsChanged != 0 {
				return true
			}
		}
	}
	return false
}

// runCodiff loads both files and finds what changed (codiff's main up to
// its printing).
func runCodiff(oldPath, newPath string, o *CodiffOptions) (*codiff, []*cdUnit, []*cdUnit, error) {
	if !o.Functions && !o.Structs && !o.Terse {
		o.Functions, o.Structs = true, true
	}
	oldCUs, err := codiffLoad(oldPath, *o)
	if err != nil {
		return nil, nil, nil, err
	}
	newCUs, err := codiffLoad(newPath, *o)
	if err != nil {
		return nil, nil, nil, err
	}
	d := &codiff{o: *o}
	for _, cu := range oldCUs {
		d.diffUnit(cu, cdPair(newCUs, cu.name))
	}
	for _, cu := range newCUs {
		d.findNew(cu, cdPair(oldCUs, cu.name))
	}
	return d, oldCUs, newCUs, nil
}

func plural(n uint32) string {
	if n > 1 {
		return "s"
	}
	return ""
}

// codiffLoad reads a file's units; a character device has none.
func codiffLoad(path string, o CodiffOptions) ([]*cdUnit, error) {
	st, err := os.Stat(path)
	if err != nil {
		msg := "No such file or directory"
		if !os.IsNotExist(err) {
			msg = err.Error()
		}
		return nil, &CodiffError{Msg: fmt.Sprintf("%s (%s)", msg, path)}
	}
	if st.Mode()&os.ModeCharDevice != 0 {
		return nil, nil
	}
	po := Options{Format: o.Format, Jobs: o.Jobs, LangExclude: o.LangExclude, Warnings: o.Warnings, ReadAddresses: true}
	po.types = true
	var discard bufio.Writer
	p := newPrinter(&discard, po)
	var units []*cdUnit
	p.cd = func(u *unit) { units = append(units, p.codiffUnit(u)) }
	if isArchive(path) {
		// each member in turn, as pahole's loader reads an archive
		dir, derr := os.MkdirTemp("", "btfkit-codiff-")
		if derr != nil {
			return nil, derr
		}
		defer os.RemoveAll(dir)
		members, aerr := extractArchive(path, dir)
		err = aerr
		for _, m := range members {
			if _, err = p.loadFile(m); err != nil {
				break
			}
		}
	} else {
		_, err = p.loadFile(path)
	}
	for _, c := range p.closers {
		c.Close()
	}
	if err != nil || len(units) == 0 {
		return nil, &CodiffError{Msg: "couldn't load debugging info from " + path}
	}
	return units, nil
}

// cdPair is cus__find_pair: the only unit, or the one of that name.
func cdPair(cus []*cdUnit, name string) *cdUnit {
	if len(cus) == 1 {
		return cus[0]
	}
	for _, cu := range cus {
		if cu.name == name {
			return cu
		}
	}
	return nil
}

func (cu *cdUnit) findFunc(name string) *cdFunc {
	if cu == nil {
		return nil
	}
	for _, f := range cu.funcs {
		if f.hasName && f.name == name {
			return f
		}
	}
	return nil
}

func (cu *cdUnit) findStruct(name string) *cdStruct {
	if cu == nil {
		return nil
	}
	for _, s := range cu.structs {
		// declarations (size 0 here) are not looked for
		if s.hasName && s.name == name && s.info.Size != 0 {
			return s
		}
	}
	return nil
}

type codiff struct {
	o            CodiffOptions
	w            *bufio.Writer
	printed      map[string]bool // structs_printed
	firstPrinted bool
	terse        uint32
	totalCUs     uint32
	totalFuncs   uint32
	totalAdded   int64
	totalRemoved int64
}

// Terse change flags (TCHANGEF__*).
const (
	tchSize = 1 << iota
	tchNrMembers
	tchType
	tchOffset
	tchBitOffset
	tchBitSize
	tchPadding
	tchNrHoles
	tchNrBitHoles
)

func (d *codiff) diffUnit(cu, newCU *cdUnit) {
	for _, s := range cu.structs {
		d.diffStruct(newCU, s, cu)
	}
	for _, f := range cu.funcs {
		d.diffFunction(newCU, f, cu)
	}
}

func (d *codiff) diffFunction(newCU *cdUnit, f *cdFunc, cu *cdUnit) {
	if f.inlined || f.origin || !f.hasName {
		return
	}
	nf := newCU.findFunc(f.name)
	if nf == nil {
		diff := -int32(f.size)
		cu.checkMaxLen(f.name, 0)
		f.priv = &cdDiff{diff: diff}
		cu.nrFuncsChanged++
		cu.funcBytesRemoved += int64(uint32(-diff))
		return
	}
	diff := int32(nf.size - f.size)
	if diff != 0 {
		f.priv = &cdDiff{fn: nf, cu: newCU, diff: diff, hasTag: true}
		cu.checkMaxLen(f.name, 0)
		cu.nrFuncsChanged++
		if diff > 0 {
			cu.funcBytesAdded += int64(diff)
		} else {
			cu.funcBytesRemoved += int64(-diff)
		}
		return
	}
	if f.proto != nf.proto {
		cu.nrFuncsChanged++
		f.priv = &cdDiff{fn: nf, cu: newCU, hasTag: true}
	}
}

// pairMember is class__find_pair_member.
func pairMember(s *cdStruct, m layout.StructMember, nrAnon *int) int {
	if m.Name != "" {
		for i, o := range s.info.Members {
			if o.Name == m.Name {
				return i
			}
		}
		return -1
	}
	*nrAnon++
	n := *nrAnon
	for i, o := range s.info.Members {
		if o.Name == "" {
			if n--; n == 0 {
				return i
			}
		}
	}
	return -1
}

func (d *codiff) checkPrintChange(old *cdStruct, oi int, nw *cdStruct, ni int, print bool) bool {
	om, nm := old.info.Members[oi], nw.info.Members[ni]
	if om.Type == 0 || nm.Type == 0 {
		return false
	}
	changes := om.ByteSize != nm.ByteSize
	if om.ByteOffset != nm.ByteOffset {
		changes = true
		d.terse |= tchOffset
	}
	if om.BitfieldOffset != nm.BitfieldOffset {
		changes = true
		d.terse |= tchBitOffset
	}
	if om.BitfieldSize != nm.BitfieldSize {
		changes = true
		d.terse |= tchBitSize
	}
	if old.types[oi] != nw.types[ni] {
		changes = true
		d.terse |= tchType
	}
	if changes && print && !d.o.Terse {
		fmt.Fprintf(d.w, "    %s\n     from:    %-21s /* %5d(%2d) %5d(%2d) */\n     to:      %-21s /* %5d(%2d) %5d(%2d) */\n",
			cname(om.Name), old.types[oi], om.ByteOffset, om.BitfieldOffset, int64(om.ByteSize), om.BitfieldSize,
			nw.types[ni], nm.ByteOffset, nm.BitfieldOffset, int64(nm.ByteSize), nm.BitfieldSize)
	}
	return changes
}

// cname is a C string for printf's %s: NULL prints "(null)".
func cname(s string) string {
	if s == "" {
		return "(null)"
	}
	return s
}

func (d *codiff) checkPrintMembers(old, nw *cdStruct, print bool) bool {
	changes, nrAnon, twins := false, 0, 0
	visited := make([]bool, len(nw.info.Members))
	for i, m := range old.info.Members {
		if j := pairMember(nw, m, &nrAnon); j >= 0 {
			visited[j] = true
			twins++
			if d.checkPrintChange(old, i, nw, j, print) {
				changes = true
			}
			continue
		}
		changes = true
		if print {
			fmt.Fprintf(d.w, "    %s\n     removed: %-21s /* %5d(%2d) %5d(%2d) */\n",
				cname(m.Name), old.types[i], m.ByteOffset, m.BitfieldOffset, int64(m.ByteSize), m.BitfieldSize)
		}
	}
	if twins == len(nw.info.Members) {
		return changes
	}
	if !print {
		return true
	}
	for j, m := range nw.info.Members {
		if !visited[j] {
			fmt.Fprintf(d.w, "    %s\n     added:   %-21s /* %5d(%2d) %5d(%2d) */\n",
				cname(m.Name), nw.types[j], m.ByteOffset, m.BitfieldOffset, int64(m.ByteSize), m.BitfieldSize)
		}
	}
	return true
}

func (d *codiff) diffStruct(newCU *cdUnit, s *cdStruct, cu *cdUnit) {
	if s.info.Size == 0 || !s.hasName {
		return
	}
	ns := newCU.findStruct(s.name)
	if ns == nil {
		return
	}
	diff := s.info.Size != ns.info.Size || len(s.info.Members) != len(ns.info.Members) ||
		d.checkPrintMembers(s, ns, false) || s.info.Padding != ns.info.Padding ||
		s.info.NrHoles != ns.info.NrHoles || s.info.NrBitHoles != ns.info.NrBitHoles
	if !diff {
		return
	}
	cu.nrStructsChanged++
	cu.checkMaxLen(s.name, len("struct")+1)
	s.priv = &cdDiff{st: ns, cu: newCU, diff: 1, hasTag: true}
}

// findNew is cu_find_new_tags_iterator.
func (d *codiff) findNew(cu, oldCU *cdUnit) {
	for _, f := range cu.funcs {
		if f.origin || f.inlined || !f.hasName {
			continue
		}
		of := oldCU.findFunc(f.name)
		if of != nil && !of.inlined {
			continue
		}
		diff := int32(f.size)
		cu.checkMaxLen(f.name, 0)
		cu.nrFuncsChanged++
		cu.funcBytesAdded += int64(diff)
		f.priv = &cdDiff{fn: of, cu: cu, diff: diff, hasTag: of != nil}
	}
	for _, s := range cu.structs {
		if !s.hasName || s.info.Size == 0 || oldCU.findStruct(s.name) != nil {
			continue
		}
		s.priv = &cdDiff{diff: 1}
		cu.nrStructsChanged++
		cu.checkMaxLen(s.name, len("struct")+1)
	}
}

func (d *codiff) show(cu *cdUnit, added bool) {
	if cu.nrFuncsChanged == 0 && cu.nrStructsChanged == 0 {
		return
	}
	if d.firstPrinted {
		if !d.o.Quiet {
			d.w.WriteByte('\n')
		}
	} else {
		d.firstPrinted = true
	}
	d.totalCUs++
	if !d.o.Quiet {
		fmt.Fprintf(d.w, "%s:\n", cu.name)
	}
	if d.o.Terse {
		d.showStructs(cu)
		return
	}
	if cu.nrStructsChanged != 0 && d.o.Structs {
		d.showStructs(cu)
		fmt.Fprintf(d.w, " %d struct%s changed\n", cu.nrStructsChanged, plural(cu.nrStructsChanged))
	}
	if cu.nrFuncsChanged != 0 && d.o.Functions {
		d.totalFuncs += cu.nrFuncsChanged
		for _, f := range cu.funcs {
			if f.priv != nil {
				d.showFunction(f, cu, added)
			}
		}
		fmt.Fprintf(d.w, " %d function%s changed", cu.nrFuncsChanged, plural(cu.nrFuncsChanged))
		if cu.funcBytesAdded != 0 {
			d.totalAdded += cu.funcBytesAdded
			fmt.Fprintf(d.w, ", %d bytes added", cu.funcBytesAdded)
		}
		if cu.funcBytesRemoved != 0 {
			d.totalRemoved += cu.funcBytesRemoved
			fmt.Fprintf(d.w, ", %d bytes removed", cu.funcBytesRemoved)
		}
		fmt.Fprintf(d.w, ", diff: %+d\n", cu.funcBytesAdded-cu.funcBytesRemoved)
	}
}

func (d *codiff) showStructs(cu *cdUnit) {
	for _, s := range cu.structs {
		if s.priv != nil && !d.printed[s.name] {
			d.showStruct(s, cu)
			d.printed[s.name] = true
		}
	}
}

func (d *codiff) showFunction(f *cdFunc, cu *cdUnit, added bool) {
	w := int(cu.maxLen)
	di := f.priv
	fmt.Fprintf(d.w, "  %-*.*s | %+4d", w, w, f.name, di.diff)
	if !d.o.Verbose {
		d.w.WriteByte('\n')
		return
	}
	switch {
	case !di.hasTag:
		if added {
			d.w.WriteString(" (added)\n")
		} else {
			d.w.WriteString(" (removed)\n")
		}
	case di.fn.inlined:
		if added {
			d.w.WriteString(" (uninlined)\n")
		} else {
			d.w.WriteString(" (inlined)\n")
		}
	default:
		twin := di.fn
		fmt.Fprintf(d.w, " # %d -> %d", int32(f.size), int32(twin.size))
		if f.nrBlocks != twin.nrBlocks {
			fmt.Fprintf(d.w, ", lexblocks: %d -> %d", f.nrBlocks, twin.nrBlocks)
		}
		if f.nrInline != twin.nrInline {
			fmt.Fprintf(d.w, ", # inlines: %d -> %d", f.nrInline, twin.nrInline)
		}
		if f.sizeInline != twin.sizeInline {
			fmt.Fprintf(d.w, ", size inlines: %d -> %d", int32(f.sizeInline), int32(twin.sizeInline))
		}
		if f.proto != twin.proto {
			fmt.Fprintf(d.w, ", prototype: %s -> %s", f.proto, twin.proto)
		}
		d.w.WriteByte('\n')
	}
}

func (d *codiff) showChangedMember(change byte, s *cdStruct, i int) {
	m := s.info.Members[i]
	fmt.Fprintf(d.w, "    %c%-26s %-21s /* %5d %5d */\n", change, s.types[i], cname(m.Name), m.ByteOffset, int64(m.ByteSize))
}

func (d *codiff) showStruct(s *cdStruct, cu *cdUnit) {
	di := s.priv
	ns := di.st
	var diff int
	if ns == nil {
		diff = int(s.info.Size)
	} else {
		diff = int(ns.info.Size) - int(s.info.Size)
	}
	d.terse = 0
	if !d.o.Terse {
		w := int(cu.maxLen) - len("struct") - 1
		fmt.Fprintf(d.w, "  struct %-*.*s | %+4d\n", w, w, s.name, diff)
	}
	if diff != 0 {
		d.terse |= tchSize
	}
	if !d.o.Verbose && !d.o.Terse {
		return
	}
	if ns == nil {
		diff = -len(s.info.Members)
	} else {
		diff = len(ns.info.Members) - len(s.info.Members)
	}
	if diff != 0 {
		d.terse |= tchNrMembers
		if !d.o.Terse {
			fmt.Fprintf(d.w, "   nr_members: %+d\n", diff)
			if ns != nil {
				nrAnon := 0
				for i, m := range s.info.Members {
					if pairMember(ns, m, &nrAnon) < 0 {
						d.showChangedMember('-', s, i)
					}
				}
				nrAnon = 0
				for i, m := range ns.info.Members {
					if pairMember(s, m, &nrAnon) < 0 {
						d.showChangedMember('+', ns, i)
					}
				}
			}
		}
	}
	if ns != nil {
		if diff := int(ns.info.Padding) - int(s.info.Padding); diff != 0 {
			d.terse |= tchPadding
			if !d.o.Terse {
				fmt.Fprintf(d.w, "   padding: %+d\n", diff)
			}
		}
		if diff := int(ns.info.NrHoles) - int(s.info.NrHoles); diff != 0 {
			d.terse |= tchNrHoles
			if !d.o.Terse {
				fmt.Fprintf(d.w, "   nr_holes: %+d\n", diff)
			}
		}
		if diff := int(ns.info.NrBitHoles) - int(s.info.NrBitHoles); diff != 0 {
			d.terse |= tchNrBitHoles
			if !d.o.Terse {
				fmt.Fprintf(d.w, "   nr_bit_holes: %+d\n", diff)
			}
		}
		d.checkPrintMembers(s, ns, true)
	}
	if d.o.Terse {
		d.printTerse(s)
	}
}

func (d *codiff) printTerse(s *cdStruct) {
	fmt.Fprintf(d.w, "struct %s: ", s.name)
	sep := ""
	for _, f := range []struct {
		bit  uint32
		name string
	}{{tchSize, "size"}, {tchNrMembers, "nr_members"}, {tchType, "type"}, {tchOffset, "offset"},
		{tchBitOffset, "bit_offset"}, {tchBitSize, "bit_size"}, {tchPadding, "padding"},
		{tchNrHoles, "nr_holes"}, {tchNrBitHoles, "nr_bit_holes"}} {
		if d.terse&f.bit != 0 {
			d.w.WriteString(sep + f.name)
			sep = ", "
		}
	}
	d.w.WriteByte('\n')
}
