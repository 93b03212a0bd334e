package elfx

// BuildID returns the file's GNU build ID (the NT_GNU_BUILD_ID note in
// .note.gnu.build-id), or nil when it has none.
func (f *File) BuildID() []byte {
	s := f.Section(".note.gnu.build-id")
	if s == nil {
		return nil
	}
	raw, err := f.Raw(s)
	if err != nil || len(raw) < 16 {
		return nil
	}
	bo := f.ByteOrder
	namesz, descsz, typ := bo.Uint32(raw[0:]), bo.Uint32(raw[4:]), bo.Uint32(raw[8:])
	off := 12 + (uint64(namesz)+3)&^3
	if typ != 3 || namesz != 4 || off+uint64(descsz) > uint64(len(raw)) || string(raw[12:15]) != "GNU" {
		return nil
	}
	return raw[off : off+uint64(descsz)]
}
