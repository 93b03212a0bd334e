// Package pretty decodes raw data with the BTF types that describe it, the
// way `pahole --prettify` does, and prints it: as pahole's C initializers
// (TextWriter) or as one JSON object per record (JSONWriter).
//
// A Decoder is built from a btf.Spec and Options: the types to read the
// data as (-C 'TYPE(ARGS)', several decoded in sequence), an optional
// header struct read first whose members other options refer to
// ($header.a.b), where the records start and how many bytes they span
// (--seek_bytes, --size_bytes, --range), and --count/--skip. Variable-size
// records are walked by a size member, an enum value picks the struct that
// describes each record (type_enum), and a filter keeps the records whose
// member equals a value. Decode reads the data as a stream: one record at
// a time in a buffer that grows only to the largest record, so memory does
// not grow with the input. Data that can seek (a file) may be read from an
// earlier offset again, as pahole 1.32 does with fseek (a --seek_bytes
// inside the header, a class whose range lies before the last one's); a
// pipe is read forward only. Bad data (a record size past the end of the
// input, a truncated record, an unreadable header) is a *DataError naming
// the record's offset.
//
// The writers are separate from the decoder: they turn a Record (its type,
// its bytes) into text. TextWriter reproduces pahole 1.32's output byte for
// byte, including its reading of every integer as signed by its size, its
// choice of hex dumps for pointers, enums and typedef'd structs, and its
// folding of one BTF ARRAY per dimension into one multi-dimensional
// array.
// JSONWriter prints what the bytes mean by their BTF types (signedness,
// enumerator names, floats, nested arrays), exactly enough that a record's
// bytes can be rebuilt from its JSON.
//
// The package reads only the btf model: it must not know where the types
// came from (DWARF, BTF, an archive) or how a command line spells options.
package pretty
