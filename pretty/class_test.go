package pretty_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/pretty"
)

// TestParseClasses: pahole's -C syntax (pahole.1's examples and the
// defaults its prototype__new gives).
func TestParseClasses(t *testing.T) {
	for _, c := range []struct {
		expr string
		want []pretty.Class
	}{
		{"modversion_info", []pretty.Class{{Name: "modversion_info"}}},
		{"a,b", []pretty.Class{{Name: "a"}, {Name: "b"}}},
		{"foo()", []pretty.Class{{Name: "foo"}}},
		{"perf_event_header(sizeof,type,type_enum=perf_event_type,filter=type==PERF_RECORD_EXIT)", []pretty.Class{{
			Name: "perf_event_header", Sizeof: "size", TypeMember: "type", TypeEnum: []string{"perf_event_type"}, Filter: "type==PERF_RECORD_EXIT",
			Args: []pretty.Arg{{Key: "sizeof", Value: "size"}, {Key: "type", Value: "type"}, {Key: "type_enum", Value: "perf_event_type"}, {Key: "filter", Value: "type==PERF_RECORD_EXIT"}},
		}}},
		{"perf_file_attr(range=attrs),perf_event_header(range=data,sizeof=sz,type=kind,type_enum=a+b,kind==CGROUP)", []pretty.Class{
			{Name: "perf_file_attr", Range: "attrs", Args: []pretty.Arg{{Key: "range", Value: "attrs"}}},
			{Name: "perf_event_header", Range: "data", Sizeof: "sz", TypeMember: "kind", TypeEnum: []string{"a", "b"}, Filter: "kind==CGROUP",
				Args: []pretty.Arg{{Key: "range", Value: "data"}, {Key: "sizeof", Value: "sz"}, {Key: "type", Value: "kind"}, {Key: "type_enum", Value: "a+b"}, {Key: "filter", Value: "kind==CGROUP"}}},
		}},
	} {
		got, err := pretty.ParseClasses(c.expr)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v, %v\nwant %+v", c.expr, got, err, c.want)
		}
	}
	for _, c := range []struct{ expr, err string }{
		{"foo(sizeof", "unterminated '('"},
		{"foo(bar)", "invalid, missing '=' in 'bar'"},
		{"foo(color=red)", "invalid arg 'color'"},
		{"foo(sizeof=)", "missing value"},
		{"foo(type_enum=a++b)", "empty enum name"},
		{"a,,b", "empty type name"},
		{"foo(x)y", "after the closing parens"},
	} {
		if _, err := pretty.ParseClasses(c.expr); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one saying %q", c.expr, err, c.err)
		}
	}
}
