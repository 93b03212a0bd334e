package dwarf

// maxOriginHops bounds DW_AT_abstract_origin / DW_AT_specification chains
// (real ones have one or two hops; crafted input may loop).
const maxOriginHops = 16

// Lookup returns attribute a of e or, when e lacks it, of the DIEs e
// derives from through DW_AT_abstract_origin and DW_AT_specification
// (an inlined or out-of-line instance's origin, a definition's
// declaration), following the chain for at most 16 hops. The field is
// copied into *out; scratch is used to decode the chain. It reports
// whether the attribute was found.
func (d *Data) Lookup(e *Entry, a Attr, scratch *Entry, out *Field) (bool, error) {
	cur := e
	for hop := 0; ; hop++ {
		if f := cur.Field(a); f != nil {
			*out = *f
			return true, nil
		}
		next, ok := cur.Ref(AttrAbstractOrigin)
		if !ok {
			next, ok = cur.Ref(AttrSpecification)
		}
		if !ok || hop == maxOriginHops {
			return false, nil
		}
		if err := d.EntryAt(next, scratch); err != nil {
			return false, err
		}
		cur = scratch
	}
}

// Name returns the DW_AT_name of e, following abstract origins and
// specifications (see Lookup); "" if there is none.
func (d *Data) Name(e *Entry) (string, error) {
	if f := e.Field(AttrName); f != nil {
		return d.String(f)
	}
	var scratch Entry
	var f Field
	ok, err := d.Lookup(e, AttrName, &scratch, &f)
	if !ok || err != nil {
		return "", err
	}
	return d.String(&f)
}
