package btfgen

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// Random builds valid BTF from arbitrary bytes, each byte or few choosing
// the next type: INT, FLOAT, PTR, CONST, VOLATILE, RESTRICT, TYPEDEF,
// ARRAY, STRUCT and UNION (bitfields, anonymous members, pointers to
// themselves), ENUM, ENUM64, FWD, FUNC_PROTO, FUNC, VAR, DATASEC,
// DECL_TAG and TYPE_TAG, names drawn from small pools so that names
// repeat, and copies of earlier runs of types (with their references
// inside the run renumbered) so that a deduplicator has work. References
// go to types made before, except pointers to the struct being made.
// The same bytes always give the same BTF, and Check accepts it (the
// package's test holds it to that). At most maxTypes types are made.
func Random(data []byte, maxTypes int) *btf.Spec {
	g := &gen{data: data, s: btf.NewSpec()}
	g.info = append(g.info, typeInfo{}) // void
	g.base()
	for len(g.data) > 0 && g.s.NumTypes() < maxTypes {
		g.step()
	}
	return g.s
}

// typeInfo is what the generator knows about a type it made.
type typeInfo struct {
	size, align uint32
	sized       bool // a complete type with a size: usable as a member, element or variable
	kind        btf.Kind
	intBits     uint32 // INT: its bits, for bitfields
	members     int    // STRUCT, UNION: members; FUNC_PROTO: parameters
	usedByVar   bool   // VAR: already in a DATASEC
}

type gen struct {
	data []byte
	s    *btf.Spec
	info []typeInfo // by type ID
	ints []btf.TypeID
}

func (g *gen) byte() byte {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return b
}

func (g *gen) n(max int) int { return int(g.byte()) % max }

var (
	structNames  = []string{"", "list", "node", "s", "task", "mm"}
	typedefNames = []string{"u8", "u32", "t", "node_t", "fn_t"}
	memberNames  = []string{"a", "b", "next", "prev", "v", "data"}
	enumNames    = []string{"", "state", "e"}
	valueNames   = []string{"A", "B", "C", "IDLE", "RUN"}
	funcNames    = []string{"f", "g", "main_loop", "init"}
	varNames     = []string{"x", "y", "counter"}
	secNames     = []string{".data", ".bss", ".rodata", ".data..percpu"}
	tagNames     = []string{"user", "rcu", "percpu"}
)

func pick(names []string, b byte) string { return names[int(b)%len(names)] }

// ints are the INT types Random may make: name, size, encoding.
var ints = []struct {
	name string
	size uint32
	enc  uint32
}{
	{"int", 4, btf.IntSigned},
	{"unsigned int", 4, 0},
	{"char", 1, btf.IntChar},
	{"unsigned char", 1, 0},
	{"short", 2, btf.IntSigned},
	{"long", 8, btf.IntSigned},
	{"long unsigned int", 8, 0},
	{"_Bool", 1, btf.IntBool},
	{"__int128", 16, btf.IntSigned},
}

// add appends a type and what the generator knows of it.
func (g *gen) add(name string, k btf.Kind, vlen int, kflag bool, sizeType uint32, ti typeInfo, ext ...uint32) btf.TypeID {
	ti.kind = k
	g.info = append(g.info, ti)
	return g.s.Add(name, k, vlen, kflag, sizeType, ext...)
}

// base makes an int, so that arrays have an index type.
func (g *gen) base() {
	g.addInt(0)
}

func (g *gen) addInt(i int) btf.TypeID {
	it := ints[i%len(ints)]
	bits := it.size * 8
	id := g.add(it.name, btf.KindInt, 0, false, it.size, typeInfo{size: it.size, align: min(it.size, 8), sized: true, intBits: bits}, it.enc<<24|bits)
	g.ints = append(g.ints, id)
	return id
}

// anyType is any type so far, void included, or one of the given kinds.
func (g *gen) pickID(ok func(typeInfo) bool) (btf.TypeID, bool) {
	n := len(g.info)
	start := g.n(n)
	for i := 0; i < n; i++ {
		id := (start + i) % n
		if ok(g.info[id]) {
			return btf.TypeID(id), true
		}
	}
	return 0, false
}

