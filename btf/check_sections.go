package btf

import (
	"encoding/binary"
	"sort"
)

// Check's rules for the raw bytes around the types: the header and the
// layout of its sections, as the kernel's btf_parse_hdr and
// btf_check_sec_info want them (CheckRaw).

func orderName(bo binary.ByteOrder) string {
	if bo.Uint16([]byte{0x34, 0x12}) == 0x1234 {
		return "little-endian"
	}
	return "big-endian"
}

// checkSections applies the kernel's btf_check_sec_info and the section
// rules of btf_parse_hdr, btf_parse_type_sec, btf_parse_str_sec and (from
// FeatureLayout on) btf_parse_layout_sec, as kernel v has them.
func checkSections(h Header, size int, split bool, v KernelVersion, add func(Rule, string, ...any)) {
	body := uint64(size) - uint64(h.HdrLen)
	if body == 0 && !split {
		add(RuleSections, "no data after the header")
		return
	}
	if h.TypeLen == 0 && !split {
		add(RuleSections, "no types in a base BTF")
	}
	secs := [][2]uint64{{uint64(h.TypeOff), uint64(h.TypeLen)}, {uint64(h.StrOff), uint64(h.StrLen)}}
	layout := h.HdrLen >= LayoutHeaderLen && v.Has(FeatureLayout)
	switch {
	case !v.Has(FeatureLayout) && (h.LayoutOff != 0 || h.LayoutLen != 0):
		// That the kernel refuses a layout section is RuleKindLayout's
		// (checkKindLayouts); a stale offset alone is reported here.
		if h.LayoutLen == 0 {
			add(RuleKindLayout, "header byte 24 (layout_off 0x%x) is not zero: Linux %s rejects header bytes it does not know (\"Unsupported btf_header\"; the kind layout section came in %s)", h.LayoutOff, v, FeatureLayout.Since)
		} else {
			secs = append(secs, [2]uint64{uint64(h.LayoutOff), uint64(h.LayoutLen)})
		}
	case layout && h.LayoutLen != 0:
		switch {
		case h.LayoutOff%4 != 0:
			add(RuleKindLayout, "layout_off 0x%x is not 4-byte aligned (\"Unaligned layout_off\")", h.LayoutOff)
		case h.LayoutLen < kindLayoutSize:
			add(RuleKindLayout, "layout section of %d bytes is smaller than one entry", h.LayoutLen)
		case h.LayoutLen%kindLayoutSize != 0:
			add(RuleKindLayout, "layout_len %d is not a multiple of %d", h.LayoutLen, kindLayoutSize)
		}
		secs = append(secs, [2]uint64{uint64(h.LayoutOff), uint64(h.LayoutLen)})
	}
	sort.Slice(secs, func(i, j int) bool {
		return secs[i][0] < secs[j][0] || (secs[i][0] == secs[j][0] && secs[i][1] < secs[j][1])
	})
	var total uint64
	for _, sec := range secs {
		switch {
		case sec[0] > total:
			add(RuleSections, "gap before the section at 0x%x (unknown data between sections)", sec[0])
		case sec[0] < total:
			add(RuleSections, "sections overlap at 0x%x", sec[0])
		}
		if sec[0]+sec[1] > total {
			total = sec[0] + sec[1]
		}
	}
	if total < body {
		add(RuleSections, "%d bytes of unknown data after the sections", body-total)
	}
	// With the 32-byte header a kernel that knows the layout section
	// takes the sections in any order; before, the strings come last.
	if !layout && uint64(h.StrOff)+uint64(h.StrLen) != body {
		add(RuleSections, "string section [0x%x,0x%x) is not at the end of the data (0x%x)", h.StrOff, uint64(h.StrOff)+uint64(h.StrLen), body)
	}
}
