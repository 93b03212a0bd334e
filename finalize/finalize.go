package finalize

import (
	"fmt"
	"sort"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/distill"
)

// KFImplicitArgs is the kfunc flag (include/linux/btf.h) that asks for the
// _impl rewrite.
const KFImplicitArgs = 1 << 16

// implSuffix names the twin that keeps the full prototype.
const implSuffix = "_impl"

// The struct types an implicit kfunc argument points to
// (is_kf_implicit_arg).
var implicitArgStructs = map[string]bool{"bpf_prog_aux": true, "btf_struct_meta": true}

// Options are resolve_btfids' options that change the BTF.
type Options struct {
	// DistillBase distills the base (--distill_base, which
	// scripts/Makefile.btf passes for out-of-tree modules).
	DistillBase bool
}

// Result is what resolve_btfids --btf writes.
type Result struct {
	BTF  *btf.Spec // ELF.BTF: the final BTF (split against Base when there is one)
	Base *btf.Spec // ELF.BTF.base: the distilled base (DistillBase), else nil
	// IDs is ELF.BTF_ids, the section contents to patch in; nil when the
	// ELF has no .BTF_ids (or no symbols): the tool writes none then.
	IDs []byte
	// Rewritten lists the kfuncs whose prototype lost implicit
	// arguments, in the order they were rewritten; Twins the _impl
	// FUNCs added (not the legacy ones that were there).
	Rewritten, Twins []string
	// Warnings are what the tool prints after "WARN: " (unresolved names, a
	// name found twice): with --fatal_warnings they fail the build.
	Warnings []string
}

// Finalize does to s (pahole's BTF; split against its base for a module)
// what resolve_btfids --btf does, with ids read from the ELF the BTF was
// made from (ReadIDs; nil when it has no .BTF_ids). s is not modified.
func Finalize(s *btf.Spec, ids *IDs, o Options) (*Result, error) {
	if o.DistillBase && s.Base() == nil {
		return nil, fmt.Errorf("finalize: distilling a base needs split BTF (a module's, with its base)")
	}
	if e := ids.patched(); e != nil {
		return nil, fmt.Errorf("finalize: .BTF_ids is resolved already (set %s has its count): give the ELF as the linker left it, before resolve_btfids --patch_btfids (.tmp_vmlinux1, a module before its BTF step)", e.Name)
	}
	w := copySpec(s)
	r := &Result{}
	if ids != nil {
		if err := btf2btf(w, ids, r, o.DistillBase); err != nil {
			return nil, err
		}
	}
	if o.DistillBase {
		b, split, err := distill.Distill(w)
		if err != nil {
			return nil, fmt.Errorf("finalize: distilling the base: %w", err)
		}
		// 7.2's libbpf makes new BTF (btf__new_empty) with its own
		// 32-byte header and no kind layout section.
		for _, x := range []*btf.Spec{b, split} {
			x.SetKindLayouts(nil)
			x.SetHeaderLen(btf.LayoutHeaderLen)
		}
		w = split
		r.Base = b
	}
	w, _ = btf.SortByName(w)
	r.BTF = w
	if ids != nil && ids.Data != nil {
		data, warns, err := patchIDs(w, ids)
		if err != nil {
			return nil, err
		}
		r.IDs = data
		r.Warnings = append(r.Warnings, warns...)
	}
	return r, nil
}

// copySpec returns a copy of s's own types and strings (against the same
// base) that can be added to.
func copySpec(s *btf.Spec) *btf.Spec {
	var c *btf.Spec
	if s.Base() != nil {
		c = btf.NewSplitSpec(s.Base())
	} else {
		c = btf.NewSpec()
	}
	c.SetRawStrings(append([]byte(nil), s.RawStrings()...))
	c.SetHeaderLen(s.HeaderLen())
	c.SetKindLayouts(s.KindLayouts())
	c.Reserve(s.NumTypes(), s.NumWords())
	for id := s.FirstID(); id < s.NextID(); id++ {
		name, info, st, ext := s.RawType(id)
		c.AddRaw(name, info, st, ext...)
	}
	return c
}

// kfunc is a FUNC tagged bpf_kfunc that .BTF_ids lists.
type kfunc struct {
	name  string
	id    btf.TypeID
	flags uint32
}

