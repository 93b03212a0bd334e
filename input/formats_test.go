package input

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The -F spellings of pahole's command line (dwarves' --format_path: names
// separated by commas, tried in order) as btfkit's commands and the
// commands under pahole's names read them.
func TestParseFormats(t *testing.T) {
	for _, c := range []struct {
		list   string
		want   Formats // ParseFormats
		refuse string  // the name ParseFormats refuses, if any
		pahole Formats // PaholeFormats
	}{
		{list: "", want: Formats{DWARF, BTF}, pahole: Formats{DWARF, BTF}},
		{list: "dwarf", want: Formats{DWARF}, pahole: Formats{DWARF}},
		{list: "btf", want: Formats{BTF}, pahole: Formats{BTF}},
		{list: "btf,dwarf", want: Formats{BTF, DWARF}, pahole: Formats{BTF, DWARF}},
		{list: "dwarf,btf", want: Formats{DWARF, BTF}, pahole: Formats{DWARF, BTF}},
		{list: "dwarf,,btf,", want: Formats{DWARF, BTF}, pahole: Formats{DWARF, BTF}},
		{list: " btf , dwarf", want: Formats{BTF, DWARF}, pahole: Formats{BTF, DWARF}},
		{list: ",", want: Formats{DWARF, BTF}, pahole: Formats{DWARF, BTF}},
		{list: "ctf", refuse: "ctf", pahole: Formats{CTF}},
		{list: "ctf,dwarf", refuse: "ctf", pahole: Formats{CTF, DWARF}},
		{list: "dwarf,ctf", refuse: "ctf", pahole: Formats{DWARF, CTF}},
		{list: "foo", refuse: "foo", pahole: Formats{Unknown}},
		{list: "dwarf,foo,btf", refuse: "foo", pahole: Formats{DWARF, Unknown, BTF}},
		{list: "DWARF", refuse: "DWARF", pahole: Formats{Unknown}},
	} {
		got, err := ParseFormats(c.list)
		if c.refuse == "" {
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("ParseFormats(%q) = %v, %v; want %v", c.list, got, err, c.want)
			}
		} else {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Name != c.refuse || fe.List != c.list {
				t.Errorf("ParseFormats(%q) = %v, %v; want a FormatError for %q", c.list, got, err, c.refuse)
			} else if !strings.Contains(err.Error(), c.refuse) || !strings.Contains(err.Error(), "-F "+c.list) {
				t.Errorf("ParseFormats(%q): %q names neither the format nor the list", c.list, err)
			}
			if c.refuse == "ctf" && !strings.Contains(err.Error(), "not supported") {
				t.Errorf("ParseFormats(%q): %q does not say ctf is unsupported", c.list, err)
			}
		}
		if got := PaholeFormats(c.list); !reflect.DeepEqual(got, c.pahole) {
			t.Errorf("PaholeFormats(%q) = %v; want %v", c.list, got, c.pahole)
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	for list, want := range map[string]string{"": "", "dwarf,btf": "", "ctf,dwarf": "", "ctf,,foo,bar": "foo", "btf, x ": "x"} {
		if got := UnknownFormat(list); got != want {
			t.Errorf("UnknownFormat(%q) = %q; want %q", list, got, want)
		}
	}
}

func TestFormatsString(t *testing.T) {
	if s := (Formats{BTF, DWARF}).String(); s != "btf,dwarf" {
		t.Errorf("String = %q", s)
	}
	if !DefaultFormats.Has(DWARF) || !DefaultFormats.Has(BTF) || DefaultFormats.Has(CTF) {
		t.Errorf("DefaultFormats = %v", DefaultFormats)
	}
}
