package btf

import (
	"fmt"
	"strings"
)

// Check's rules for what references reach: chains of modifiers and the
// type they resolve to, byte sizes through them, reference loops, and the
// order and depth of the kernel's resolve walk.

// sourceOnly kinds may refer to types but may not be referred to by
// pointers, modifiers, members or arrays.
func sourceOnly(k Kind) bool { return k == KindVar || k == KindDeclTag || k == KindDatasec }

// hasSizeField reports the kinds whose size-or-type word is a size.
func hasSizeField(k Kind) bool {
	switch k {
	case KindInt, KindStruct, KindUnion, KindEnum, KindEnum64, KindFloat, KindDatasec:
		return true
	}
	return false
}

const (
	stUnknown uint8 = iota
	stBusy
	stDone
	stBad
)

// resolve follows a chain of modifiers from id and returns the first type
// that is not a modifier (possibly void). ok is false when the chain
// loops or reaches an ID that does not exist; those are reported by the
// types themselves.
func (c *checker) resolve(id TypeID) (TypeID, bool) {
	var path []TypeID
	cur := id
	for {
		if cur == 0 {
			break
		}
		if cur >= c.next {
			c.markPath(path, 0, false)
			return 0, false
		}
		switch c.state[cur] {
		case stDone:
			r := c.resolved[cur] - 1
			c.markPath(path, r, true)
			return r, true
		case stBad, stBusy:
			c.markPath(path, 0, false)
			return 0, false
		}
		t := c.s.Type(cur)
		if !IsModifier(t.Kind()) {
			break
		}
		c.state[cur] = stBusy
		path = append(path, cur)
		cur = t.Ref()
	}
	c.markPath(path, cur, true)
	return cur, true
}

func (c *checker) markPath(path []TypeID, r TypeID, ok bool) {
	for _, p := range path {
		if ok {
			c.state[p] = stDone
			c.resolved[p] = r + 1
		} else {
			c.state[p] = stBad
		}
	}
}

// sizeOf returns the byte size of a type, following modifiers, as the
// kernel's btf_type_id_size does: sized kinds give their size, PTR 8,
// ARRAY its element size times its length. ok is false for void, FWD,
// FUNC, FUNC_PROTO, VAR, DECL_TAG, loops and bad IDs. It also returns the
// type the modifiers resolved to.
func (c *checker) sizeOf(id TypeID) (size uint64, rid TypeID, ok bool) {
	rid, ok = c.resolve(id)
	if !ok || rid == 0 {
		return 0, rid, false
	}
	t := c.s.Type(rid)
	switch k := t.Kind(); {
	case hasSizeField(k):
		return uint64(t.Size()), rid, true
	case k == KindPtr:
		return ptrSize, rid, true
	case k == KindArray:
		sz, ok := c.arraySize(rid)
		return sz, rid, ok
	}
	return 0, rid, false
}

// arraySize computes an ARRAY's byte size, memoized; false on loops, on
// elements without size and on sizes that overflow 32 bits.
func (c *checker) arraySize(id TypeID) (uint64, bool) {
	switch c.arrState[id] {
	case stDone:
		return c.arrSize[id], true
	case stBad, stBusy:
		return 0, false
	}
	c.arrState[id] = stBusy
	t := c.s.Type(id)
	if len(t.Extra()) != 3 {
		c.arrState[id] = stBad
		return 0, false
	}
	a := t.Array()
	esz, _, ok := c.sizeOf(a.Elem)
	if !ok || (a.Nelems != 0 && esz > 0xffffffff/uint64(a.Nelems)) {
		c.arrState[id] = stBad
		return 0, false
	}
	c.arrSize[id] = esz * uint64(a.Nelems)
	c.arrState[id] = stDone
	return c.arrSize[id], true
}

// checkLoops finds reference loops the kernel rejects. The kernel resolves
// references in two modes: following pointers, where structs, unions and
// arrays end the walk, and following members and elements, where pointers
// end it. So a loop is legal only when it passes through both a PTR and a
// STRUCT, UNION or ARRAY. Equivalently: the graph of modifiers and
// pointers must be acyclic, and so must the graph of modifiers, structs,
// unions and arrays.
func (c *checker) checkLoops() {
	ptrGraph := func(k Kind) bool { return IsModifier(k) || k == KindPtr }
	valGraph := func(k Kind) bool {
		return IsModifier(k) || k == KindStruct || k == KindUnion || k == KindArray
	}
	reported := make(map[TypeID]bool)
	c.findCycles(ptrGraph, "pointer/modifier", reported)
	c.findCycles(valGraph, "by-value member/element", reported)
}

