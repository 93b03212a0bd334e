package cdump

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// orderer decides the order of top-level definitions: libbpf's topological
// walk with its order states and the "referenced" marks of anonymous
// enums. It shares nothing mutable with the dumper that prints, so it runs
// ahead of it on another goroutine (see dump in write.go); the output does
// not depend on scheduling, since the printer consumes the order as one
// sequence.
type orderer struct {
	spec       *btf.Spec
	n          int     // one past the last type ID
	state      []uint8 // notOrdered, ordering, ordered
	referenced []bool
	queue      []btf.TypeID // definitions the current root needs, in order
	ptrs       []btf.TypeID // pointers on the chains orderType is following
}

func newOrderer(spec *btf.Spec) *orderer {
	n := int(spec.NextID())
	o := &orderer{spec: spec, n: n, state: make([]uint8, n), referenced: make([]bool, n)}
	o.state[0] = ordered
	return o
}

// order queues the definitions root needs that were not queued before.
// On an error (a cycle C cannot express) nothing of root is queued, as
// libbpf emits nothing for that root.
func (o *orderer) order(root btf.TypeID) error {
	o.queue = o.queue[:0]
	if int(root) >= o.n {
		return fmt.Errorf("type id %d out of range", root)
	}
	if _, err := o.orderType(root, false, 0); err != nil {
		o.queue = o.queue[:0]
		return err
	}
	return nil
}

// markReferenced records in ref which types the types with IDs in
// [from, to) refer to. (A top-level anonymous enum, a set of constants, is
// one nothing refers to.) It also counts the names those types may
// register: struct, union and enum tags, typedef names and enumerators (at
// most; to size the maps). Two halves of the ID range can be marked into
// two slices at once and merged.
func markReferenced(spec *btf.Spec, from, to int, ref []bool) (tags, idents int) {
	mark := func(id uint32) {
		if int(id) < len(ref) {
			ref[id] = true
		}
	}
	for id := btf.TypeID(from); int(id) < to; id++ {
		t := spec.Type(id)
		ext := t.Extra()
		switch t.Kind() {
		case btf.KindVolatile, btf.KindConst, btf.KindRestrict, btf.KindPtr,
			btf.KindFunc, btf.KindVar, btf.KindDeclTag, btf.KindTypeTag:
			mark(t.SizeType())
		case btf.KindTypedef:
			idents++
			mark(t.SizeType())
		case btf.KindArray:
			mark(ext[1])
			mark(ext[0])
		case btf.KindStruct, btf.KindUnion:
			tags++
			for i := 1; i < len(ext); i += 3 {
				mark(ext[i])
			}
		case btf.KindDatasec:
			for i := 0; i < len(ext); i += 3 {
				mark(ext[i])
			}
		case btf.KindFuncProto:
			for i := 1; i < len(ext); i += 2 {
				mark(ext[i])
			}
		case btf.KindEnum, btf.KindEnum64:
			tags++
			idents += t.Vlen()
		}
	}
	return tags, idents
}

// orderType walks the types id depends on and queues, in an order C can
// compile, those that need a top-level definition. It returns 1 when id is
// a strong dependency (its full definition must come first) and 0 when a
// forward declaration is enough (it is reached through a pointer).
func (o *orderer) orderType(id btf.TypeID, throughPtr bool, depth int) (int, error) {
	// Pointers, modifiers and arrays lead on to one type each: follow
	// them in a loop, however long the chain, and mark the pointers
	// passed ordered afterwards as the recursion would.
	start := len(o.ptrs)
	defer func() {
		for _, p := range o.ptrs[start:] {
			o.state[p] = ordered
		}
		o.ptrs = o.ptrs[:start]
	}()
	for n := 0; ; n++ {
		if int(id) >= o.n || n >= o.n {
			return 0, errLoop{id}
		}
		if o.state[id] == ordered {
			return 1, nil
		}
		t := o.spec.Type(id)
		switch t.Kind() {
		case btf.KindPtr:
			o.ptrs = append(o.ptrs, id)
			id, throughPtr = t.Ref(), true
			continue
		case btf.KindArray:
			id, throughPtr = btf.TypeID(t.Extra()[0]), false
			continue
		case btf.KindVolatile, btf.KindConst, btf.KindRestrict, btf.KindTypeTag:
			id = t.Ref()
			continue
		}
		break
	}
	if depth > maxDepth {
		return 0, errDeep{id, maxDepth}
	}
	return o.orderDef(id, throughPtr, depth)
}

// orderDef is orderType for a type that is not a pointer, a modifier or
// an array.
func (o *orderer) orderDef(id btf.TypeID, throughPtr bool, depth int) (int, error) {
	s := &o.state[id]
	if *s == ordered {
		return 1, nil
	}
	t := o.spec.Type(id)
	named := t.NameOff() != 0
	if *s == ordering {
		k := t.Kind()
		if (k == btf.KindStruct || k == btf.KindUnion) && throughPtr && named {
			return 0, nil
		}
		return 0, errLoop{id}
	}
	depth++
	switch t.Kind() {
	case btf.KindInt, btf.KindFloat:
		*s = ordered
		return 0, nil
	case btf.KindStruct, btf.KindUnion:
		if throughPtr && named {
			return 0, nil
		}
		*s = ordering
		ext := t.Extra()
		for i := 1; i < len(ext); i += 3 {
			if _, err := o.orderType(btf.TypeID(ext[i]), false, depth); err != nil {
				return 0, err
			}
		}
		if named {
			o.queue = append(o.queue, id)
		}
		o.state[id] = ordered
		return 1, nil
	case btf.KindEnum, btf.KindEnum64, btf.KindFwd:
		if named || !o.referenced[id] {
			o.queue = append(o.queue, id)
		}
		*s = ordered
		return 1, nil
	case btf.KindTypedef:
		strong, err := o.orderType(t.Ref(), throughPtr, depth)
		if err != nil {
			return 0, err
		}
		if throughPtr && strong == 0 {
			return 0, nil
		}
		o.queue = append(o.queue, id)
		o.state[id] = ordered
		return 1, nil
	case btf.KindFuncProto:
		strong, err := o.orderType(t.Ref(), throughPtr, depth)
		if err != nil {
			return 0, err
		}
		ext := t.Extra()
		for i := 1; i < len(ext); i += 2 {
			r, err := o.orderType(btf.TypeID(ext[i]), throughPtr, depth)
			if err != nil {
				return 0, err
			}
			if r > 0 {
				strong = 1
			}
		}
		return strong, nil
	case btf.KindFunc, btf.KindVar, btf.KindDatasec, btf.KindDeclTag:
		*s = ordered
		return 0, nil
	}
	return 0, fmt.Errorf("type [%d]: unexpected kind %v", id, t.Kind())
}
