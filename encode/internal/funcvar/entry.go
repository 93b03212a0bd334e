package funcvar

import (
	"encoding/binary"

	"github.com/btfkit/btfkit/dwarf"
)

// Entry is one debugging information entry as function and variable
// selection sees it: its position, tag and the attributes the rules read,
// already decoded. A DWARF reader fills one per entry that Wanted names
// (the dwarf package's reader through Read) and hands every entry of the
// unit to Unit.Add, at least its position; strings may be views of the
// reader's sections, kept only while the unit is being converted.
type Entry struct {
	Off      uint64 // global offset of the entry, strictly increasing within a unit
	Depth    int    // nesting depth: the unit's root entry is 0
	Tag      dwarf.Tag
	Children bool
	Has      Flags // which attributes are present, and the true flags

	Name        string
	Type        uint64 // DW_AT_type: global offset of the type entry (HasType)
	LowPC       uint64 // HasLowPC
	Origin      uint64 // DW_AT_abstract_origin (HasOrigin)
	Spec        uint64 // DW_AT_specification (HasSpec)
	Addr        uint64 // a variable's address (HasAddr)
	Annotation  uint64 // DW_AT_GNU_annotation: global offset of the first DW_TAG_GNU_annotation (HasAnnotation)
	ConstString string // DW_AT_const_value as a string: an LLVM annotation's value
	Loc         Location
}

// Flags say which attributes an Entry has and which of its boolean
// attributes are true.
type Flags uint32

const (
	HasType        Flags = 1 << iota // DW_AT_type, a reference
	HasLowPC                         // DW_AT_low_pc, an address
	HasOrigin                        // DW_AT_abstract_origin
	HasSpec                          // DW_AT_specification
	HasLocation                      // DW_AT_location, any form
	HasLocExpr                       // DW_AT_location is one expression, not a list
	HasAddr                          // a variable's location is DW_OP_addr or DW_OP_addrx [DW_OP_plus_uconst N]
	HasConstValue                    // DW_AT_const_value, any form
	HasDeclaration                   // DW_AT_declaration, whatever its value
	HasAnnotation                    // DW_AT_GNU_annotation, a reference
	Declaration                      // DW_AT_declaration true
	External                         // DW_AT_external true
	Artificial                       // DW_AT_artificial true
	Inline                           // DW_AT_inline not DW_INL_not_inlined
	NoCall                           // DW_AT_calling_convention DW_CC_nocall
	// InNamespace: a variable inside a DW_TAG_namespace (or a type),
	// which the walk hands as if it were top-level (Entry.Depth 1). It
	// may be the DW_AT_specification of a top-level definition (C++),
	// whose name and type it gives, but is no VAR itself: pahole 1.32
	// encodes a namespace's functions (Rust, C++ extern "C") but not its
	// variables (Rust statics).
	InNamespace
)

// Wanted reports whether the rules read the attributes of an entry with
// this tag under a parent with tag parent: top-level subprograms and
// variables, the parameters of subprograms, and the LLVM annotations of
// those. For the others Unit.Add needs only the position.
func Wanted(tag, parent dwarf.Tag) bool {
	switch tag {
	case dwarf.TagSubprogram, dwarf.TagVariable:
		return parent == dwarf.TagCompileUnit || parent == dwarf.TagPartialUnit
	case dwarf.TagFormalParameter:
		return parent == dwarf.TagSubprogram
	case dwarf.TagLLVMAnnotation:
		return parent == dwarf.TagSubprogram || parent == dwarf.TagVariable || parent == dwarf.TagFormalParameter
	}
	return false
}

// Read decodes one attribute of the entry, read by r (the dwarf
// package's reader of the entry's unit), into e. e's position and tag are
// set, and its other fields zero, before its first attribute.
func (e *Entry) Read(r *dwarf.UnitReader, f *dwarf.Field) error {
	switch f.Attr {
	case dwarf.AttrName:
		s, err := r.Data().String(f)
		if err != nil {
			return err
		}
		e.Name = s
	case dwarf.AttrType:
		dwarf.Take(f, dwarf.ClassReference, &e.Type, &e.Has, HasType)
	case dwarf.AttrConstValue:
		e.Has |= HasConstValue
		if f.Class == dwarf.ClassString || f.Class == dwarf.ClassStringAlt {
			s, err := r.Data().String(f)
			if err != nil {
				return err
			}
			e.ConstString = s
		}
	case dwarf.AttrLowPC:
		dwarf.Take(f, dwarf.ClassAddress, &e.LowPC, &e.Has, HasLowPC)
	case dwarf.AttrAbstractOrigin:
		dwarf.Take(f, dwarf.ClassReference, &e.Origin, &e.Has, HasOrigin)
	case dwarf.AttrSpecification:
		dwarf.Take(f, dwarf.ClassReference, &e.Spec, &e.Has, HasSpec)
	case dwarf.AttrGNUAnnotation:
		dwarf.Take(f, dwarf.ClassReference, &e.Annotation, &e.Has, HasAnnotation)
	case dwarf.AttrDeclaration:
		e.Has |= HasDeclaration
		dwarf.TakeFlag(f, &e.Has, Declaration)
	case dwarf.AttrExternal:
		dwarf.TakeFlag(f, &e.Has, External)
	case dwarf.AttrArtificial:
		dwarf.TakeFlag(f, &e.Has, Artificial)
	case dwarf.AttrInline:
		dwarf.TakeFlag(f, &e.Has, Inline)
	case dwarf.AttrCallingConvention:
		if f.Val == dwarf.CCNocall {
			e.Has |= NoCall
		}
	case dwarf.AttrLocation:
		e.Has |= HasLocation
		addrSize := r.Unit().AddrSize
		switch f.Class {
		case dwarf.ClassExprLoc, dwarf.ClassBlock:
			e.Has |= HasLocExpr
			expr := r.Data().Bytes(f)
			if e.Tag == dwarf.TagVariable {
				e.readAddr(r, expr)
			} else {
				e.Loc.Add(expr, 0, addrSize)
			}
		case dwarf.ClassLocList, dwarf.ClassLocListPtr:
			if e.Tag != dwarf.TagFormalParameter {
				break
			}
			n := 0
			return r.LocList(f, func(le dwarf.LocEntry) error {
				e.Loc.Add(le.Expr, n, addrSize)
				n++
				return nil
			})
		}
	}
	return nil
}

// readAddr reads a variable's single location expression the way pahole
// does: DW_OP_addr A [DW_OP_plus_uconst N] is a global at A(+N), and so is
// DW_OP_addrx I with A the unit's address I.
func (e *Entry) readAddr(r *dwarf.UnitReader, expr []byte) {
	addrSize := r.Unit().AddrSize
	var ops [3]op
	n := decodeOps(expr, addrSize, ops[:])
	if n == 0 {
		return
	}
	switch ops[0].atom {
	case dwarf.OpAddr:
		e.Addr = ops[0].n
		if r.Data().Sections().BigEndian && len(expr) > addrSize {
			if addrSize == 4 {
				e.Addr = uint64(binary.BigEndian.Uint32(expr[1:]))
			} else {
				e.Addr = binary.BigEndian.Uint64(expr[1:])
			}
		}
	case dwarf.OpAddrx:
		a, ok := r.Addr(ops[0].n)
		if !ok {
			return
		}
		e.Addr = a
	default:
		return
	}
	e.Has |= HasAddr
	if n == 2 && ops[1].atom == dwarf.OpPlusUconst {
		e.Addr += ops[1].n
	}
}