// edges returns the references of t that stay inside a graph.
func (c *checker) edges(t Type, in func(Kind) bool, buf []TypeID) []TypeID {
	buf = buf[:0]
	add := func(id TypeID) {
		if id >= c.first && id < c.next && in(c.s.Type(id).Kind()) {
			buf = append(buf, id)
		}
	}
	switch k := t.Kind(); {
	case IsModifier(k) || k == KindPtr:
		add(t.Ref())
	case k == KindArray && len(t.Extra()) == 3:
		a := t.Array()
		add(a.Elem)
		add(a.Index)
	case (k == KindStruct || k == KindUnion) && len(t.Extra()) == 3*t.Vlen():
		for i := 0; i < t.Vlen(); i++ {
			add(t.Member(i).Type)
		}
	}
	return buf
}

// findCycles runs an iterative depth-first search over the types of the
// graph and reports each cycle once, at the first type of it found.
func (c *checker) findCycles(in func(Kind) bool, what string, reported map[TypeID]bool) {
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, int(c.next-c.first))
	type frame struct {
		id    TypeID
		edges []TypeID
		i     int
	}
	var stack []frame
	for root := c.first; root < c.next; root++ {
		if color[root-c.first] != white || !in(c.s.Type(root).Kind()) {
			continue
		}
		color[root-c.first] = grey
		stack = append(stack[:0], frame{id: root, edges: c.edges(c.s.Type(root), in, nil)})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.i == len(f.edges) {
				color[f.id-c.first] = black
				stack = stack[:len(stack)-1]
				continue
			}
			next := f.edges[f.i]
			f.i++
			switch color[next-c.first] {
			case white:
				color[next-c.first] = grey
				stack = append(stack, frame{id: next, edges: c.edges(c.s.Type(next), in, nil)})
			case grey:
				// A back edge: the cycle is the stack from next to the top.
				j := len(stack) - 1
				for j > 0 && stack[j].id != next {
					j--
				}
				var ids []string
				dup := false
				for _, fr := range stack[j:] {
					ids = append(ids, c.describe(fr.id))
					dup = dup || reported[fr.id]
				}
				if dup {
					continue
				}
				for _, fr := range stack[j:] {
					reported[fr.id] = true
				}
				ids = append(ids, fmt.Sprintf("[%d]", next))
				c.add(c.s.Type(next), RuleLoop, "%s reference loop: %s", what, strings.Join(ids, " -> "))
			}
		}
	}
}

// maxResolveDepth is the kernel's MAX_RESOLVE_DEPTH.
const maxResolveDepth = 32

// Resolve modes of the kernel's walk: which kinds end it.
const (
	modeAny    = iota // not decided yet: only kinds that need no resolving end it
	modePtr           // after a PTR: anything but modifiers and pointers ends it
	modeStruct        // after a STRUCT, UNION or ARRAY: pointers end it too
)

// needsResolve reports the kinds the kernel's btf_type_needs_resolve
// names: those whose references it walks.
func needsResolve(k Kind) bool {
	switch k {
	case KindPtr, KindStruct, KindUnion, KindArray, KindVar, KindFunc, KindDeclTag, KindDatasec:
		return true
	}
	return IsModifier(k)
}

func isSink(mode int, k Kind) bool {
	switch mode {
	case modePtr:
		return !IsModifier(k) && k != KindPtr
	case modeStruct:
		return !IsModifier(k) && k != KindArray && k != KindStruct && k != KindUnion
	}
	return !needsResolve(k)
}

