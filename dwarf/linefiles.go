package dwarf

import "fmt"

// The file names of a unit's line program header (.debug_line), which
// DW_AT_decl_file values index: what elfutils' dwarf_decl_file returns,
// and so what pahole prints and filters declarations by.

// DW_LNCT content types and the DW_FORM codes of line program headers.
const (
	lnctPath           = 0x1
	lnctDirectoryIndex = 0x2
)

// LineFiles returns the file names of the unit's line program, indexed as
// DW_AT_decl_file indexes them, each as elfutils' libdw names it: a
// relative name joined with its directory ("DIR/NAME"), the directories
// as recorded except, before DWARF 5, directory 0, which is the unit's
// DW_AT_comp_dir (a name in it stays relative when the unit has none).
// Before DWARF 5 index 0 is no file and holds "". A unit without
// DW_AT_stmt_list has no files (nil).
func (r *UnitReader) LineFiles() ([]string, error) {
	c := r.c
	if !c.hasStmtList {
		return nil, nil
	}
	sec := r.d.sec.Line
	errAt := func(pos int, format string, args ...any) error {
		return errorf(".debug_line", uint64(pos), format, args...)
	}
	if c.stmtList >= uint64(len(sec)) {
		return nil, errAt(int(c.stmtList), "line program offset beyond end of section (size 0x%x)", len(sec))
	}
	b := reader{data: sec, pos: int(c.stmtList), end: len(sec), big: r.d.sec.BigEndian}
	start := b.pos
	offSize := 4
	length := uint64(b.u32())
	if length == 0xffffffff {
		offSize = 8
		length = b.u64()
	}
	if b.bad || length > uint64(b.end-b.pos) {
		return nil, errAt(start, "line program header: unit length 0x%x past the end of the section", length)
	}
	b.end = b.pos + int(length)
	version := b.u16()
	if version < 2 || version > 5 {
		return nil, errAt(start, "line program version %d not supported", version)
	}
	if version >= 5 {
		b.u8() // address_size
		b.u8() // segment_selector_size
	}
	headerLength := b.uintN(offSize)
	if b.bad || headerLength > uint64(b.end-b.pos) {
		return nil, errAt(start, "line program header: header length 0x%x past the end of the program", headerLength)
	}
	b.end = b.pos + int(headerLength)
	b.u8() // minimum_instruction_length
	if version >= 4 {
		b.u8() // maximum_operations_per_instruction
	}
	b.u8() // default_is_stmt
	b.u8() // line_base
	b.u8() // line_range
	opcodeBase := b.u8()
	if opcodeBase > 0 {
		b.bytes(uint64(opcodeBase - 1)) // standard_opcode_lengths
	}
	if b.bad {
		return nil, errAt(start, "line program header truncated")
	}
	if version < 5 {
		return r.lineFilesV4(&b, start, errAt)
	}
	dirs, _, err := r.lineEntriesV5(&b, offSize, start, errAt)
	if err != nil {
		return nil, err
	}
	names, dirIdx, err := r.lineEntriesV5(&b, offSize, start, errAt)
	if err != nil {
		return nil, err
	}
	for i, name := range names {
		if name, err = joinDir(name, dirIdx[i], dirs, true); err != nil {
			return nil, errAt(start, "file %d: %v", i, err)
		}
		names[i] = name
	}
	return names, nil
}

// lineFilesV4 reads the include_directories and file_names of a line
// program header before DWARF 5.
func (r *UnitReader) lineFilesV4(b *reader, start int, errAt func(int, string, ...any) error) ([]string, error) {
	dirs := []string{r.c.compDir}
	for {
		s := b.cstring()
		if b.bad {
			return nil, errAt(start, "line program header: include_directories truncated")
		}
		if len(s) == 0 {
			break
		}
		dirs = append(dirs, string(s))
	}
	names := []string{""} // index 0: no file
	for {
		s := b.cstring()
		if b.bad {
			return nil, errAt(start, "line program header: file_names truncated")
		}
		if len(s) == 0 {
			break
		}
		dir := b.uleb()
		b.uleb() // modification time
		b.uleb() // length
		if b.bad {
			return nil, errAt(start, "line program header: file_names truncated")
		}
		name, err := joinDir(string(s), dir, dirs, r.c.hasCompDir)
		if err != nil {
			return nil, errAt(start, "file %d: %v", len(names), err)
		}
		names = append(names, name)
	}
	return names, nil
}

