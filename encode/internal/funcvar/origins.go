package funcvar

import "github.com/btfkit/btfkit/dwarf"

// otherUnits reads the entries of other units that a unit's abstract
// origins refer to: pahole loads a file whose units refer to each other
// (DW_FORM_ref_addr, as gcc's and clang's LTO emit) as one unit, so that
// an out-of-line instance in one unit takes its name, prototype and
// parameters from its abstract origin in another.
type otherUnits interface {
	// subprogram reads the subprogram at off and its formal parameters.
	subprogram(off uint64, out *originFunc) bool
	// param reads the formal parameter at off.
	param(off uint64, out *originParam) bool
	typeLookup // the other unit's types
}

// originFunc is a subprogram of another unit: its name (following its
// own origins), return type, calling convention and inline flags (NoCall,
// Inline) and formal parameters in order.
type originFunc struct {
	name    string
	hasType bool
	typ     uint64
	has     Flags
	params  []originParam
}

// originParam is a formal parameter of another unit.
type originParam struct {
	off     uint64
	name    string
	hasType bool
	typ     uint64
}

// dwarfOrigins reads entries of other units through the dwarf package
// (random access: Data.EntryAt, and a reader of its own for a
// subprogram's children). Each Unit has its own.
type dwarfOrigins struct {
	data *dwarf.Data
	r    *dwarf.UnitReader
	e    dwarf.Entry
}

func (o *dwarfOrigins) entry(off uint64) bool {
	return o.data.EntryAt(dwarf.Offset(off), &o.e) == nil
}

// typeRef returns o.e's DW_AT_type, if it has one.
func (o *dwarfOrigins) typeRef() (bool, uint64) {
	if f := o.e.Field(dwarf.AttrType); f != nil && f.Class == dwarf.ClassReference {
		return true, f.Val
	}
	return false, 0
}

func (o *dwarfOrigins) subprogram(off uint64, out *originFunc) bool {
	out.params = out.params[:0]
	if !o.entry(off) || o.e.Tag != dwarf.TagSubprogram {
		return false
	}
	name, err := o.data.Name(&o.e)
	if err != nil {
		return false
	}
	out.name = name
	out.hasType, out.typ = o.typeRef()
	out.has = 0
	if f := o.e.Field(dwarf.AttrCallingConvention); f != nil && f.Val == dwarf.CCNocall {
		out.has |= NoCall
	}
	if f := o.e.Field(dwarf.AttrInline); f != nil && f.Val != 0 {
		out.has |= Inline
	}
	if !o.e.Children {
		return true
	}
	u := o.data.UnitAt(dwarf.Offset(off))
	if o.r == nil {
		o.r = o.data.NewReader()
	}
	if u == nil || o.r.Reset(u) != nil || o.r.Seek(dwarf.Offset(off)) != nil {
		return false
	}
	if ok, err := o.r.Next(&o.e); !ok || err != nil {
		return false
	}
	for {
		ok, err := o.r.Next(&o.e)
		if err != nil {
			return false
		}
		if !ok || o.e.Depth == 0 || o.e.Tag == 0 && o.e.Depth == 1 {
			return true
		}
		if o.e.Tag == 0 {
			continue
		}
		if o.e.Tag == dwarf.TagFormalParameter {
			var p originParam
			if !o.readParam(uint64(o.e.Offset), &p) {
				return false
			}
			out.params = append(out.params, p)
		}
		if o.e.Children {
			if err := o.r.SkipChildren(); err != nil {
				return false
			}
		}
	}
}

func (o *dwarfOrigins) param(off uint64, out *originParam) bool {
	if !o.entry(off) || o.e.Tag != dwarf.TagFormalParameter {
		return false
	}
	return o.readParam(off, out)
}

// readParam fills out from the formal parameter at off, read into o.e.
func (o *dwarfOrigins) readParam(off uint64, out *originParam) bool {
	*out = originParam{off: off}
	if f := o.e.Field(dwarf.AttrName); f != nil {
		s, err := o.data.String(f)
		if err != nil {
			return false
		}
		out.name = s
	}
	out.hasType, out.typ = o.typeRef()
	return true
}

func (o *dwarfOrigins) Type(off uint64) (Type, bool) {
	if !o.entry(off) {
		return Type{}, false
	}
	t := Type{Tag: o.e.Tag}
	t.HasType, t.Type = o.typeRef()
	if f := o.e.Field(dwarf.AttrByteSize); f != nil && f.Class == dwarf.ClassConstant {
		t.Size = f.Val
	}
	return t, true
}
