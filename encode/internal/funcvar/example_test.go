package funcvar_test

import (
	"fmt"

	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
)

// The encoder fills a Report when asked: how many functions got a FUNC,
// and which were left out and why. The sample object (testdata/sample.o,
// the C corpus's types.c and funcs.c) defines eight functions, each with
// a symbol at one address and parameters where the x86-64 calling
// convention puts them, so none is left out.
func ExampleReport() {
	var rep funcvar.Report
	_, err := encode.EncodeFile("../../../testdata/sample.o", encode.Options{Features: encode.DefaultFeatures, Report: &rep})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Encoded, "encoded")
	for _, s := range rep.Skipped {
		fmt.Printf("%s: %s\n", s.Name, s.Reason)
	}
	// Output:
	// 8 encoded
}

// A symbol with an .isra or .constprop suffix is a clone the compiler
// made with another signature; .cold and .part are pieces of a function.
func ExampleIsOptimizedClone() {
	for _, sym := range []string{"helper_static.constprop.0", "tcp_v4_rcv.isra.0", "do_exit.cold", "vfs_read"} {
		fmt.Println(sym, funcvar.IsOptimizedClone(sym))
	}
	// Output:
	// helper_static.constprop.0 true
	// tcp_v4_rcv.isra.0 true
	// do_exit.cold false
	// vfs_read false
}
