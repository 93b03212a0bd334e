package pfunct

// codiff's changes as data (btfkit codiff --format json): the changes
// codiff's verbose text lists, unit by unit, each with its kind.

// CodiffResult is what changed between two builds.
type CodiffResult struct {
	Old     string       `json:"old"`
	New     string       `json:"new"`
	Changed bool         `json:"changed"`
	Units   []CodiffUnit `json:"units"`
}

// CodiffUnit is one unit with changes: from the old build (Side "old":
// its structs and functions compared with the new build's unit of the
// same name) or, when the new build has several units, from the new
// build (Side "new": what it added), as codiff lists them.
type CodiffUnit struct {
	Name      string           `json:"name"`
	Side      string           `json:"side"`
	Structs   []CodiffStruct   `json:"structs,omitempty"`
	Functions []CodiffFunction `json:"functions,omitempty"`
}

// CodiffStruct is a struct that changed, or (Added) one the new build
// added.
type CodiffStruct struct {
	Name     string         `json:"name"`
	Added    bool           `json:"added,omitempty"`
	OldSize  uint32         `json:"old_size"`
	NewSize  uint32         `json:"new_size"`
	SizeDiff int            `json:"size_diff"`
	Changes  []CodiffChange `json:"changes,omitempty"`
}

// Kinds of CodiffChange.
const (
	MemberAdded       = "member_added"
	MemberRemoved     = "member_removed"
	MemberMoved       = "member_moved"   // its offset or bit offset changed
	MemberResized     = "member_resized" // its size or bit size changed
	MemberTypeChanged = "member_type_changed"
	PaddingChanged    = "padding_changed"
	HolesChanged      = "holes_changed"
	BitHolesChanged   = "bit_holes_changed"
)

// CodiffChange is one change of a struct: of a member (From and To for
// one in both builds, Member for one added or removed), or of its
// padding or holes (Diff).
type CodiffChange struct {
	Kind   string        `json:"kind"`
	Member string        `json:"member,omitempty"`
	From   *CodiffMember `json:"from,omitempty"`
	To     *CodiffMember `json:"to,omitempty"`
	Diff   int           `json:"diff,omitempty"`
}

// CodiffMember is a member as codiff prints it.
type CodiffMember struct {
	Type           string `json:"type"`
	Offset         uint32 `json:"offset"`
	BitfieldOffset int8   `json:"bitfield_offset"`
	Size           uint64 `json:"size"`
	BitfieldSize   uint8  `json:"bitfield_size"`
}

// Kinds of CodiffFunction.
const (
	FunctionAdded            = "added"
	FunctionRemoved          = "removed"
	FunctionInlined          = "inlined"
	FunctionUninlined        = "uninlined"
	FunctionPrototypeChanged = "prototype_changed"
	FunctionSizeChanged      = "size_changed"
)

// CodiffFunction is a function that changed.
type CodiffFunction struct {
	Name         string `json:"name"`
	Kind         string `json:"kind"`
	SizeDiff     int32  `json:"size_diff"`
	OldSize      uint32 `json:"old_size,omitempty"`
	NewSize      uint32 `json:"new_size,omitempty"`
	OldPrototype string `json:"old_prototype,omitempty"`
	NewPrototype string `json:"new_prototype,omitempty"`
}

// CodiffReport finds what Codiff would print with -V, as data.
func CodiffReport(oldPath, newPath string, o CodiffOptions) (*CodiffResult, error) {
	o.Terse = false
	d, oldCUs, newCUs, err := runCodiff(oldPath, newPath, &o)
	if err != nil {
		return nil, err
	}
	r := &CodiffResult{Old: oldPath, New: newPath, Changed: anyChanged(oldCUs, newCUs), Units: []CodiffUnit{}}
	printed := map[string]bool{}
	add := func(cu *cdUnit, side string) {
		if cu.nrFuncsChanged == 0 && cu.nrStructsChanged == 0 {
			return
		}
		ru := CodiffUnit{Name: cu.name, Side: side}
		if cu.nrStructsChanged != 0 && d.o.Structs {
			for _, s := range cu.structs {
				if s.priv == nil || printed[s.name] {
					continue
				}
				printed[s.name] = true
				ru.Structs = append(ru.Structs, reportStruct(s))
			}
		}
		if cu.nrFuncsChanged != 0 && d.o.Functions {
			for _, f := range cu.funcs {
				if f.priv != nil {
					ru.Functions = append(ru.Functions, reportFunction(f, side == "new"))
				}
			}
		}
		r.Units = append(r.Units, ru)
	}
	for _, cu := range oldCUs {
		add(cu, "old")
	}
	if len(newCUs) > 1 {
		for _, cu := range newCUs {
			add(cu, "new")
		}
	}
	return r, nil
}