func sized(t typeInfo) bool { return t.sized }

// pointee: what a pointer may point to (not a FUNC, VAR, DATASEC or tag).
func pointee(t typeInfo) bool {
	switch t.kind {
	case btf.KindFunc, btf.KindVar, btf.KindDatasec, btf.KindDeclTag:
		return false
	}
	return true
}

func (g *gen) step() {
	switch g.n(18) {
	case 0:
		g.addInt(g.n(len(ints)))
	case 1, 2:
		g.addPtr()
	case 3:
		g.addModifier()
	case 4:
		g.addTypedef()
	case 5:
		g.addArray()
	case 6, 7:
		g.addStruct(btf.KindStruct)
	case 8:
		g.addStruct(btf.KindUnion)
	case 9:
		g.addEnum()
	case 10:
		fk := g.byte()
		g.add(pick(structNames[1:], fk), btf.KindFwd, 0, fk&0x80 != 0, 0, typeInfo{})
	case 11:
		g.addProto()
	case 12:
		g.addFunc()
	case 13:
		g.addVar()
	case 14:
		g.addDatasec()
	case 15:
		size := []uint32{2, 4, 8, 16}[g.n(4)]
		g.add(fmt.Sprintf("float%d", size*8), btf.KindFloat, 0, false, size, typeInfo{size: size, align: min(size, 8), sized: true})
	case 16:
		g.addTag()
	case 17:
		g.copyRun()
	}
}

func (g *gen) addPtr() {
	t, _ := g.pickID(pointee)
	g.add("", btf.KindPtr, 0, false, uint32(t), typeInfo{size: 8, align: 8, sized: true})
}

func (g *gen) addModifier() {
	k := []btf.Kind{btf.KindConst, btf.KindVolatile, btf.KindRestrict}[g.n(3)]
	ok := func(t typeInfo) bool {
		// Modifiers do not go on top of TYPE_TAGs (tags come first,
		// right after a pointer) and restrict only on pointers.
		if k == btf.KindRestrict {
			return t.kind == btf.KindPtr
		}
		return pointee(t) && t.kind != btf.KindTypeTag && t.kind != btf.KindFuncProto
	}
	t, found := g.pickID(ok)
	if !found {
		return
	}
	ti := g.info[t]
	ti.kind = 0
	ti.usedByVar = false
	g.add("", k, 0, false, uint32(t), ti)
}

func (g *gen) addTypedef() {
	t, _ := g.pickID(func(t typeInfo) bool { return pointee(t) && t.kind != btf.KindTypeTag })
	ti := g.info[t]
	ti.usedByVar = false
	g.add(pick(typedefNames, g.byte()), btf.KindTypedef, 0, false, uint32(t), ti)
}

func (g *gen) addArray() {
	elem, ok := g.pickID(sized)
	if !ok {
		return
	}
	n := uint32(g.n(5))
	e := g.info[elem]
	g.add("", btf.KindArray, 0, false, 0, typeInfo{size: e.size * n, align: e.align, sized: true},
		uint32(elem), uint32(g.ints[0]), n)
}

