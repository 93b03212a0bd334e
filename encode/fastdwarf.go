package encode

import (
	"fmt"
	"strings"

	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
)

// walkFast converts every unit of d with the dwarf package's reader, jobs
// units at a time, and hands the fragments to emit in unit order, each
// carrying what cfg asks for besides its types.
func walkFast(d *dwarf.Data, cfg walkConfig, jobs int, convs *convList, emit func(*fragment) error) error {
	big := d.Sections().BigEndian
	// Each worker's converter comes with the unit's function and
	// variable records (none without an ELF side).
	type worker struct {
		c          *unitConv
		funcs      *funcvar.Unit
		walk, conv Stage // Options.Stats
	}
	st := cfg.Stats
	idle := make(chan worker, jobs+1)
	done, total := 0, len(d.Units())
	// Every fragment the walk can hold at once is kept for reuse: one
	// dropped is a unit's worth of slices grown again from nothing (with
	// fewer, the workers running ahead of the merge made ~300 MB of
	// garbage on a vmlinux, most of the walk's).
	free := make(chan *fragment, dwarf.MaxAhead(jobs)+jobs+1)
	convert := func(r *dwarf.UnitReader) (*fragment, error) {
		var w worker
		select {
		case w = <-idle:
		default:
			w.c = newUnitConv(cfg.Options, big)
			convs.reuse(w.c)
			w.c.free = free
			w.c.facts = cfg.facts
			w.c.strs.known = cfg.known
			if cfg.elf != nil {
				w.funcs = funcvar.NewUnit(cfg.elf, funcOptions(cfg.Features))
			}
		}
		clk := newStageClock(st != nil)
		defer func() {
			clk.stop()
			idle <- w
		}()
		c := w.c
		u := r.Unit()
		if u.Type != dwarf.UTCompile && u.Type != dwarf.UTPartial {
			return c.newFragment(), nil
		}
		if err := walkUnitFast(r, c, w.funcs); err != nil {
			return nil, err
		}
		clk.lap(&w.walk)
		f := c.emit()
		if c.tooLong != nil {
			return nil, fmt.Errorf("unit at .debug_info+0x%x: %w", uint64(u.Offset), c.tooLong)
		}
		if w.funcs != nil && !c.skip {
			if cfg.elfReady != nil {
				if err := cfg.elfReady(); err != nil {
					return nil, err
				}
			}
			w.funcs.Finish(c, &f.funcs)
		}
		clk.lap(&w.conv)
		if cfg.facts {
			f.unitName = strings.Clone(r.Name())
			if cfg.DeclInfo {
				if err := c.collectDecls(r, f.facts); err != nil {
					return nil, err
				}
			}
		}
		return f, nil
	}
	var ahead func(int) int
	if cfg.Lookup {
		ahead = lookupAhead(jobs)
	}
	err := dwarf.WalkAhead(d, jobs, ahead, func(r *dwarf.UnitReader) (*fragment, error) {
		f, err := convert(r)
		if err == nil && cfg.unitDone != nil {
			err = cfg.unitDone(r.Unit(), f)
		}
		return f, err
	}, func(u *dwarf.Unit, f *fragment) error {
		cfg.clk.skip()
		var inMerge dedup.Phase // deduplication done by the merge (dedup.Stream)
		if st != nil {
			inMerge = st.dedupInMerge()
		}
		if err := emit(f); err != nil {
			return fmt.Errorf("unit at .debug_info+0x%x: %w", uint64(u.Offset), err)
		}
		if cfg.done != nil {
			cfg.done(u)
		}
		if cfg.Progress != nil {
			done++
			cfg.Progress(done, total)
		}
		if st != nil {
			cfg.clk.lap(&st.Merge)
			st.moveToDedup(inMerge)
			st.Units++
		}
		f.reset()
		select {
		case free <- f:
		default:
		}
		return nil
	})
	for len(free) > 0 {
		fragPool.Put(<-free)
	}
	if st != nil {
		st.Workers = max(st.Workers, jobs)
		for {
			select {
			case w := <-idle:
				st.Walk.Wall += w.walk.Wall
				st.Walk.CPU += w.walk.CPU
				st.Convert.Wall += w.conv.Wall
				st.Convert.CPU += w.conv.CPU
				continue
			default:
			}
			break
		}
	}
	return err
}

