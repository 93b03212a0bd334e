package frombtf

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
	"github.com/btfkit/btfkit/internal/ctype"
)

// decide hands the members' functions and variables, in member order, to
// sel, which appends those it keeps to out (the merged types) as the
// DWARF route's rules decide (doc.go); intern gives a name's offset in
// the merged string table.
func decide(out *btf.Spec, intern func(string) uint32, members []member, info *funcvar.ELF, sel *funcvar.Selection, rep *funcvar.Report) error {
	addVars(out, intern, members, info, sel)
	addFuncs(sel, intern, members)
	return sel.Finish(out, intern, rep)
}

// addFuncs hands the members' functions (those not handed yet) to sel,
// in member order, their names interned with intern (the string table
// of the merged types): the functions' own names too, which Finish
// writes into the FUNCs it keeps.
func addFuncs(sel *funcvar.Selection, intern func(string) uint32, members []member) {
	var params, tags []uint32
	for i := range members {
		for _, fn := range members[i].funcs {
			if !members[i].wanted && !sel.WantsFunc(fn.name) {
				continue
			}
			nameOff := intern(fn.name)
			params = params[:0]
			for _, p := range fn.params {
				params = append(params, intern(p.name), uint32(p.typ))
			}
			tags = tagWords(intern, tags[:0], fn.tags)
			sel.AddFunc(fn.name, nameOff, uint32(fn.ret), params, tags)
		}
		members[i].funcs = nil
	}
}

// tagWords appends the (value offset, component) pairs of tags to w.
func tagWords(intern func(string) uint32, w []uint32, tags []memberTag) []uint32 {
	for _, t := range tags {
		w = append(w, intern(t.value), t.comp)
	}
	return w
}

// addVars places the members' variables by the ELF symbols and hands
// them to sel in member order: for each place the first VAR whose type
// has the symbol's size, else the first.
func addVars(out *btf.Spec, intern func(string) uint32, members []member, info *funcvar.ELF, sel *funcvar.Selection) {
	type key struct {
		name, section string
	}
	nv := 0
	for i := range members {
		nv += len(members[i].vars)
	}
	// Sized at once: tens of thousands of variables in a kernel.
	statics := make(map[key]int, nv) // members so far with a static of this name in this section
	type placed struct {
		v    *memberVar
		p    funcvar.VarPlace
		size uint64
		fits bool
	}
	all := make([]placed, 0, nv)
	// A variable's size is its type's as the DWARF route sizes it:
	// pahole's tag__size from its DWARF loader.
	sizer := &ctype.Sizer{Spec: out, DWARF: true, PtrSize: ctype.PointerSize(out)}
	best := make(map[funcvar.VarPlace]int, nv) // place -> index in all of the VAR kept there
	for i := range members {
		for k := range members[i].vars {
			v := &members[i].vars[k]
			global := v.linkage != btf.LinkageStatic
			nth := 0
			if !global {
				kk := key{v.name, v.section}
				nth = statics[kk]
				statics[kk]++
			}
			p, ok := info.VarSymbol(v.name, v.section, global, nth)
			if !ok {
				continue
			}
			size := sizer.Size(v.typ)
			if size == ctype.SizeError {
				size = 0
			}
			pl := placed{v: v, p: p, size: size, fits: size == p.SymbolSize}
			place := funcvar.VarPlace{Section: p.Section, Off: p.Off}
			if j, seen := best[place]; seen {
				if !all[j].fits && pl.fits {
					all[j] = pl
				}
				continue
			}
			best[place] = len(all)
			all = append(all, pl)
		}
	}
	var tags []uint32
	for _, pl := range all {
		tags = tagWords(intern, tags[:0], pl.v.tags)
		sel.AddVar(out, pl.v.name, intern(pl.v.name), uint32(pl.v.typ), pl.v.linkage, pl.p, pl.size, tags)
	}
}
