package dwarf

// The file name table of a line program header (.debug_line), which
// DW_AT_decl_file indexes: DWARF 2 to 5.

// Line-number content types of DWARF 5 entry formats.
const (
	lnctPath           = 0x1
	lnctDirectoryIndex = 0x2
)

// LineFiles returns the file names of the line program header at off in
// .debug_line, indexed as DW_AT_decl_file values index them, each joined
// to its directory as libdw's dwarf_decl_file joins them: a relative name
// gets its directory and a '/' before it; directory 0 is compDir before
// DWARF 5 (the unit's DW_AT_comp_dir; "" when it has none, leaving the
// name relative) and the table's first directory from DWARF 5 on. Before
// DWARF 5, index 0 means no file: it is "???", as in libdw.
func (d *Data) LineFiles(off uint64, compDir string) ([]string, error) {
	sec := d.sec.Line
	if off >= uint64(len(sec)) {
		return nil, errorf(".debug_line", off, "line program offset beyond end of section (size 0x%x)", len(sec))
	}
	b := reader{data: sec, pos: int(off), end: len(sec), big: d.sec.BigEndian}
	offSize := 4
	length := uint64(b.u32())
	if length == 0xffffffff {
		offSize = 8
		length = b.u64()
	}
	if b.bad || length > uint64(b.end-b.pos) {
		return nil, errorf(".debug_line", off, "line program header extends beyond end of section")
	}
	b.end = b.pos + int(length)
	version := b.u16()
	if version < 2 || version > 5 {
		return nil, errorf(".debug_line", off, "unsupported line program version %d", version)
	}
	if version >= 5 {
		b.u8() // address_size
		b.u8() // segment_selector_size
	}
	b.uintN(offSize) // header_length
	b.u8()           // minimum_instruction_length
	if version >= 4 {
		b.u8() // maximum_operations_per_instruction
	}
	b.u8() // default_is_stmt
	b.u8() // line_base
	b.u8() // line_range
	opcodeBase := b.u8()
	for i := 1; i < int(opcodeBase); i++ {
		b.uleb() // standard_opcode_lengths (ubyte each; uleb reads one byte below 0x80)
	}
	if b.bad {
		return nil, errorf(".debug_line", off, "truncated line program header")
	}
	var files []string
	if version < 5 {
		dirs := []string{compDir}
		for {
			s := b.cstring()
			if b.bad || len(s) == 0 {
				break
			}
			dirs = append(dirs, string(s))
		}
		files = append(files, "???")
		for {
			s := b.cstring()
			if b.bad || len(s) == 0 {
				break
			}
			dir := b.uleb()
			b.uleb() // mtime
			b.uleb() // length
			name, ok := joinDir(dirs, dir, string(s))
			if !ok {
				return nil, errorf(".debug_line", off, "file %q: directory index %d out of range", s, dir)
			}
			files = append(files, name)
		}
	} else {
		dirs, err := d.lineEntries(&b, off, offSize, nil)
		if err != nil {
			return nil, err
		}
		files, err = d.lineEntries(&b, off, offSize, dirs)
		if err != nil {
			return nil, err
		}
	}
	if b.bad {
		return nil, errorf(".debug_line", off, "truncated line program header")
	}
	return files, nil
}

// joinDir puts directory dirs[i] before a relative name.
func joinDir(dirs []string, i uint64, name string) (string, bool) {
	if len(name) > 0 && name[0] == '/' {
		return name, true
	}
	if i >= uint64(len(dirs)) {
		return "", false
	}
	if dirs[i] == "" {
		return name, true
	}
	return dirs[i] + "/" + name, true
}

// lineEntries reads a DWARF 5 directory table (dirs nil) or file name
// table (joined to dirs).
func (d *Data) lineEntries(b *reader, off uint64, offSize int, dirs []string) ([]string, error) {
	type format struct{ content, form uint64 }
	formats := make([]format, b.u8())
	for i := range formats {
		formats[i] = format{b.uleb(), b.uleb()}
	}
	n := b.uleb()
	if b.bad || n > uint64(b.end-b.pos) {
		return nil, errorf(".debug_line", off, "truncated line program header")
	}
	out := make([]string, 0, n)
	for ; n > 0; n-- {
		var path string
		var dir uint64
		for _, f := range formats {
			var val uint64
			var str []byte
			switch Form(f.form) {
			case FormString:
				str = b.cstring()
			case FormLineStrp, FormStrp:
				val = b.uintN(offSize)
				sec := d.sec.LineStr
				if Form(f.form) == FormStrp {
					sec = d.sec.Str
				}
				if val < uint64(len(sec)) {
					if l := strlen(sec, int(val)); l >= 0 {
						str = sec[val : int(val)+l]
					}
				}
			case FormUdata:
				val = b.uleb()
			case FormData1:
				val = uint64(b.u8())
			case FormData2:
				val = uint64(b.u16())
			case FormData4:
				val = uint64(b.u32())
			case FormData8:
				val = b.u64()
			case FormData16:
				b.bytes(16)
			case FormBlock:
				b.bytes(b.uleb())
			default:
				return nil, errorf(".debug_line", off, "unsupported form %v in a line program entry format", Form(f.form))
			}
			switch f.content {
			case lnctPath:
				path = string(str)
			case lnctDirectoryIndex:
				dir = val
			}
		}
		if b.bad {
			return nil, errorf(".debug_line", off, "truncated line program header")
		}
		if dirs == nil {
			out = append(out, path)
			continue
		}
		name, ok := joinDir(dirs, dir, path)
		if !ok {
			return nil, errorf(".debug_line", off, "file %q: directory index %d out of range", path, dir)
		}
		out = append(out, name)
	}
	return out, nil
}