// lookupAhead is how far ahead of emit a walk for a lookup
// (Options.Lookup) converts units, given the units emitted so far: one
// unit at a time while the lookup may end at any moment (a -C name of
// the kernel's headers is in its first unit: task_struct in the Debian
// vmlinux's), then a unit more for every four emitted up to the walk's
// usual bound (dwarf.MaxAhead), so that a lookup that goes on (a rare
// name, or one missing: every unit) runs on every worker. A unit taken
// ahead and not needed costs its conversion, and the walk waits for it
// before it returns.
func lookupAhead(jobs int) func(emitted int) int {
	most := dwarf.MaxAhead(jobs)
	return func(emitted int) int { return min(most, 1+emitted/4) }
}

// wanted reports whether the converter looks at the attributes of an
// entry with this tag under a parent with tag parent; for the others only
// the position is passed on, which saves decoding names nobody reads.
func wanted(tag, parent dwarf.Tag) bool {
	if tag < dwarf.Tag(len(tagClass)) {
		return tagClass[tag]&tagWanted != 0 || tag == dwarf.TagFormalParameter && parent == dwarf.TagSubroutineType
	}
	return tag == dwarf.TagGNUAnnotation || tag == dwarf.TagLLVMAnnotation
}

// walkUnitFast feeds the entries of the reader's unit to c, and to
// funcs (when not nil) for functions and variables. With c.cont the
// entries continue the unit c and funcs are converting (merged.go).
func walkUnitFast(r *dwarf.UnitReader, c *unitConv, funcs *funcvar.Unit) error {
	if !c.cont {
		c.reset()
	}
	data := r.Data()
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
		d.off = uint64(e.Offset) + c.offBias
		d.depth = e.Depth
		d.tag = e.Tag
		d.children = e.Children
		if e.Depth < len(tags) {
			tags = tags[:e.Depth]
		}
		parent := dwarf.Tag(0)
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
			if c.skip {
				return nil
			}
			if funcs != nil && !c.cont {
				funcs.Begin(r.Producer(), r)
			}
			continue
		}
		if c.importUnit != nil {
			// A merged walk: references in one offset space, that of
			// the file's own .debug_info with its dwz alternate
			// file's after it (merged.go).
			moveRefs(e.Fields, c.offBias)
		}
		if funcs != nil {
			// Functions and variables inside namespaces and types
			// (C++, Rust: the declarations that top-level definitions
			// name with DW_AT_specification, Rust's #[no_mangle]
			// functions) are the unit's as if the namespaces and types
			// were not there, as pahole reads them (its table of
			// entries by offset has every entry it processed: those of
			// namespaces, structs, and since 1.32 enumerations): depth
			// and parent as seen through them.
			fnDepth, fnParent, inNamespace := e.Depth, parent, false
			if len(tags) > 1 && scopeTag(tags[1]) {
				k := 0
				for i := 1; i < e.Depth && i < len(tags) && scopeTag(tags[i]); i++ {
					k++
				}
				if fnDepth -= k; fnDepth == 1 && k > 0 {
					fnParent, inNamespace = tags[0], true
				}
			}
			d.fn.Off, d.fn.Depth, d.fn.Tag, d.fn.Children = d.off, fnDepth, d.tag, d.children
			if funcvar.Wanted(d.tag, fnParent) {
				d.fnFilled = true
				for i := range e.Fields {
					if err := d.fn.Read(r, &e.Fields[i]); err != nil {
						return err
					}
				}
				if inNamespace && d.tag == dwarf.TagVariable {
					d.fn.Has |= funcvar.InNamespace
				}
			}
		}
		if wanted(d.tag, parent) {
			for i := range e.Fields {
				f := &e.Fields[i]
				if f.Attr < dwarf.Attr(len(fastAttrs)) && !fastAttrs[f.Attr] {
					continue // DW_AT_decl_line and the like: not a call each
				}
				if err := fastField(data, &d, f); err != nil {
					return err
				}
			}
		}
		c.add(&d)
		if funcs != nil {
			funcs.Add(&d.fn)
		}
		if d.tag == dwarf.TagImportedUnit && e.Depth == 1 && c.importUnit != nil {
			for i := range e.Fields {
				if f := &e.Fields[i]; f.Attr == dwarf.AttrImport && f.Class == dwarf.ClassReference {
					if err := c.importUnit(f.Val); err != nil {
						return err
					}
				}
			}
		}
	}
}