// addStruct makes a struct or union of up to five members laid out as a
// C compiler would: aligned members, bitfields packed after each other
// (kind_flag set), anonymous members of struct or union type, and
// sometimes a pointer to the struct itself.
func (g *gen) addStruct(k btf.Kind) {
	name := pick(structNames, g.byte())
	nm := g.n(6)
	kflag := false
	var ext []uint32
	var self []btf.TypeID                   // pointers to the struct, pointed once it exists
	var off, maxEnd, align uint32 = 0, 0, 1 // in bits, bits, bytes
	for i := 0; i < nm; i++ {
		var mt btf.TypeID
		var ok bool
		if g.n(5) == 0 {
			mt = g.add("", btf.KindPtr, 0, false, 0, typeInfo{size: 8, align: 8, sized: true})
			self = append(self, mt)
			ok = true
		} else {
			mt, ok = g.pickID(sized)
		}
		if !ok {
			break
		}
		mi := g.info[mt]
		mname := g.s.AddString(memberNames[i%len(memberNames)] + fmt.Sprint(i))
		if (mi.kind == btf.KindStruct || mi.kind == btf.KindUnion) && g.n(3) == 0 {
			mname = 0 // anonymous member
		}
		bits := uint32(0)
		if mi.kind == btf.KindInt && mi.intBits > 1 && g.n(3) == 0 {
			bits = 1 + uint32(g.n(int(min(mi.intBits, 32))))
			kflag = true
		}
		if k == btf.KindUnion {
			off = 0
		} else if bits == 0 {
			off = alignUp(off, mi.align*8)
		}
		if bits == 0 {
			align = max(align, mi.align)
		}
		ext = append(ext, mname, uint32(mt), bits<<24|off)
		w := mi.size * 8
		if bits != 0 {
			w = bits
		}
		maxEnd = max(maxEnd, off+w)
		if k == btf.KindStruct {
			off += w
		}
	}
	size := alignUp((maxEnd+7)/8, align)
	id := g.add(name, k, len(ext)/3, kflag, size, typeInfo{size: size, align: align, sized: true, members: len(ext) / 3}, ext...)
	for _, p := range self {
		g.s.SetRaw(p, 0, btf.Info(btf.KindPtr, 0, false), uint32(id))
	}
}

func alignUp(v, a uint32) uint32 {
	if a == 0 {
		return v
	}
	return (v + a - 1) / a * a
}

func (g *gen) addEnum() {
	n := g.n(5)
	signed := g.byte()&1 != 0
	if n > 0 && g.n(4) == 0 {
		var ext []uint32
		for i := 0; i < n; i++ {
			v := uint64(g.byte())<<40 | uint64(g.byte())
			ext = append(ext, g.s.AddString(pick(valueNames, g.byte())), uint32(v), uint32(v>>32))
		}
		g.add(pick(enumNames, g.byte()), btf.KindEnum64, n, signed, 8, typeInfo{size: 8, align: 8, sized: true}, ext...)
		return
	}
	// Sizes 4 and 8 only: the kernel checks an enum member of a
	// kind_flag struct as if it were 4 bytes wide.
	size := []uint32{4, 4, 8}[g.n(3)]
	if n == 0 {
		// A declaration ("enum state;"): named, and only pointed to,
		// as C allows. Dedup takes it for a full ENUM or ENUM64 of
		// its name whatever the size, as libbpf does.
		g.add(pick(enumNames[1:], g.byte()), btf.KindEnum, 0, signed, size, typeInfo{})
		return
	}
	var ext []uint32
	for i := 0; i < n; i++ {
		v := uint32(g.byte())
		if size >= 2 {
			v |= uint32(g.byte()) << 8
		}
		ext = append(ext, g.s.AddString(pick(valueNames, g.byte())), v)
	}
	g.add(pick(enumNames, g.byte()), btf.KindEnum, n, signed, size, typeInfo{size: size, align: size, sized: true}, ext...)
}

// addProto makes a function prototype with named parameters (a FUNC's
// must be), sometimes ending in "..." (a void parameter without a name).
func (g *gen) addProto() {
	ret, _ := g.pickID(func(t typeInfo) bool { return t.sized || t.kind == 0 && t.size == 0 })
	if !g.info[ret].sized {
		ret = 0
	}
	n := g.n(4)
	var ext []uint32
	for i := 0; i < n; i++ {
		p, ok := g.pickID(sized)
		if !ok {
			break
		}
		ext = append(ext, g.s.AddString(fmt.Sprintf("arg%d", i)), uint32(p))
	}
	if len(ext) > 0 && g.n(4) == 0 {
		ext = append(ext, 0, 0)
	}
	g.add("", btf.KindFuncProto, len(ext)/2, false, uint32(ret), typeInfo{members: len(ext) / 2}, ext...)
}

func (g *gen) addFunc() {
	p, ok := g.pickID(func(t typeInfo) bool { return t.kind == btf.KindFuncProto })
	if !ok {
		return
	}
	g.add(pick(funcNames, g.byte()), btf.KindFunc, g.n(2), false, uint32(p), typeInfo{members: g.info[p].members})
}

