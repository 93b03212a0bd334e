package cdump

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// coreProg is a CO-RE BPF program over vmlinux.h: it reads task_struct
// fields through libbpf's relocatable accessors.
const coreProg = `#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, pid_t);
	__type(value, u64);
} starts SEC(".maps");

SEC("tracepoint/sched/sched_process_exec")
int on_exec(void *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	pid_t pid = BPF_CORE_READ(task, pid);
	pid_t ppid = BPF_CORE_READ(task, real_parent, tgid);
	u64 start = BPF_CORE_READ(task, start_time);
	char comm[16];

	bpf_core_read_str(comm, sizeof(comm), &task->comm);
	if (bpf_core_field_exists(task->flags) && (BPF_CORE_READ(task, flags) & 0x00200000))
		return 0;
	bpf_map_update_elem(&starts, &pid, &start, BPF_ANY);
	bpf_printk("exec %d parent %d %s", pid, ppid, comm);
	return 0;
}
`

// coreRelocs returns the size of the CO-RE relocation records in an
// object's .BTF.ext section.
func coreRelocs(t *testing.T, obj string) uint32 {
	t.Helper()
	f, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sec := f.Section(".BTF.ext")
	if sec == nil {
		t.Fatalf("%s: no .BTF.ext section", obj)
	}
	b, err := sec.Data()
	if err != nil || len(b) < 32 {
		t.Fatalf("%s: .BTF.ext: %v (%d bytes)", obj, err, len(b))
	}
	if binary.LittleEndian.Uint32(b[4:]) < 32 {
		return 0 // header without CO-RE relocations
	}
	return binary.LittleEndian.Uint32(b[28:])
}

// TestCOREProgramCompiles compiles a CO-RE program reading task_struct
// against the headers of the Debian 6.1 and the 6.18 kernel BTF with
// clang -target bpf, and checks the object carries CO-RE relocations.
func TestCOREProgramCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: compiles and kernel-size inputs")
	}
	testc.Require(t, "clang")
	if _, err := os.Stat("/usr/include/bpf/bpf_core_read.h"); err != nil {
		testenv.SkipOrFail(t, "libbpf-dev headers not installed: %v", err)
	}
	for _, c := range []struct {
		rel string
		fix bool
	}{
		{"debian-6.1.0-57-cloud/embedded.btf", false},
		{"host-6.18/vmlinux.btf", false},
		{"host-6.18/vmlinux.btf", true},
	} {
		rel := c.rel
		name := rel
		if c.fix {
			name += "/FixLayout"
		}
		t.Run(name, func(t *testing.T) {
			path := testenv.Reference(t, rel)
			dir := t.TempDir()
			s, err := btf.LoadFile(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := WriteFile(filepath.Join(dir, "vmlinux.h"), s, Options{FixLayout: c.fix}); err != nil {
				t.Fatal(err)
			}
			src := filepath.Join(dir, "prog.bpf.c")
			if err := os.WriteFile(src, []byte(coreProg), 0o644); err != nil {
				t.Fatal(err)
			}
			obj := filepath.Join(dir, "prog.bpf.o")
			testc.Run(t, "clang", "-target", "bpf", "-O2", "-g", "-Werror", "-I", dir, "-c", src, "-o", obj)
			if n := coreRelocs(t, obj); n == 0 {
				t.Errorf("%s: no CO-RE relocations in .BTF.ext", obj)
			}
		})
	}
}

// layoutQuery is one sizeof or offsetof expression to evaluate in both
// the original source and the generated header.
type layoutQuery struct {
	expr string
}

// layoutQueries lists sizeof of every uniquely named struct, union and
// typedef of s, and offsetof of their named non-bitfield members (members
// of anonymous struct/union members included, as C11 allows).
func layoutQueries(s *btf.Spec) []layoutQuery {
	count := map[string]int{}
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		t := s.Type(id)
		switch t.Kind() {
		case btf.KindStruct, btf.KindUnion, btf.KindEnum, btf.KindEnum64, btf.KindFwd:
			count["tag:"+t.Name()]++
		case btf.KindTypedef:
			count["td:"+t.Name()]++
		}
	}
	var qs []layoutQuery
	var members func(c string, t btf.Type)
	members = func(c string, t btf.Type) {
		for i := 0; i < t.Vlen(); i++ {
			m := t.Member(i)
			if _, bits := t.MemberBits(i); bits != 0 {
				continue
			}
			name := s.String(m.NameOff)
			if name == "" {
				mt := s.Type(m.Type)
				if k := mt.Kind(); (k == btf.KindStruct || k == btf.KindUnion) && mt.NameOff() == 0 {
					members(c, mt)
				}
				continue
			}
			qs = append(qs, layoutQuery{fmt.Sprintf("offsetof(%s, %s)", c, name)})
		}
	}
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		t := s.Type(id)
		name := t.Name()
		if name == "" {
			continue
		}
		switch t.Kind() {
		case btf.KindStruct, btf.KindUnion:
			if count["tag:"+name] != 1 {
				continue
			}
			kw := "struct"
			if t.Kind() == btf.KindUnion {
				kw = "union"
			}
			c := kw + " " + name
			qs = append(qs, layoutQuery{"sizeof(" + c + ")"})
			members(c, t)
		case btf.KindTypedef:
			if count["td:"+name] != 1 || strings.HasPrefix(name, "__builtin") {
				continue
			}
			r := s.Type(t.Ref())
			for r.Kind() == btf.KindTypedef || r.Kind() == btf.KindConst || r.Kind() == btf.KindVolatile {
				r = s.Type(r.Ref())
			}
			if r.Kind() == btf.KindFuncProto || r.Kind() == btf.KindUnknown || r.Kind() == btf.KindFwd {
				continue // no size
			}
			qs = append(qs, layoutQuery{"sizeof(" + name + ")"})
			if (r.Kind() == btf.KindStruct || r.Kind() == btf.KindUnion) && r.NameOff() == 0 {
				members(name, r)
			}
		}
	}
	sort.Slice(qs, func(i, j int) bool { return qs[i].expr < qs[j].expr })
	return qs
}

