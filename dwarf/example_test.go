package dwarf_test

import (
	"fmt"
	"log"

	"github.com/btfkit/btfkit/dwarf"
)

// Walk every unit with two workers, collecting the names of structures;
// the results arrive in unit order.
func ExampleWalk() {
	d, err := dwarf.Open("vmlinux")
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	var names []string
	err = dwarf.Walk(d, 2, func(r *dwarf.UnitReader) ([]string, error) {
		var out []string
		var e dwarf.Entry
		for {
			ok, err := r.Next(&e)
			if err != nil || !ok {
				return out, err
			}
			if e.Tag != dwarf.TagStructureType {
				continue
			}
			if f := e.Field(dwarf.AttrName); f != nil {
				s, err := d.String(f)
				if err != nil {
					return nil, err
				}
				out = append(out, s) // a view of the mapping: valid until Close
			}
			if err := r.SkipChildren(); err != nil {
				return nil, err
			}
		}
	}, func(u *dwarf.Unit, res []string) error {
		names = append(names, res...)
		return nil
	})
	if err != nil {
		log.Fatal(err) // e.g. ".debug_info+0x1234: unknown abbreviation code 99"
	}
	fmt.Println(len(names))
}

// Follow a member's DW_AT_type to the type's DIE, wherever it is.
func ExampleUnitReader_EntryAt() {
	d, err := dwarf.Open("module.ko")
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	r := d.NewReader()
	var e, typ dwarf.Entry
	for i := range d.Units() {
		if err := r.Reset(&d.Units()[i]); err != nil {
			log.Fatal(err)
		}
		for {
			ok, err := r.Next(&e)
			if err != nil {
				log.Fatal(err)
			}
			if !ok {
				break
			}
			if e.Tag != dwarf.TagMember {
				continue
			}
			if off, ok := e.Ref(dwarf.AttrType); ok {
				if err := r.EntryAt(off, &typ); err != nil {
					log.Fatal(err)
				}
				size, _ := typ.Uint(dwarf.AttrByteSize)
				fmt.Println(typ.Tag, size)
			}
		}
	}
}

// Read the units of an object file one entry at a time: each unit's name
// and the functions it defines at its top level (gcc lists them last
// first). testdata/sample.o is the C corpus's types.c and funcs.c
// compiled with gcc 12 -g -O2.
func ExampleOpen() {
	d, err := dwarf.Open("../testdata/sample.o")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	r := d.NewReader()
	var e dwarf.Entry
	for i := range d.Units() {
		if err := r.Reset(&d.Units()[i]); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Print(r.Name(), ":")
		for {
			ok, err := r.Next(&e)
			if err != nil {
				fmt.Println(err)
				return
			}
			if !ok {
				break
			}
			if e.Depth != 1 || e.Tag != dwarf.TagSubprogram {
				continue
			}
			if f := e.Field(dwarf.AttrName); f != nil {
				name, _ := d.String(f)
				fmt.Print(" ", name)
			}
		}
		fmt.Println()
	}
	// Output:
	// internal/testc/corpus/types.c:
	// internal/testc/corpus/funcs.c: weak_func no_params varargs_func use_constprop constprop_me take_big global_func helper_static
}
