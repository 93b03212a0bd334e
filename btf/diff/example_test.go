package diff_test

import (
	"fmt"
	"os"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
)

// point builds BTF for struct point { int x; int <second>; }, with int
// as type 1 or as type 2: the IDs differ, the types need not.
func point(second string, intFirst bool) *btf.Spec {
	s := btf.NewSpec()
	addPoint := func(intID btf.TypeID) {
		s.Add("point", btf.KindStruct, 2, false, 8,
			s.AddString("x"), uint32(intID), 0,
			s.AddString(second), uint32(intID), 32)
	}
	if !intFirst {
		addPoint(2)
	}
	intID := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	if intFirst {
		addPoint(intID)
	}
	return s
}

// Types are matched by kind and name, not by ID: the same types in
// another order compare equal, a renamed member does not.
func ExampleCompare() {
	a := point("y", true)
	fmt.Println("reordered:", diff.Compare(a, point("y", false), diff.Options{}).Equal())

	r := diff.Compare(a, point("z", true), diff.Options{})
	fmt.Println("renamed member:", r.Equal())
	r.Write(os.Stdout)
	// Output:
	// reordered: true
	// renamed member: false
	// ~ STRUCT point: member 1 'y': int @32 -> member 1 'z': int @32
	// kind               A         B
	// INT                1         1
	// STRUCT             1         1
	// total              2         2
}
