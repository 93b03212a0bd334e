package encode

// Batch encoding: many modules against one base in one process, the way a
// kernel build or a distribution runs the encoder once per module, without
// reloading the base each time.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
)

// moduleSuffixes are the file names FindModules takes for kernel modules,
// longest first.
var moduleSuffixes = []string{".ko.xz", ".ko.zst", ".ko.gz", ".ko"}

// Module is one input of a batch: a kernel module file, plain or
// compressed (.ko.xz, .ko.zst, .ko.gz; elfx.Open decompresses it in
// memory).
type Module struct {
	Path string // the file
	Name string // its base name without the .ko (and compression) suffix
}

// ModuleName returns the module name of a file name (mod.ko.xz -> mod), or
// the base name unchanged when it has no module suffix.
func ModuleName(path string) string {
	b := filepath.Base(path)
	for _, s := range moduleSuffixes {
		if strings.HasSuffix(b, s) && len(b) > len(s) {
			return b[:len(b)-len(s)]
		}
	}
	return b
}

// IsModuleFile reports whether the file name ends in .ko, .ko.xz, .ko.zst
// or .ko.gz.
func IsModuleFile(path string) bool { return ModuleName(path) != filepath.Base(path) }

// FindModules expands inputs into modules: a file is taken as it is, a
// directory is searched recursively for module files (IsModuleFile). The
// result is in input order, each directory's modules sorted by path. Two
// modules of the same name are an error, since their outputs would have
// the same name.
func FindModules(inputs []string) ([]Module, error) {
	var mods []Module
	seen := map[string]string{}
	add := func(p string) error {
		m := Module{Path: p, Name: ModuleName(p)}
		if prev, dup := seen[m.Name]; dup {
			return fmt.Errorf("two modules named %s: %s and %s", m.Name, prev, p)
		}
		seen[m.Name] = p
		mods = append(mods, m)
		return nil
	}
	for _, in := range inputs {
		st, err := os.Stat(in)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			if err := add(in); err != nil {
				return nil, err
			}
			continue
		}
		var found []string
		err = filepath.WalkDir(in, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && IsModuleFile(p) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no kernel modules (*.ko, *.ko.xz, *.ko.zst, *.ko.gz) in it", in)
		}
		sort.Strings(found)
		for _, p := range found {
			if err := add(p); err != nil {
				return nil, err
			}
		}
	}
	return mods, nil
}

// BatchOptions controls EncodeBatch.
type BatchOptions struct {
	// Options are the encoder options for every module. Options.Jobs is
	// ignored: modules are encoded one unit at a time, Jobs modules at
	// once (the output does not depend on either).
	Options
	// Jobs is the number of modules encoded at once; <= 0 means one per
	// CPU.
	Jobs int
}

// BatchResult is the outcome for one module of a batch.
type BatchResult struct {
	Index  int       // the module's index in the input
	Module Module    // the module
	Spec   *btf.Spec // its BTF (split against the base, if any); nil on error
	Err    error     // what went wrong, naming the file
}

// EncodeBatch encodes every module, split against base (nil: standalone
// BTF), Jobs at a time, and calls done with each module's result as soon
// as it is ready: from several goroutines at once, in no particular order.
// Each module's BTF is what EncodeSplit gives for it alone. A module that
// fails does not stop the others; EncodeBatch returns the number of
// failures. done may return an error (say, writing the output failed);
// it is counted as that module's failure, and done is not called again for
// it.
func EncodeBatch(mods []Module, base *dedup.Base, o BatchOptions, done func(BatchResult) error) (failed int) {
	total := o.Jobs
	if total <= 0 {
		total = runtime.NumCPU()
	}
	jobs := min(total, len(mods))
	eo := o.Options
	// One unit at a time per module; fewer modules than jobs share the
	// rest between them.
	eo.Jobs = max(1, total/max(1, len(mods)))
	order := largestFirst(mods)
	var next atomic.Int64
	var nfail atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(mods) {
					return
				}
				i := order[k]
				r := BatchResult{Index: i, Module: mods[i]}
				r.Spec, r.Err = EncodeSplit(mods[i].Path, base, eo)
				if err := done(r); err != nil && r.Err == nil {
					r.Err = err
				}
				if r.Err != nil {
					nfail.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return int(nfail.Load())
}

// largestFirst returns the indexes of mods, largest file first (input
// order among equal sizes; a file that cannot be read counts as empty):
// the big modules start early and the small ones fill in at the end, so
// that no worker is left alone with a big one while the others idle.
func largestFirst(mods []Module) []int {
	size := make([]int64, len(mods))
	order := make([]int, len(mods))
	for i, m := range mods {
		order[i] = i
		if st, err := os.Stat(m.Path); err == nil {
			size[i] = st.Size()
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return size[order[a]] > size[order[b]] })
	return order
}
