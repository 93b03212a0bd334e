package testenv

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// scriptPath matches a repository path a script names under internal/ or
// cmd/ (scripts/ and testdata/ are also kernel tree and package-relative
// names, so they are left out), up to the first character that cannot be
// part of a literal path (a variable, a quote, a space).
var scriptPath = regexp.MustCompile(`(?:^|[\s"'=(<>:$}/.])((?:internal|cmd)/[A-Za-z0-9_.+/-]+)`)

// TestScriptReferences checks that every repository path named by a script
// under scripts/ or .ci/ exists. Moving a package or a fixture without
// updating the scripts that build or read it breaks only the slow kernel
// runs otherwise, after their build has started.
func TestScriptReferences(t *testing.T) {
	root := Root(t)
	var files []string
	for _, dir := range []string{"scripts", ".ci"} {
		ents, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if !e.IsDir() {
				files = append(files, filepath.Join(dir, e.Name()))
			}
		}
	}
	checked := 0
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			for _, m := range scriptPath.FindAllStringSubmatchIndex(line, -1) {
				p := line[m[2]:m[3]]
				// A path that continues with a variable or a glob is a
				// prefix: check the directory part that is literal.
				rest := line[m[3]:]
				if strings.HasPrefix(rest, "$") || strings.HasPrefix(rest, "*") || strings.HasPrefix(rest, "{") {
					p = p[:strings.LastIndex(p, "/")+1]
				}
				p = strings.TrimRight(p, "./")
				if p == "" || !strings.Contains(p, "/") {
					continue
				}
				if _, err := os.Stat(filepath.Join(root, p)); err != nil {
					t.Errorf("%s:%d: names %s, which is not in the tree", rel, i+1, p)
					continue
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d paths checked in %d scripts: the pattern finds too few to be working", checked, len(files))
	}
	t.Logf("%d paths in %d scripts checked", checked, len(files))
}
