package encode

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode/funcvar"
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

// mergesUnits reports whether pahole reads the units of the file as one:
// the Linux LTO note decides when the file has one; otherwise some unit's
// abbreviation table declares an attribute in DW_FORM_ref_addr.
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
		return order.Uint32(desc) != 0, nil
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

// walkMerged converts all compile units of d as one unit, one after
// another on the calling goroutine, and hands emit the one fragment (for
// printers, EachUnit, one unit without a name, as pahole prints it). A
// unit of an excluded language (cfg.LangExclude) is left out, as pahole's
// early unit filter leaves it out of the merged unit.
func walkMerged(d *dwarf.Data, cfg walkConfig, convs *convList, emit func(*fragment) error) error {
	c := newUnitConv(cfg.Options, d.Sections().BigEndian)
	convs.reuse(c)
	c.langSkip = nil // per unit, below
	var funcs *funcvar.Unit
	if cfg.elf != nil {
		funcs = funcvar.NewUnit(cfg.elf, funcOptions(cfg.Features))
	}
	excluded := func(lang uint64) bool {
		return lang <= 0xffff && slices.Contains(cfg.LangExclude, uint16(lang))
	}
	r := d.NewReader()
	units := d.Units()
	first := true
	lead := &dwarf.Unit{} // the merged unit's index and place: its first unit's
	for i := range units {
		u := &units[i]
		if u.Type != dwarf.UTCompile && u.Type != dwarf.UTPartial {
			continue
		}
		if err := r.Reset(u); err != nil {
			return err
		}
		if first {
			// The merged unit takes the first unit's language and
			// producer; references are resolved across all units,
			// so funcvar follows no origin into "other" units.
			c.reset()
			c.base = uint64(u.First)
			c.lang = uint16(r.Language())
			c.cont = true
			lead = u
			if funcs != nil {
				funcs.Begin(r.Producer(), nil)
				funcs.SetName(r.Name())
			}
			first = false
		}
		if excluded(r.Language()) {
			continue
		}
		if err := walkUnitFast(r, c, funcs); err != nil {
			return fmt.Errorf("unit at .debug_info+0x%x: %w", uint64(u.Offset), err)
		}
	}
	c.cont = false
	c.facts = cfg.facts
	f := c.emit()
	if funcs != nil && !first {
		if cfg.elfReady != nil {
			if err := cfg.elfReady(); err != nil {
				return err
			}
		}
		funcs.Finish(c, &f.funcs)
	}
	if cfg.facts && cfg.DeclInfo && !first {
		// The merged unit has no name (pahole's has ""); each type's
		// declaration is named from its own unit's line program.
		if err := c.collectDecls(d.NewReader(), f.facts); err != nil {
			return err
		}
	}
	if cfg.unitDone != nil {
		// MapUnits' per-unit work, done here as walkFast's workers do it.
		// The one fragment is unit 0 of what the walk emits.
		one := *lead
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
