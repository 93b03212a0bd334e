package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// readmeExample is one example of README.md: a comment's commands, or a
// code block's when it has no comment.
type readmeExample struct {
	line     int      // README's line of its first command
	comment  string   // what the README says it does
	commands []string // shell command lines, continuations joined
}

// readmeExamples returns README.md's code blocks (indented by four
// blanks, or fenced), split into examples at their comment lines.
func readmeExamples(t *testing.T, readme string) []readmeExample {
	var out []readmeExample
	var cur *readmeExample
	flush := func() {
		if cur != nil && len(cur.commands) > 0 {
			out = append(out, *cur)
		}
		cur = nil
	}
	lines := strings.Split(readme, "\n")
	inFence, prevBlank := false, true
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
			flush()
			continue
		}
		code := ""
		switch {
		case inFence:
			code = l
		case strings.HasPrefix(l, "    ") && (prevBlank || cur != nil):
			code = strings.TrimPrefix(l, "    ")
		default:
			flush()
			prevBlank = strings.TrimSpace(l) == ""
			continue
		}
		code = strings.TrimSpace(code)
		switch {
		case code == "":
		case strings.HasPrefix(code, "#"):
			text := strings.TrimSpace(strings.TrimPrefix(code, "#"))
			if cur != nil && len(cur.commands) == 0 {
				cur.comment += " " + text // the comment goes on
				continue
			}
			flush()
			cur = &readmeExample{comment: text}
		default:
			if cur == nil {
				cur = &readmeExample{}
			}
			start := i + 1
			for strings.HasSuffix(code, "\\") && i+1 < len(lines) {
				i++
				code = strings.TrimSuffix(code, "\\") + " " + strings.TrimSpace(lines[i])
			}
			if len(cur.commands) == 0 {
				cur.line = start
			}
			cur.commands = append(cur.commands, code)
		}
	}
	flush()
	return out
}

// shellWords splits a command line into its words as written (quotes
// and $(...) kept whole).
func shellWords(cmd string) []string {
	var words []string
	var w strings.Builder
	quote := byte(0)
	depth := 0 // inside $( )
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == '$' && i+1 < len(cmd) && cmd[i+1] == '(' && quote != '\'':
			depth++
			w.WriteString("$(")
			i++
		case depth > 0 && c == ')':
			depth--
			w.WriteByte(c)
		case depth > 0:
			w.WriteByte(c)
		case quote != 0:
			w.WriteByte(c)
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
			w.WriteByte(c)
		case c == ' ' || c == '\t':
			if w.Len() > 0 {
				words = append(words, w.String())
				w.Reset()
			}
		default:
			w.WriteByte(c)
		}
	}
	if w.Len() > 0 {
		words = append(words, w.String())
	}
	return words
}

// fileLike is a word naming a file: a path, or a name with an extension.
var fileLike = regexp.MustCompile(`^(?:[~/.$]|[\w.-]*/)|\.[A-Za-z][A-Za-z0-9]*$`)

// readmeInputs returns the words of a btfkit command line that name
// files it reads: the words that look like files, except those written
// (after -o, --out-dir, >). A btfkit pahole or layout command that names
// none reads the running kernel's BTF.
func readmeInputs(words []string) []string {
	var in []string
	for i := 2; i < len(words); i++ {
		w := words[i]
		if w == "-o" || w == "--out-dir" || w == ">" {
			i++
			continue
		}
		if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "'") {
			continue
		}
		if fileLike.MatchString(w) {
			in = append(in, w)
		}
	}
	if len(in) == 0 && (words[1] == "pahole" || words[1] == "layout") {
		in = append(in, "/sys/kernel/btf/vmlinux")
	}
	return in
}

// readmeNotRun are the commands a test does not run, and why.
var readmeNotRun = []struct{ prefix, why string }{
	{"scripts/test", "scripts/test installs packages and runs every test, this one too"},
	{"go install", "go install fetches btfkit from the network"},
	{"make ", "make builds a Linux kernel: it needs a Linux source tree"},
}

