package main

// pahole -J --verbose: what pahole's BTF encoder logs while it encodes,
// and the messages of the functions and variables it leaves out.
//
// pahole logs each type as its encoder adds it, numbered as it is added:
// unit by unit, before deduplication ("[7] ARRAY (anon) type_id=2
// index_type_id=2 nr_elems=8", a STRUCT's members and an ENUM's values on
// lines of their own, a FUNC_PROTO's parameters inline), with the unit's
// variables and the lines of its search for them, then the functions in
// name order (each left out says why), then the DATASECs. btfkit's
// encoder deduplicates while it merges, so with --verbose the file is
// encoded once more without deduplication (encode.Options.NoDedup), whose
// types are pahole's encoder's, in its order, and that listing is printed
// (the output is the deduplicated encoding, as without --verbose). The
// IDs are those of a serial pahole (without -j: with -j each of pahole's
// encoder threads numbers its own units). On the Debian 6.1 vmlinux (-V
// with the default features, 10.3 million lines) the log is pahole
// 1.32's but for 17 of its lines saying how a function's prototypes
// differ: pahole compares its prototypes in the order glibc's qsort (not
// stable) leaves them, btfkit in unit order, so where more than two differ
// the first difference found may be another.
//
// A variable whose name BTF cannot hold stops pahole's encoding unless
// encode_force is on (pahole 1.32 then exits 0 without writing BTF;
// btfkit exits 1): writePaholeInvalidVar prints pahole's messages for it,
// and with encode_force and --verbose each one left out is warned of.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
)

// paholeSkipWords are pahole 1.31's words, in its --verbose line
// "NAME : skipping BTF encoding of function due to REASON", for the
// reasons both encoders give (pahole misspells one; scripts grep these
// lines, so they are printed as pahole prints them). btfkit's other
// reasons (no symbol, unnamed parameters) have no such line in pahole.
var paholeSkipWords = map[string]string{
	encode.ReasonUnexpectedReg: "unexpected register usage for parameter",
	encode.ReasonInconsistent:  "inconsistet prototype",
	encode.ReasonUncertainLoc:  "uncertain parameter location",
	encode.ReasonReordered:     "reordered parameters",
	encode.ReasonOptimized:     "optimized parameters",
	encode.ReasonAmbiguous:     "ambiguous address",
}

// writePaholeSkips prints pahole -J --verbose's lines for the functions
// left out of the BTF (in name order, as pahole logs them).
func writePaholeSkips(w io.Writer, rep *encode.Report) error {
	bw := bufio.NewWriter(w)
	for _, s := range rep.Skipped {
		writePaholeSkip(bw, s)
	}
	return bw.Flush()
}

func writePaholeSkip(bw *bufio.Writer, s encode.Skipped) {
	words, ok := paholeSkipWords[s.Reason]
	if !ok {
		return
	}
	bw.WriteString(s.Name)
	bw.WriteString(" : skipping BTF encoding of function due to ")
	bw.WriteString(words)
	bw.WriteByte('\n')
}

// paholeFuncEvent is a line pahole -V logs while it decides a function:
// the first difference between its prototypes, or why it is left out.
type paholeFuncEvent struct {
	name     string
	mismatch bool
	line     string
}

// paholeFuncEvents are rep's mismatches and skipped functions, in name
// order, a function's mismatch before its skip line.
func paholeFuncEvents(rep *encode.Report, spec *btf.Spec) []paholeFuncEvent {
	var out []paholeFuncEvent
	ms, sk := rep.Mismatches, rep.Skipped
	for len(ms) > 0 || len(sk) > 0 {
		if len(ms) > 0 && (len(sk) == 0 || ms[0].Name <= sk[0].Name) {
			out = append(out, paholeFuncEvent{ms[0].Name, true, paholeMismatchLine(ms[0], spec)})
			ms = ms[1:]
			continue
		}
		if words, ok := paholeSkipWords[sk[0].Reason]; ok {
			out = append(out, paholeFuncEvent{sk[0].Name, false, sk[0].Name + " : skipping BTF encoding of function due to " + words + "\n"})
		}
		sk = sk[1:]
	}
	return out
}

// paholeMismatchLine is pahole's funcs__match line for m.
func paholeMismatchLine(m encode.Mismatch, spec *btf.Spec) string {
	why := ""
	switch m.What {
	case encode.MismatchParamCount:
		why = fmt.Sprintf("param count mismatch; %d params != %d params", m.Counts[0], m.Counts[1])
	case encode.MismatchReturnType:
		why = "return type mismatch"
	case encode.MismatchParamType:
		why = fmt.Sprintf("param type mismatch for param#%d %s != %s", m.Param+1,
			spec.String(m.ParamNames[0]), spec.String(m.ParamNames[1]))
	}
	return m.Name + " : skipping BTF encoding of function due to " + why + "\n"
}