// btf2btf is the tool's btf2btf: the KF_IMPLICIT_ARGS rewrite.
func btf2btf(s *btf.Spec, ids *IDs, r *Result, distilling bool) error {
	// Every DECL_TAG, base types included, in ID order.
	var tags []btf.TypeID
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		if _, info, _, _ := s.RawType(id); btf.KindOf(info) == btf.KindDeclTag {
			tags = append(tags, id)
		}
	}
	funcs := ids.funcs()
	var kfuncs []kfunc
	for _, tid := range tags {
		t := s.Type(tid)
		if t.KindFlag() || t.ComponentIdx() != -1 || t.Name() != "bpf_kfunc" {
			continue
		}
		fid := t.Ref()
		if !s.Has(fid) || s.Type(fid).Kind() != btf.KindFunc {
			continue
		}
		e := funcs[s.Type(fid).Name()]
		if e == nil {
			continue
		}
		kfuncs = append(kfuncs, kfunc{name: e.Name, id: fid, flags: ids.kfuncFlags(e)})
	}
	for _, k := range kfuncs {
		if k.flags&KFImplicitArgs == 0 {
			continue
		}
		if err := implicitArgs(s, tags, k, r, distilling); err != nil {
			return err
		}
	}
	return nil
}

// implicitArgs is process_kfunc_with_implicit_args.
func implicitArgs(s *btf.Spec, tags []btf.TypeID, k kfunc, r *Result, distilling bool) error {
	inBase := k.id < s.FirstID()
	if inBase && distilling {
		// The tool changes the base FUNC in memory (to point at the
		// new prototype in the split BTF) and distills that base: not
		// followed.
		return fmt.Errorf("finalize: kfunc %s with KF_IMPLICIT_ARGS is a base type [%d]; distilling after rewriting it is not supported", k.name, k.id)
	}
	fn := s.Type(k.id)
	linkage := fn.Vlen()
	protoID := fn.Ref()
	if !s.Has(protoID) || s.Type(protoID).Kind() != btf.KindFuncProto {
		return fmt.Errorf("finalize: btf id %d is not a function prototype", protoID)
	}
	impl := k.name + implSuffix
	if len(impl) >= 512 {
		return fmt.Errorf("finalize: function name is too long: %s", impl)
	}
	if !hasFunc(s, impl) {
		if linkage > 2 {
			return fmt.Errorf("finalize: kfunc %s has linkage %d", k.name, linkage)
		}
		nid := s.Add(impl, btf.KindFunc, linkage, false, uint32(protoID))
		r.Twins = append(r.Twins, impl)
		for _, tid := range tags {
			t := s.Type(tid)
			if t.Ref() != k.id {
				continue
			}
			name := t.Name()
			if name == "bpf_kfunc" {
				continue
			}
			// btf__add_decl_tag / btf__add_decl_attr: the type's
			// room first, then its string.
			s.Add(name, btf.KindDeclTag, 0, t.KindFlag(), uint32(nid), uint32(t.ComponentIdx()))
		}
	}
	proto := s.Type(protoID)
	var params []uint32
	for i := 0; i < proto.Vlen(); i++ {
		p := proto.Param(i)
		if isImplicitArg(s, p.Type) {
			break
		}
		off := uint32(0)
		if n := s.String(p.NameOff); n != "" {
			off = s.AddString(n)
		}
		params = append(params, off, uint32(p.Type))
	}
	pid := s.AddRaw(0, btf.Info(btf.KindFuncProto, len(params)/2, false), proto.SizeType(), params...)
	// A base FUNC (a module listing a vmlinux kfunc) is changed by the
	// tool only in its copy of the base, which it does not write: the
	// split BTF just gains the prototype.
	if !inBase {
		name, info, _, ext := s.RawType(k.id)
		s.SetRaw(k.id, name, info, uint32(pid), ext...)
	}
	r.Rewritten = append(r.Rewritten, k.name)
	return nil
}

// hasFunc reports whether s (base included) has a FUNC named name
// (btf__find_by_name_kind > 0).
func hasFunc(s *btf.Spec, name string) bool {
	if _, ok := s.FindString(name); !ok {
		return false
	}
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		n, info, _, _ := s.RawType(id)
		if btf.KindOf(info) == btf.KindFunc && s.String(n) == name {
			return true
		}
	}
	return false
}

// skipMods follows libbpf's btf_is_mod kinds: volatile, const, restrict,
// type tag (not typedef).
func skipMods(s *btf.Spec, id btf.TypeID) btf.Type {
	for {
		t := s.Type(id)
		switch t.Kind() {
		case btf.KindVolatile, btf.KindConst, btf.KindRestrict, btf.KindTypeTag:
			id = t.Ref()
			continue
		}
		return t
	}
}