// layoutProgram is a C program that includes include and prints each
// query's value, one query per line from line firstQueryLine on.
func layoutProgram(include string, qs []layoutQuery) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#include %q\n", include)
	b.WriteString("#ifndef offsetof\n#define offsetof(t, m) __builtin_offsetof(t, m)\n#endif\n")
	b.WriteString("int printf(const char *, ...);\nint main(void)\n{\n")
	for _, q := range qs {
		fmt.Fprintf(&b, "\tprintf(\"%%s = %%lu\\n\", %q, (unsigned long)%s);\n", q.expr, q.expr)
	}
	b.WriteString("\treturn 0;\n}\n")
	return b.String()
}

const firstQueryLine = 8

// askableQueries drops the queries the original source itself cannot
// answer (a struct defined inside a function, a full-width bitfield BTF
// does not mark as one): it compiles the program over the original source
// and removes the queries on the lines the compiler reports, until it
// compiles.
func askableQueries(t *testing.T, cc, src, prog string, qs []layoutQuery) []layoutQuery {
	t.Helper()
	lineRe := regexp.MustCompile(regexp.QuoteMeta(filepath.Base(prog)) + `:(\d+):\d+: `)
	for attempt := 0; attempt < 5; attempt++ {
		os.WriteFile(prog, []byte(layoutProgram(src, qs)), 0o644)
		out, err := exec.Command(cc, "-w", "-fsyntax-only", prog).CombinedOutput()
		if err == nil {
			return qs
		}
		bad := map[int]bool{}
		for _, m := range lineRe.FindAllStringSubmatch(string(out), -1) {
			n, _ := strconv.Atoi(m[1])
			if i := n - firstQueryLine; i >= 0 && i < len(qs) {
				bad[i] = true
			}
		}
		if len(bad) == 0 {
			t.Fatalf("%s: the original source does not compile:\n%s", cc, out)
		}
		var keep []layoutQuery
		for i, q := range qs {
			if bad[i] {
				t.Logf("%s: original source cannot evaluate %s; not compared", cc, q.expr)
			} else {
				keep = append(keep, q)
			}
		}
		qs = keep
	}
	t.Fatalf("%s: could not find queries the original source answers", cc)
	return nil
}

// TestLayoutMatchesSource checks, for each object compiled from the C
// corpus and testdata (gcc -gbtf, pahole -J over gcc -g and clang -g), that
// the generated header compiles with gcc and clang and gives every struct
// and member the size and offset the original source gives it.
func TestLayoutMatchesSource(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: compiles and kernel-size inputs")
	}
	testc.Require(t, "gcc")
	srcs := testc.CorpusFiles(t)
	more, _ := filepath.Glob(filepath.Join("testdata", "*.c"))
	for _, m := range more {
		abs, _ := filepath.Abs(m)
		srcs = append(srcs, abs)
	}
	ccs := []string{"gcc"}
	if testc.Have(testc.Clang) {
		ccs = append(ccs, "clang")
	}
	for _, o := range fixtureObjects(t, srcs) {
		s, err := btf.LoadFile(o.path, nil)
		if err != nil {
			t.Fatalf("%s: %v", o.name, err)
		}
		qs := layoutQueries(s)
		if len(qs) == 0 {
			continue // functions only (the funcs_*.c fixtures): no struct or union to lay out
		}
		t.Run(o.name, func(t *testing.T) {
			dir := t.TempDir()
			hdr := filepath.Join(dir, "gen.h")
			if _, err := WriteFile(hdr, s, Options{PointerSize: elfPtrSize(o.path), FixLayout: true}); err != nil {
				t.Fatal(err)
			}
			orig := filepath.Join(dir, "orig.c")
			gen := filepath.Join(dir, "gen.c")
			for _, cc := range ccs {
				qs = askableQueries(t, cc, o.src, orig, qs)
			}
			os.WriteFile(orig, []byte(layoutProgram(o.src, qs)), 0o644)
			os.WriteFile(gen, []byte(layoutProgram(hdr, qs)), 0o644)
			for _, cc := range ccs {
				want := runProgram(t, cc, orig, filepath.Join(dir, "orig-"+cc))
				got := runProgram(t, cc, gen, filepath.Join(dir, "gen-"+cc))
				if !bytes.Equal(got, want) {
					t.Errorf("%s: layouts differ (%s):\n%s", o.name, cc, lineDiff(want, got))
				}
			}
			t.Logf("%d sizeof/offsetof values equal", len(qs))
		})
	}
}

func runProgram(t *testing.T, cc, src, exe string) []byte {
	t.Helper()
	testc.Run(t, cc, "-w", "-o", exe, src)
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatalf("%s: %v", exe, err)
	}
	return out
}

func lineDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			fmt.Fprintf(&b, "source: %s\nheader: %s\n", a, c)
		}
	}
	return b.String()
}
