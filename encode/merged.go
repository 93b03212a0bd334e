package encode

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/dwarffacts"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
)

// Files whose units refer to each other. An LTO link (gcc -flto, clang
// -flto) keeps a unit per source file, but an entry of one unit may refer
// to an entry of another with DW_FORM_ref_addr: clang's inlined copies of
// a function of another file point to its abstract instance there, and
// its parameters, members and variables may have their DW_AT_type in
// another unit; gcc's out-of-line instances point to their abstract
// origins in the early debug units. pahole's DWARF loader then reads all
// units as one (dwarf_loader.c: cus__merging_cu decides,
// cus__merge_and_process_cu reads): the merged unit has the first unit's
// language and producer, its types are numbered in entry order across the
// units, and every reference, in whatever unit, is resolved. The same
// here: walkMerged feeds every unit to one converter.

// linuxLTONote is the type of the note a Linux kernel or module built
// since 5.13 carries (owner "Linux"; include/linux/elfnote-lto.h): its
// 32-bit descriptor is nonzero when the kernel was built with LTO.
const linuxLTONote = 0x101

// mergesUnits reports whether pahole reads the units of the file as one,
// as pahole 1.32 decides: when the Linux LTO note says the file was built
// with LTO; when the file has a dwz alternate file (.gnu_debugaltlink)
// that was found, whose units are read with the file's; otherwise when
// some unit's abbreviation table declares an attribute in
// DW_FORM_ref_addr. (pahole 1.31 took a note that says "no LTO" as the
// answer and looked no further; 1.32 then looks at the abbreviations.)
func mergesUnits(f *elfx.File, d *dwarf.Data) (bool, error) {
	// A malformed note section ends pahole's look at it (gelf_getnote
	// finds no more notes) without an error: the abbreviations decide.
	desc, found, err := f.Note("Linux", linuxLTONote)
	if err == nil && found {
		if len(desc) < 4 {
			return false, fmt.Errorf("Linux LTO note: descriptor of %d bytes, want 4", len(desc))
		}
		var order binary.ByteOrder = binary.LittleEndian
		if d.Sections().BigEndian {
			order = binary.BigEndian
		}
		if order.Uint32(desc) != 0 {
			return true, nil
		}
	}
	if d.Alt() != nil {
		return true, nil
	}
	units := d.Units()
	for i := range units {
		u := &units[i]
		if u.Section != ".debug_info" {
			continue
		}
		uses, err := d.UsesForm(u, dwarf.FormRefAddr)
		if err != nil {
			return false, err
		}
		if uses {
			return true, nil
		}
	}
	return false, nil
}

// altBias places the entries of a dwz alternate file in the merged walk's
// offset space: an entry at offset o of the alternate file's .debug_info
// is at altBias+o, clear of the file's own .debug_info and of
// .debug_types (dwarf.TypesBase).
const altBias = dwarffacts.AltOffset

