package cdump

import (
	"strconv"

	"github.com/btfkit/btfkit/btf"
)

// A C declaration is written inside out: modifiers of a pointer go to its
// right, of anything else to the left, arrays and function prototypes wrap
// the declarator in parentheses. emitTypeDecl pushes the chain of types from
// id down to a terminal type (int, struct, typedef, ...) on the shared
// stack, then emitTypeChain pops it, terminal type first.
//
// Each declaration works on its own frame of the shared stack, a view of
// [start, start+cnt); nested declarations (members of an inlined struct,
// parameters of a function pointer) push their frames above it.
type frame struct {
	start, cnt int
}

// top is the type on top of the frame.
func (d *dumper) top(f *frame) btf.Type { return d.stack[f.start+f.cnt-1] }

// emitTypeDecl prints a declaration of fname with type id, e.g.
// "const char *name" or "int (*fn)(void *)".
func (d *dumper) emitTypeDecl(id btf.TypeID, fname string, lvl int) {
	start := len(d.stack)
	for n := 0; ; n++ {
		if id == 0 || !d.valid(id) || n >= d.n {
			// Void, or an ID out of range: a view of no kind.
			d.stack = append(d.stack, btf.Type{ID: id})
			if n >= d.n {
				d.fail(errLoop{id}) // a chain longer than the types: a loop
			}
			break
		}
		t := d.spec.Type(id)
		d.stack = append(d.stack, t)
		switch t.Kind() {
		case btf.KindPtr, btf.KindVolatile, btf.KindConst, btf.KindRestrict,
			btf.KindFuncProto, btf.KindTypeTag:
			id = t.Ref()
			continue
		case btf.KindArray:
			id = btf.TypeID(t.Extra()[0])
			continue
		}
		break
	}
	f := frame{start, len(d.stack) - start}
	d.emitTypeChain(&f, fname, lvl)
	d.stack = d.stack[:start]
}

// emitMods prints the const/volatile/restrict on top of the frame, the way
// they precede a non-pointer type ("const volatile int").
func (d *dumper) emitMods(f *frame) {
	for f.cnt > 0 {
		switch d.top(f).Kind() {
		case btf.KindVolatile:
			d.str("volatile ")
		case btf.KindConst:
			d.str("const ")
		case btf.KindRestrict:
			d.str("restrict ")
		default:
			return
		}
		f.cnt--
	}
}

// dropMods discards modifiers C cannot attach where BTF has them: on
// arrays (a GCC quirk) and on function prototypes (GCC's volatile for
// noreturn).
func (d *dumper) dropMods(f *frame) {
	for f.cnt > 0 {
		switch d.top(f).Kind() {
		case btf.KindVolatile, btf.KindConst, btf.KindRestrict, btf.KindTypeTag:
			f.cnt--
		default:
			return
		}
	}
}

func (d *dumper) emitName(name string, lastWasPtr bool) {
	if name != "" && !lastWasPtr {
		d.str(" ")
	}
	d.str(name)
}

func (d *dumper) emitTypeChain(f *frame, fname string, lvl int) {
	// A pointer's star needs no space after another star ("int ***");
	// a lone pointer before a prototype prints as "(*name)".
	lastWasPtr := true
	for f.cnt > 0 {
		f.cnt--
		t := d.stack[f.start+f.cnt]
		id := t.ID
		if id == 0 {
			d.emitMods(f)
			d.str("void")
			lastWasPtr = false
			continue
		}
		k := t.Kind()
		if k == btf.KindUnknown { // an ID out of range
			return
		}
		switch k {
		case btf.KindInt, btf.KindFloat:
			d.emitMods(f)
			if d.fixLayout {
				d.str(fixBaseName(t))
			} else {
				d.str(t.Name())
			}
		case btf.KindStruct, btf.KindUnion:
			d.emitMods(f)
			if t.NameOff() == 0 {
				d.emitStructDef(id, t, lvl)
			} else {
				d.emitStructFwd(id, t)
			}
		case btf.KindEnum, btf.KindEnum64:
			d.emitMods(f)
			if t.NameOff() == 0 {
				d.emitEnumDef(id, t, lvl)
			} else {
				d.str("enum ")
				d.str(d.typeName(id))
			}
		case btf.KindFwd:
			d.emitMods(f)
			d.emitFwdDef(id, t)
		case btf.KindTypedef:
			d.emitMods(f)
			d.str(d.identName(id))
		case btf.KindPtr:
			if lastWasPtr {
				d.str("*")
			} else {
				d.str(" *")
			}
		case btf.KindVolatile:
			d.str(" volatile")
		case btf.KindConst:
			d.str(" const")
		case btf.KindRestrict:
			d.str(" restrict")
		case btf.KindTypeTag:
			d.emitMods(f)
			d.str(" __attribute__((btf_type_tag(\"")
			d.str(t.Name())
			d.str("\")))")
		case btf.KindArray:
			d.dropMods(f)
			n := t.Extra()[2]
			if f.cnt == 0 {
				d.emitName(fname, lastWasPtr)
				d.arrayDim(n)
				return
			}
			multidim := d.top(f).Kind() == btf.KindArray
			if fname != "" && !lastWasPtr {
				d.str(" ")
			}
			if !multidim {
				d.str("(")
			}
			d.emitTypeChain(f, fname, lvl)
			if !multidim {
				d.str(")")
			}
			d.arrayDim(n)
			return
		case btf.KindFuncProto:
			d.dropMods(f)
			if f.cnt > 0 {
				d.str(" (")
				d.emitTypeChain(f, fname, lvl)
				d.str(")")
			} else {
				d.emitName(fname, lastWasPtr)
			}
			d.str("(")
			ext := t.Extra()
			vlen := len(ext) / 2
			// No parameters, or Clang's single void parameter: "(void)".
			// (libbpf 1.1 printed "()"; the kernel 6.1 stable tree that
			// Debian's bpftool 7.1 is built from carries the fix.)
			if vlen == 0 || (vlen == 1 && ext[1] == 0) {
				d.str("void)")
				return
			}
			for i := 0; i < vlen; i++ {
				if i > 0 {
					d.str(", ")
				}
				if i == vlen-1 && ext[2*i+1] == 0 {
					d.str("...")
					break
				}
				d.emitTypeDecl(btf.TypeID(ext[2*i+1]), d.spec.String(ext[2*i]), lvl)
			}
			d.str(")")
			return
		default:
			return
		}
		lastWasPtr = k == btf.KindPtr
	}
	d.emitName(fname, lastWasPtr)
}

func (d *dumper) arrayDim(n uint32) {
	d.str("[")
	d.out = strconv.AppendUint(d.out, uint64(n), 10)
	d.str("]")
}