// TestReadmeExamples runs README.md's examples as written, with btfkit on
// PATH (the binary under test) and, in the first block ("The two
// commands"), `go run ./cmd/btfkit` in the repository. Each example (the
// commands under one comment) runs in order in one directory, where the
// repository's top-level entries are linked (so that
// pretty/testdata/perf.c is there as in a clone, and nothing is written
// into the clone), with HOME a directory of its own (Go's caches kept
// where they are); /tmp/ in a command is a temporary directory. An example
// is skipped, with a SKIP message, when a btfkit command reads a file that
// is not there (the kernel debug files, a module's /sys/kernel/btf file, a
// file an example skipped before would have written), when check --kernel
// may not call bpf() (not root), when a program it runs is not installed,
// or when a command other than btfkit's (perf record, gcc) fails: what
// this machine lacks, not what btfkit does wrong, and what CI's machine
// may lack too (a module's BTF, the running kernel's debug files), so
// these skips do not fail under CI=true. Every btfkit command that runs
// must succeed, and a `btfkit pretty` example, which the README says
// prints what pahole --prettify prints, must print what pahole 1.32 prints
// for the same command line in pahole's spelling (readmePrettyAsPahole).
func TestReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the README's examples read the whole kernel BTF")
	}
	root := testenv.Root(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	examples := readmeExamples(t, string(readme))
	if len(examples) < 8 {
		t.Fatalf("README.md: %d examples found; the parser is broken", len(examples))
	}

	tmp := t.TempDir()
	bin, home, work, tmpdir := filepath.Join(tmp, "bin"), filepath.Join(tmp, "home"), filepath.Join(tmp, "work"), filepath.Join(tmp, "tmp")
	for _, d := range []string{bin, home, work, tmpdir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(testenv.Btfkit(t), filepath.Join(bin, "btfkit")); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(work, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	env := append(os.Environ(), "PATH="+bin+string(filepath.ListSeparator)+os.Getenv("PATH"), "HOME="+home)
	// go run keeps this machine's caches, which live under HOME unless
	// set: a fresh HOME would build everything again and fetch modules.
	if out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output(); err == nil {
		if v := strings.Split(strings.TrimSpace(string(out)), "\n"); len(v) == 3 {
			env = append(env, "GOCACHE="+v[0], "GOMODCACHE="+v[1], "GOPATH="+v[2])
		}
	}

	ran, btfkitRuns := 0, 0
	for _, ex := range examples {
		name := fmt.Sprintf("README.md:%d", ex.line)
		if ex.comment != "" {
			name += " (" + ex.comment + ")"
		}
		skip := ""
		dir := work
		if strings.Contains(strings.Join(ex.commands, "\n"), "go run ./cmd/btfkit") {
			dir = root // the clone itself, as the README says
		}
		for _, c := range ex.commands {
			for _, n := range readmeNotRun {
				if strings.HasPrefix(c, n.prefix) {
					skip = "not run: " + c + ": " + n.why
				}
			}
			if skip != "" {
				break
			}
			c = strings.ReplaceAll(c, "/tmp/", tmpdir+"/")
			words := shellWords(c)
			prog := words[0]
			if strings.HasPrefix(prog, "go") && len(words) > 2 && words[1] == "run" {
				prog = "go"
			}
			script := c
			if prog == "btfkit" && len(words) > 1 {
				// The inputs, tested by the shell that expands them
				// ($(uname -r), ~), status 99 when one is missing.
				if in := readmeInputs(words); len(in) > 0 {
					script = "for f in " + strings.Join(in, " ") + `; do [ -e "$f" ] || { echo "$f"; exit 99; }; done; ` + c
				}
			} else if _, err := exec.LookPath(prog); err != nil && !strings.Contains(prog, "=") {
				skip = fmt.Sprintf("%s is not installed", prog)
				break
			}
			cmd := exec.Command("sh", "-c", script)
			cmd.Dir, cmd.Env = dir, env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := cmd.ProcessState.ExitCode()
			switch {
			case err == nil:
				ran++
				if prog == "btfkit" || prog == "go" {
					btfkitRuns++
				}
				t.Logf("%s: ran %s", name, c)
				if prog == "btfkit" && words[1] == "pretty" {
					readmePrettyAsPahole(t, name, words, dir, env, stdout.String())
				}
				continue
			case code == 99 && prog == "btfkit":
				skip = "needs " + strings.TrimSpace(stdout.String()) + ", which is not here"
			case code == 2 && strings.Contains(stdout.String()+stderr.String(), "kernel: cannot ask"):
				// check --kernel, not root: bpf() is not permitted.
				skip = "bpf(BPF_BTF_LOAD) is not permitted here (the README says: as root)"
			case prog == "btfkit" || prog == "go":
				t.Errorf("%s: %s: exit status %d: %s", name, c, code, stderr.String())
				skip = "stopped at the failing command"
			default:
				skip = fmt.Sprintf("%s failed here (%v): %s", prog, err, strings.TrimSpace(stderr.String()))
			}
			break
		}
		if skip != "" {
			testenv.SkipPart(t, "%s: %s", name, skip)
		}
	}
	if btfkitRuns < 3 {
		t.Errorf("only %d btfkit commands of the README ran", btfkitRuns)
	}
	t.Logf("%d README commands ran, %d of them btfkit's", ran, btfkitRuns)
}

// readmePrettyAsPahole runs a README `btfkit pretty` command line (words)
// as pahole's (pahole --prettify=DATA with pahole's option names) in dir,
// and checks it prints what btfkit printed (got). pahole is sid's 1.32,
// first on a test's PATH (testenv); without it the check is skipped.
func readmePrettyAsPahole(t *testing.T, name string, words []string, dir string, env []string, got string) {
	t.Helper()
	if _, err := exec.LookPath("pahole"); err != nil || testenv.DwarvesDir() == "" {
		testenv.SkipPartOrFail(t, "%s: pahole 1.32 not installed (scripts/sid-tools): its output not compared", name)
		return
	}
	rename := map[string]string{
		"--header": "--header_type", "--seek-bytes": "--seek_bytes", "--size-bytes": "--size_bytes",
		"--from": "-F", "--base": "--btf_base",
	}
	valued := map[string]bool{"-C": true, "--class": true, "--header": true, "--seek-bytes": true, "--size-bytes": true,
		"--range": true, "--count": true, "--skip": true, "--format": true, "-F": true, "--from": true, "--base": true}
	var args, files []string
	for i := 2; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--no-print-header": // what pahole does
		case w == "--format":
			if words[i+1] != "text" {
				return // JSON: no pahole to compare with
			}
			i++
		case valued[w]:
			if r, ok := rename[w]; ok {
				w = r
			}
			if w == "--class" {
				w = "-C"
			}
			args = append(args, w, words[i+1])
			i++
		case strings.HasPrefix(w, "-"):
			args = append(args, w)
		default:
			files = append(files, w)
		}
	}
	if len(files) == 0 {
		return
	}
	args = append(args, files[:len(files)-1]...)
	args = append(args, "--prettify="+files[len(files)-1])
	script := "pahole " + strings.Join(args, " ")
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	want, err := cmd.Output()
	if err != nil {
		t.Errorf("%s: %s: %v", name, script, err)
		return
	}
	if got != string(want) {
		t.Errorf("%s: %s prints %d bytes, pahole's %s %d bytes: not what the README says", name, strings.Join(words, " "), len(got), script, len(want))
		return
	}
	t.Logf("%s: prints what %s prints", name, script)
}