// walkMerged converts all compile and partial units of d as one unit, one
// after another on the calling goroutine, and hands emit the one fragment
// (for printers, EachUnit, one unit without a name, as pahole prints it).
// A unit of an excluded language (cfg.LangExclude) is left out, as
// pahole's early unit filter leaves it out of the merged unit.
//
// The order is pahole 1.32's, found by experiment (its BTF's type order
// and pdwtags' listing of dwz output): the units of the dwz alternate
// file (d.Alt(), .gnu_debugaltlink, `dwz -m`) that the file imports
// (altImports) first, in their order, their entries and every reference
// to them (DW_FORM_GNU_ref_alt) moved to altBias; then the file's own units in
// order, where a DW_TAG_imported_unit among a unit's top-level entries
// (dwz's partial units, DW_AT_import) has the unit it imports read at
// that point, when it was not read before, and a unit read so is not
// read again in its own place. (pahole reads a partial unit again at its
// own place, and once more at its first import if that comes later; the
// copies are the same types, which deduplication folds into the first,
// so the BTF is the same.)
func walkMerged(d *dwarf.Data, cfg walkConfig, convs *convList, emit func(*fragment) error) error {
	c := newUnitConv(cfg.Options, d.Sections().BigEndian)
	convs.reuse(c)
	c.langSkip = nil // per unit, below
	var funcs *funcvar.Unit
	if cfg.elf != nil {
		funcs = funcvar.NewUnit(cfg.elf, funcOptions(cfg.Features))
	}
	w := mergedWalk{cfg: cfg, c: c, funcs: funcs, main: d, alt: d.Alt(), lead: &dwarf.Unit{}}
	c.importUnit = w.importUnit
	defer func() { c.importUnit = nil }()
	if w.alt != nil {
		imported, err := altImports(d, w.alt)
		if err != nil {
			return err
		}
		w.altDone = make([]bool, len(w.alt.Units()))
		units := w.alt.Units()
		for i := range units {
			if !imported[i] {
				continue
			}
			if err := w.unit(w.alt, &units[i], altBias, w.altDone); err != nil {
				return err
			}
		}
	}
	units := d.Units()
	w.mainDone = make([]bool, len(units))
	for i := range units {
		if err := w.unit(d, &units[i], 0, w.mainDone); err != nil {
			return err
		}
	}
	c.cont = false
	c.facts = cfg.facts
	f := c.emit()
	f.excluded = w.started && !w.kept
	if funcs != nil && w.started {
		if cfg.elfReady != nil {
			if err := cfg.elfReady(); err != nil {
				return err
			}
		}
		funcs.Finish(c, &f.funcs)
	}
	if cfg.facts && cfg.DeclInfo && w.started {
		// The merged unit has no name (pahole's has ""); each type's
		// declaration is named from its own unit's line program.
		if err := c.collectDecls(d.NewReader(), f.facts); err != nil {
			return err
		}
	}
	if cfg.unitDone != nil {
		// MapUnits' per-unit work, done here as walkFast's workers do it.
		// The one fragment is unit 0 of what the walk emits.
		one := *w.lead
		one.Index = 0
		if err := cfg.unitDone(&one, f); err != nil {
			return err
		}
	}
	if err := emit(f); err != nil {
		return err
	}
	f.reset()
	return nil
}

// altImports marks the units of the alternate file alt that the units of
// d import (a top-level DW_TAG_imported_unit whose DW_AT_import is a
// DW_FORM_GNU_ref_alt), and those that the units so marked import in
// turn, indexed as alt.Units(). pahole 1.32 reads the alternate file's
// units before the file's own and keeps the types of these only (pdwtags
// lists the others' IDs as gaps; the BTF has none of their types).
func altImports(d, alt *dwarf.Data) ([]bool, error) {
	units := alt.Units()
	imported := make([]bool, len(units))
	var queue []int
	mark := func(off uint64) {
		i, ok := slices.BinarySearchFunc(units, dwarf.Offset(off), func(u dwarf.Unit, o dwarf.Offset) int {
			return cmp.Compare(u.First, o)
		})
		if ok && units[i].Section == ".debug_info" && !imported[i] {
			imported[i] = true
			queue = append(queue, i)
		}
	}
	if err := eachImport(d, func(f *dwarf.Field) {
		if f.Class == dwarf.ClassReferenceAlt {
			mark(f.Val)
		}
	}); err != nil {
		return nil, err
	}
	r := alt.NewReader()
	for len(queue) > 0 {
		u := &units[queue[0]]
		queue = queue[1:]
		if err := importsOf(r, u, func(f *dwarf.Field) {
			if f.Class == dwarf.ClassReference {
				mark(f.Val)
			}
		}); err != nil {
			return nil, fmt.Errorf("alternate file %s: %w", d.AltLink(), err)
		}
	}
	return imported, nil
}

// eachImport calls f with the DW_AT_import of every top-level
// DW_TAG_imported_unit of d's compile and partial units.
func eachImport(d *dwarf.Data, f func(*dwarf.Field)) error {
	r := d.NewReader()
	units := d.Units()
	for i := range units {
		if err := importsOf(r, &units[i], f); err != nil {
			return err
		}
	}
	return nil
}

