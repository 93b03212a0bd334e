package btfgen

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// PtrChain is valid BTF with a chain of n pointers to a long (whose size
// tells printers the pointer size, as libbpf guesses it), a typedef
// "deep_ptr" of the outermost pointer and a struct "holder" with a
// member of that type (so that every printer has something named to
// start from). With reverse the IDs run from the outside in (holder
// first, int last), so that walks in ID order meet the whole chain at
// once; otherwise from the inside out (int first), as compilers emit it.
func PtrChain(n int, reverse bool) *btf.Spec {
	s := btf.NewSpec()
	s.Reserve(n+3, 5)
	p := s.AddString("p")
	if reverse {
		s.Add("holder", btf.KindStruct, 1, false, 8, p, 2, 0) // 1
		s.Add("deep_ptr", btf.KindTypedef, 0, false, 3)       // 2
		for i := 0; i < n; i++ {
			s.Add("", btf.KindPtr, 0, false, uint32(s.NextID())+1) // 3 .. n+2
		}
		s.Add("long", btf.KindInt, 0, false, 8, btf.IntSigned<<24|64) // n+3
		return s
	}
	prev := s.Add("long", btf.KindInt, 0, false, 8, btf.IntSigned<<24|64)
	for i := 0; i < n; i++ {
		prev = s.Add("", btf.KindPtr, 0, false, uint32(prev))
	}
	td := s.Add("deep_ptr", btf.KindTypedef, 0, false, uint32(prev))
	s.Add("holder", btf.KindStruct, 1, false, 8, p, uint32(td), 0)
	return s
}

// StructNest is valid BTF with n+1 structs nested by value: s0 holds an
// int "a", each s(i) holds s(i-1) as "a" and an int "b" after it, so
// s(n) is n+1 ints long. With reverse s(n) has the first ID and the int
// the last; otherwise the int is first and s(n) last.
func StructNest(n int, reverse bool) *btf.Spec {
	s := btf.NewSpec()
	s.Reserve(n+2, 6*n+3)
	a, b := s.AddString("a"), s.AddString("b")
	if reverse {
		in := uint32(n + 2)
		for i := n; i >= 1; i-- {
			size := uint32(4 * (i + 1))
			s.Add(fmt.Sprintf("s%d", i), btf.KindStruct, 2, false, size,
				a, uint32(s.NextID())+1, 0,
				b, in, (size-4)*8)
		}
		s.Add("s0", btf.KindStruct, 1, false, 4, a, in, 0)
		s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
		return s
	}
	in := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	prev := s.Add("s0", btf.KindStruct, 1, false, 4, a, uint32(in), 0)
	for i := 1; i <= n; i++ {
		size := uint32(4 * (i + 1))
		prev = s.Add(fmt.Sprintf("s%d", i), btf.KindStruct, 2, false, size,
			a, uint32(prev), 0,
			b, uint32(in), (size-4)*8)
	}
	return s
}

// TypedefChain is valid BTF with n typedefs, each of the one before
// ("t1" of int, "t2" of t1, ...), and a struct "holder" with a member
// of type t(n); with reverse the IDs run from holder down to the int.
func TypedefChain(n int, reverse bool) *btf.Spec {
	s := btf.NewSpec()
	s.Reserve(n+2, 3)
	p := s.AddString("p")
	if reverse {
		s.Add("holder", btf.KindStruct, 1, false, 4, p, 2, 0)
		for i := n; i >= 1; i-- {
			s.Add(fmt.Sprintf("t%d", i), btf.KindTypedef, 0, false, uint32(s.NextID())+1)
		}
		s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
		return s
	}
	prev := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	for i := 1; i <= n; i++ {
		prev = s.Add(fmt.Sprintf("t%d", i), btf.KindTypedef, 0, false, uint32(prev))
	}
	s.Add("holder", btf.KindStruct, 1, false, 4, p, uint32(prev), 0)
	return s
}

// Cycles is invalid BTF whose references loop, each loop on its own: a
// PTR to a CONST to the PTR, a typedef of itself, a struct holding itself
// by value, two structs holding each other, an array of itself; and a
// valid struct with a pointer to itself (a linked list) beside them.
func Cycles() *btf.Spec {
	s := btf.NewSpec()
	in := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32) // 1
	s.Add("", btf.KindPtr, 0, false, 3)                                // 2 -> 3
	s.Add("", btf.KindConst, 0, false, 2)                              // 3 -> 2
	s.Add("self_td", btf.KindTypedef, 0, false, 4)                     // 4 -> 4
	m := s.AddString("m")
	s.Add("self_s", btf.KindStruct, 1, false, 4, m, 5, 0)                                                              // 5 holds 5
	s.Add("ping", btf.KindStruct, 1, false, 4, m, 7, 0)                                                                // 6 holds 7
	s.Add("pong", btf.KindStruct, 1, false, 4, m, 6, 0)                                                                // 7 holds 6
	s.Add("", btf.KindArray, 0, false, 0, 8, uint32(in), 2)                                                            // 8: array of 8
	s.Add("arr_s", btf.KindStruct, 1, false, 8, m, 8, 0)                                                               // 9
	s.Add("ptd", btf.KindTypedef, 0, false, 11)                                                                        // 10 -> 11
	s.Add("", btf.KindPtr, 0, false, 10)                                                                               // 11 -> 10
	s.Add("loops", btf.KindStruct, 1, false, 8, s.AddString("l"), 10, 0)                                               // 12
	ptr := s.Add("", btf.KindPtr, 0, false, 14)                                                                        // 13 -> 14
	s.Add("node", btf.KindStruct, 2, false, 16, s.AddString("next"), uint32(ptr), 0, s.AddString("v"), uint32(in), 64) // 14
	return s
}
