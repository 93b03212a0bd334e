package dedup

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// TestStaged: begin on a Merger's types, more types appended (as the
// archive route appends functions and variables), Finish gives Dedup's
// bytes for the whole, with each set of options; and when a type the
// early phases handle is appended too, it still does (Finish starts
// again).
func TestStaged(t *testing.T) {
	members := gccMembers(t, 30)
	for _, opts := range []Options{{UniqueStrings: true}, {KeepDuplicateVars: true, UniqueStrings: true}, {KeepDuplicateVars: true, NoNameFwdResolution: true, UniqueStrings: true}} {
		for _, lateStruct := range []bool{false, true} {
			t.Run(fmt.Sprintf("%+v/struct=%v", opts, lateStruct), func(t *testing.T) {
				m := NewMerger(nil, 0, 0, 0)
				for _, s := range members {
					if _, err := m.Add(s); err != nil {
						t.Fatal(err)
					}
				}
				early := m.partial()
				// Without lateStruct, begin reuses the memory of a
				// Builder that deduplicated a member (as the archive
				// route gives it a group's): dirty tables must not
				// matter.
				var st *staged
				var err error
				if !lateStruct {
					st, err = beginIn(usedBuilder(t, members[0]), early, m.table(), opts, 100, 400)
				} else {
					st, err = begin(early, m.table(), opts)
				}
				if err != nil {
					t.Fatal(err)
				}
				// Late types: for each FUNC so far, a copy of its
				// prototype with renamed parameters and a FUNC of a new
				// name; a VAR and DATASEC; a DECL_TAG on a FUNC.
				n, added := early.NextID(), 0
				var vars []uint32
				for id := early.FirstID(); id < n; id++ {
					name, info, st, _ := early.RawType(id)
					if btf.KindOf(info) != btf.KindFunc {
						continue
					}
					pn, pinfo, pst, pext := early.RawType(btf.TypeID(st))
					ext := append([]uint32(nil), pext...)
					for k := 0; k < len(ext); k += 2 {
						ext[k] = m.String(fmt.Sprintf("late_param_%d", k/2))
					}
					proto := early.AddRaw(pn, pinfo, pst, ext...)
					fn := early.AddRaw(m.String(fmt.Sprintf("late_fn_%d", id)), info, uint32(proto))
					if added%7 == 0 {
						early.AddRaw(m.String("late_tag"), btf.Info(btf.KindDeclTag, 0, false), uint32(fn), ^uint32(0))
					}
					if added%5 == 0 {
						v := early.AddRaw(m.String(fmt.Sprintf("late_var_%d", id)), btf.Info(btf.KindVar, 0, false), pst, 1)
						vars = append(vars, uint32(v), 0, 4)
					}
					_ = name
					added++
				}
				if added == 0 {
					t.Fatal("no FUNC in the archive's members")
				}
				early.AddRaw(m.String(".data..percpu"), btf.Info(btf.KindDatasec, len(vars)/3, false), 0, vars...)
				if lateStruct {
					early.AddRaw(m.String("late_struct"), btf.Info(btf.KindStruct, 0, false), 0)
				}
				full := m.Spec()
				want, _, err := Dedup(full, Options{KeepDuplicateVars: opts.KeepDuplicateVars, NoNameFwdResolution: opts.NoNameFwdResolution})
				if err != nil {
					t.Fatal(err)
				}
				got, err := st.Finish(full)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Marshal(nil), want.Marshal(nil)) {
					t.Fatalf("staged gives %d types (%d bytes of strings), Dedup %d (%d)", got.NumTypes(), got.StringsLen(), want.NumTypes(), want.StringsLen())
				}
				t.Logf("%d types in, %d out, %d appended after begin", full.NumTypes(), got.NumTypes(), full.NumTypes()-int(n-1))
			})
		}
	}
}

// usedBuilder returns a Builder that has deduplicated s (its tables full
// of s's types).
func usedBuilder(t *testing.T, s *btf.Spec) *Builder {
	t.Helper()
	b := NewBuilder(0, 0, 0)
	sm := b.stringMap()
	sm.Reset(s)
	for id := s.FirstID(); id < s.NextID(); id++ {
		name, info, st, ext := s.RawType(id)
		ext = append([]uint32(nil), ext...)
		var err error
		btf.ForEachStringRef(info, &name, ext, func(p *uint32) {
			if err == nil {
				err = sm.Map(p)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		b.AddRaw(name, info, st, ext...)
	}
	if _, _, err := b.Dedup(Options{}); err != nil {
		t.Fatal(err)
	}
	return b
}
