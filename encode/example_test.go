package encode_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/kmod"
)

// sample is an object file shipped with the repository: the C corpus's
// types.c and funcs.c compiled by gcc 12 with -g -O2 and joined with
// ld -r (testdata/README.md).
const sample = "../testdata/sample.o"

// Encode an object file's DWARF as `pahole -J --btf_features=default`
// does, and list its functions: funcs.c defines eight, each with a
// symbol, so each gets a FUNC, in name order after all types.
func ExampleEncodeFile() {
	var rep encode.Report
	spec, err := encode.EncodeFile(sample, encode.Options{Features: encode.DefaultFeatures, Report: &rep})
	if err != nil {
		fmt.Println(err)
		return
	}
	for id := spec.FirstID(); id < spec.NextID(); id++ {
		if t := spec.Type(id); t.Kind() == btf.KindFunc {
			fmt.Println(t.Name())
		}
	}
	fmt.Println(rep.Encoded, "functions encoded,", len(rep.Skipped), "left out")
	// Output:
	// constprop_me
	// global_func
	// helper_static
	// no_params
	// take_big
	// use_constprop
	// varargs_func
	// weak_func
	// 8 functions encoded, 0 left out
}

// Encode a kernel's vmlinux as `pahole -J --btf_features=default
// --btf_encode_detached=vmlinux.btf vmlinux` does, and write the raw BTF
// (elfx.WriteSections puts it into an ELF file's .BTF instead). Jobs 0
// converts one unit per CPU at a time; the output does not depend on it.
// (No output is shown: it needs a vmlinux with DWARF, such as Debian's
// /usr/lib/debug/boot/vmlinux-*.)
func ExampleEncodeFile_vmlinux() {
	var rep encode.Report
	spec, err := encode.EncodeFile("/usr/lib/debug/boot/vmlinux", encode.Options{
		Features: encode.DefaultFeatures,
		Report:   &rep,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	if err := os.WriteFile("vmlinux.btf", spec.Marshal(nil), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Println(spec.NumTypes(), "types,", rep.Encoded, "functions,", len(rep.Skipped), "left out")
	for _, s := range rep.Skipped {
		if s.Reason == encode.ReasonInconsistent {
			fmt.Println("inconsistent prototypes:", s.Name)
		}
	}
}

// Features are named as pahole's --btf_features names them; a leading
// "+" adds to the default set.
func ExampleParseFeatures() {
	f, unknown, err := encode.ParseFeatures("+global_var,no_such_feature")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f)
	fmt.Println("unknown:", unknown)
	// Output:
	// encode_force,var,float,decl_tag,type_tag,enum64,optimized_func,consistent_func,decl_tag_kfuncs,global_var
	// unknown: [no_such_feature]
}

// A module's BTF is split against its vmlinux's: types the base has are
// not repeated. Here the base is the sample's own BTF, and the "module"
// is the sample encoded again with global_var, so its own types are only
// the variables (VAR) and one DATASEC per section that holds them: the
// symbol table has 27 objects, in .bss, .rodata, .data.rel.ro.local and
// .data.rel.local.
func ExampleEncodeSplit() {
	dir, _ := os.MkdirTemp("", "encode-example")
	defer os.RemoveAll(dir)
	vmlinux, err := encode.EncodeFile(sample, encode.Options{Features: encode.DefaultFeatures})
	if err != nil {
		fmt.Println(err)
		return
	}
	baseFile := filepath.Join(dir, "vmlinux.btf")
	if err := os.WriteFile(baseFile, vmlinux.Marshal(nil), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	// Loaded and prepared once, a base serves any number of modules.
	base, err := encode.LoadBase(baseFile)
	if err != nil {
		fmt.Println(err)
		return
	}
	mod, err := encode.EncodeSplit(sample, base, encode.Options{Features: encode.DefaultFeatures | encode.FeatGlobalVar})
	if err != nil {
		fmt.Println(err)
		return
	}
	kinds := map[btf.Kind]int{}
	for id := mod.FirstID(); id < mod.NextID(); id++ {
		kinds[mod.Type(id).Kind()]++
	}
	fmt.Println("own types follow the base's:", mod.FirstID() == vmlinux.NextID())
	fmt.Println(kinds[btf.KindVar], "VAR,", kinds[btf.KindDatasec], "DATASEC,", mod.NumTypes(), "in all")
	// Output:
	// own types follow the base's: true
	// 27 VAR, 4 DATASEC, 31 in all
}

// Encode many modules in one process, two at a time; done is called from
// the workers as each module is finished. A module that fails does not
// stop the others, and each module's BTF is what it gets alone.
func ExampleEncodeBatch() {
	opts := encode.Options{Features: encode.DefaultFeatures}
	alone, err := encode.EncodeFile(sample, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	mods := []kmod.Module{
		{Path: sample, Name: "sample"},
		{Path: "../testdata/missing.ko", Name: "missing"},
	}
	results := make([]string, len(mods))
	failed := encode.EncodeBatch(mods, nil, encode.BatchOptions{Options: opts, Jobs: 2},
		func(r encode.BatchResult) error {
			if r.Err != nil {
				results[r.Index] = fmt.Sprintf("%s: %v", r.Module.Name, r.Err)
			} else {
				same := bytes.Equal(r.Spec.Marshal(nil), alone.Marshal(nil))
				results[r.Index] = fmt.Sprintf("%s: as encoded alone: %v", r.Module.Name, same)
			}
			return nil
		})
	sort.Strings(results)
	for _, r := range results {
		fmt.Println(r)
	}
	fmt.Println(failed, "failed")
	// Output:
	// missing: ../testdata/missing.ko: open: no such file or directory
	// sample: as encoded alone: true
	// 1 failed
}
