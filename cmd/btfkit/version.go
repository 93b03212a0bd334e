package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// btfkitVersion is btfkit's own version. A binary built from a tagged
// module version (go install ...@vX.Y.Z) reports that version instead; a
// build from a checkout adds the commit it was built from.
const btfkitVersion = "0.32.0-dev"

// versionText is what `btfkit --version` and `btfkit version` print: the
// version, the commit when known, and the releases whose output btfkit
// reproduces.
func versionText() string {
	v, rev, dirty := btfkitVersion, "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if mv := bi.Main.Version; mv != "" && mv != "(devel)" {
			v = mv
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " (" + rev
		if dirty {
			v += ", modified"
		}
		v += ")"
	}
	return fmt.Sprintf("btfkit %s\nfollows pahole %s (BTF encoding; pahole and pfunct output) and bpftool's btf dump\n", v, paholeVersion)
}

var versionCmd = &cobra.Command{
	Use:   "version",
	Short: "Print btfkit's version and the pahole release it follows",
	Args:  cobra.NoArgs,
	Run: func(cmd *cobra.Command, args []string) {
		io.WriteString(cmd.OutOrStdout(), versionText())
	},
}

func init() {
	rootCmd.AddCommand(versionCmd)
	rootCmd.Version = btfkitVersion // makes --version and -v exist; the template prints versionText
	rootCmd.SetVersionTemplate("{{btfkitVersionText}}")
	cobra.AddTemplateFunc("btfkitVersionText", versionText)
}
