package main

// btfkit encode --from btf: the BTF-archive route (encode/frombtf).

import (
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/encode/frombtf"
	"github.com/spf13/cobra"
)

// fromBTFGC sets the collector's pace for the archive route, unless
// GOGC is set. Its live heap is small (~18 MB on the 6.12 archive of 652
// members) and its garbage plentiful (each member's parsed tables): at
// the default GOGC=100 it collected 18 times in a third of a second.
// GOGC=200 saved ~10% of the CPU at -j1 (the collector also competes
// with the loading jobs at -j2) for ~10 MB more peak RSS.
func fromBTFGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
}

// runEncodeFromBTF is `btfkit encode --from btf -o OUT FILE`.
func runEncodeFromBTF(cmd *cobra.Command, path string) error {
	t0 := time.Now()
	feat, langs, err := encodeFlags()
	if err != nil {
		return err
	}
	if len(langs) > 0 {
		return fmt.Errorf("--lang-exclude: BTF does not say which language a type came from; it does not apply to --from btf")
	}
	if feat.Has(encode.FeatTrueSignature) {
		return fmt.Errorf("--features true_signature: BTF has no parameter locations or addresses; it does not apply to --from btf")
	}
	var rep *encode.Report
	var st frombtf.Stats
	if encodeOpts.verbose {
		rep = new(encode.Report)
	}
	fromBTFGC()
	spec, err := frombtf.EncodeFile(path, frombtf.Options{Features: feat, Jobs: encodeOpts.jobs, Report: rep, Stats: &st})
	if err != nil {
		return err
	}
	if spec, err = encodePost(spec, os.Stderr); err != nil { // encode_post.go
		return err
	}
	t1 := time.Now()
	if err := writeOutput(encodeOpts.out, spec.Marshal(nil)); err != nil {
		return err
	}
	if encodeOpts.verbose {
		writeSkipReport(cmd.OutOrStdout(), rep)
		fmt.Fprintf(os.Stderr, "btfkit encode --from btf: %s: %d members, %d types in, %d types out, %d functions encoded, %d left out; load %v, merge %v, functions and variables %v, dedup %v, write %v (total %v); CPU %v loading, %v after\n",
			path, st.Members, st.TypesIn, st.TypesOut, rep.Encoded, len(rep.Skipped),
			st.Load.Round(time.Millisecond), st.Merge.Round(time.Millisecond), st.Decide.Round(time.Millisecond),
			st.Dedup.Round(time.Millisecond), time.Since(t1).Round(time.Millisecond), time.Since(t0).Round(time.Millisecond),
			st.LoadCPU.Round(time.Millisecond), st.SerialCPU.Round(time.Millisecond))
	}
	return nil
}