// scopeTag reports whether functions and variables inside an entry with
// this tag are seen as the unit's (walkUnitFast).
func scopeTag(t dwarf.Tag) bool {
	switch t {
	case dwarf.TagNamespace, dwarf.TagStructureType, dwarf.TagClassType, dwarf.TagUnionType, dwarf.TagEnumerationType:
		return true
	}
	return false
}

// moveRefs puts the references of an entry's fields in a merged walk's
// offset space: a reference within the entry's own file moves by bias
// (the alternate file's altBias, 0 for the file itself), one into the
// alternate file (DW_FORM_GNU_ref_alt) to altBias past its offset there.
func moveRefs(fields []dwarf.Field, bias uint64) {
	for i := range fields {
		switch f := &fields[i]; f.Class {
		case dwarf.ClassReference:
			f.Val += bias
		case dwarf.ClassReferenceAlt:
			f.Val += altBias
			f.Class = dwarf.ClassReference
		}
	}
}

// fastAttrs says which attributes below 0x100 fastField reads (all of
// those above it are passed to it).
var fastAttrs = func() (t [0x100]bool) {
	for _, a := range []dwarf.Attr{
		dwarf.AttrName, dwarf.AttrType, dwarf.AttrByteSize, dwarf.AttrBitSize,
		dwarf.AttrBitOffset, dwarf.AttrDataBitOffset, dwarf.AttrDataMemberLocation,
		dwarf.AttrUpperBound, dwarf.AttrCount, dwarf.AttrConstValue,
		dwarf.AttrDeclaration, dwarf.AttrAlignment, dwarf.AttrEncoding,
	} {
		t[a] = true
	}
	return t
}()

// fastField decodes one attribute of an entry the converter wants into d
// (the numbers by dwarf.Take's rule, as funcvar's entries are).
func fastField(data *dwarf.Data, d *die, f *dwarf.Field) error {
	const c = dwarf.ClassConstant
	switch f.Attr {
	case dwarf.AttrName:
		s, err := data.String(f)
		if err != nil {
			return err
		}
		d.name = s
		d.has |= hasName
	case dwarf.AttrType:
		dwarf.Take(f, dwarf.ClassReference, &d.typ, &d.has, hasType)
	case dwarf.AttrByteSize:
		dwarf.Take(f, c, &d.byteSize, &d.has, hasByteSize)
	case dwarf.AttrBitSize:
		dwarf.Take(f, c, &d.bitSize, &d.has, hasBitSize)
	case dwarf.AttrBitOffset:
		dwarf.Take(f, c, &d.bitOffset, &d.has, hasBitOffset)
	case dwarf.AttrDataBitOffset:
		dwarf.Take(f, c, &d.dataBitOff, &d.has, hasDataBitOffset)
	case dwarf.AttrDataMemberLocation:
		switch f.Class {
		case dwarf.ClassConstant:
			d.memberLoc = f.Val
		case dwarf.ClassExprLoc, dwarf.ClassBlock:
			d.memberLoc = evalMemberLoc(data.Bytes(f))
		}
		d.has |= hasMemberLoc
	case dwarf.AttrUpperBound:
		if !dwarf.Take(f, c, &d.upperBound, &d.has, hasUpperBound) {
			d.has |= hasUpperBoundVar
		}
	case dwarf.AttrCount:
		dwarf.Take(f, c, &d.count, &d.has, hasCount)
	case dwarf.AttrConstValue:
		switch f.Class {
		case dwarf.ClassString, dwarf.ClassStringAlt:
			s, err := data.String(f)
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
		dwarf.TakeFlag(f, &d.has, hasDeclaration)
	case dwarf.AttrAlignment:
		dwarf.Take(f, c, &d.alignment, &d.has, hasAlignment)
	case dwarf.AttrEncoding:
		d.encoding = dwarf.Encoding(f.Val)
		d.has |= hasEncoding
	case dwarf.AttrGNUAnnotation:
		dwarf.Take(f, dwarf.ClassReference, &d.annotation, &d.has, hasGNUAnnotation)
	}
	return nil
}
