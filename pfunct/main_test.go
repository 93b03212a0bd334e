package pfunct_test

import (
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// The tests run the btfkit binary as pfunct, to see what a user sees;
// testenv builds it once and Main removes it afterwards.
func TestMain(m *testing.M) { testenv.Main(m) }