func memberOf(s *cdStruct, i int) *CodiffMember {
	m := s.info.Members[i]
	return &CodiffMember{Type: s.types[i], Offset: m.ByteOffset, BitfieldOffset: m.BitfieldOffset, Size: m.ByteSize, BitfieldSize: m.BitfieldSize}
}

func reportStruct(s *cdStruct) CodiffStruct {
	ns := s.priv.st
	rs := CodiffStruct{Name: s.name}
	if ns == nil {
		// a struct the new build added (codiff lists it under the new
		// build's unit)
		rs.Added, rs.NewSize, rs.SizeDiff = true, s.info.Size, int(s.info.Size)
		return rs
	}
	rs.OldSize, rs.NewSize = s.info.Size, ns.info.Size
	rs.SizeDiff = int(ns.info.Size) - int(s.info.Size)
	if diff := int(ns.info.Padding) - int(s.info.Padding); diff != 0 {
		rs.Changes = append(rs.Changes, CodiffChange{Kind: PaddingChanged, Diff: diff})
	}
	if diff := int(ns.info.NrHoles) - int(s.info.NrHoles); diff != 0 {
		rs.Changes = append(rs.Changes, CodiffChange{Kind: HolesChanged, Diff: diff})
	}
	if diff := int(ns.info.NrBitHoles) - int(s.info.NrBitHoles); diff != 0 {
		rs.Changes = append(rs.Changes, CodiffChange{Kind: BitHolesChanged, Diff: diff})
	}
	// check_print_members_changes: members in both builds that changed,
	// those removed, then those added.
	nrAnon := 0
	visited := make([]bool, len(ns.info.Members))
	for i, m := range s.info.Members {
		j := pairMember(ns, m, &nrAnon)
		if j < 0 {
			rs.Changes = append(rs.Changes, CodiffChange{Kind: MemberRemoved, Member: cname(m.Name), From: memberOf(s, i)})
			continue
		}
		visited[j] = true
		n := ns.info.Members[j]
		if m.Type == 0 || n.Type == 0 {
			continue
		}
		from, to := memberOf(s, i), memberOf(ns, j)
		if m.ByteOffset != n.ByteOffset || m.BitfieldOffset != n.BitfieldOffset {
			rs.Changes = append(rs.Changes, CodiffChange{Kind: MemberMoved, Member: cname(m.Name), From: from, To: to})
		}
		if m.ByteSize != n.ByteSize || m.BitfieldSize != n.BitfieldSize {
			rs.Changes = append(rs.Changes, CodiffChange{Kind: MemberResized, Member: cname(m.Name), From: from, To: to})
		}
		if s.types[i] != ns.types[j] {
			rs.Changes = append(rs.Changes, CodiffChange{Kind: MemberTypeChanged, Member: cname(m.Name), From: from, To: to})
		}
	}
	for j, m := range ns.info.Members {
		if !visited[j] {
			rs.Changes = append(rs.Changes, CodiffChange{Kind: MemberAdded, Member: cname(m.Name), To: memberOf(ns, j)})
		}
	}
	return rs
}

func reportFunction(f *cdFunc, added bool) CodiffFunction {
	di := f.priv
	rf := CodiffFunction{Name: f.name, SizeDiff: di.diff}
	switch {
	case !di.hasTag && added:
		rf.Kind, rf.NewSize, rf.NewPrototype = FunctionAdded, f.size, f.proto
	case !di.hasTag:
		rf.Kind, rf.OldSize, rf.OldPrototype = FunctionRemoved, f.size, f.proto
	case di.fn.inlined && added:
		rf.Kind, rf.NewSize, rf.NewPrototype = FunctionUninlined, f.size, f.proto
	case di.fn.inlined:
		rf.Kind, rf.OldSize, rf.OldPrototype = FunctionInlined, f.size, f.proto
	default:
		rf.Kind = FunctionSizeChanged
		if f.proto != di.fn.proto {
			rf.Kind = FunctionPrototypeChanged
		}
		rf.OldSize, rf.NewSize = f.size, di.fn.size
		rf.OldPrototype, rf.NewPrototype = f.proto, di.fn.proto
	}
	return rf
}
