package dwarf

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/btfkit/btfkit/elfx"
)

// Sections holds the contents of the DWARF sections a Data reads, already
// decompressed and relocated. Missing sections are nil. Only Info and
// Abbrev are required.
type Sections struct {
	Info       []byte // .debug_info
	Abbrev     []byte // .debug_abbrev
	Str        []byte // .debug_str
	LineStr    []byte // .debug_line_str
	StrOffsets []byte // .debug_str_offsets
	Addr       []byte // .debug_addr
	Rnglists   []byte // .debug_rnglists (DWARF 5)
	Loclists   []byte // .debug_loclists (DWARF 5)
	Ranges     []byte // .debug_ranges (DWARF 2-4)
	Loc        []byte // .debug_loc (DWARF 2-4)
	Types      []byte // .debug_types (DWARF 4 type units)
	Line       []byte // .debug_line
	BigEndian  bool
}

// Data is the DWARF of one file: its sections, the index of its units and
// a cache of abbreviation tables. It is safe for concurrent use; readers
// are not (use one UnitReader per goroutine).
type Data struct {
	sec   Sections
	units []Unit
	nInfo int // units[:nInfo] are in .debug_info, the rest in .debug_types

	abbrevMu   sync.Mutex
	abbrevs    map[abbrevKey]*abbrevTable
	abbrevWork atomic.Int64

	ctxs []atomic.Pointer[unitCtx]

	// UsesForm's answers (forms.go), and the bytes it scanned.
	formsMu   sync.Mutex
	forms     map[formsKey]bool
	formsWork int64

	sigOnce sync.Once
	sigs    map[uint64]int // type signature -> unit index

	alt     *Data
	altPath string
	file    *elfx.File
	closers []func() error
}

// New indexes the units of the given sections. It reads every unit header
// but no DIE.
func New(s Sections) (*Data, error) { return newData(s, nil) }

// newData is New with the unit headers read through peek (see
// parseUnits), when not nil.
func newData(s Sections, peek func(p, view []byte, off int) int) (*Data, error) {
	if len(s.Abbrev) == 0 && (len(s.Info) > 0 || len(s.Types) > 0) {
		return nil, errorf(".debug_abbrev", 0, "missing or empty section")
	}
	d := &Data{sec: s, abbrevs: map[abbrevKey]*abbrevTable{}}
	if err := d.parseUnits(s.Info, ".debug_info", 0, peek); err != nil {
		return nil, err
	}
	d.nInfo = len(d.units)
	if err := d.parseUnits(s.Types, ".debug_types", TypesBase, peek); err != nil {
		return nil, err
	}
	d.ctxs = make([]atomic.Pointer[unitCtx], len(d.units))
	return d, nil
}

// Open maps the ELF file at path and reads its DWARF (see FromELF). Close
// releases everything. Errors name the file.
func Open(path string) (*Data, error) {
	f, err := elfx.Open(path)
	if err != nil {
		return nil, err
	}
	d, err := FromELF(f)
	if err != nil {
		f.Close()
		return nil, elfx.NamingFile(path, err)
	}
	d.closers = append(d.closers, f.Close)
	return d, nil
}

// openAlt opens the alternate file (dwz) f's .gnu_debugaltlink names,
// when it can be found: as the path recorded, relative to f's directory,
// or under /usr/lib/debug/.dwz. Only a file opened by path (elfx.Open)
// has its alternate looked for.
func (d *Data) openAlt(f *elfx.File) error {
	link := f.Section(".gnu_debugaltlink")
	if link == nil || f.Path == "" {
		return nil
	}
	var wantID []byte
	if raw, err := f.Raw(link); err == nil {
		if i := bytes.IndexByte(raw, 0); i > 0 {
			d.altPath = string(raw[:i])
			wantID = raw[i+1:]
		}
	}
	if d.altPath == "" {
		return nil
	}
	for _, p := range altCandidates(f.Path, d.altPath) {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		alt, err := Open(p)
		if err != nil {
			return fmt.Errorf("alternate debug file: %w", err)
		}
		// The link's build ID (after the name) must be the file's: a
		// dwz file of another build would resolve references into the
		// wrong entries.
		if id := alt.file.BuildID(); len(wantID) > 0 && id != nil && !bytes.Equal(id, wantID) {
			alt.Close()
			continue
		}
		d.alt = alt
		d.closers = append(d.closers, alt.Close)
		break
	}
	return nil
}

// AltMissing reports whether the file names a dwz alternate file
// (.gnu_debugaltlink) that was not found, or was found with another
// build ID: the types it holds are then missing from every unit that
// imports them.
func (d *Data) AltMissing() bool { return d.altPath != "" && d.alt == nil }

// MissingAltWarning is pahole's four-line warning (stderr) for a file
// whose dwz alternate file is missing (Data.AltMissing); name is the file
// as the user gave it.
func MissingAltWarning(name string) string {
	return "WARNING: could not resolve dwz alternate debug file for " + name + "\n" +
		"         (.gnu_debugaltlink target missing or build-id mismatch?)\n" +
		"         Some types will not be available.\n" +
		"         Installing the matching debuginfo package may fix this.\n"
}

func altCandidates(path, link string) []string {
	if filepath.IsAbs(link) {
		return []string{link, filepath.Join("/usr/lib/debug/.dwz", filepath.Base(link))}
	}
	return []string{filepath.Join(filepath.Dir(path), link), filepath.Join("/usr/lib/debug/.dwz", filepath.Base(link))}
}

