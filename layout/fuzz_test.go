package layout_test

import (
	"io"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/btfgen"
	"github.com/btfkit/btfkit/layout"
)

// fuzzOptions turns bits into layout options, each bit one of pahole's
// switches, so that the fuzzer combines them.
func fuzzOptions(bits uint32, spec *btf.Spec) layout.Options {
	o := layout.Options{
		Hex:                 bits&1 != 0,
		AnonInclude:         bits&2 != 0,
		NestedAnonInclude:   bits&4 != 0,
		Sizes:               bits&8 != 0,
		NrMembers:           bits&16 != 0,
		ExpandTypes:         bits&32 != 0,
		ExpandPointers:      bits&64 != 0,
		RelOffset:           bits&128 != 0,
		FindPointers:        bits&256 != 0,
		Sort:                bits&512 != 0,
		FlatArrays:          bits&1024 != 0,
		ClassesAsStructs:    bits&2048 != 0,
		SuppressPacked:      bits&4096 != 0,
		FixupSillyBitfields: bits&8192 != 0,
		WithFlexibleArray:   bits&16384 != 0,
		JustStructs:         bits&32768 != 0,
		CachelineSize:       []int{0, 32, 64, 128}[bits>>16&3],
		NrHoles:             int(bits >> 18 & 3),
	}
	if bits&(1<<20) != 0 {
		o.FindContainers = true
		o.Recursive = bits&(1<<21) != 0
	}
	o.Packable = bits&(1<<25) != 0
	o.Compile = bits&(1<<26) != 0
	if bits&(1<<27) != 0 {
		// -R (with -S) works on the classes -C names.
		o.Reorganize = true
		o.ShowReorgSteps = bits&(1<<28) != 0
		bits |= 1 << 22
	}
	if bits&(1<<22) != 0 {
		// -C with the name of some struct of the BTF.
		for id := btf.TypeID(1); id < spec.NextID(); id++ {
			if t := spec.Type(id); t.Kind() == btf.KindStruct && t.Name() != "" {
				o.ClassNames = []string{t.Name()}
				if int(id)%3 == int(bits>>23&3) {
					break
				}
			}
		}
	}
	return o
}

// FuzzLayout prints the layouts of BTF with combinations of pahole's
// options: valid BTF from btfgen.Random (every kind, bitfields, nested
// and anonymous structs, pointers to themselves) and, when raw is set,
// whatever Parse makes of arbitrary bytes (types that loop, dangle or
// lie about their sizes). It may refuse an option or report a problem;
// it must not panic or hang.
func FuzzLayout(f *testing.F) {
	f.Add([]byte("\x06\x01\x02\x03\x04\x05\x01\x11\x05\x06\x00\x11\x01\x10\x07\x02\x03"), uint32(0), false)
	f.Add([]byte("\x06\x04\x00\x06\x05\x07\x06\x03\x01\x02\x08\x05\x00\x06\x04\x01"), uint32(0x7fffff), false)
	f.Add(btfgen.Cycles().Marshal(nil), uint32(0x400020), true)
	f.Add(btfgen.StructNest(40, true).Marshal(nil), uint32(0x1000e0), true)
	f.Add([]byte("\x06\x04\x00\x06\x05\x07\x06\x03\x01\x02\x08\x05\x00\x06\x04\x01\x06\x01\x02\x03"), uint32(0x1e000000), false)
	f.Fuzz(func(t *testing.T, data []byte, bits uint32, raw bool) {
		var spec *btf.Spec
		if raw {
			var err error
			if spec, err = btf.Parse(data, nil); err != nil {
				return
			}
		} else {
			spec = btfgen.Random(data, 1000)
		}
		l := layout.NewListing(fuzzOptions(bits, spec))
		if _, err := l.Unit(io.Discard, spec, nil); err != nil {
			return
		}
		l.Finish(io.Discard)
	})
}
