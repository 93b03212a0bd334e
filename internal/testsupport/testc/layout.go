package testc

import (
	"os"
	"path/filepath"
	"testing"
)

// kindLayoutC prints, as raw struct btf_layout entries in host order, the
// kind layout table libbpf v1.8.0 writes (src/btf.c, layouts[]: for each
// kind the struct that follows its btf_type, as {info_sz, elem_sz, 0}),
// with the sizes and kind numbers of the system's <linux/btf.h>.
const kindLayoutC = `#include <stdio.h>
#include <linux/btf.h>
struct layout { __u8 info_sz; __u8 elem_sz; __u16 flags; };
static struct layout t[NR_BTF_KINDS] = {
	[BTF_KIND_INT] = { sizeof(__u32), 0, 0 },
	[BTF_KIND_ARRAY] = { sizeof(struct btf_array), 0, 0 },
	[BTF_KIND_STRUCT] = { 0, sizeof(struct btf_member), 0 },
	[BTF_KIND_UNION] = { 0, sizeof(struct btf_member), 0 },
	[BTF_KIND_ENUM] = { 0, sizeof(struct btf_enum), 0 },
	[BTF_KIND_FUNC_PROTO] = { 0, sizeof(struct btf_param), 0 },
	[BTF_KIND_VAR] = { sizeof(struct btf_var), 0, 0 },
	[BTF_KIND_DATASEC] = { 0, sizeof(struct btf_var_secinfo), 0 },
	[BTF_KIND_DECL_TAG] = { sizeof(struct btf_decl_tag), 0, 0 },
	[BTF_KIND_ENUM64] = { 0, sizeof(struct btf_enum64), 0 },
};
int main(void) { return fwrite(t, sizeof(t), 1, stdout) == 1 ? 0 : 1; }
`

// KindLayoutTable compiles and runs a C program that prints libbpf
// v1.8.0's kind layout table from the system's <linux/btf.h> (the oracle
// for the kind layout section), and returns its bytes in host order.
func KindLayoutTable(t testing.TB) []byte {
	t.Helper()
	Require(t, "gcc")
	dir := t.TempDir()
	src := filepath.Join(dir, "layout.c")
	if err := os.WriteFile(src, []byte(kindLayoutC), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "layout")
	Run(t, "gcc", "-Wall", "-Werror", "-o", bin, src)
	return Output(t, bin)
}
