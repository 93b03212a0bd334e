package funcvar

import (
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// Candidates is what a unit hands to the merge besides its types: its
// function candidates and its variables, their names as references into
// the unit fragment's strings and their types as the fragment's type IDs.
// Its memory is reused from one unit to the next (Reset).
type Candidates struct {
	funcs []candidate
	vars  []unitVar
	// The candidates' parameters and decl tags, and the variables' decl
	// tags: pairs of (name, type) and (value, component).
	words []uint32
	err   error // the unit cannot be encoded (without encode_force)
	// For Report: the unit's name and the variables left out with a
	// warning.
	unit     string
	leftOut  []LeftOutVar
	addedInt uint32 // the fragment's ID of an "int" it added for its arrays (addedIndexInt)
}

// Reset empties c for the next unit.
func (c *Candidates) Reset() {
	c.err = nil
	c.unit = ""
	c.leftOut = c.leftOut[:0]
	c.addedInt = 0
	c.funcs = c.funcs[:0]
	c.vars = c.vars[:0]
	c.words = c.words[:0]
}

// candidateFlags say what the per-unit rules found about a candidate.
type candidateFlags uint8

const (
	unexpectedReg candidateFlags = 1 << iota
	optimizedParams
	uncertainLoc
	reorderedParams
	signatureChanged
	unnamedParams
	noSymbol     // not an ELF function: for the report only
	inconsistent // set after the merge: prototypes differ between units
)

// candidate is one function candidate of a unit: types are fragment type
// IDs; parameters and decl tags are pairs in Candidates.words.
type candidate struct {
	name         string // a view of the reader's strings
	symbolsIndex int32  // index in ELF.funcs (without noSymbol|unnamedParams)
	addr         uint64
	hasAddr      bool
	flags        candidateFlags
	ret          uint32
	params0      uint32 // the parameters: words[params0 : params0+2*nParams]
	nParams      uint32
	tags0        uint32 // the decl tags: words[tags0 : tags0+2*nTags]
	nTags        uint32
	off          uint64 // the subprogram's DWARF offset
	// inOtherUnit: ret and parameter types come from the candidate of
	// the subprogram at origin, in another unit; the words' types are
	// parameter positions in it. allParams: all formal parameters are in
	// the words, in order.
	origin                 uint64
	inOtherUnit, allParams bool
	// fromBTF: a FUNC of a compiler's BTF (AddFunc), without address
	// or parameter locations.
	fromBTF bool
}

// addedIndexInt is what a unit's Types may also say: the ID of an "int"
// its fragment added as the index type of its arrays (its DWARF had
// none), 0 if none.
type addedIndexInt interface{ AddedIndexInt() uint32 }

// unitVar is one variable of a unit: its VAR and its section entry.
type unitVar struct {
	label              string // its name: a view of the reader's strings
	name, typ, linkage uint32
	section, off, size uint32
	tags0, nTags       uint32 // decl tags: pairs (value, component) in words
}

// Finish applies the per-unit rules to what Add recorded and appends the
// unit's function candidates and variables to out. types answers for the
// unit's types, converted by now.
func (u *Unit) Finish(types Types, out *Candidates) {
	out.unit = u.name
	if a, ok := types.(addedIndexInt); ok {
		out.addedInt = a.AddedIndexInt()
	}
	u.analyze(types)
	declTags := u.o.DeclTags
	for i := range u.funcs {
		fn := &u.funcs[i]
		if fn.has&HasDeclaration != 0 {
			continue
		}
		named := true
		for k := fn.params0; k < fn.params0+fn.nParams; k++ {
			if u.params[k].name == "" {
				named = false
				break
			}
		}
		if fn.name == "" {
			continue
		}
		// Strings are added in pahole's order (parameter names as a
		// function is saved; its own name only when its FUNC is added,
		// select.go), so that the string table comes out as its.
		c := candidate{name: fn.name, addr: fn.lowPC, hasAddr: fn.has&HasLowPC != 0, off: fn.off}
		if !named {
			c.flags |= unnamedParams
			out.funcs = append(out.funcs, c)
			continue
		}
		symbols, ok := u.elf.funcByName[fn.name]
		if !ok {
			c.flags |= noSymbol
			out.funcs = append(out.funcs, c)
			continue
		}
		c.symbolsIndex = symbols
		if fn.unexpected {
			c.flags |= unexpectedReg
		}
		if fn.optimized {
			c.flags |= optimizedParams
		}
		if fn.reordered {
			c.flags |= reorderedParams
		}
		if fn.signatureChanged {
			c.flags |= signatureChanged
		}
		if u.hasUncertainArgLoc(types, fn) {
			c.flags |= uncertainLoc
		}
		// An instance of another unit's abstract origin takes its types
		// from that origin's candidate after the merge (select.go): its
		// words hold each parameter's position in the origin instead.
		c.inOtherUnit = fn.inOtherUnit
		if fn.inOtherUnit {
			c.origin = fn.origin
		} else {
			c.ret = typeID(types, fn.has&HasType != 0, fn.typ)
		}
		trueSig := fn.signatureChanged && u.o.TrueSignature
		c.params0 = uint32(len(out.words))
		for k := fn.params0; k < fn.params0+fn.nParams; k++ {
			p := &u.params[k]
			if fn.reordered && (!p.hasLoc || p.optimized) {
				continue
			}
			if trueSig && p.optimized {
				continue
			}
			name := p.name
			if trueSig && p.member != "" && name != "" {
				name += "__" + p.member
			}
			typ := uint32(0)
			switch {
			case fn.inOtherUnit && p.inOtherUnit:
				typ = uint32(p.originIndex)
			case fn.inOtherUnit:
				typ = ^uint32(0) // a parameter of its own: unresolvable
			default:
				typ = typeID(types, p.has&HasType != 0, p.typ)
			}
			out.words = append(out.words, types.String(name), typ)
			c.nParams++
		}
		c.allParams = c.nParams == uint32(fn.nParams)
		if fn.variadic {
			out.words = append(out.words, 0, 0)
			c.nParams++
		}
		if declTags {
			c.tags0 = uint32(len(out.words))
			for k := fn.declTags0; k < fn.declTags0+fn.nTags; k++ {
				out.words = append(out.words, types.String(u.declTags[k].value), uint32(u.declTags[k].component))
				c.nTags++
			}
			for k := fn.params0; k < fn.params0+fn.nParams; k++ {
				p := &u.params[k]
				if p.has&HasAnnotation != 0 {
					idx := uint32(p.index)
					types.DeclTags(p.annotation, func(value string) {
						out.words = append(out.words, types.String(value), idx)
						c.nTags++
					})
				}
			}
			if fn.has&HasAnnotation != 0 {
				types.DeclTags(fn.annotation, func(value string) {
					out.words = append(out.words, types.String(value), ^uint32(0))
					c.nTags++
				})
			}
		}
		out.funcs = append(out.funcs, c)
	}
	if u.o.vars() {
		u.finishVars(types, out)
	}
}

// finishVars appends the unit's variables that live in an encoded
// section, each with the section entry it needs.
func (u *Unit) finishVars(types Types, out *Candidates) {
	elf := u.elf
	for i := range u.vars {
		v := &u.vars[i]
		if v.has&(Artificial|InNamespace|Declaration) != 0 || v.has&HasAddr == 0 {
			continue
		}
		addr := v.addr
		name, hasType, typ, external := v.name, v.has&HasType != 0, v.typ, v.has&External != 0
		tags0, nTags := v.declTags0, v.nTags
		annotated, annotation := v.has&HasAnnotation != 0, v.annotation
		if v.has&HasSpec != 0 {
			j := u.findVar(v.spec)
			if j < 0 {
				continue
			}
			sp := &u.vars[j]
			name, hasType, typ, external = sp.name, sp.has&HasType != 0, sp.typ, sp.has&External != 0
			tags0, nTags = sp.declTags0, sp.nTags
			annotated, annotation = sp.has&HasAnnotation != 0, sp.annotation
		}
		var sec int
		if elf.relocatable {
			// A section-relative address: the section is that of the
			// variable's symbol.
			sec = elf.objectSections[objectAt{name, addr}]
		} else {
			sec = elf.sectionAt(addr)
		}
		if sec == 0 || !elf.sections[sec].encoded {
			continue
		}
		if !elf.relocatable {
			addr -= elf.sections[sec].addr
		}
		if name == "" || isArtefactName(name) {
			continue
		}
		if addr == 0 {
			if _, ok := elf.objects[objectIn{name, sec}]; !ok {
				continue
			}
		}
		if valid := btfNameValid(name); !valid || !hasType {
			// pahole stops here unless encode_force says to leave
			// the variable out; it looks at the name first.
			if u.o.Force {
				if !valid {
					out.leftOut = append(out.leftOut, LeftOutVar{Name: strings.Clone(name), Why: InvalidName})
				}
			} else if out.err == nil {
				out.err = &InvalidVarError{Name: strings.Clone(name), Void: valid, Unit: u.name}
			}
			continue
		}
		size := types.Size(typ, elf.addrSize)
		if size == 0 || size > 1<<32-1 || addr > 1<<32-1 {
			why := FarAddress
			switch {
			case size == 0:
				why = ZeroSize
			case size > 1<<32-1:
				why = OverSize
			}
			out.leftOut = append(out.leftOut, LeftOutVar{Name: strings.Clone(name), Why: why, Addr: addr})
			continue
		}
		linkage := uint32(btf.LinkageStatic)
		if external {
			linkage = uint32(btf.LinkageGlobal)
		}
		uv := unitVar{label: name, name: types.String(name), typ: typeID(types, hasType, typ), linkage: linkage,
			section: uint32(sec), off: uint32(addr), size: uint32(size), tags0: uint32(len(out.words))}
		if u.o.DeclTags {
			for k := tags0; k < tags0+nTags; k++ {
				out.words = append(out.words, types.String(u.declTags[k].value), ^uint32(0))
				uv.nTags++
			}
			if annotated {
				types.DeclTags(annotation, func(value string) {
					out.words = append(out.words, types.String(value), ^uint32(0))
					uv.nTags++
				})
			}
		}
		out.vars = append(out.vars, uv)
	}
}

// isArtefactName reports whether a variable name has one of the prefixes
// pahole leaves out (compiler and macro artefacts).
func isArtefactName(name string) bool {
	if name == "" || name[0] != '_' {
		return false
	}
	for _, p := range [...]string{"__UNIQUE_ID", "__tpstrtab_", "__exitcall_", "__gendwarfksyms_ptr_", "__func_stack_frame_non_standard_"} {
		if len(name) >= len(p) && name[:len(p)] == p {
			return true
		}
	}
	return false
}

// btfNameValid is the kernel's rule for names of variables, as pahole's
// btf_name_valid checks it: a C identifier (dots allowed) of at most
// KSYM_NAME_LEN (128) characters.
func btfNameValid(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if i >= 128 {
			return false
		}
		ok := ch == '_' || ch == '.' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z'
		if i > 0 {
			ok = ok || ch >= '0' && ch <= '9'
		}
		if !ok {
			return false
		}
	}
	return true
}
