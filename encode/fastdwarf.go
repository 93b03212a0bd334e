package encode

import (
	"fmt"
	"strings"

	"github.com/btfkit/btfkit/dwarf"
)

// walkFast converts every unit of d with the dwarf package's reader, jobs
// units at a time, and hands the fragments to emit in unit order.
func walkFast(d *dwarf.Data, o Options, jobs int, emit func(*fragment) error) error {
	big := d.Sections().BigEndian
	// Each worker's converter comes with a funcConv for the unit's
	// functions and variables (funcs.go).
	type conv struct {
		c  *unitConv
		fx *funcConv
	}
	convs := make(chan conv, jobs+1)
	free := make(chan *fragment, 2*jobs+2)
	err := dwarf.Walk(d, jobs, func(r *dwarf.UnitReader) (*fragment, error) {
		var cv conv
		select {
		case cv = <-convs:
		default:
			cv = conv{newUnitConv(o, big), &funcConv{elf: o.elf, feat: o.Features}}
			cv.c.free = free
		}
		defer func() { convs <- cv }()
		c := cv.c
		u := r.Unit()
		if u.Type != dwarf.UTCompile && u.Type != dwarf.UTPartial {
			return c.newFragment(), nil
		}
		if err := walkUnitFast(r, c, cv.fx); err != nil {
			return nil, err
		}
		f := c.emit()
		if o.DeclInfo && f.facts != nil {
			c.collectDecls(r, f.facts) // facts.go
		}
		cv.fx.emitFuncsVars(c, f)
		return f, nil
	}, func(u *dwarf.Unit, f *fragment) error {
		if err := emit(f); err != nil {
			return fmt.Errorf("unit at .debug_info+0x%x: %w", uint64(u.Offset), err)
		}
		f.reset()
		select {
		case free <- f:
		default:
		}
		return nil
	})
	return err
}

// wanted reports whether the converter looks at the attributes of an
// entry with this tag under a parent with tag parent; for the others only
// the position is passed on, which saves decoding names nobody reads.
func wanted(tag, parent uint32) bool {
	if isTypeTag(tag) {
		return true
	}
	switch tag {
	case tagMember, tagEnumerator, tagSubrangeType, tagUnspecifiedParams, tagLLVMAnnotation:
		return true
	case tagFormalParameter:
		return parent == tagSubroutineType
	}
	return false
}

// walkUnitFast feeds the entries of the reader's unit to c, and those of
// functions and variables to fx.
func walkUnitFast(r *dwarf.UnitReader, c *unitConv, fx *funcConv) error {
	c.reset()
	dd := r.Data()
	var e dwarf.Entry
	var d die
	tags := c.tagStack[:0]
	defer func() { c.tagStack = tags }()
	for {
		ok, err := r.Next(&e)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if e.Tag == 0 {
			continue
		}
		d.reset()
		d.off = uint64(e.Offset)
		d.depth = e.Depth
		d.tag = uint32(e.Tag)
		d.children = e.Children
		if e.Depth < len(tags) {
			tags = tags[:e.Depth]
		}
		parent := uint32(0)
		if n := len(tags); n > 0 && n == e.Depth {
			parent = tags[n-1]
		}
		if e.Children {
			for len(tags) < e.Depth {
				tags = append(tags, 0)
			}
			tags = append(tags, d.tag)
		}
		if e.Depth == 0 {
			d.language = uint16(r.Language())
			c.add(&d)
			fx.reset()
			fx.clang = strings.Contains(r.Producer(), "clang")
			fx.setUnit(r, &e)
			if c.skip {
				return nil
			}
			continue
		}
		wantFunc := fx.elf != nil && wantedFunc(d.tag, parent)
		if wantFunc || wanted(d.tag, parent) {
			if wantFunc {
				d.fx.loc.init()
			}
			for i := range e.Fields {
				f := &e.Fields[i]
				if err := fastField(dd, &d, f); err != nil {
					return err
				}
				if wantFunc {
					if err := fastFuncField(r, dd, &d, f, &fx.addrs); err != nil {
						return err
					}
				}
			}
		}
		c.add(&d)
		if fx.elf != nil && !c.skip {
			fx.entry(&d)
		}
	}
}

func fastField(dd *dwarf.Data, d *die, f *dwarf.Field) error {
	switch f.Attr {
	case dwarf.AttrName:
		s, err := dd.String(f)
		if err != nil {
			return err
		}
		d.name = s
		d.has |= hasName
	case dwarf.AttrType:
		if f.Class == dwarf.ClassReference {
			d.typ = f.Val
			d.has |= hasType
		}
	case dwarf.AttrByteSize:
		if f.Class == dwarf.ClassConstant {
			d.byteSize = f.Val
			d.has |= hasByteSize
		}
	case dwarf.AttrBitSize:
		if f.Class == dwarf.ClassConstant {
			d.bitSize = f.Val
			d.has |= hasBitSize
		}
	case dwarf.AttrBitOffset:
		if f.Class == dwarf.ClassConstant {
			d.bitOffset = f.Val
			d.has |= hasBitOffset
		}
	case dwarf.AttrDataBitOffset:
		if f.Class == dwarf.ClassConstant {
			d.dataBitOff = f.Val
			d.has |= hasDataBitOffset
		}
	case dwarf.AttrDataMemberLocation:
		switch f.Class {
		case dwarf.ClassConstant:
			d.memberLoc = f.Val
		case dwarf.ClassExprLoc, dwarf.ClassBlock:
			d.memberLoc = evalMemberLoc(dd.Bytes(f))
		}
		d.has |= hasMemberLoc
	case dwarf.AttrUpperBound:
		if f.Class == dwarf.ClassConstant {
			d.upperBound = f.Val
			d.has |= hasUpperBound
		} else {
			d.has |= hasUpperBoundVar
		}
	case dwarf.AttrCount:
		if f.Class == dwarf.ClassConstant {
			d.count = f.Val
			d.has |= hasCount
		}
	case dwarf.AttrConstValue:
		switch f.Class {
		case dwarf.ClassString, dwarf.ClassStringAlt:
			s, err := dd.String(f)
			if err != nil {
				return err
			}
			d.constString = s
			d.has |= hasConstString
		case dwarf.ClassConstant:
			d.constValue = f.Val
			d.constSigned = f.Signed()
			d.has |= hasConstValue
		}
	case dwarf.AttrDeclaration:
		if f.Val != 0 {
			d.has |= hasDeclaration
		}
	case dwarf.AttrExternal:
		if f.Val != 0 {
			d.has |= hasExternal
		}
	case dwarf.AttrAlignment:
		if f.Class == dwarf.ClassConstant {
			d.alignment = f.Val
			d.has |= hasAlignment
		}
	case dwarf.AttrEncoding:
		d.encoding = uint8(f.Val)
		d.has |= hasEncoding
	case 0x2139: // DW_AT_GNU_annotation
		if f.Class == dwarf.ClassReference {
			d.annotation = f.Val
			d.has |= hasGNUAnnotation
		}
	}
	return nil
}
