package dwarf

import (
	"unsafe"
)

// DWARF 5 line table content types (DW_LNCT_*).
const (
	lnctPath           = 0x1
	lnctDirectoryIndex = 0x2
)

// LineFiles returns the file names of the line table at offset off in
// .debug_line (a unit's DW_AT_stmt_list), indexed as DW_AT_decl_file
// values index them, spelled as libdw's dwarf_decl_file spells them: a
// relative name is joined to its directory ("dir/name"), and the
// directory of index 0 of a table before DWARF 5 is compDir. Before
// DWARF 5 index 0 names no file ("???"). A name that cannot be read is
// "".
func (d *Data) LineFiles(off uint64, compDir string) ([]string, error) {
	sec := d.sec.Line
	if off >= uint64(len(sec)) {
		return nil, errorf(".debug_line", off, "line table offset beyond end of section (size 0x%x)", len(sec))
	}
	b := reader{data: sec, pos: int(off), end: len(sec), big: d.sec.BigEndian}
	length := uint64(b.u32())
	off8 := false
	if length == 0xffffffff {
		length = b.u64()
		off8 = true
	}
	if b.bad || length > uint64(b.end-b.pos) {
		return nil, errorf(".debug_line", off, "line table length 0x%x beyond end of section", length)
	}
	b.end = b.pos + int(length)
	version := b.u16()
	if version < 2 || version > 5 {
		return nil, errorf(".debug_line", off, "unsupported line table version %d", version)
	}
	addrSize := 0
	if version >= 5 {
		addrSize = int(b.u8())
		b.u8() // segment selector size
	}
	var hdrLen uint64
	if off8 {
		hdrLen = b.u64()
	} else {
		hdrLen = uint64(b.u32())
	}
	if b.bad || hdrLen > uint64(b.end-b.pos) {
		return nil, errorf(".debug_line", off, "line table header length 0x%x beyond its table", hdrLen)
	}
	b.end = b.pos + int(hdrLen)
	b.u8() // minimum_instruction_length
	if version >= 4 {
		b.u8() // maximum_operations_per_instruction
	}
	b.u8() // default_is_stmt
	b.u8() // line_base
	b.u8() // line_range
	opBase := b.u8()
	if opBase > 0 {
		b.bytes(uint64(opBase - 1))
	}
	if b.bad {
		return nil, errorf(".debug_line", off, "truncated line table header")
	}
	if version < 5 {
		return d.lineFiles4(&b, off, compDir)
	}
	lf := lineForms{d: d, off8: off8, addrSize: addrSize}
	dirs, err := lf.entries(&b, off, false)
	if err != nil {
		return nil, err
	}
	files, err := lf.entries(&b, off, true)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(files))
	for i, f := range files {
		dir := ""
		if f.dir < uint64(len(dirs)) {
			dir = dirs[f.dir].path
		}
		out[i] = joinPath(dir, f.path)
	}
	return out, nil
}

// lineFiles4 reads the include_directories and file_names of a table
// before DWARF 5.
func (d *Data) lineFiles4(b *reader, off uint64, compDir string) ([]string, error) {
	dirs := []string{compDir}
	for {
		s := b.cstring()
		if b.bad {
			return nil, errorf(".debug_line", off, "truncated include_directories")
		}
		if len(s) == 0 {
			break
		}
		dirs = append(dirs, bytesToString(s))
	}
	files := []string{"???"}
	for {
		s := b.cstring()
		if b.bad {
			return nil, errorf(".debug_line", off, "truncated file_names")
		}
		if len(s) == 0 {
			break
		}
		dir := b.uleb()
		b.uleb() // modification time
		b.uleb() // length
		if b.bad {
			return nil, errorf(".debug_line", off, "truncated file_names")
		}
		dn := ""
		if dir < uint64(len(dirs)) {
			dn = dirs[dir]
		}
		files = append(files, joinPath(dn, bytesToString(s)))
	}
	return files, nil
}

// joinPath is libdw's spelling of a file in a directory: an absolute name
// as it is, otherwise the directory, '/', the name (the name alone when
// there is no directory).
func joinPath(dir, name string) string {
	if len(name) > 0 && name[0] == '/' || dir == "" {
		return name
	}
	return dir + "/" + name
}

type lineEntry struct {
	path string
	dir  uint64
}

type lineForms struct {
	d        *Data
	off8     bool
	addrSize int
}

// entries reads one DWARF 5 entry-format list and the entries it
// describes (directories, or file names when files is set).
func (lf *lineForms) entries(b *reader, off uint64, files bool) ([]lineEntry, error) {
	what := "directory"
	if files {
		what = "file name"
	}
	nfmt := int(b.u8())
	type format struct{ content, form uint64 }
	fmts := make([]format, 0, nfmt)
	for i := 0; i < nfmt; i++ {
		fmts = append(fmts, format{b.uleb(), b.uleb()})
	}
	count := b.uleb()
	if b.bad || count > uint64(b.end-b.pos) {
		return nil, errorf(".debug_line", off, "truncated %s entry formats", what)
	}
	out := make([]lineEntry, 0, count)
	for i := uint64(0); i < count; i++ {
		var e lineEntry
		for _, f := range fmts {
			s, v, ok := lf.value(b, Form(f.form))
			if !ok {
				return nil, errorf(".debug_line", off, "%s entry %d: unsupported form 0x%x", what, i, f.form)
			}
			switch f.content {
			case lnctPath:
				e.path = s
			case lnctDirectoryIndex:
				e.dir = v
			}
		}
		if b.bad {
			return nil, errorf(".debug_line", off, "truncated %s entries", what)
		}
		out = append(out, e)
	}
	return out, nil
}

// value reads one attribute value of a line table entry: a string for
// the string forms, a number for the constant forms; other forms are
// skipped.
func (lf *lineForms) value(b *reader, form Form) (string, uint64, bool) {
	switch form {
	case FormString:
		return bytesToString(b.cstring()), 0, true
	case FormLineStrp, FormStrp:
		var o uint64
		if lf.off8 {
			o = b.u64()
		} else {
			o = uint64(b.u32())
		}
		sec := lf.d.sec.Str
		if form == FormLineStrp {
			sec = lf.d.sec.LineStr
		}
		if o >= uint64(len(sec)) {
			return "", 0, true
		}
		n := strlen(sec, int(o))
		if n < 0 {
			return "", 0, true
		}
		return unsafe.String(&sec[o], n), 0, true
	case FormUdata:
		return "", b.uleb(), true
	case FormData1:
		return "", uint64(b.u8()), true
	case FormData2:
		return "", uint64(b.u16()), true
	case FormData4:
		return "", uint64(b.u32()), true
	case FormData8:
		return "", b.u64(), true
	case FormData16:
		b.bytes(16)
		return "", 0, true
	case FormBlock:
		b.bytes(b.uleb())
		return "", 0, true
	case FormStrx, FormStrx1, FormStrx2, FormStrx3, FormStrx4:
		switch form {
		case FormStrx:
			b.uleb()
		case FormStrx1:
			b.u8()
		case FormStrx2:
			b.u16()
		case FormStrx3:
			b.u24()
		case FormStrx4:
			b.u32()
		}
		return "", 0, true
	}
	return "", 0, false
}