// paholePercpuSection is the section pahole's encoder looks for first.
const paholePercpuSection = ".data..percpu"

// paholeVerboseLog prints to stdout what pahole -J --verbose logs while it
// encodes c.file (see the file's comment); stderr gets the warnings of
// variables encode_force leaves out. base, when not nil, is the base the
// output is split against: the IDs logged follow its types.
func paholeVerboseLog(c *paholeConfig, base *dedup.Base, o encode.Options, stdout, stderr io.Writer) error {
	f, err := elfx.Open(c.file)
	if err != nil {
		return err
	}
	percpu := f.Section(paholePercpuSection) != nil
	f.Close()
	bw := bufio.NewWriter(stdout)
	defer bw.Flush()
	if !percpu {
		fmt.Fprintf(bw, "btf_encoder__new: '%s' doesn't have '%s' section\n", c.file, paholePercpuSection)
	}
	fmt.Fprintf(bw, "File %s:\n", c.file)
	rep := &encode.Report{Log: true}
	o.NoDedup = true
	o.Report = rep
	spec, err := encode.EncodeFile(c.file, o)
	if err != nil {
		return err
	}
	if len(rep.LeftOut) > 0 {
		if err := bw.Flush(); err != nil {
			return err
		}
		for _, v := range rep.LeftOut {
			switch v.Why {
			case encode.VarInvalidName:
				fmt.Fprintf(stderr, "PAHOLE: Warning: Found invalid variable name when encoding btf, ignored (sym: '%s').\n", v.Name)
			case encode.VarZeroSize:
				fmt.Fprintf(stderr, "Ignoring zero-sized variable '%s'...\n", v.Name)
			case encode.VarOverSize:
				fmt.Fprintf(stderr, "Ignoring over-sized variable '%s'...\n", v.Name)
			case encode.VarFarAddress:
				fmt.Fprintf(stderr, "Ignoring variable '%s' - its offset %d doesn't fit in a u32\n", v.Name, v.Addr)
			}
		}
	}
	shift := btf.TypeID(0)
	if base != nil {
		shift = base.Spec().NextID() - 1
	}
	l := paholeLog{w: bw, s: spec, shift: shift, enum64: c.features.Has(encode.FeatEnum64)}
	vars := c.features.Has(encode.FeatVar) || c.features.Has(encode.FeatGlobalVar)
	l.dropAddedInts(rep.Units)
	id := spec.FirstID()
	for _, u := range rep.Units {
		for ; id < u.TypesEnd; id++ {
			l.typ(id)
		}
		for _, name := range u.NoSymbol {
			fmt.Fprintf(bw, "could not find function '%s' in the ELF functions table\n", name)
		}
		if vars {
			fmt.Fprintf(bw, "search cu '%s' for percpu global variables.\n", u.Name)
		}
		v := 0
		for ; id < u.End; id++ {
			if spec.Type(id).Kind() == btf.KindVar && v < len(u.Vars) {
				fmt.Fprintf(bw, "Variable '%s' from CU '%s' at address 0x%x encoded\n", u.Vars[v].Name, u.Name, u.Vars[v].Addr)
				v++
			}
			l.typ(id)
		}
	}
	// The functions, in name order, each left out logged in its place
	// (after the difference that made its prototypes inconsistent, if
	// any); then the DATASECs.
	events := paholeFuncEvents(rep, spec)
	for ; id < spec.NextID(); id++ {
		t := spec.Type(id)
		if t.Kind() == btf.KindDatasec {
			break
		}
		next, found := "", false
		for j := id; j < spec.NextID(); j++ {
			if u := spec.Type(j); u.Kind() == btf.KindFunc {
				next, found = u.Name(), true
				break
			}
		}
		for len(events) > 0 && (!found || events[0].name < next || events[0].name == next && events[0].mismatch) {
			bw.WriteString(events[0].line)
			events = events[1:]
		}
		l.typ(id)
	}
	for _, e := range events {
		bw.WriteString(e.line)
	}
	for ; id < spec.NextID(); id++ {
		l.typ(id)
	}
	return bw.Flush()
}

