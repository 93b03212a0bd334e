package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/btfgen"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// deepInput is one hostile type graph for TestDeepGraphs.
type deepInput struct {
	name  string
	spec  *btf.Spec
	class string // what pretty decodes
	// dedupTwice: dedup of the input twice over must give the input
	// (the loops of Cycles are an error instead).
	dedupTwice bool
}

func deepInputs() []deepInput {
	return []deepInput{
		{"ptr100k", btfgen.PtrChain(100000, false), "holder", true},
		{"ptr100k-rev", btfgen.PtrChain(100000, true), "holder", true},
		{"nest10k", btfgen.StructNest(10000, false), "s10000", true},
		{"nest10k-rev", btfgen.StructNest(10000, true), "s10000", true},
		{"typedef100k", btfgen.TypedefChain(100000, false), "holder", true},
		{"typedef100k-rev", btfgen.TypedefChain(100000, true), "holder", true},
		{"cycles", btfgen.Cycles(), "node", false},
	}
}

// TestDeepGraphs runs every command that reads BTF (check, dump raw and
// C, dedup, diff, layout, pretty, sort, downgrade) on deep and cyclic
// type graphs: a 100,000-deep PTR chain, 10,000 structs nested by
// value, a 100,000-deep typedef chain (each with its IDs in both
// orders, since walks in ID order meet a chain one link at a time in
// one order and all at once in the other), and BTF whose references
// loop. Each command must end with a result or an error (exit status 0
// or 1), never a crash, within 10 s of CPU and 1 GiB (runLimited). The
// results are checked against the oracles where they have one: the
// kernel's BPF_BTF_LOAD for check, bpftool for the dumps, pahole for
// layouts (the three crash on some of these inputs; btfkit must not),
// the record bytes for pretty; and dedup, sort and downgrade must give
// BTF equal to their input.
func TestDeepGraphs(t *testing.T) {
	if testing.Short() {
		// The commands run as processes built without -race, so the
		// race run (-short) would repeat the plain run exactly.
		t.Skip("SKIP: deep graphs run in the plain test run (-short)")
	}
	testc.Require(t, "bpftool", "pahole")
	dir := t.TempDir()
	data := make([]byte, 64)
	for i := range data {
		data[i] = byte(i*37 + 11)
	}
	dataPath := filepath.Join(dir, "records.bin")
	if err := os.WriteFile(dataPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	canLoad := true
	for _, in := range deepInputs() {
		t.Run(in.name, func(t *testing.T) {
			raw := in.spec.Marshal(nil)
			f := filepath.Join(dir, in.name+".btf")
			if err := os.WriteFile(f, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, in.name+".out.btf")
			var costs []string
			run := func(args ...string) (string, string, int) {
				t.Helper()
				stdout, stderr, code, u := runLimited(t, args...)
				costs = append(costs, fmt.Sprintf("%s %.2fs %dMiB", args[0], u.cpu.Seconds(), u.rss>>20))
				return stdout, stderr, code
			}

			// check: the kernel's verdict.
			_, _, code := run("check", f)
			if canLoad {
				err := kernload.Load(raw)
				var rej *kernload.RejectedError
				switch {
				case errors.Is(err, kernload.ErrNotPermitted):
					canLoad = false
					testenv.SkipPartOrFail(t, "the kernel's verdicts: %v", err)
				case err != nil && !errors.As(err, &rej):
					t.Errorf("BPF_BTF_LOAD: %v", err)
				case (err == nil) != (code == 0):
					t.Errorf("check: exit status %d; kernel: %v", code, err)
				}
			}

			// dump raw and C: bpftool's bytes where bpftool gives any.
			got, _, code := run("dump", f)
			want, berr := toolOutput("bpftool", "btf", "dump", "file", f)
			if berr != nil || code != 0 || got != want {
				t.Errorf("dump: exit status %d, %d bytes; bpftool: %v, %d bytes", code, len(got), berr, len(want))
			}
			got, stderr, code := run("dump", "--format", "c", f)
			want, berr = toolOutput("bpftool", "btf", "dump", "file", f, "format", "c")
			switch {
			case berr == nil && (code != 0 || got != want):
				t.Errorf("dump --format c: exit status %d, %d bytes, differs from bpftool's %d bytes\n%s", code, len(got), len(want), stderr)
			case berr != nil && (code != 1 || !strings.Contains(stderr, "type [")):
				t.Errorf("dump --format c where bpftool fails (%v): exit status %d, want 1 and an error naming the type\n%s", berr, code, stderr)
			}

			// layout: pahole's output where pahole gives any.
			got, stderr, code = run("layout", f)
			want, perr := toolOutput("pahole", "-F", "btf", f)
			if perr == nil && (code != 0 || got != want) {
				t.Errorf("layout: exit status %d, %d bytes, differs from pahole's %d bytes\n%s", code, len(got), len(want), stderr)
			}

			// pretty: each record's member values from its bytes.
			checkDeepPretty(t, in, run, f, dataPath, data)

			// dedup, sort, downgrade: the same BTF back.
			sameAsInput := func(what string) {
				t.Helper()
				if _, stderr, code := run("diff", "-q", f, out); code != 0 {
					t.Errorf("%s: output differs from the input\n%s", what, stderr)
				}
			}
			dedupArgs := []string{"dedup", "-o", out, f}
			if in.dedupTwice {
				dedupArgs = append(dedupArgs, f)
			}
			_, stderr, code = run(dedupArgs...)
			switch {
			case in.name == "cycles":
				if code != 1 || !strings.Contains(stderr, "cycle") {
					t.Errorf("dedup of reference loops: exit status %d, want 1 and a cycle error\n%s", code, stderr)
				}
			case code != 0:
				t.Errorf("dedup: exit status %d\n%s", code, stderr)
			default:
				sameAsInput("dedup")
			}
			if _, stderr, code := run("diff", f, f); code != 0 {
				t.Errorf("diff of a file with itself: exit status %d\n%s", code, stderr)
			}
			if _, stderr, code := run("sort", "-o", out, f); code != 0 {
				t.Errorf("sort: exit status %d\n%s", code, stderr)
			} else {
				sameAsInput("sort")
			}
			if _, stderr, code := run("downgrade", "--target-kernel", "5.2", "-o", out, f); code != 0 {
				t.Errorf("downgrade: exit status %d\n%s", code, stderr)
			} else if b, err := os.ReadFile(out); err != nil || !bytes.Equal(b, raw) {
				t.Errorf("downgrade to 5.2 of BTF with nothing newer changed it (%v)", err)
			}
			t.Logf("CPU and peak RSS: %s", strings.Join(costs, ", "))
		})
	}
}

// checkDeepPretty decodes the records with pretty --format json and
// compares each member's value with the record's bytes; structs nested
// 10,000 deep are an error in text (pretty prints 64 levels) and bytes
// below the 64th level in JSON.
func checkDeepPretty(t *testing.T, in deepInput, run func(...string) (string, string, int), f, dataPath string, data []byte) {
	t.Helper()
	if strings.HasPrefix(in.name, "nest") {
		// One whole record of s10000.
		dataPath += ".nest"
		if err := os.WriteFile(dataPath, bytes.Repeat(data, 40004/len(data)+1)[:40004], 0o644); err != nil {
			t.Fatal(err)
		}
		// pahole's text stops with an error, the JSON lines print
		// what is nested deeper as bytes.
		_, stderr, code := run("pretty", "-C", in.class, f, dataPath)
		if code != 1 || !strings.Contains(stderr, "nested more than 64 deep") {
			t.Errorf("pretty of structs nested 10,000 deep: exit status %d\n%s", code, stderr)
		}
		got, stderr, code := run("pretty", "--format", "json", "-C", in.class, f, dataPath)
		if code != 0 || strings.Count(got, `{"a":`) != 65 {
			t.Errorf("pretty --format json of structs nested 10,000 deep: exit status %d, %d levels of \"a\", want 65\n%s", code, strings.Count(got, `{"a":`), stderr)
		}
		return
	}
	got, stderr, code := run("pretty", "--format", "json", "-C", in.class, f, dataPath)
	if code != 0 {
		t.Errorf("pretty: exit status %d\n%s", code, stderr)
		return
	}
	var size int
	switch {
	case strings.HasPrefix(in.name, "ptr"):
		size = 8
	case in.name == "cycles":
		size = 16
	default:
		size = 4
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != len(data)/size {
		t.Fatalf("pretty: %d records, want %d", len(lines), len(data)/size)
	}
	for i, line := range lines {
		var rec struct {
			Members map[string]json.Number `json:"members"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("pretty record %d: %v: %s", i, err, line)
		}
		b := data[i*size:]
		want := map[string]string{}
		switch size {
		case 8:
			want["p"] = fmt.Sprint(binary.LittleEndian.Uint64(b))
		case 4:
			want["p"] = fmt.Sprint(int32(binary.LittleEndian.Uint32(b)))
		case 16:
			want["next"] = fmt.Sprint(binary.LittleEndian.Uint64(b))
			want["v"] = fmt.Sprint(int32(binary.LittleEndian.Uint32(b[8:])))
		}
		for k, v := range want {
			if string(rec.Members[k]) != v {
				t.Errorf("pretty record %d: %s = %s, want %s (%s)", i, k, rec.Members[k], v, line)
			}
		}
	}
}

// toolOutput runs an oracle tool and returns its standard output, or an
// error when it fails (exit status, or a crash: bpftool and pahole
// exhaust their stacks on some deep graphs).
func toolOutput(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("%s: %v: %s", name, err, tail(errb.String()))
	}
	return out.String(), nil
}
