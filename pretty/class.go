package pretty

import (
	"fmt"
	"strings"
)

// Class is one type of a -C expression: the name of the type the records
// are read as, and the arguments that say how (pahole's "prototype").
//
//	perf_event_header(sizeof,type,type_enum=perf_event_type+perf_user_event_type,filter=type==MMAP)
type Class struct {
	Name string
	// Args are the arguments as given, in order, with their keys
	// spelled out (sizeof for "sizeof", type==X as filter).
	Args []Arg

	Sizeof     string   // member holding each record's size in bytes
	TypeMember string   // member holding the record's type number
	TypeEnum   []string // enums naming the type numbers, looked up in order
	Filter     string   // MEMBER==VALUE: keep only the records where it holds
	Range      string   // header member with offset and size members: where the records are
}

// Arg is one argument of a Class.
type Arg struct{ Key, Value string }

// HasArgs reports whether the class was given any argument; pahole reads
// only structs with arguments.
func (c *Class) HasArgs() bool { return len(c.Args) > 0 }

// String spells the class as it would be given to -C.
func (c *Class) String() string {
	if len(c.Args) == 0 {
		return c.Name
	}
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.Key + "=" + a.Value
	}
	return c.Name + "(" + strings.Join(args, ",") + ")"
}

// ParseClasses parses a -C expression: type names separated by commas,
// each with optional arguments in parentheses (commas inside them do not
// separate types):
//
//	sizeof[=MEMBER]      the record size member (default "size")
//	type[=MEMBER]        the record type member (default "type")
//	type_enum=ENUM[+ENUM...]  enums naming the values of the type member; an
//	                     enumerator such as PERF_RECORD_MMAP picks the struct
//	                     named by its lower-cased name (perf_record_mmap)
//	filter=MEMBER==VALUE keep the records where MEMBER equals VALUE (a number,
//	                     or with type_enum an enumerator, its common prefix
//	                     optional); MEMBER==VALUE alone means the same
//	range=MEMBER         the --header member whose offset and size members
//	                     say where this type's records are
func ParseClasses(expr string) ([]Class, error) {
	entries, err := SplitClasses(expr)
	if err != nil {
		return nil, err
	}
	classes := make([]Class, 0, len(entries))
	for _, e := range entries {
		c, err := ParseClass(e)
		if err != nil {
			return nil, err
		}
		classes = append(classes, c)
	}
	return classes, nil
}

// SplitClasses splits a -C expression into its entries at the commas
// outside parentheses, trimming the spaces around each.
func SplitClasses(expr string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(expr); i++ {
		if i < len(expr) {
			switch expr[i] {
			case '(':
				depth++
				continue
			case ')':
				if depth > 0 {
					depth--
				}
				continue
			case ',':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		if depth > 0 {
			return nil, fmt.Errorf("unterminated '(' in '%s'", expr)
		}
		e := strings.TrimSpace(expr[start:i])
		if e == "" {
			return nil, fmt.Errorf("empty type name in '%s'", expr)
		}
		out = append(out, e)
		start = i + 1
	}
	return out, nil
}

// ParseClass parses one entry of a -C expression (see ParseClasses).
func ParseClass(entry string) (Class, error) {
	var c Class
	open := strings.IndexByte(entry, '(')
	if open < 0 {
		c.Name = strings.TrimSpace(entry)
		if c.Name == "" {
			return c, fmt.Errorf("empty type name in '%s'", entry)
		}
		return c, nil
	}
	end := strings.IndexByte(entry[open:], ')')
	if end < 0 {
		return c, fmt.Errorf("invalid, no closing parens in '%s'", entry)
	}
	end += open
	if rest := strings.TrimSpace(entry[end+1:]); rest != "" {
		return c, fmt.Errorf("invalid, '%s' after the closing parens in '%s'", rest, entry)
	}
	c.Name = strings.TrimSpace(entry[:open])
	if c.Name == "" {
		return c, fmt.Errorf("empty type name in '%s'", entry)
	}
	args := strings.TrimSpace(entry[open+1 : end])
	if args == "" {
		return c, nil // 'foo()' is foo
	}
	for _, arg := range strings.Split(args, ",") {
		arg = strings.TrimSpace(arg)
		key, value, ok := strings.Cut(arg, "=")
		switch {
		case !ok && arg == "sizeof":
			key, value = "sizeof", "size"
		case !ok && arg == "type":
			key, value = "type", "type"
		case !ok:
			return c, fmt.Errorf("invalid, missing '=' in '%s'", arg)
		case strings.HasPrefix(value, "="):
			key, value = "filter", arg // MEMBER==VALUE
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if value == "" {
			return c, fmt.Errorf("invalid, missing value in '%s'", entry)
		}
		switch key {
		case "sizeof":
			c.Sizeof = value
		case "type":
			c.TypeMember = value
		case "type_enum":
			c.TypeEnum = strings.Split(value, "+")
			for _, e := range c.TypeEnum {
				if e == "" {
					return c, fmt.Errorf("invalid, empty enum name in 'type_enum=%s' in '%s'", value, entry)
				}
			}
		case "filter":
			c.Filter = value
		case "range":
			c.Range = value
		default:
			return c, fmt.Errorf("invalid arg '%s' in '%s' (known args: sizeof=member, type=member, type_enum=enum, filter=member==value, range=member)", key, entry)
		}
		c.Args = append(c.Args, Arg{key, value})
	}
	return c, nil
}