// paholeLog prints types as pahole's encoder logs them.
type paholeLog struct {
	w      *bufio.Writer
	s      *btf.Spec
	shift  btf.TypeID // added to every ID (a split encoding's base types)
	enum64 bool       // ENUM values as signed or unsigned 64-bit numbers, else as u32
	// arrayIndex is the index type of the ARRAYs of every unit after
	// the first unit that has an "int" or adds one for its arrays
	// (pahole looks for "int" until a unit has one), from that unit on
	// (fromID); dropped are the ints later units added for their arrays,
	// which pahole's encoder does not add (btfkit gives each unit its
	// own: the same type once deduplicated). IDs are logged as if the
	// dropped types were not there.
	arrayIndex, fromID btf.TypeID
	dropped            []btf.TypeID // ascending
}

// dropAddedInts sets l's arrayIndex, fromID and dropped from the units.
func (l *paholeLog) dropAddedInts(units []encode.UnitLog) {
	start := l.s.FirstID()
	for _, u := range units {
		switch {
		case l.arrayIndex != 0:
			if u.AddedInt != 0 {
				l.dropped = append(l.dropped, u.AddedInt)
			}
		case u.AddedInt != 0:
			l.arrayIndex, l.fromID = u.AddedInt, u.End
		default:
			for id := start; id < u.TypesEnd; id++ {
				if t := l.s.Type(id); t.Kind() == btf.KindInt && t.Name() == "int" {
					l.arrayIndex, l.fromID = id, u.End
					break
				}
			}
		}
		start = u.End
	}
}

// paholeKindNames are pahole's btf_kind_str.
var paholeKindNames = [...]string{
	btf.KindUnknown: "UNKNOWN", btf.KindInt: "INT", btf.KindPtr: "PTR", btf.KindArray: "ARRAY",
	btf.KindStruct: "STRUCT", btf.KindUnion: "UNION", btf.KindEnum: "ENUM", btf.KindFwd: "FWD",
	btf.KindTypedef: "TYPEDEF", btf.KindVolatile: "VOLATILE", btf.KindConst: "CONST",
	btf.KindRestrict: "RESTRICT", btf.KindFunc: "FUNC", btf.KindFuncProto: "FUNC_PROTO",
	btf.KindVar: "VAR", btf.KindDatasec: "DATASEC", btf.KindFloat: "FLOAT",
	btf.KindDeclTag: "DECL_TAG", btf.KindTypeTag: "TYPE_TAG", btf.KindEnum64: "ENUM64",
}

// id is a reference as pahole logs it: 0 (void) stays 0.
func (l *paholeLog) id(id btf.TypeID) string {
	if id == 0 {
		return "0"
	}
	n, found := slices.BinarySearch(l.dropped, id)
	if found {
		return l.id(l.arrayIndex)
	}
	return strconv.FormatUint(uint64(id-btf.TypeID(n)+l.shift), 10)
}

// name is pahole's btf__printable_name.
func (l *paholeLog) name(off uint32) string {
	if off == 0 {
		return "(anon)"
	}
	return l.s.String(off)
}

