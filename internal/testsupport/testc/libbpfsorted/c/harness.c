// Asks libbpf (1.7 or newer, linked statically with -Wl,--wrap=strcmp)
// whether it took its sorted-BTF path in btf__find_by_name_kind. When
// libbpf parses BTF whose types are in name order (btf_check_sorted) it
// remembers the first named type and later searches by bisection from
// there; any other BTF it scans from the first type. Two observations
// tell the paths apart, neither a timing:
//
//   - how many strcmp calls a lookup makes: a few dozen for bisection,
//     one per type of the kind up to the match for a scan;
//   - with -a ALIAS: the ID found once type ALIAS (an anonymous type of
//     the kind, before the match) is given the sought name in libbpf's
//     parsed copy. A scan meets ALIAS first and returns it; bisection
//     starts at the first named type, after every anonymous one, and
//     still returns the match. The name is restored after each lookup.
//
// usage: harness -V
//        prints "MAJOR MINOR" of the libbpf linked (libbpf_major_version)
//        harness [-b BASE] [-a ALIAS] FILE KIND NAME...
//        prints "NAME ID COMPARISONS ALIASED" per NAME (ALIASED 0 without
//        -a, or when the lookup found nothing)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

static long calls;
int __real_strcmp(const char *a, const char *b);
int __wrap_strcmp(const char *a, const char *b)
{
	calls++;
	return __real_strcmp(a, b);
}

static void usage(void)
{
	fprintf(stderr, "usage: harness -V | harness [-b BASE] [-a ALIAS] FILE KIND NAME...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct btf *base = NULL, *btf;
	const char *basefile = NULL;
	long alias = 0;
	int i = 1;

	if (argc == 2 && __real_strcmp(argv[1], "-V") == 0) {
		printf("%u %u\n", libbpf_major_version(), libbpf_minor_version());
		return 0;
	}
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (__real_strcmp(argv[i], "-b") == 0)
			basefile = argv[i + 1];
		else if (__real_strcmp(argv[i], "-a") == 0)
			alias = atol(argv[i + 1]);
		else
			usage();
	}
	if (argc - i < 3)
		usage();
	if (basefile) {
		base = btf__parse(basefile, NULL);
		if (!base) {
			fprintf(stderr, "harness: cannot read base %s\n", basefile);
			return 1;
		}
	}
	const char *file = argv[i];
	btf = btf__parse_split(file, base);
	if (!btf) {
		fprintf(stderr, "harness: cannot read %s\n", file);
		return 1;
	}
	int kind = atoi(argv[i + 1]);
	// libbpf hands out const views into its own heap copy of the BTF
	// (btf__parse reads the file into memory it owns), so renaming a
	// type in place is sound; it is what a scan and a bisection see.
	struct btf_type *a = NULL;
	if (alias) {
		// ALIAS must be one of FILE's own types (not the base's).
		long first = base ? (long)btf__type_cnt(base) : 1;
		if (alias < first || alias >= (long)btf__type_cnt(btf)) {
			fprintf(stderr, "harness: %s has no own type %ld\n", file, alias);
			return 1;
		}
		a = (struct btf_type *)btf__type_by_id(btf, alias);
		if (a->name_off != 0 || btf_kind(a) != kind) {
			fprintf(stderr, "harness: type %ld of %s is not an anonymous type of kind %d\n", alias, file, kind);
			return 1;
		}
	}
	for (i += 2; i < argc; i++) {
		calls = 0;
		int id = btf__find_by_name_kind(btf, argv[i], kind);
		long n = calls;
		int aliased = 0;
		if (a && id > 0) {
			a->name_off = btf__type_by_id(btf, id)->name_off;
			aliased = btf__find_by_name_kind(btf, argv[i], kind);
			a->name_off = 0;
		}
		printf("%s %d %ld %d\n", argv[i], id, n, aliased);
	}
	return 0;
}