// FromELF reads the DWARF sections of an ELF file: decompressed
// (SHF_COMPRESSED or .zdebug_*) and, for ET_REL files, relocated, with
// same-named sections of COMDAT groups concatenated (see elfx.File.Merged).
// Uncompressed sections of other files are views of f's bytes. If f was
// opened by path and has a .gnu_debugaltlink (dwz), the alternate file is
// opened too when it can be found: as the path given, relative to f's
// directory, or under /usr/lib/debug/.dwz. f must stay open while the Data
// is used; Close closes the alternate file, not f.
func FromELF(f *elfx.File) (*Data, error) {
	var s Sections
	s.BigEndian = f.ByteOrder.String() == "BigEndian"
	for _, x := range []struct {
		name string
		dst  *[]byte
	}{
		{".debug_info", &s.Info}, {".debug_abbrev", &s.Abbrev}, {".debug_str", &s.Str},
		{".debug_line_str", &s.LineStr}, {".debug_str_offsets", &s.StrOffsets},
		{".debug_addr", &s.Addr}, {".debug_rnglists", &s.Rnglists},
		{".debug_loclists", &s.Loclists}, {".debug_ranges", &s.Ranges},
		{".debug_loc", &s.Loc}, {".debug_types", &s.Types}, {".debug_line", &s.Line},
	} {
		b, err := f.Merged(x.name)
		if err != nil {
			return nil, err
		}
		*x.dst = b
	}
	if s.Info == nil {
		return nil, errors.New("no DWARF: no .debug_info section")
	}
	// The unit headers are read from the file, not through the mapping:
	// a reader that looks at a few units (a -C lookup) then has only
	// those units' pages resident, not the page around every header.
	d, err := newData(s, f.ReadView)
	if err != nil {
		return nil, err
	}
	d.file = f
	if err := d.openAlt(f); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Close releases the file mappings opened by Open. Strings and byte slices
// obtained from the Data must not be used afterwards.
func (d *Data) Close() error {
	var first error
	for i := len(d.closers) - 1; i >= 0; i-- {
		if err := d.closers[i](); err != nil && first == nil {
			first = err
		}
	}
	d.closers = nil
	return first
}

// Sections returns the sections the Data reads.
func (d *Data) Sections() *Sections { return &d.sec }

// Alt returns the alternate (dwz) Data that DW_FORM_GNU_ref_alt and
// DW_FORM_GNU_strp_alt refer to, or nil if there is none or it was not
// found. AltLink is the path recorded in .gnu_debugaltlink.
func (d *Data) Alt() *Data { return d.alt }

// AltLink returns the path recorded in .gnu_debugaltlink, or "".
func (d *Data) AltLink() string { return d.altPath }

// SetAlt sets the alternate Data (for callers that find it themselves).
func (d *Data) SetAlt(alt *Data) { d.alt = alt }

// Units returns the index of units: those of .debug_info in section order,
// then those of .debug_types. Unit.Index is the position in this slice.
func (d *Data) Units() []Unit { return d.units }

// UnitAt returns the unit containing the global offset off, or nil.
func (d *Data) UnitAt(off Offset) *Unit {
	us := d.units[:d.nInfo]
	if off >= TypesBase {
		us = d.units[d.nInfo:]
	}
	i := sort.Search(len(us), func(i int) bool { return us[i].End > off })
	if i < len(us) && us[i].Offset <= off {
		return &us[i]
	}
	return nil
}

// TypeUnit returns the type unit with the given signature (DW_FORM_ref_sig8
// values), from .debug_info (DWARF 5) or .debug_types (DWARF 4).
func (d *Data) TypeUnit(sig uint64) (*Unit, bool) {
	d.sigOnce.Do(func() {
		d.sigs = map[uint64]int{}
		for i := range d.units {
			u := &d.units[i]
			if u.Type == UTType || u.Type == UTSplitType {
				if _, dup := d.sigs[u.Signature]; !dup {
					d.sigs[u.Signature] = i
				}
			}
		}
	})
	i, ok := d.sigs[sig]
	if !ok {
		return nil, false
	}
	return &d.units[i], true
}

func (d *Data) abbrevTable(off uint64, uf unitFormat) (*abbrevTable, error) {
	key := abbrevKey{off, uf}
	d.abbrevMu.Lock()
	t, ok := d.abbrevs[key]
	d.abbrevMu.Unlock()
	if ok {
		return t, nil
	}
	t, err := parseAbbrev(d.sec.Abbrev, off, uf)
	if err != nil {
		return nil, err
	}
	// Tables at distinct offsets may overlap; parsing each in full would
	// make the work quadratic in the section size for crafted input.
	// Real files parse each byte once.
	if w := d.abbrevWork.Add(int64(t.size)); w > 8*int64(len(d.sec.Abbrev))+1<<20 {
		return nil, errorf(".debug_abbrev", off, "abbreviation tables overlap too much (parsed 0x%x bytes of a 0x%x-byte section)", w, len(d.sec.Abbrev))
	}
	d.abbrevMu.Lock()
	if t2, ok := d.abbrevs[key]; ok {
		t = t2
	} else {
		d.abbrevs[key] = t
	}
	d.abbrevMu.Unlock()
	return t, nil
}

// abbrevKey identifies a parsed abbreviation table: its offset and the
// format of the units it was parsed for (classes depend on the version,
// encoded sizes on the offset and address sizes).
type abbrevKey struct {
	off uint64
	uf  unitFormat
}