func (l *paholeLog) typ(id btf.TypeID) {
	if _, found := slices.BinarySearch(l.dropped, id); found {
		return
	}
	t := l.s.Type(id)
	w := l.w
	kind := t.Kind()
	kn := "UNKNOWN"
	if int(kind) < len(paholeKindNames) {
		kn = paholeKindNames[kind]
	}
	fmt.Fprintf(w, "[%s] %s %s ", l.id(id), kn, l.name(t.NameOff()))
	switch kind {
	case btf.KindInt:
		enc, _, bits := t.IntEncoding()
		fmt.Fprintf(w, "size=%d nr_bits=%d encoding=%s\n", t.Size(), bits, paholeIntEncoding(enc))
	case btf.KindFloat:
		fmt.Fprintf(w, "size=%d nr_bits=%d\n", t.Size(), t.Size()*8)
	case btf.KindPtr, btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindTypedef, btf.KindTypeTag, btf.KindFunc:
		fmt.Fprintf(w, "type_id=%s\n", l.id(t.Ref()))
	case btf.KindFwd:
		if t.KindFlag() {
			w.WriteString("union\n")
		} else {
			w.WriteString("struct\n")
		}
	case btf.KindArray:
		a := t.Array()
		if l.arrayIndex != 0 && id >= l.fromID {
			a.Index = l.arrayIndex
		}
		fmt.Fprintf(w, "type_id=%s index_type_id=%s nr_elems=%d\n", l.id(a.Elem), l.id(a.Index), a.Nelems)
	case btf.KindStruct, btf.KindUnion:
		fmt.Fprintf(w, "size=%d\n", t.Size())
		// libbpf sets a struct's kind_flag when its first bitfield is
		// added: pahole logs the members before it without sizes.
		kflag := false
		for i := 0; i < t.Vlen(); i++ {
			m := t.Member(i)
			off, bits := t.MemberBits(i)
			kflag = kflag || t.KindFlag() && bits != 0
			if kflag {
				fmt.Fprintf(w, "\t%s type_id=%s bitfield_size=%d bits_offset=%d\n", l.name(m.NameOff), l.id(m.Type), bits, off)
			} else {
				fmt.Fprintf(w, "\t%s type_id=%s bits_offset=%d\n", l.name(m.NameOff), l.id(m.Type), m.Offset)
			}
		}
	case btf.KindEnum, btf.KindEnum64:
		fmt.Fprintf(w, "size=%d\n", t.Size())
		for i := 0; i < t.Vlen(); i++ {
			e := t.Enum(i)
			// pahole prints the enumerator's name as DWARF gave it.
			name := l.s.String(e.NameOff)
			switch {
			case !l.enum64:
				fmt.Fprintf(w, "\t%s val=%d\n", name, uint32(e.Val))
			case t.KindFlag():
				fmt.Fprintf(w, "\t%s val=%d\n", name, int64(e.Val))
			default:
				fmt.Fprintf(w, "\t%s val=%d\n", name, e.Val)
			}
		}
	case btf.KindFuncProto:
		fmt.Fprintf(w, "return=%s args=(", l.id(t.Ref()))
		n := t.Vlen()
		if n == 0 {
			w.WriteString("void)\n")
		}
		for i := 0; i < n; i++ {
			p := t.Param(i)
			last := i == n-1
			if last && p.Type == 0 {
				w.WriteString("vararg)\n")
				break
			}
			name := "(null)" // pahole prints a parameter without a name with %s
			if p.NameOff != 0 {
				name = l.s.String(p.NameOff)
			}
			fmt.Fprintf(w, "%s %s", l.id(p.Type), name)
			if last {
				w.WriteString(")\n")
			} else {
				w.WriteString(", ")
			}
		}
	case btf.KindVar:
		fmt.Fprintf(w, "type=%s linkage=%d\n", l.id(t.Ref()), t.Linkage())
	case btf.KindDatasec:
		fmt.Fprintf(w, "size=%d vlen=%d\n", t.Size(), t.Vlen())
		for i := 0; i < t.Vlen(); i++ {
			v := t.SecVar(i)
			fmt.Fprintf(w, "\ttype=%s offset=%d size=%d\n", l.id(v.Type), v.Offset, v.Size)
		}
	case btf.KindDeclTag:
		fmt.Fprintf(w, "type_id=%s component_idx=%d\n", l.id(t.Ref()), t.ComponentIdx())
	default:
		w.WriteByte('\n')
	}
}

// paholeIntEncoding is pahole's btf__int_encoding_str.
func paholeIntEncoding(enc uint8) string {
	switch enc {
	case 0:
		return "(none)"
	case btf.IntSigned:
		return "SIGNED"
	case btf.IntChar:
		return "CHAR"
	case btf.IntBool:
		return "BOOL"
	}
	return "UNKN"
}

// writePaholeInvalidVar prints pahole's messages for a variable that
// stopped the encoding (without encode_force) and reports whether err is
// one.
func writePaholeInvalidVar(stderr io.Writer, err error) bool {
	var iv *encode.InvalidVarError
	if !errors.As(err, &iv) {
		return false
	}
	if iv.Void {
		fmt.Fprintf(stderr, "error: found variable '%s' in CU '%s' that has void type\n", iv.Name, iv.Unit)
	} else {
		fmt.Fprintf(stderr, "PAHOLE: Error: Found invalid variable name when encoding btf (sym: '%s').\n", iv.Name)
		fmt.Fprintf(stderr, "PAHOLE: Error: Use '--btf_encode_force' to ignore such symbols and force emit the btf.\n")
	}
	fmt.Fprintf(stderr, "Error while encoding BTF.\n")
	return true
}

// paholeIgnoredFeatures are the names of a --btf_features list that
// pahole says it ignores with --verbose: all but a list that is just
// "default", the names after a leading "+" (empty ones skipped) that are
// no feature, "default" and "all" among them (which pahole enables all
// the same).
func paholeIgnoredFeatures(list string) []string {
	if list == "default" {
		return nil
	}
	if len(list) > 0 && list[0] == '+' {
		list = list[1:]
	}
	var out []string
	for len(list) > 0 {
		name := list
		if i := strings.IndexByte(list, ','); i >= 0 {
			name, list = list[:i], list[i+1:]
		} else {
			list = ""
		}
		if name == "" {
			continue
		}
		if _, ok := encode.FeatureByName(name); !ok {
			out = append(out, name)
		}
	}
	return out
}
