package btf

import "strings"

// Check's rules for names: offsets into the string section, and which
// kinds must, may or must not be named and with what characters.

// validName implements the kernel's name rules (__btf_name_valid and
// btf_name_valid_section as of Linux 6.18). Identifiers are made of
// letters, digits, '_' and '.', not starting with a digit; letters are
// those of the kernel's Latin-1 ctype table. Section names (DATASEC) are
// any printable characters. Both are at most KSYM_NAME_LEN (512) bytes.
func validName(name string, section bool) bool {
	if name == "" || len(name) > maxNameLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		ch := name[i]
		var ok bool
		if section {
			ok = ch >= 0x20 && ch < 0x7f || ch >= 0xa0
		} else {
			ok = ch == '_' || ch == '.' || isAlpha(ch) || (i > 0 && ch >= '0' && ch <= '9')
		}
		if !ok {
			return false
		}
	}
	return true
}

func isAlpha(ch byte) bool {
	return ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' ||
		ch >= 0xc0 && ch != 0xd7 && ch != 0xf7
}

// dottedName reports an identifier with a dot, which kernels before the
// dot was allowed in BTF identifiers reject (a strict-mode convention).
func (c *checker) dottedName(t Type, what, name string) {
	if c.cfg.strict && strings.Contains(name, ".") {
		c.add(t, RuleConvention, "%sname '%s' contains a dot; older kernels reject that", what, quoted(name))
	}
}

// nameOffOK checks a name offset: in range, and in strict mode at the start
// of a string. what prefixes the message ("member 2: ").
func (c *checker) nameOffOK(t Type, off uint32, what string) bool {
	if !c.s.ValidStringOff(off) {
		c.add(t, RuleNameOffset, "%sname offset %d is outside the string section", what, off)
		return false
	}
	if off > maxNameOffset {
		c.add(t, RuleNameOffset, "%sname offset %d is past the kernel's limit of %d (BTF_MAX_NAME_OFFSET)", what, off, maxNameOffset)
		return false
	}
	if c.cfg.strict && !c.atStringStart(off) {
		c.add(t, RuleNameStart, "%sname offset %d points into the middle of a string", what, off)
	}
	return true
}

func (c *checker) atStringStart(off uint32) bool {
	sp := c.s
	for sp != nil && off < sp.startStr {
		sp = sp.base
	}
	if sp == nil {
		return false
	}
	rel := off - sp.startStr
	return rel == 0 || sp.strs[rel-1] == 0
}

type namePolicy int

const (
	nameNone      namePolicy = iota // must be anonymous
	nameOptional                    // anonymous or a valid identifier
	nameIdent                       // a valid identifier
	nameVar                         // a valid identifier, dots expected
	nameSection                     // printable characters
	nameAny                         // any non-empty string
	nameUnchecked                   // anything (INT "long int", FLOAT); strict: named
)

func (c *checker) checkName(t Type, p namePolicy) {
	off := t.NameOff()
	if !c.nameOffOK(t, off, "") {
		return
	}
	name := c.s.String(off)
	switch p {
	case nameNone:
		if off != 0 {
			c.add(t, RuleNameForbidden, "%s must be anonymous, has name '%s'", t.Kind(), quoted(name))
		}
	case nameOptional:
		if off != 0 && !validName(name, false) {
			c.add(t, RuleNameInvalid, "name '%s' is not a valid identifier", quoted(name))
		} else if off != 0 {
			c.dottedName(t, "", name)
		}
	case nameIdent, nameVar, nameSection, nameAny:
		if off == 0 || name == "" {
			c.add(t, RuleNameRequired, "%s must be named", t.Kind())
		} else if p != nameAny && !validName(name, p == nameSection) {
			kind := "identifier"
			if p == nameSection {
				kind = "section name (printable characters)"
			}
			c.add(t, RuleNameInvalid, "name '%s' is not a valid %s", quoted(name), kind)
		} else if p == nameIdent {
			c.dottedName(t, "", name)
		}
	case nameUnchecked:
		if c.cfg.strict && name == "" {
			c.add(t, RuleConvention, "%s is anonymous", t.Kind())
		}
	}
}
