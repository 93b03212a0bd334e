package frombtf

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode/funcvar"
)

// A compiler's functions and variables, taken out of the merged members
// and decided again (doc.go).

// btfFunc is a FUNC of a member.
type btfFunc struct {
	name  string
	proto btf.TypeID // in the merged Spec
	id    btf.TypeID // the FUNC's own ID
}

// btfVar is a VAR listed in a member's DATASEC.
type btfVar struct {
	id      btf.TypeID // the VAR, in the merged Spec
	section string     // the DATASEC's name
	member  int
}

// decide takes the FUNCs, VARs and DATASECs (and what only they use) out
// of merged, lets sel decide them with the ELF's symbols and returns the
// types with the decided functions and variables appended.
func decide(merged *btf.Spec, firsts []btf.TypeID, info *funcvar.ELF, sel *funcvar.Selection, rep *funcvar.Report) (*btf.Spec, error) {
	n := merged.NumTypes()
	alias := make([]btf.TypeID, n)
	var funcs []btfFunc
	var vars []btfVar
	tags := map[btf.TypeID][]uint32{} // FUNC or VAR -> DECL_TAG pairs (value, component)
	protoUsed := make([]bool, n)      // FUNC_PROTO referred to by a type that stays
	member := 0
	for id := btf.TypeID(1); id < merged.NextID(); id++ {
		for member+1 < len(firsts) && id >= firsts[member+1] {
			member++
		}
		name, info, st, ext := merged.RawType(id)
		switch btf.KindOf(info) {
		case btf.KindFunc:
			funcs = append(funcs, btfFunc{name: merged.String(name), proto: btf.TypeID(st), id: id})
			alias[id-1] = noType
			continue
		case btf.KindVar:
			alias[id-1] = noType
			continue
		case btf.KindDatasec:
			sec := merged.String(name)
			for i := 0; i < btf.VlenOf(info); i++ {
				vars = append(vars, btfVar{id: btf.TypeID(ext[3*i]), section: sec, member: member})
			}
			alias[id-1] = noType
			continue
		case btf.KindDeclTag:
			if st != 0 && merged.Has(btf.TypeID(st)) {
				if k := merged.Type(btf.TypeID(st)).Kind(); k == btf.KindFunc || k == btf.KindVar {
					tags[btf.TypeID(st)] = append(tags[btf.TypeID(st)], name, ext[0])
					alias[id-1] = noType
					continue
				}
			}
		}
		btf.ForEachTypeRef(info, &st, ext, func(p *uint32) {
			if *p != 0 && *p <= uint32(n) && btf.KindOf(rawInfo(merged, *p)) == btf.KindFuncProto {
				protoUsed[*p-1] = true
			}
		})
	}
	// FUNC_PROTOs only FUNCs use go with them (AddFunc writes each kept
	// function's own).
	for id := btf.TypeID(1); id < merged.NextID(); id++ {
		if !protoUsed[id-1] && btf.KindOf(rawInfo(merged, uint32(id))) == btf.KindFuncProto {
			alias[id-1] = noType
		}
	}
	out := rebuild(merged, alias, nil)
	// Old IDs of kept types -> out's.
	newID := make([]uint32, n+1)
	next := uint32(1)
	for i := 0; i < n; i++ {
		if alias[i] == 0 {
			newID[i+1] = next
			next++
		}
	}
	remap := func(id uint32) uint32 {
		if id == 0 || id > uint32(n) {
			return 0
		}
		return newID[id]
	}

	addVars(merged, out, vars, tags, info, sel, remap)

	var params []uint32
	for _, fn := range funcs {
		if fn.name == "" || !merged.Has(fn.proto) {
			continue
		}
		p := merged.Type(fn.proto)
		if p.Kind() != btf.KindFuncProto {
			continue
		}
		params = params[:0]
		ok := true
		for i := 0; i < p.Vlen(); i++ {
			pa := p.Param(i)
			t := remap(uint32(pa.Type))
			if pa.Type != 0 && t == 0 {
				ok = false // a parameter of a type this route dropped
			}
			params = append(params, pa.NameOff, t)
		}
		ret := remap(p.SizeType())
		if !ok || p.SizeType() != 0 && ret == 0 {
			continue
		}
		sel.AddFunc(fn.name, ret, params, tags[fn.id])
	}
	intern := func(s string) uint32 { return out.AddString(s) }
	if err := sel.Finish(out, intern, rep); err != nil {
		return nil, err
	}
	return out, nil
}

// rawInfo is the info word of type id of s.
func rawInfo(s *btf.Spec, id uint32) uint32 {
	_, info, _, _ := s.RawType(btf.TypeID(id))
	return info
}

// addVars places the members' variables by the ELF symbols and hands
// them to sel in member order: for each place the first VAR whose type
// has the symbol's size, else the first.
func addVars(merged, out *btf.Spec, vars []btfVar, tags map[btf.TypeID][]uint32, info *funcvar.ELF, sel *funcvar.Selection, remap func(uint32) uint32) {
	type key struct {
		name, section string
	}
	statics := map[key]int{} // members so far with a static of this name in this section
	type placed struct {
		v    btfVar
		p    funcvar.VarPlace
		size uint64
		fits bool
	}
	var all []placed
	best := map[funcvar.VarPlace]int{} // place -> index in all of the VAR kept there
	for _, v := range vars {
		if !merged.Has(v.id) || merged.Type(v.id).Kind() != btf.KindVar {
			continue
		}
		t := merged.Type(v.id)
		name := t.Name()
		global := t.Linkage() != btf.LinkageStatic
		nth := 0
		if !global {
			k := key{name, v.section}
			nth = statics[k]
			statics[k]++
		}
		p, ok := info.VarSymbol(name, v.section, global, nth)
		if !ok {
			continue
		}
		size := typeSize(merged, t.Ref())
		pl := placed{v: v, p: p, size: size, fits: size == p.SymbolSize}
		place := funcvar.VarPlace{Section: p.Section, Off: p.Off}
		if i, seen := best[place]; seen {
			if !all[i].fits && pl.fits {
				all[i] = pl
			}
			continue
		}
		best[place] = len(all)
		all = append(all, pl)
	}
	// In member order (then DATASEC order), as the variables were met.
	var tagBuf []uint32
	for _, pl := range all {
		t := merged.Type(pl.v.id)
		typ := remap(uint32(t.Ref()))
		if typ == 0 {
			continue
		}
		tagBuf = tagBuf[:0]
		tagBuf = append(tagBuf, tags[pl.v.id]...)
		sel.AddVar(out, t.NameOff(), typ, t.Linkage(), pl.p, pl.size, tagBuf)
	}
}

// typeSize is the size of a value of type id (pahole's tag__size for
// BTF): qualifiers and typedefs looked through, arrays their element's
// size times their length, pointers 8 bytes.
func typeSize(s *btf.Spec, id btf.TypeID) uint64 {
	mult := uint64(1)
	for hops := 0; hops < 64 && id != 0 && s.Has(id); hops++ {
		t := s.Type(id)
		switch t.Kind() {
		case btf.KindInt, btf.KindFloat, btf.KindStruct, btf.KindUnion, btf.KindEnum, btf.KindEnum64, btf.KindDatasec:
			return mult * uint64(t.Size())
		case btf.KindPtr:
			return mult * 8
		case btf.KindArray:
			a := t.Array()
			mult *= uint64(a.Nelems)
			id = a.Elem
		case btf.KindTypedef, btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindTypeTag:
			id = t.Ref()
		default:
			return 0
		}
	}
	return 0
}
