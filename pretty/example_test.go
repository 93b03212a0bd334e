package pretty_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/pretty"
)

// sampleRecords is a Spec with struct sample { int pid; char comm[8];
// unsigned long long ts; } and two such records, little-endian.
func sampleRecords() (*btf.Spec, []byte) {
	spec := btf.NewSpec()
	i := spec.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	c := spec.Add("char", btf.KindInt, 0, false, 1, btf.IntSigned<<24|8)
	u64 := spec.Add("long long unsigned int", btf.KindInt, 0, false, 8, 64)
	comm := spec.Add("", btf.KindArray, 0, false, 0, uint32(c), uint32(i), 8)
	spec.Add("sample", btf.KindStruct, 3, false, 24,
		spec.AddString("pid"), uint32(i), 0, // offsets in bits
		spec.AddString("comm"), uint32(comm), 32,
		spec.AddString("ts"), uint32(u64), 128)

	var data bytes.Buffer
	for _, r := range []struct {
		pid  int32
		comm string
		ts   uint64
	}{{1, "init", 1000}, {42, "bash", 2000}} {
		var rec [24]byte
		binary.LittleEndian.PutUint32(rec[0:], uint32(r.pid))
		copy(rec[4:12], r.comm)
		binary.LittleEndian.PutUint64(rec[16:], r.ts)
		data.Write(rec[:])
	}
	return spec, data.Bytes()
}

// Print raw records as `pahole -C sample --prettify=FILE` does: each a
// C initializer. The types come from any btf.Spec (here made in place;
// btf.LoadFile or package input read one from a file), the data from any
// io.Reader.
func ExampleTextWriter() {
	spec, data := sampleRecords()
	classes, err := pretty.ParseClasses("sample")
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := pretty.NewDecoder(spec, pretty.Options{Classes: classes})
	if err != nil {
		fmt.Println(err)
		return
	}
	tw := pretty.NewTextWriter(os.Stdout, d, pretty.TextOptions{})
	if err := d.Decode(bytes.NewReader(data), tw.Write); err != nil {
		fmt.Println(err)
	}
	if err := tw.Flush(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	// 	.pid = 1,
	// 	.comm = "init",
	// 	.ts = 1000,
	// },
	// {
	// 	.pid = 42,
	// 	.comm = "bash",
	// 	.ts = 2000,
	// },
}

// The same records as JSON lines (`btfkit pretty --format json`), values
// read by their BTF types; Count (--count) stops after the first record.
func ExampleJSONWriter() {
	spec, data := sampleRecords()
	classes, err := pretty.ParseClasses("sample")
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := pretty.NewDecoder(spec, pretty.Options{Classes: classes, Count: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	jw := pretty.NewJSONWriter(os.Stdout, d)
	if err := d.Decode(bytes.NewReader(data), jw.Write); err != nil {
		fmt.Println(err)
	}
	if err := jw.Flush(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"offset":0,"class":"sample","type":"sample","size":24,"members":{"pid":1,"comm":"init","ts":1000}}
}
