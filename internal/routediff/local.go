package routediff

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
)

// Local are the types a file's DWARF defines inside function bodies (or
// other types' bodies): named ones by kind and name, anonymous structs
// and unions by size and first member name, anonymous enums by first
// enumerator name.
type Local struct {
	named map[string]bool
	anon  map[string]bool
}

// LocalTypes reads the DWARF of the ELF file at path, unit by unit, and
// records its types that are not defined at the top level of their unit.
func LocalTypes(path string) (*Local, error) {
	l := &Local{named: map[string]bool{}, anon: map[string]bool{}}
	err := encode.EachUnit(path, encode.Options{Features: encode.DefaultFeatures}, func(u encode.Unit) error {
		s := u.Spec
		for id := s.FirstID(); id < s.NextID(); id++ {
			if !u.Facts.Nested(id) {
				continue
			}
			t := s.Type(id)
			kind := t.Kind().String()
			if t.Kind() == btf.KindFwd {
				l.named["FWD "+t.Name()] = true
				continue
			}
			if t.Name() != "" {
				l.named[kind+" "+t.Name()] = true
				continue
			}
			first := ""
			switch t.Kind() {
			case btf.KindStruct, btf.KindUnion:
				if t.Vlen() > 0 {
					first = s.String(t.Member(0).NameOff)
				}
			case btf.KindEnum, btf.KindEnum64:
				if t.Vlen() > 0 {
					first = s.String(t.Enum(0).NameOff)
				}
				l.anon[kind+" "+first] = true
				continue
			default:
				continue
			}
			l.anon[kind+" "+itoa(t.Size())+" "+first] = true
		}
		return nil
	})
	return l, err
}

func itoa(n uint32) string {
	var b [10]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

func (l *Local) hasNamed(kind, name string) bool {
	return l != nil && l.named[kind+" "+name]
}

// hasAnon reports whether an anonymous type of this kind with this
// rendering (btf/diff's) is defined inside a function body.
func (l *Local) hasAnon(kind, render string) bool {
	if l == nil {
		return false
	}
	if kind == "ENUM" || kind == "ENUM64" {
		return l.anon[kind+" "+firstItem(render)]
	}
	return l.anon[kind+" "+renderSize(render)+" "+firstItem(render)]
}

// MultiDefined returns the functions that more than one member of the
// ELF's .BTF archive defines (a FUNC whose parameters all have names).
func MultiDefined(path string) (map[string]bool, error) {
	data, where, err := btf.ReadBTFBytes(path)
	if err != nil {
		return nil, err
	}
	blobs, err := btf.SplitArchive(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", where, err)
	}
	defs := map[string]int{}
	for _, b := range blobs {
		m, err := btf.Parse(b, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", where, err)
		}
		for id := m.FirstID(); id < m.NextID(); id++ {
			t := m.Type(id)
			if t.Kind() != btf.KindFunc || !m.Has(t.Ref()) {
				continue
			}
			p, named := m.Type(t.Ref()), true
			for i := 0; i < p.Vlen(); i++ {
				if pa := p.Param(i); pa.NameOff == 0 && (pa.Type != 0 || i+1 < p.Vlen()) {
					named = false
				}
			}
			if named {
				defs[t.Name()]++
			}
		}
	}
	out := map[string]bool{}
	for n, k := range defs {
		if k > 1 {
			out[n] = true
		}
	}
	return out, nil
}
