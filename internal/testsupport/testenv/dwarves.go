package testenv

import (
	"os"
	"path/filepath"
	"strings"
)

// DwarvesVersion is the pahole release btfkit follows and its tests
// compare with: Debian sid's package, which scripts/sid-tools makes
// runnable here.
const DwarvesVersion = "v1.32"

// DwarvesTools are the dwarves programs scripts/sid-tools puts in
// SidDir()/dwarves.
var DwarvesTools = []string{"pahole", "pfunct", "codiff", "pdwtags", "pglobal", "prefcnt"}

// SidDir is where scripts/sid-tools keeps sid's root and its wrappers:
// $BTFKIT_SID, default /var/cache/btfkit/sid.
func SidDir() string {
	if d := os.Getenv("BTFKIT_SID"); d != "" {
		return d
	}
	return "/var/cache/btfkit/sid"
}

// DwarvesDir is the directory of the reference dwarves tools (pahole 1.32,
// pfunct, codiff, pdwtags, pglobal, prefcnt from Debian sid), or "" when
// scripts/sid-tools has not made them.
func DwarvesDir() string {
	d := filepath.Join(SidDir(), "dwarves")
	if st, err := os.Stat(filepath.Join(d, "pahole")); err != nil || st.IsDir() {
		return ""
	}
	return d
}

// SidBin is the directory of every sid wrapper scripts/sid-tools makes
// (the dwarves tools, bpftool 7.8 and pahole-basefix), or "".
func SidBin() string {
	d := filepath.Join(SidDir(), "bin")
	if _, err := os.Stat(filepath.Join(d, "pahole-basefix")); err != nil {
		return ""
	}
	return d
}

// IsDwarvesTool reports whether name is one of DwarvesTools.
func IsDwarvesTool(name string) bool {
	for _, t := range DwarvesTools {
		if t == name {
			return true
		}
	}
	return false
}

// A test process puts the reference dwarves tools first on PATH, so that
// every test that runs `pahole` or `pfunct` runs pahole 1.32's, whatever
// Debian 12's dwarves package (1.24) installed; bpftool and the compilers
// stay the host's. testc.Require checks that a dwarves tool found on PATH
// is the reference one.
func init() {
	d := DwarvesDir()
	if d == "" {
		return
	}
	path := os.Getenv("PATH")
	for _, p := range filepath.SplitList(path) {
		if p == d {
			return
		}
	}
	os.Setenv("PATH", d+string(filepath.ListSeparator)+path)
}

// OnDwarvesPath reports whether path (a tool found on PATH) is one of the
// reference dwarves tools.
func OnDwarvesPath(path string) bool {
	d := DwarvesDir()
	return d != "" && strings.HasPrefix(path, d+string(filepath.Separator))
}
