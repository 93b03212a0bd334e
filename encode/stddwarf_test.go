package encode

import (
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"fmt"

	"github.com/btfkit/btfkit/btf"
	btfdwarf "github.com/btfkit/btfkit/dwarf"
)

// stdSource reads units with the standard library's debug/dwarf. It is the
// reference reader the fast one is checked against in tests.
type stdSource struct {
	path  string
	f     *elf.File
	d     *dwarf.Data
	units []dwarf.Offset
	big   bool
}

func openStd(path string) (*stdSource, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	d, err := f.DWARF()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &stdSource{path: path, f: f, d: d, big: f.ByteOrder == binary.BigEndian}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: .debug_info: %w", path, err)
		}
		if e == nil {
			break
		}
		s.units = append(s.units, e.Offset)
		r.SkipChildren()
	}
	return s, nil
}

func (s *stdSource) numUnits() int   { return len(s.units) }
func (s *stdSource) bigEndian() bool { return s.big }
func (s *stdSource) close() error    { return s.f.Close() }

// walkUnit feeds every entry of unit i to add.
func (s *stdSource) walkUnit(i int, add func(*die)) error {
	r := s.d.Reader()
	r.Seek(s.units[i])
	var d die
	depth := 0
	for {
		e, err := r.Next()
		if err != nil {
			return fmt.Errorf("%s: .debug_info unit at 0x%x: %w", s.path, s.units[i], err)
		}
		if e == nil {
			return nil
		}
		if e.Tag == 0 {
			depth--
			if depth <= 0 {
				return nil
			}
			continue
		}
		d.reset()
		d.off = uint64(e.Offset)
		d.depth = depth
		d.tag = btfdwarf.Tag(e.Tag)
		d.children = e.Children
		for _, f := range e.Field {
			stdField(&d, f)
		}
		add(&d)
		if e.Children {
			depth++
		} else if depth == 0 {
			return nil
		}
	}
}

func stdField(d *die, f dwarf.Field) {
	asU := func() (uint64, bool) {
		switch v := f.Val.(type) {
		case int64:
			return uint64(v), true
		case uint64:
			return v, true
		}
		return 0, false
	}
	switch f.Attr {
	case dwarf.AttrName:
		if s, ok := f.Val.(string); ok {
			d.name = s
			d.has |= hasName
		}
	case dwarf.AttrType:
		if o, ok := f.Val.(dwarf.Offset); ok {
			d.typ = uint64(o)
			d.has |= hasType
		}
	case dwarf.AttrByteSize:
		if v, ok := asU(); ok {
			d.byteSize = v
			d.has |= hasByteSize
		}
	case dwarf.AttrBitSize:
		if v, ok := asU(); ok {
			d.bitSize = v
			d.has |= hasBitSize
		}
	case dwarf.AttrBitOffset:
		if v, ok := asU(); ok {
			d.bitOffset = v
			d.has |= hasBitOffset
		}
	case dwarf.AttrDataBitOffset:
		if v, ok := asU(); ok {
			d.dataBitOff = v
			d.has |= hasDataBitOffset
		}
	case dwarf.AttrDataMemberLoc:
		if v, ok := asU(); ok {
			d.memberLoc = v
		} else if b, ok := f.Val.([]byte); ok {
			d.memberLoc = evalMemberLoc(b)
		}
		d.has |= hasMemberLoc
	case dwarf.AttrUpperBound:
		if v, ok := asU(); ok && f.Class == dwarf.ClassConstant {
			d.upperBound = v
			d.has |= hasUpperBound
		} else {
			d.has |= hasUpperBoundVar
		}
	case dwarf.AttrCount:
		if v, ok := asU(); ok && f.Class == dwarf.ClassConstant {
			d.count = v
			d.has |= hasCount
		}
	case dwarf.AttrConstValue:
		if s, ok := f.Val.(string); ok {
			d.constString = s
			d.has |= hasConstString
		} else if v, ok := asU(); ok {
			d.constValue = v
			d.has |= hasConstValue
		}
	case dwarf.AttrDeclaration:
		if b, ok := f.Val.(bool); ok && b {
			d.has |= hasDeclaration
		}
	case dwarf.AttrEncoding:
		if v, ok := asU(); ok {
			d.encoding = btfdwarf.Encoding(v)
			d.has |= hasEncoding
		}
	case dwarf.AttrLanguage:
		if v, ok := asU(); ok {
			d.language = uint16(v)
		}
	case dwarf.Attr(btfdwarf.AttrGNUAnnotation):
		if o, ok := f.Val.(dwarf.Offset); ok {
			d.annotation = uint64(o)
			d.has |= hasGNUAnnotation
		}
	}
}

// encodeStd is EncodeFile reading with debug/dwarf, without functions and
// variables.
func encodeStd(path string, o Options) (*btf.Spec, error) {
	src, err := openStd(path)
	if err != nil {
		return nil, err
	}
	defer src.close()
	m := newMerger()
	if err := walkStd(src, o, m.add); err != nil {
		return nil, err
	}
	return m.result(o, nil)
}

// walkStd converts the units one after another: the oracle needs no
// parallelism, only the same per-unit conversion.
func walkStd(src *stdSource, o Options, emit func(*fragment) error) error {
	c := newUnitConv(o, src.bigEndian())
	for i := 0; i < src.numUnits(); i++ {
		c.reset()
		if err := src.walkUnit(i, c.add); err != nil {
			return err
		}
		if err := emit(c.emit()); err != nil {
			return err
		}
	}
	return nil
}