// isImplicitArg is is_kf_implicit_arg: a pointer (through modifiers) to
// one of the structs in implicitArgStructs.
func isImplicitArg(s *btf.Spec, id btf.TypeID) bool {
	t := skipMods(s, id)
	if t.Kind() != btf.KindPtr {
		return false
	}
	t = skipMods(s, t.Ref())
	return t.Kind() == btf.KindStruct && implicitArgStructs[t.Name()]
}

// patchIDs is symbols_resolve, symbols_patch and sets_patch on a copy of
// the section's contents, against the final BTF s.
func patchIDs(s *btf.Spec, ids *IDs) ([]byte, []string, error) {
	var warns []string
	data := append([]byte(nil), ids.Data...)
	// The first type of each kind and name, base types first.
	want := map[[2]string]*IDEntry{}
	kindName := map[btf.Kind]string{btf.KindFunc: "func", btf.KindStruct: "struct", btf.KindUnion: "union", btf.KindTypedef: "typedef"}
	entryKind := map[IDKind]string{IDFunc: "func", IDStruct: "struct", IDUnion: "union", IDTypedef: "typedef"}
	left := map[string]int{}
	for _, e := range ids.Entries {
		if k, ok := entryKind[e.Kind]; ok {
			want[[2]string{k, e.Name}] = e
		}
	}
	for k, kn := range map[IDKind]string{IDFunc: "func", IDStruct: "struct", IDUnion: "union", IDTypedef: "typedef"} {
		left[kn] = ids.Symbols[k]
	}
	resolved := map[*IDEntry]uint32{}
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		n, info, _, _ := s.RawType(id)
		var kn string
		switch btf.KindOf(info) {
		case btf.KindFunc, btf.KindTypedef:
			kn = kindName[btf.KindOf(info)]
		case btf.KindStruct, btf.KindUnion:
			// btf_is_struct/union: the kind, whatever kind_flag says.
			kn = kindName[btf.KindOf(info)]
		default:
			continue
		}
		if left[kn] == 0 {
			continue
		}
		e := want[[2]string{kn, s.String(n)}]
		if e == nil {
			continue
		}
		if old, ok := resolved[e]; ok {
			warns = append(warns, fmt.Sprintf("multiple IDs found for '%s': %d, %d - using %d", e.Name, old, id, old))
			continue
		}
		resolved[e] = uint32(id)
		left[kn]--
	}
	put := func(e *IDEntry, v uint32) error {
		for _, a := range e.Addrs {
			off := a - ids.Addr
			if a < ids.Addr || off >= uint64(len(data)) || off+4 > uint64(len(data)) {
				return fmt.Errorf("finalize: %s %s: patching index %d out of bounds %d", entryKind[e.Kind], e.Name, off, len(data))
			}
			ids.Order.PutUint32(data[off:], v)
		}
		return nil
	}
	// The tool's order: structs, unions, typedefs, funcs, sets.
	for _, k := range []IDKind{IDStruct, IDUnion, IDTypedef, IDFunc} {
		for _, e := range ids.Entries {
			if e.Kind != k {
				continue
			}
			v, ok := resolved[e]
			if !ok {
				warns = append(warns, "resolve_btfids: unresolved symbol "+e.Name)
			}
			if err := put(e, v); err != nil {
				return nil, nil, err
			}
		}
	}
	sets := ids.setsDescending()
	for _, e := range sets {
		if err := put(e, e.Count); err != nil {
			return nil, nil, err
		}
	}
	for _, e := range sets {
		if len(e.Addrs) != 1 {
			return nil, nil, fmt.Errorf("finalize: malformed data for set '%s'", e.Name)
		}
		off := e.Addrs[0] - ids.Addr
		cnt := uint64(ids.Order.Uint32(data[off:]))
		var start, stride uint64
		if e.Kind == IDSet {
			start, stride = off+4, 4
		} else {
			start, stride = off+8, 8
		}
		end := start + cnt*stride
		if end > uint64(len(data)) {
			return nil, nil, fmt.Errorf("finalize: set %s runs past the section", e.Name)
		}
		sortSet(data[start:end], int(stride), ids)
	}
	return data, warns, nil
}

// sortSet sorts the records of b (stride bytes each) by their first word
// as cmp_id compares them (the int difference of the two), stably: glibc's
// qsort is a merge sort for sets this small.
func sortSet(b []byte, stride int, ids *IDs) {
	n := len(b) / stride
	recs := make([][]byte, n)
	for i := range recs {
		recs[i] = append([]byte(nil), b[i*stride:(i+1)*stride]...)
	}
	sort.SliceStable(recs, func(i, j int) bool {
		return int32(ids.Order.Uint32(recs[i])-ids.Order.Uint32(recs[j])) < 0
	})
	for i, r := range recs {
		copy(b[i*stride:], r)
	}
}
