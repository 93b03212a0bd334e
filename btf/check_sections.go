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
// rules of btf_parse_hdr, btf_parse_type_sec and btf_parse_str_sec.
func checkSections(h Header, size int, split bool, add func(Rule, string, ...any)) {
	body := uint64(size) - uint64(h.HdrLen)
	if body == 0 && !split {
		add(RuleSections, "no data after the header")
		return
	}
	if h.TypeLen == 0 && !split {
		add(RuleSections, "no types in a base BTF")
	}
	secs := [][2]uint64{{uint64(h.TypeOff), uint64(h.TypeLen)}, {uint64(h.StrOff), uint64(h.StrLen)}}
	if h.LayoutLen != 0 {
		// A kind layout section is a section of its own here; that the
		// kernel refuses it is RuleKindLayout's (checkKindLayouts).
		secs = append(secs, [2]uint64{uint64(h.LayoutOff), uint64(h.LayoutLen)})
	} else if h.LayoutOff != 0 {
		add(RuleKindLayout, "header byte 24 (layout_off 0x%x) is not zero: the kernel rejects header bytes it does not know (\"Unsupported btf_header\")", h.LayoutOff)
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
	if uint64(h.StrOff)+uint64(h.StrLen) != body {
		add(RuleSections, "string section [0x%x,0x%x) is not at the end of the data (0x%x)", h.StrOff, uint64(h.StrOff)+uint64(h.StrLen), body)
	}
}
