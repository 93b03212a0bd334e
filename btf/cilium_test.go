package btf

import (
	"errors"
	"reflect"
	"testing"

	cbtf "github.com/cilium/ebpf/btf"
)

// ciliumKind maps a cilium/ebpf type to the kinds it may have been decoded
// from (cilium decodes ENUM and ENUM64 both to *Enum).
func ciliumKind(typ cbtf.Type) []Kind {
	switch typ.(type) {
	case *cbtf.Int:
		return []Kind{KindInt}
	case *cbtf.Pointer:
		return []Kind{KindPtr}
	case *cbtf.Array:
		return []Kind{KindArray}
	case *cbtf.Struct:
		return []Kind{KindStruct}
	case *cbtf.Union:
		return []Kind{KindUnion}
	case *cbtf.Enum:
		return []Kind{KindEnum, KindEnum64}
	case *cbtf.Fwd:
		return []Kind{KindFwd}
	case *cbtf.Typedef:
		return []Kind{KindTypedef}
	case *cbtf.Volatile:
		return []Kind{KindVolatile}
	case *cbtf.Const:
		return []Kind{KindConst}
	case *cbtf.Restrict:
		return []Kind{KindRestrict}
	case *cbtf.Func:
		return []Kind{KindFunc}
	case *cbtf.FuncProto:
		return []Kind{KindFuncProto}
	case *cbtf.Var:
		return []Kind{KindVar}
	case *cbtf.Datasec:
		return []Kind{KindDatasec}
	case *cbtf.Float:
		return []Kind{KindFloat}
	case *cbtf.TypeTag:
		return []Kind{KindTypeTag}
	}
	if reflect.TypeOf(typ).String() == "*btf.declTag" { // unexported in cilium
		return []Kind{KindDeclTag}
	}
	return nil
}

// ciliumName is the type's name in BTF terms: tags carry theirs as Value.
func ciliumName(typ cbtf.Type) string {
	switch t := typ.(type) {
	case *cbtf.TypeTag:
		return t.Value
	}
	if v := reflect.ValueOf(typ).Elem(); v.Kind() == reflect.Struct {
		if f := v.FieldByName("Value"); f.IsValid() && f.Kind() == reflect.String {
			return f.String()
		}
	}
	return typ.TypeName()
}

// ciliumVlen is the number of members, values or parameters, or -1.
func ciliumVlen(typ cbtf.Type) int {
	switch t := typ.(type) {
	case *cbtf.Struct:
		return len(t.Members)
	case *cbtf.Union:
		return len(t.Members)
	case *cbtf.Enum:
		return len(t.Values)
	case *cbtf.FuncProto:
		return len(t.Params)
	case *cbtf.Datasec:
		return len(t.Vars)
	}
	return -1
}

// TestAgainstCilium reads the reference BTFs (and the running kernel's)
// with cilium/ebpf, an independent parser: the number of types, and each
// type's kind, name and member count must agree with ours.
func TestAgainstCilium(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: vmlinux-sized inputs only in the full run")
	}
	ins := referenceInputs(t)
	ins = append(ins, sysfsInputs(t)...)
	for _, in := range ins {
		if in.base != "" {
			continue
		}
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			ours := loadInput(t, in)
			theirs, err := cbtf.LoadSpec(in.path)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for id := cbtf.TypeID(1); ; id++ {
				typ, err := theirs.TypeByID(id)
				if errors.Is(err, cbtf.ErrNotFound) {
					break
				}
				if err != nil {
					t.Fatalf("cilium: type %d: %v", id, err)
				}
				n++
				if !ours.Has(TypeID(id)) {
					continue // counted below
				}
				ot := ours.Type(TypeID(id))
				if ks := ciliumKind(typ); !kindIn(ot.Kind(), ks) {
					t.Errorf("[%d] kind: ours %v, cilium %T", id, ot.Kind(), typ)
				}
				if cn := ciliumName(typ); cn != ot.Name() && !(cn == "" && unnamedInCilium(ot.Kind())) {
					t.Errorf("[%d] %v name: ours %q, cilium %q", id, ot.Kind(), ot.Name(), cn)
				}
				if cv := ciliumVlen(typ); cv >= 0 && cv != ot.Vlen() {
					t.Errorf("[%d] %v %q vlen: ours %d, cilium %d", id, ot.Kind(), ot.Name(), ot.Vlen(), cv)
				}
			}
			if n != ours.NumTypes() {
				t.Fatalf("cilium reads %d types, we read %d", n, ours.NumTypes())
			}
		})
	}
}

func kindIn(k Kind, ks []Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// unnamedInCilium: cilium's TypeName is "" for these kinds whatever the BTF
// name offset says.
func unnamedInCilium(k Kind) bool {
	switch k {
	case KindPtr, KindArray, KindVolatile, KindConst, KindRestrict, KindFuncProto:
		return true
	}
	return false
}
