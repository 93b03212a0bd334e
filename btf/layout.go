package btf

import "fmt"

// The kind layout section, libbpf v1.8's optional third section of raw BTF
// (struct btf_layout in its include/uapi/linux/btf.h). The header grows to
// 32 bytes, the last two words being layout_off and layout_len (relative to
// the end of the header, like the other sections); the section is one
// 4-byte entry per kind, indexed by kind number, telling how many bytes
// follow a type's 12-byte record: a reader that meets a kind it does not
// know can still step over it. libbpf writes it between the type and the
// string section (btf_new_empty_opts with add_layout, btf_get_raw_data),
// only when asked: pahole's "layout" feature, for base BTF only.

// LayoutHeaderLen is the length of the header that has room for the kind
// layout section's offset and length (libbpf v1.8's struct btf_header).
const LayoutHeaderLen = 32

// kindLayoutSize is the size of one entry, struct btf_layout.
const kindLayoutSize = 4

// KindLayout is one entry of the kind layout section: for one kind, the
// size of the single record that follows the 12-byte type header and the
// size of each of the vlen elements that follow it.
type KindLayout struct {
	InfoSize uint8  // bytes after the header whatever vlen is (INT: 4, ARRAY: 12)
	ElemSize uint8  // bytes per vlen element (STRUCT member: 12, ENUM value: 8)
	Flags    uint16 // unused so far; libbpf writes 0
}

func (l KindLayout) String() string {
	return fmt.Sprintf("{info %d, elem %d, flags 0x%x}", l.InfoSize, l.ElemSize, l.Flags)
}

// StandardKindLayouts returns the kind layout table of the kinds this
// package knows, UNKNOWN (0) to ENUM64 (MaxKind): the table libbpf v1.8
// writes. Each entry is derived from the record sizes Parse and Marshal
// use, so the table describes exactly what the Spec writes.
func StandardKindLayouts() []KindLayout {
	l := make([]KindLayout, MaxKind+1)
	for k := KindInt; k <= MaxKind; k++ {
		w0, w1 := ExtraWords(k, 0), ExtraWords(k, 1)
		if w0 > 0 {
			// A kind with a fixed record (INT, ARRAY, VAR, DECL_TAG)
			// has no elements: its trailing words do not grow with vlen.
			l[k].InfoSize = uint8(4 * w0)
		}
		l[k].ElemSize = uint8(4 * (w1 - w0))
	}
	return l
}

// KindLayouts returns a copy of the Spec's kind layout section, or nil
// when it has none (the usual case: BTF written without pahole's "layout"
// feature, or by anything older than libbpf v1.8).
func (s *Spec) KindLayouts() []KindLayout {
	if len(s.layout) == 0 {
		return nil
	}
	return append([]KindLayout(nil), s.layout...)
}

// SetKindLayouts gives the Spec a kind layout section (copied), which
// Marshal writes between the types and the strings with a header of at
// least LayoutHeaderLen bytes; nil or empty removes it (the header keeps
// its length, its layout words then zero). Use StandardKindLayouts for the
// table libbpf writes.
func (s *Spec) SetKindLayouts(l []KindLayout) {
	if len(l) == 0 {
		s.layout = nil
		return
	}
	s.layout = append([]KindLayout(nil), l...)
	if s.hdrLen < LayoutHeaderLen {
		s.hdrLen = LayoutHeaderLen
	}
}

// checkKindLayouts reports a kind layout section to a kernel before
// FeatureLayout: such a kernel (6.18 included) knows a 24-byte header and
// rejects BTF with non-zero bytes past it ("Unsupported btf_header",
// E2BIG), which a layout section's offset and length are; libbpf v1.8
// strips the section before loading BTF into it (bpf_object__sanitize_btf).
// Newer kernels keep the section without looking at its entries; under
// Strict, entries for kinds this package knows must describe their
// records as they are, or a reader trusting the table would misread the
// types.
func (c *checker) checkKindLayouts() {
	l := c.s.layout
	if len(l) == 0 {
		return
	}
	if v := c.cfg.kernel; !v.Has(FeatureLayout) {
		c.addBlob(RuleKindLayout, "kind layout section of %d entries (layout_off and layout_len set in the header): Linux %s rejects header bytes it does not know (\"Unsupported btf_header\"; the section came in %s); write without it (no \"layout\" feature, or btfkit downgrade) to load this BTF there", len(l), v, FeatureLayout.Since)
	}
	if !c.cfg.strict {
		return
	}
	std := StandardKindLayouts()
	for k := 0; k < len(l) && k < len(std); k++ {
		if l[k] != std[k] {
			c.addBlob(RuleKindLayout, "kind layout entry for %s is %v; %s records have %v", Kind(k), l[k], Kind(k), std[k])
		}
	}
}
