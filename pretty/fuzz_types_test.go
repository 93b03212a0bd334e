package pretty_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/btfgen"
	"github.com/btfkit/btfkit/pretty"
)

// FuzzPrettyTypes decodes arbitrary record bytes with arbitrary types:
// valid BTF from btfgen.Random (every kind, bitfields, enums, nested and
// anonymous structs, arrays, pointers to themselves) and, when raw is
// set, whatever Parse makes of the first bytes (types that loop or lie
// about their sizes); the class is the struct or union the fuzzer picks,
// once plain and once with sizeof and type members taken from its own
// members. Text (hex or not) and JSON writers both run. Errors are
// fine; a panic or a hang is not.
func FuzzPrettyTypes(f *testing.F) {
	f.Add([]byte("\x06\x01\x02\x03\x04\x05\x01\x11\x05\x06\x00\x11\x01\x10\x07\x02\x03"), []byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c"), uint8(0), false)
	f.Add(btfgen.Cycles().Marshal(nil), bytes.Repeat([]byte{1, 0, 0, 0}, 16), uint8(13), true)
	f.Add(btfgen.StructNest(70, false).Marshal(nil), make([]byte, 300), uint8(70), true)
	f.Fuzz(func(t *testing.T, types, data []byte, which uint8, raw bool) {
		var spec *btf.Spec
		if raw {
			var err error
			if spec, err = btf.Parse(types, nil); err != nil {
				return
			}
		} else {
			spec = btfgen.Random(types, 500)
		}
		var classes []btf.Type
		for id := btf.TypeID(1); id < spec.NextID(); id++ {
			t := spec.Type(id)
			if (t.Kind() == btf.KindStruct || t.Kind() == btf.KindUnion) && t.Name() != "" {
				classes = append(classes, t)
			}
		}
		if len(classes) == 0 {
			return
		}
		c := classes[int(which)%len(classes)]
		opts := []pretty.Options{{Classes: []pretty.Class{{Name: c.Name()}}, MaxRecordSize: 1 << 16}}
		if c.Vlen() >= 2 {
			// The first member as the size, the second as the type.
			size, typ := spec.String(c.Member(0).NameOff), spec.String(c.Member(1).NameOff)
			opts = append(opts, pretty.Options{MaxRecordSize: 1 << 16, Classes: []pretty.Class{{
				Name: c.Name(), Sizeof: size, TypeMember: typ,
				Args: []pretty.Arg{{Key: "sizeof", Value: size}, {Key: "type", Value: typ}},
			}}})
		}
		for i, o := range opts {
			d, err := pretty.NewDecoder(spec, o)
			if err != nil {
				continue
			}
			tw := pretty.NewTextWriter(io.Discard, d, pretty.TextOptions{Hex: which&1 != 0, Verbose: i == 1})
			d.Decode(bytes.NewReader(data), tw.Write)
			tw.Flush()
			d2, err := pretty.NewDecoder(spec, o)
			if err != nil {
				t.Fatalf("a second decoder with the same options: %v", err)
			}
			jw := pretty.NewJSONWriter(io.Discard, d2)
			d2.Decode(bytes.NewReader(data), jw.Write)
			jw.Flush()
		}
	})
}
