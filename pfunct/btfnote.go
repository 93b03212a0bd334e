package pfunct

import (
	"fmt"
	"io"
	"strings"
)

// What pfunct's options ask for that only DWARF has. From BTF, pfunct
// prints what pahole's pfunct prints there (empty lists, zero sizes, no
// blocks); noteDWARFOnly also says why on the warnings writer.
func (o *Options) dwarfOnly() [][2]string {
	var n [][2]string
	add := func(set bool, s string) {
		if set {
			opt, what, _ := strings.Cut(s, ": ")
			n = append(n, [2]string{opt, what})
		}
	}
	add(o.Addr != 0, "-a/--addr: function addresses")
	add(o.Formatter == ListSizes, "-s/--sizes: function sizes")
	add(o.Formatter == ListLabels, "-g/--goto_labels: goto labels")
	add(o.Formatter == ListVariables, "-S/--nr_variables: local variables")
	add(o.Formatter == ListInlines, "-I/--inline_expansions_stats: inline expansions")
	add(o.InlineExpansions, "-i/--inline_expansions: lexical blocks and inline expansions")
	add(o.TotalInlineStats, "-t/--total_inline_stats: inline expansions")
	add(o.Variables, "-T/--variables: local variables")
	add(o.DeclInfo, "-l/--decl_info: declaration files and lines")
	add(o.CCInlined, "-H/--cc_inlined: what the compiler inlined")
	add(o.CCUninlined, "-G/--cc_uninlined: what the compiler inlined")
	add(o.Externals, "-E/--externals: external linkage flags (pfunct reads none from BTF)")
	return n
}

func (p *printer) noteDWARFOnly(w io.Writer, path string) {
	if w == nil || p.noted {
		return
	}
	p.noted = true
	for _, s := range p.o.dwarfOnly() {
		fmt.Fprintf(w, "pfunct: %s: from BTF, %s has nothing to show: %s are in DWARF only\n", path, s[0], s[1])
	}
}
