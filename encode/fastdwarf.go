package encode

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
)

// fragmentsFast converts every unit of d with the dwarf package's reader,
// jobs units at a time, and returns the fragments in unit order.
func fragmentsFast(path string, d *dwarf.Data, o Options, jobs int) ([]*btf.Spec, error) {
	big := d.Sections().BigEndian
	pool := make(chan *unitConv, jobs+1)
	units := d.Units()
	frags := make([]*btf.Spec, 0, len(units))
	err := dwarf.Walk(d, jobs, func(r *dwarf.UnitReader) (*btf.Spec, error) {
		var c *unitConv
		select {
		case c = <-pool:
		default:
			c = newUnitConv(o, big)
		}
		defer func() { pool <- c }()
		u := r.Unit()
		if u.Type != dwarf.UTCompile && u.Type != dwarf.UTPartial {
			return btf.NewSpec(), nil
		}
		if err := walkFast(r, c); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return c.emit(), nil
	}, func(u *dwarf.Unit, s *btf.Spec) error {
		frags = append(frags, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return frags, nil
}

// walkFast feeds the entries of the reader's unit to c.
func walkFast(r *dwarf.UnitReader, c *unitConv) error {
	c.reset()
	dd := r.Data()
	var e dwarf.Entry
	var d die
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
		if e.Depth == 0 {
			d.language = uint16(r.Language())
			c.add(&d)
			if c.skip {
				return nil
			}
			continue
		}
		for i := range e.Fields {
			if err := fastField(dd, &d, &e.Fields[i]); err != nil {
				return err
			}
		}
		c.add(&d)
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
