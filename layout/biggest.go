package layout

import "github.com/btfkit/btfkit/btf"

// -l (show_first_biggest_size_base_type_member): the summary names the
// first member of the largest base type size, looking into struct and
// union members, as pahole's type__find_first_biggest_size_base_type_member
// finds it: the first one of at least a word, else the first of the
// largest power of two below a word. Word-size fixups (-w) use it too.

// firstBiggestMember returns that member (of c or of a struct or union
// inside it), nil when no member has a size.
func (u *unit) firstBiggestMember(c *class) *member {
	if !u.enter() {
		return nil
	}
	defer u.leave()
	word := uint64(u.sz.PtrSize)
	var result *member
	var resultSize uint64
	for i := range c.members {
		pos := &c.members[i]
		var size uint64
		var inner *member
		id := pos.typ
	reevaluate:
		for steps := 0; ; steps++ {
			t, ok := u.typ(id)
			if !ok || steps == maxDepth {
				break
			}
			switch k := t.Kind(); {
			case k == btf.KindInt || k == btf.KindFloat:
				size = u.size(id)
			case k == btf.KindPtr:
				size = word
			case t.IsStruct() || t.IsUnion():
				ic := u.class(id)
				if len(ic.members) == 0 {
					break reevaluate
				}
				inner = u.firstBiggestMember(ic)
				if inner != nil {
					size = inner.byteSize
				}
			case k == btf.KindArray:
				id = u.arrayElem(id, t.Array())
				continue
			case k == btf.KindConst || k == btf.KindTypedef || k == btf.KindVolatile:
				id = t.Ref()
				continue
			case t.IsEnum():
				size = u.size(id)
			}
			break
		}
		if size > word {
			return pos
		}
		found := pos
		if inner != nil {
			found = inner
		}
		for p2 := word; p2 > resultSize; p2 /= 2 {
			if size >= p2 {
				if p2 == word {
					return found
				}
				resultSize = p2
				result = found
			}
		}
	}
	return result
}

// printFirstBiggest is the summary line -l adds.
func (u *unit) printFirstBiggest(b *buf, cl *class, c *conf) {
	if len(cl.members) == 0 {
		return
	}
	m := u.firstBiggestMember(cl)
	if m == nil {
		return // pahole dereferences NULL here
	}
	b.Tabs(c.indent)
	b.Str("/* first biggest size base type member: ")
	b.Str(cname(m.name, m.name != ""))
	b.Byte(' ')
	b.Uint(uint64(m.byteOffset))
	b.Byte(' ')
	b.Int(int64(m.byteSize))
	b.Str(" */\n")
}
