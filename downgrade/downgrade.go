package downgrade

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// Rule is one rewrite: what it does to BTF for kernels older than the
// release that introduced Feature.
type Rule struct {
	Feature btf.Feature
	Action  string
}

// Rules lists the rewrites, newest feature first, as the package
// documentation's table does.
func Rules() []Rule {
	return []Rule{
		{btf.Feature24BitVlen, "none possible: a vlen over 65,535 or a kind over 31 is an error"},
		{btf.FeatureLayout, "drop the kind layout section; write a 24-byte header"},
		{btf.FeatureTagFlag, "drop DECL_TAG and TYPE_TAG with kind_flag (attributes)"},
		{btf.FeatureEnum64, "ENUM64 becomes an ENUM of the same size, values cut to their low 32 bits; ENUM loses its kind_flag"},
		{btf.FeatureTypeTag, "drop TYPE_TAG (references go to the tagged type)"},
		{btf.FeatureDeclTag, "drop DECL_TAG"},
		{btf.FeatureFloat, "FLOAT becomes an INT of the same name and size"},
		{btf.FeatureGlobalFunc, "global FUNC becomes static"},
		{btf.FeatureDatasec, "none: older kernels are not a target"},
	}
}

// Oldest is the oldest kernel ForKernel writes for.
var Oldest = btf.FeatureDatasec.Since

// Report counts what ForKernel changed, by rule (the Feature's Name).
type Report map[string]int

// ForKernel returns a copy of s that Linux release v accepts, and what
// it changed. s must be complete (not split) BTF: dropping types
// renumbers the rest, which would break a split BTF's references into
// its base. The zero version changes nothing.
func ForKernel(s *btf.Spec, v btf.KernelVersion) (*btf.Spec, Report, error) {
	if s.Base() != nil {
		return nil, nil, fmt.Errorf("downgrade: split BTF: downgrade its base and encode the module against that")
	}
	if v.Before(Oldest) {
		return nil, nil, fmt.Errorf("downgrade: Linux %s predates VAR and DATASEC (%s); the oldest target is %s", v, Oldest, Oldest)
	}
	rep := Report{}
	first, next := s.FirstID(), s.NextID()
	n := int(next - first)

	// Pass 1: which types go, and where references to them go instead
	// (fwd: 0 keeps the type; a dropped TYPE_TAG forwards to what it
	// tags; a dropped DECL_TAG to nothing, which no type refers to).
	drop := make([]bool, n)
	fwd := make([]btf.TypeID, n)
	for id := first; id < next; id++ {
		t := s.Type(id)
		k := t.Kind()
		if k == btf.KindUnknown || k > btf.MaxKind {
			return nil, nil, fmt.Errorf("downgrade: type [%d]: unknown kind %d", id, k)
		}
		if !v.Has(btf.Feature24BitVlen) && t.Vlen() > btf.MaxVlen16 {
			return nil, nil, fmt.Errorf("downgrade: type [%d] %s '%s': vlen %d; Linux %s holds at most %d (%s came in %s)", id, k, t.Name(), t.Vlen(), v, btf.MaxVlen16, btf.Feature24BitVlen.What, btf.Feature24BitVlen.Since)
		}
		switch {
		case k == btf.KindTypeTag && !v.Has(btf.FeatureTypeTag):
			drop[id-first], fwd[id-first] = true, t.Ref()
			rep[btf.FeatureTypeTag.Name]++
		case k == btf.KindTypeTag && t.KindFlag() && !v.Has(btf.FeatureTagFlag):
			drop[id-first], fwd[id-first] = true, t.Ref()
			rep[btf.FeatureTagFlag.Name]++
		case k == btf.KindDeclTag && !v.Has(btf.FeatureDeclTag):
			drop[id-first] = true
			rep[btf.FeatureDeclTag.Name]++
		case k == btf.KindDeclTag && t.KindFlag() && !v.Has(btf.FeatureTagFlag):
			drop[id-first] = true
			rep[btf.FeatureTagFlag.Name]++
		}
	}
	// A reference to a dropped type follows the forwards (a chain of
	// TYPE_TAGs) to a kept type.
	var resolve func(id btf.TypeID, depth int) (btf.TypeID, error)
	resolve = func(id btf.TypeID, depth int) (btf.TypeID, error) {
		if id < first || id >= next || !drop[id-first] {
			return id, nil
		}
		if depth > n || fwd[id-first] == 0 && s.Type(id).Kind() == btf.KindDeclTag {
			return 0, fmt.Errorf("downgrade: a reference to dropped type [%d] %s", id, s.Type(id).Kind())
		}
		return resolve(fwd[id-first], depth+1)
	}
	newID := make([]btf.TypeID, n)
	nid := first
	for i := range newID {
		if !drop[i] {
			newID[i] = nid
			nid++
		}
	}
	var ferr error
	remap := func(p *uint32) {
		id, err := resolve(btf.TypeID(*p), 0)
		if err != nil && ferr == nil {
			ferr = err
		}
		if id >= first && id < next {
			id = newID[id-first]
		}
		*p = uint32(id)
	}

	// Pass 2: the kept types, rewritten, in order.
	out := btf.NewSpec()
	out.SetRawStrings(append([]byte(nil), s.RawStrings()...))
	for id := first; id < next; id++ {
		if drop[id-first] {
			continue
		}
		nameOff, info, sizeType, ext := s.RawType(id)
		ext = append([]uint32(nil), ext...)
		k, vlen, kflag := btf.KindOf(info), btf.VlenOf(info), btf.KindFlagOf(info)
		switch {
		case k == btf.KindEnum64 && !v.Has(btf.FeatureEnum64):
			vals := make([]uint32, 0, 2*vlen)
			for i := 0; i < vlen; i++ {
				vals = append(vals, ext[3*i], ext[3*i+1])
			}
			ext, info = vals, btf.Info(btf.KindEnum, vlen, false)
			rep[btf.FeatureEnum64.Name]++
		case k == btf.KindEnum && kflag && !v.Has(btf.FeatureEnum64):
			info = btf.Info(k, vlen, false)
			rep[btf.FeatureEnum64.Name]++
		case k == btf.KindFloat && !v.Has(btf.FeatureFloat):
			info = btf.Info(btf.KindInt, 0, false)
			ext = []uint32{8 * sizeType}
			rep[btf.FeatureFloat.Name]++
		case k == btf.KindFunc && vlen == btf.LinkageGlobal && !v.Has(btf.FeatureGlobalFunc):
			info = btf.Info(k, btf.LinkageStatic, false)
			rep[btf.FeatureGlobalFunc.Name]++
		}
		btf.ForEachTypeRef(info, &sizeType, ext, remap)
		out.AddRaw(nameOff, info, sizeType, ext...)
	}
	if ferr != nil {
		return nil, nil, ferr
	}
	if l := s.KindLayouts(); l != nil {
		if v.Has(btf.FeatureLayout) {
			out.SetKindLayouts(l)
		} else {
			rep[btf.FeatureLayout.Name]++
		}
	}
	if v.Has(btf.FeatureLayout) {
		out.SetHeaderLen(s.HeaderLen())
	}
	return out, rep, nil
}
