package layout

import (
	"io"

	"github.com/btfkit/btfkit/btf"
)

// pahole's per-input options that are not a formatter: the statistics it
// prints once every input was read (print_stats: -T counts the inputs
// defining each struct or union), the unit that defines each -C type
// (-u, defined_in) and stopping after the first input (--first_obj_only).

// typeStats is pahole's structures list as print_stats walks it: each
// struct or union added, in the order added, with its count.
type typeStats struct {
	index map[string]int // appendStructKey -> entry
	list  []typeStat
}

type typeStat struct {
	name string
	n    int
}

// statsWanted reports whether the listing keeps typeStats.
func (o *Options) statsWanted() bool { return o.NrDefinitions || o.NrMethods }

// countType records that the struct or union with this key and name was
// listed again (existing) or for the first time.
func (l *Listing) countType(key []byte, name string, existing bool) {
	s := &l.stats
	if existing {
		if i, ok := s.index[string(key)]; ok {
			s.list[i].n++
		}
		return
	}
	if s.index == nil {
		s.index = make(map[string]int)
	}
	s.index[string(key)] = len(s.list)
	s.list = append(s.list, typeStat{name, 1})
}

// printStats is pahole's print_stats: each struct and union listed and
// the number of inputs that defined it alike (nr_definitions_formatter;
// with Sort pahole never finds two alike, so each is listed once per
// input), or each struct and the parameters that point to it
// (nr_methods_formatter, methods.go): both count each time add meets it.
func (l *Listing) printStats(w io.Writer) error {
	if !l.opts.statsWanted() {
		return nil
	}
	var b buf
	sep := l.opts.separator()
	for _, s := range l.stats.list {
		b.Str(s.name)
		b.Byte(sep)
		b.Uint(uint64(uint32(s.n)))
		b.Byte('\n')
	}
	_, err := w.Write(b)
	return err
}

// printDefinedIn is -u for a -C type found in u: the unit's name instead
// of the type (pahole's puts(cu->name)).
func (l *Listing) printDefinedIn(u *unit, b *buf, _ btf.TypeID) {
	b.Str(u.inputName)
	b.Byte('\n')
}

// UnitExcluded reports whether the input (compile unit) of that name is
// left out (CUExcludePrefix), as pahole's cu__filter leaves it out before
// anything is done with it.
func (l *Listing) UnitExcluded(name string) bool { return l.unitExcluded(name) }
