package elfx

import (
	"bytes"
	"debug/elf"
	"fmt"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestRelaX86FastPath: the x86-64 fast path of relocation gives, for
// every relocated section of real kernel modules (.debug_info and the
// other debug sections; .text and .orc_unwind_ip, whose PC-relative and
// PLT relocations make it hand over to the general loop or fail with it),
// the bytes or the error the general loop gives.
func TestRelaX86FastPath(t *testing.T) {
	sections := 0
	for _, m := range []string{"xfs", "crc7", "xt_MASQUERADE", "virtio_net"} {
		f, err := Open(testenv.Module(t, m))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range f.Sections {
			if len(f.relocationsFor(s)) == 0 || s.Type == elf.SHT_NOBITS {
				continue
			}
			relaX86Fast = true
			got, gerr := f.Contents(s, true)
			relaX86Fast = false
			want, werr := f.Contents(s, true)
			relaX86Fast = true
			if fmt.Sprint(gerr) != fmt.Sprint(werr) || !bytes.Equal(got, want) {
				t.Errorf("%s %s: fast path gives %d bytes, error %v; general loop %d bytes, error %v", m, s.Name, len(got), gerr, len(want), werr)
			}
			sections++
		}
		f.Close()
	}
	if sections < 20 {
		t.Errorf("only %d relocated sections compared", sections)
	}
}
