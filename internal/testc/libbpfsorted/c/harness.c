// Asks libbpf (v1.8 or newer, linked statically with -Wl,--wrap=strcmp)
// whether it took its sorted-BTF path: for each NAME, how many strcmp
// calls btf__find_by_name_kind makes to find it, and the ID it returns.
// A BTF that libbpf found sorted (btf_check_sorted, when parsing) is
// searched by bisection: a few dozen comparisons; any other BTF by a scan
// that compares every type of the kind up to the match.
//
// usage: harness [-b BASE] FILE KIND NAME...
// prints "NAME ID COMPARISONS" per NAME.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

static long calls;
int __real_strcmp(const char *a, const char *b);
int __wrap_strcmp(const char *a, const char *b)
{
	calls++;
	return __real_strcmp(a, b);
}

int main(int argc, char **argv)
{
	struct btf *base = NULL, *btf;
	int i = 1;

	if (argc > 2 && __real_strcmp(argv[1], "-b") == 0) {
		base = btf__parse(argv[2], NULL);
		if (!base) {
			fprintf(stderr, "harness: cannot read base %s\n", argv[2]);
			return 1;
		}
		i = 3;
	}
	if (argc - i < 3) {
		fprintf(stderr, "usage: harness [-b BASE] FILE KIND NAME...\n");
		return 2;
	}
	btf = btf__parse_split(argv[i], base);
	if (!btf) {
		fprintf(stderr, "harness: cannot read %s\n", argv[i]);
		return 1;
	}
	int kind = atoi(argv[i + 1]);
	for (i += 2; i < argc; i++) {
		calls = 0;
		int id = btf__find_by_name_kind(btf, argv[i], kind);
		printf("%s %d %ld\n", argv[i], id, calls);
	}
	return 0;
}