// lineEntriesV5 reads one DWARF 5 entry table (directories or file names):
// each entry's path and directory index.
func (r *UnitReader) lineEntriesV5(b *reader, offSize, start int, errAt func(int, string, ...any) error) (paths []string, dirIdx []uint64, err error) {
	nFormats := int(b.u8())
	formats := make([][2]uint64, nFormats)
	for i := range formats {
		formats[i] = [2]uint64{b.uleb(), b.uleb()}
	}
	count := b.uleb()
	if b.bad || count > uint64(b.end-b.pos) {
		return nil, nil, errAt(start, "line program header: entry table truncated")
	}
	paths = make([]string, count)
	dirIdx = make([]uint64, count)
	for i := range paths {
		for _, f := range formats {
			pos := b.pos
			v, s, isString := r.lineForm(b, Form(f[1]), offSize)
			if b.bad {
				return nil, nil, errAt(pos, "line program header: entry %d truncated", i)
			}
			switch f[0] {
			case lnctPath:
				if !isString {
					return nil, nil, errAt(pos, "line program header: path of entry %d has form %v", i, Form(f[1]))
				}
				paths[i] = s
			case lnctDirectoryIndex:
				dirIdx[i] = v
			}
		}
	}
	return paths, dirIdx, nil
}

// lineForm reads one value of a line program header entry.
func (r *UnitReader) lineForm(b *reader, form Form, offSize int) (v uint64, s string, isString bool) {
	sec := r.d.sec
	str := func(table []byte, off uint64) (string, bool) {
		if off >= uint64(len(table)) {
			b.bad = true
			return "", false
		}
		n := strlen(table, int(off))
		if n < 0 {
			b.bad = true
			return "", false
		}
		return string(table[off : off+uint64(n)]), true
	}
	switch form {
	case FormString:
		return 0, string(b.cstring()), true
	case FormLineStrp:
		s, ok := str(sec.LineStr, b.uintN(offSize))
		return 0, s, ok
	case FormStrp:
		s, ok := str(sec.Str, b.uintN(offSize))
		return 0, s, ok
	case FormStrx, FormStrx1, FormStrx2, FormStrx3, FormStrx4:
		var idx uint64
		switch form {
		case FormStrx:
			idx = b.uleb()
		case FormStrx1:
			idx = uint64(b.u8())
		case FormStrx2:
			idx = uint64(b.u16())
		case FormStrx3:
			idx = uint64(b.u24())
		default:
			idx = uint64(b.u32())
		}
		osz := uint64(4)
		if r.c.off8 {
			osz = 8
		}
		off, ok := r.c.tableEntry(sec.StrOffsets, r.c.strOffsetsBase, idx, osz)
		if !ok {
			b.bad = true
			return 0, "", false
		}
		s, ok := str(sec.Str, off)
		return 0, s, ok
	case FormData1:
		return uint64(b.u8()), "", false
	case FormData2:
		return uint64(b.u16()), "", false
	case FormData4:
		return uint64(b.u32()), "", false
	case FormData8:
		return b.u64(), "", false
	case FormData16:
		b.bytes(16)
		return 0, "", false
	case FormUdata:
		return b.uleb(), "", false
	case FormBlock:
		b.bytes(b.uleb())
		return 0, "", false
	}
	b.bad = true
	return 0, "", false
}

// joinDir is how libdw names a file: an absolute name as it is, a
// relative one after its directory and a slash, or alone when that
// directory is unknown (known false: directory 0 without a comp dir).
func joinDir(name string, dir uint64, dirs []string, known bool) (string, error) {
	if len(name) > 0 && name[0] == '/' {
		return name, nil
	}
	if dir >= uint64(len(dirs)) {
		return "", fmt.Errorf("directory index %d out of range (%d directories)", dir, len(dirs))
	}
	if dir == 0 && !known {
		return name, nil
	}
	return dirs[dir] + "/" + name, nil
}
