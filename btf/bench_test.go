package btf

import (
	"errors"
	"os"
	"testing"
	"time"

	cbtf "github.com/cilium/ebpf/btf"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// benchInput is the BTF the load benchmarks read: a recent x86-64 vmlinux
// (about 130,000 types, 5.5 MB), the reference host-6.18/vmlinux.btf.
func benchInput(tb testing.TB) string {
	tb.Helper()
	return testenv.Reference(tb, "host-6.18/vmlinux.btf")
}

var sink int

// visitOurs loads path and reads every type's kind and name and each
// member's, enumerator's, parameter's and section entry's name and type.
func visitOurs(path string) (int, error) {
	s, err := LoadFile(path, nil)
	if err != nil {
		return 0, err
	}
	n := 0
	for id := s.FirstID(); id < s.NextID(); id++ {
		t := s.Type(id)
		n += int(t.Kind()) + len(t.Name())
		switch t.Kind() {
		case KindStruct, KindUnion:
			for i := 0; i < t.Vlen(); i++ {
				m := t.Member(i)
				n += len(s.String(m.NameOff)) + int(m.Type)
			}
		case KindEnum, KindEnum64:
			for i := 0; i < t.Vlen(); i++ {
				e := t.Enum(i)
				n += len(s.String(e.NameOff)) + int(e.Val)
			}
		case KindFuncProto:
			for i := 0; i < t.Vlen(); i++ {
				p := t.Param(i)
				n += len(s.String(p.NameOff)) + int(p.Type)
			}
		case KindDatasec:
			for i := 0; i < t.Vlen(); i++ {
				n += int(t.SecVar(i).Type)
			}
		default:
			n += int(t.Ref())
		}
	}
	return n, nil
}

// visitCilium does the same with cilium/ebpf: LoadSpec, then every type by
// ID (which is where cilium decodes lazily) and its members, values,
// parameters and section entries.
func visitCilium(path string) (int, error) {
	s, err := cbtf.LoadSpec(path)
	if err != nil {
		return 0, err
	}
	n := 0
	for id := cbtf.TypeID(1); ; id++ {
		typ, err := s.TypeByID(id)
		if errors.Is(err, cbtf.ErrNotFound) {
			break
		}
		if err != nil {
			return 0, err
		}
		n += len(typ.TypeName())
		switch t := typ.(type) {
		case *cbtf.Struct:
			for _, m := range t.Members {
				n += len(m.Name) + int(m.Offset)
			}
		case *cbtf.Union:
			for _, m := range t.Members {
				n += len(m.Name) + int(m.Offset)
			}
		case *cbtf.Enum:
			for _, v := range t.Values {
				n += len(v.Name) + int(v.Value)
			}
		case *cbtf.FuncProto:
			for _, p := range t.Params {
				n += len(p.Name)
			}
		case *cbtf.Datasec:
			for _, v := range t.Vars {
				n += int(v.Offset)
			}
		}
	}
	return n, nil
}

// BenchmarkLoadVisit compares loading a vmlinux BTF and visiting every type
// (kind, name, each member/parameter) with btfkit and with cilium/ebpf, in
// one run: go test ./btf -run '^$' -bench LoadVisit -benchmem
func BenchmarkLoadVisit(b *testing.B) {
	path := benchInput(b)
	for _, c := range []struct {
		name  string
		visit func(string) (int, error)
	}{{"btfkit", visitOurs}, {"cilium", visitCilium}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n, err := c.visit(path)
				if err != nil {
					b.Fatal(err)
				}
				sink += n
			}
		})
	}
}

// BenchmarkParse is btf.Parse alone on the bytes of the vmlinux BTF.
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile(benchInput(b))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLoadFasterThanCilium checks the acceptance figure: btfkit loads and
// visits the vmlinux BTF in at most half cilium/ebpf's time. Timing tests
// are noisy on shared machines, so it runs only with BTFKIT_PERF=1.
func TestLoadFasterThanCilium(t *testing.T) {
	if os.Getenv("BTFKIT_PERF") != "1" {
		// A plain skip: CI never runs timing tests (the figure is the
		// benchmarks').
		t.Skip("SKIP: timing test; set BTFKIT_PERF=1 to run it")
	}
	benchFile := benchInput(t)
	run := func(visit func(string) (int, error)) testing.BenchmarkResult {
		return testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				if _, err := visit(benchFile); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	ours, theirs := run(visitOurs), run(visitCilium)
	ratio := float64(ours.NsPerOp()) / float64(theirs.NsPerOp())
	t.Logf("btfkit %v/op, cilium %v/op: ratio %.3f", time.Duration(ours.NsPerOp()), time.Duration(theirs.NsPerOp()), ratio)
	if ratio > 0.5 {
		t.Fatalf("btfkit takes %.2f of cilium's time, want at most 0.5", ratio)
	}
}