// checkDepth replays the order in which the kernel resolves references
// (btf_check_all_types: each type in ID order, then each FUNC_PROTO's
// return and parameter types) and reports walks deeper than the kernel's
// stack of 32, and the one order-dependent reference rule: a pointer or
// modifier reached from a pointer or struct may refer to a FUNC only if the
// kernel has resolved that FUNC already. Loops are left to checkLoops.
func (c *checker) checkDepth() {
	first := c.s.FirstID()
	done := make([]uint8, int(c.next-first)) // 0 new, 1 on the walk, 2 resolved
	resolved := func(id TypeID) bool { return id < first || done[id-first] == 2 }
	type frame struct {
		id   TypeID
		next int
	}
	var stack []frame
	walk := func(root TypeID) {
		mode := modeAny
		push := func(id TypeID) {
			k := c.s.Type(id).Kind()
			if mode == modeAny {
				if k == KindPtr {
					mode = modePtr
				} else if k == KindStruct || k == KindUnion || k == KindArray {
					mode = modeStruct
				}
			}
			done[id-first] = 1
			stack = append(stack, frame{id: id})
		}
		push(root)
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			child, more := c.resolveChild(c.s.Type(f.id), f.next)
			if !more {
				done[f.id-first] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			f.next++
			if child == 0 || child >= c.next || resolved(child) || done[child-first] == 1 {
				continue
			}
			ft := c.s.Type(f.id)
			if f.next == 1 && mode != modeAny && (ft.Kind() == KindPtr || IsModifier(ft.Kind())) && c.s.Type(child).Kind() == KindFunc {
				// The kernel takes a FUNC as its prototype only once it
				// has resolved it; walking from a pointer (or a struct)
				// it does not resolve it first, and rejects the reference.
				c.add(ft, RuleRefKind, "refers to %s, which the kernel has not resolved yet when it resolves this %s (walking from %s); refer to a FUNC only after it, or through a TYPEDEF resolved first", c.describe(child), ft.Kind(), c.describe(root))
				continue
			}
			if isSink(mode, c.s.Type(child).Kind()) {
				continue
			}
			if len(stack) == maxResolveDepth {
				c.add(c.s.Type(root), RuleDepth, "resolving it walks more than %d types not resolved yet (%s -> ... -> %s -> %s); the kernel gives up", maxResolveDepth, c.describe(root), c.describe(f.id), c.describe(child))
				for _, fr := range stack {
					done[fr.id-first] = 2
				}
				stack = stack[:0]
				return
			}
			push(child)
		}
	}
	for id := first; id < c.next; id++ {
		t := c.s.Type(id)
		k := t.Kind()
		if k > MaxKind || len(t.Extra()) != ExtraWords(k, t.Vlen()) {
			continue
		}
		if needsResolve(k) && !resolved(id) {
			walk(id)
		}
		if k == KindFuncProto {
			refs := []TypeID{t.Ref()}
			for i := 0; i < t.Vlen(); i++ {
				refs = append(refs, t.Param(i).Type)
			}
			for _, r := range refs {
				if r != 0 && r < c.next && !resolved(r) && done[r-first] == 0 && needsResolve(c.s.Type(r).Kind()) {
					walk(r)
				}
			}
		}
	}
}

// resolveChild returns reference i of t that the kernel's resolve walk
// follows, and false when there are no more.
func (c *checker) resolveChild(t Type, i int) (TypeID, bool) {
	k := t.Kind()
	if k > MaxKind || len(t.Extra()) != ExtraWords(k, t.Vlen()) {
		return 0, false
	}
	switch {
	case IsModifier(k) || k == KindDeclTag:
		return t.Ref(), i == 0
	case k == KindPtr || k == KindVar:
		// After its target, a pointer or variable whose target is a
		// modifier resolved to a pointer continues with that pointer.
		switch i {
		case 0:
			return t.Ref(), true
		case 1:
			ref := t.Ref()
			if ref == 0 || ref >= c.next || !IsModifier(c.s.Type(ref).Kind()) {
				return 0, true
			}
			if rid, ok := c.resolve(ref); ok && rid != 0 && c.s.Type(rid).Kind() == KindPtr {
				return rid, true
			}
			return 0, true
		}
	case k == KindStruct || k == KindUnion:
		if i < t.Vlen() {
			return t.Member(i).Type, true
		}
	case k == KindArray:
		a := t.Array()
		switch i {
		case 0:
			return a.Index, true
		case 1:
			return a.Elem, true
		}
	case k == KindDatasec:
		if i < t.Vlen() {
			return t.SecVar(i).Type, true
		}
	}
	return 0, false
}