// importsOf calls f with the DW_AT_import of every top-level
// DW_TAG_imported_unit of the unit u, read with r.
func importsOf(r *dwarf.UnitReader, u *dwarf.Unit, f func(*dwarf.Field)) error {
	if u.Section != ".debug_info" || u.Type != dwarf.UTCompile && u.Type != dwarf.UTPartial {
		return nil
	}
	if err := r.Reset(u); err != nil {
		return err
	}
	var e dwarf.Entry
	for {
		ok, err := r.Next(&e)
		if err != nil {
			return fmt.Errorf("unit at .debug_info+0x%x: %w", uint64(u.Offset), err)
		}
		if !ok {
			return nil
		}
		if e.Depth != 1 {
			continue
		}
		if e.Tag == dwarf.TagImportedUnit {
			for i := range e.Fields {
				if e.Fields[i].Attr == dwarf.AttrImport {
					f(&e.Fields[i])
				}
			}
		}
		if e.Children {
			if err := r.SkipChildren(); err != nil {
				return err
			}
		}
	}
}

// mergedWalk is walkMerged's state: which units were read, of the file
// (mainDone) and of its alternate file (altDone).
type mergedWalk struct {
	cfg       walkConfig
	c         *unitConv
	funcs     *funcvar.Unit
	main, alt *dwarf.Data
	mainDone  []bool
	altDone   []bool
	started   bool        // a unit was read: the merged unit has its language and producer
	kept      bool        // a unit was not of an excluded language
	lead      *dwarf.Unit // the merged unit's index and place: the file's first unit's
	leadSet   bool
}

// unit reads the compile or partial unit u of data (d or its alternate
// file, whose offsets move by bias) into the merged unit, unless done
// (indexed by u.Index) says it was read.
func (w *mergedWalk) unit(data *dwarf.Data, u *dwarf.Unit, bias uint64, done []bool) error {
	if u.Type != dwarf.UTCompile && u.Type != dwarf.UTPartial || done[u.Index] {
		return nil
	}
	done[u.Index] = true
	c := w.c
	r := data.NewReader()
	if err := r.Reset(u); err != nil {
		return err
	}
	if !w.started {
		// The merged unit takes the first unit's language and
		// producer; references are resolved across all units, so
		// funcvar follows no origin into "other" units.
		c.reset()
		// The index holds the file's own offsets (the alternate
		// file's are found through far, unitConv.find).
		c.base = uint64(u.First)
		if w.alt != nil {
			c.base = 0
		}
		c.lang = uint16(r.Language())
		c.cont = true
		if w.funcs != nil {
			w.funcs.Begin(r.Producer(), nil)
			w.funcs.SetName(r.Name())
		}
		w.started = true
	}
	if bias == 0 && !w.leadSet {
		w.lead, w.leadSet = u, true
	}
	if lang := r.Language(); lang <= 0xffff && slices.Contains(w.cfg.LangExclude, uint16(lang)) {
		return nil
	}
	w.kept = true
	// The unit may be read in the middle of another's (an import):
	// its own offset space and tag stack, the other's back after.
	saveBias, saveTags := c.offBias, c.tagStack
	c.offBias, c.tagStack = bias, nil
	err := walkUnitFast(r, c, w.funcs)
	c.offBias, c.tagStack = saveBias, saveTags
	if err != nil {
		if bias != 0 {
			return fmt.Errorf("alternate file %s: unit at .debug_info+0x%x: %w", w.main.AltLink(), uint64(u.Offset), err)
		}
		return fmt.Errorf("unit at .debug_info+0x%x: %w", uint64(u.Offset), err)
	}
	return nil
}

// importUnit reads the unit whose root entry is at off (in the merged
// walk's offset space: a unit of the alternate file at altBias+its
// offset) at a DW_TAG_imported_unit, unless it was read already. An
// offset that is no unit's root is ignored, as libdw's dwarf_offdie of
// it would give pahole something that is no unit.
func (w *mergedWalk) importUnit(off uint64) error {
	data, done, bias := w.main, w.mainDone, uint64(0)
	if off >= altBias {
		if w.alt == nil {
			return nil
		}
		data, done, bias = w.alt, w.altDone, altBias
		off -= altBias
	}
	units := data.Units()
	i, ok := slices.BinarySearchFunc(units, dwarf.Offset(off), func(u dwarf.Unit, o dwarf.Offset) int {
		return cmp.Compare(u.First, o)
	})
	if !ok || units[i].Section != ".debug_info" {
		return nil
	}
	return w.unit(data, &units[i], bias, done)
}
