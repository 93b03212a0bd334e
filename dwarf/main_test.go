package dwarf

import (
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestMain removes the btfkit binary the command tests (cli_test.go) build
// through testenv.
func TestMain(m *testing.M) { testenv.Main(m) }