func (g *gen) addVar() {
	t, ok := g.pickID(func(t typeInfo) bool { return t.sized && t.size > 0 })
	if !ok {
		return
	}
	g.add(pick(varNames, g.byte()), btf.KindVar, 0, false, uint32(t), typeInfo{size: g.info[t].size}, uint32(g.n(2)))
}

// addDatasec puts up to four VARs not in a section yet one after the
// other into a section.
func (g *gen) addDatasec() {
	var ext []uint32
	off := uint32(0)
	for i := 0; i < 1+g.n(4); i++ {
		v, ok := g.pickID(func(t typeInfo) bool { return t.kind == btf.KindVar && !t.usedByVar })
		if !ok {
			break
		}
		g.info[v].usedByVar = true
		size := g.info[v].size
		ext = append(ext, uint32(v), off, size)
		off += size
	}
	if len(ext) == 0 {
		return // a DATASEC without entries is invalid
	}
	g.add(pick(secNames, g.byte()), btf.KindDatasec, len(ext)/3, false, off, typeInfo{}, ext...)
}

// addTag makes a DECL_TAG on a struct, union, typedef, function or
// variable (or one of their members or parameters), or a TYPE_TAG
// right after a new pointer.
func (g *gen) addTag() {
	name := pick(tagNames, g.byte())
	if g.n(2) == 0 {
		t, ok := g.pickID(pointee)
		if !ok || g.info[t].kind == btf.KindFunc {
			return
		}
		if k := g.info[t].kind; k == btf.KindConst || k == btf.KindVolatile || k == btf.KindRestrict {
			return // tags come before modifiers
		}
		tag := g.add(name, btf.KindTypeTag, 0, false, uint32(t), typeInfo{})
		g.add("", btf.KindPtr, 0, false, uint32(tag), typeInfo{size: 8, align: 8, sized: true})
		return
	}
	t, ok := g.pickID(func(t typeInfo) bool {
		switch t.kind {
		case btf.KindStruct, btf.KindUnion, btf.KindTypedef, btf.KindFunc, btf.KindVar:
			return true
		}
		return false
	})
	if !ok {
		return
	}
	comp := int32(-1)
	if m := g.info[t].members; m > 0 && g.n(2) == 0 && g.info[t].kind != btf.KindTypedef && g.info[t].kind != btf.KindVar {
		comp = int32(g.n(m))
	}
	g.add(name, btf.KindDeclTag, 0, false, uint32(t), typeInfo{}, uint32(comp))
}

// copyRun appends a copy of up to 16 consecutive earlier types: the
// references into the run go to the copies, the others stay.
func (g *gen) copyRun() {
	n := g.s.NumTypes()
	if n < 2 {
		return
	}
	first := btf.TypeID(1 + g.n(n))
	count := min(1+g.n(16), int(g.s.NextID()-first))
	end := first + btf.TypeID(count)
	shift := uint32(g.s.NextID() - first)
	for id := first; id < end; id++ {
		nameOff, info, sizeType, ext := g.s.RawType(id)
		ext = append([]uint32(nil), ext...)
		remap := func(p *uint32) {
			if *p >= uint32(first) && *p < uint32(end) {
				*p += shift
			}
		}
		btf.ForEachTypeRef(info, &sizeType, ext, remap)
		ti := g.info[id]
		if ti.kind == btf.KindVar {
			ti.usedByVar = true // it may be in the copied section: in no other
		}
		if ti.kind == btf.KindDatasec {
			// A section's VARs must be in no other section: a section
			// whose VARs are not copied too becomes a copy of the int.
			for i := 0; i < len(ext); i += 3 {
				if ext[i] < uint32(end) {
					nameOff, info, sizeType, ext = g.s.RawType(g.ints[0])
					ti = g.info[g.ints[0]]
					break
				}
			}
		}
		g.info = append(g.info, ti)
		g.s.AddRaw(nameOff, info, sizeType, ext...)
	}
}
