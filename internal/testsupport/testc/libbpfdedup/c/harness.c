// libbpf oracle for btfkit's dedup tests: reads raw BTF (a single blob or
// an archive of blobs back to back, each optionally split against a base),
// merges the members with btf__add_btf, runs btf__dedup and writes raw BTF.
//
//   harness [-b BASE [-s]] -o OUT IN
//
// With -s the members are standalone BTF appended to a split BTF against
// BASE (as per-unit fragments of a module are).
//
// Built at test time: gcc -O2 harness.c -lbpf (Debian's libbpf-dev).
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

static void *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		exit(2);
	}
	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = realloc(buf, cap);
			if (!buf)
				exit(2);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}

static uint32_t rd32(const unsigned char *p, int swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

/* btf__new_split is declared but not exported by some libbpf releases
 * (Debian's 1.1.2): go through a temporary file and btf__parse_raw_split. */
static struct btf *new_split(const void *p, size_t n, struct btf *base)
{
	char path[] = "/tmp/btfkit-harness-XXXXXX";
	int fd = mkstemp(path);
	struct btf *m;
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		unlink(path);
		return NULL;
	}
	m = btf__parse_raw_split(path, base);
	unlink(path);
	return m;
}

int main(int argc, char **argv)
{
	const char *base_path = NULL, *out_path = NULL;
	struct btf *base = NULL, *acc;
	unsigned char *data;
	size_t len, off = 0;
	int c, members = 0, err, standalone = 0;
	const void *raw;
	__u32 raw_sz;
	FILE *f;

	while ((c = getopt(argc, argv, "b:o:s")) != -1) {
		switch (c) {
		case 's': standalone = 1; break;
		case 'b': base_path = optarg; break;
		case 'o': out_path = optarg; break;
		default: return 2;
		}
	}
	if (!out_path || optind != argc - 1) {
		fprintf(stderr, "usage: harness [-b BASE [-s]] -o OUT IN\n");
		return 2;
	}
	if (base_path) {
		base = btf__parse_raw(base_path);
		if (!base) {
			fprintf(stderr, "%s: cannot parse base: %s\n", base_path, strerror(errno));
			return 1;
		}
	}
	acc = base ? btf__new_empty_split(base) : btf__new_empty();
	if (!acc)
		return 1;
	data = read_all(argv[optind], &len);
	while (off < len) {
		unsigned char *p = data + off;
		int swap;
		uint32_t hdr_len, type_off, type_len, str_off, str_len, end;
		struct btf *m;

		if (len - off < 24 || !((p[0] == 0x9f && p[1] == 0xeb) || (p[0] == 0xeb && p[1] == 0x9f))) {
			fprintf(stderr, "%s: bad member at offset %zu\n", argv[optind], off);
			return 1;
		}
		swap = p[0] == 0xeb;
		hdr_len = rd32(p + 4, swap);
		type_off = rd32(p + 8, swap);
		type_len = rd32(p + 12, swap);
		str_off = rd32(p + 16, swap);
		str_len = rd32(p + 20, swap);
		end = type_off + type_len;
		if (str_off + str_len > end)
			end = str_off + str_len;
		end += hdr_len;
		if (end > len - off) {
			fprintf(stderr, "%s: truncated member at offset %zu\n", argv[optind], off);
			return 1;
		}
		m = base && !standalone ? new_split(p, end, base) : btf__new(p, end);
		if (!m) {
			fprintf(stderr, "%s: member %d at offset %zu: %s\n", argv[optind], members, off, strerror(errno));
			return 1;
		}
		members++;
		off += end;
		while (off < len && data[off] == 0)
			off++;
		if (base && !standalone && members == 1 && off >= len) {
			/* One split member: dedup it as it is (libbpf before
			 * v1.3 cannot btf__add_btf a split BTF). */
			btf__free(acc);
			acc = m;
			break;
		}
		err = btf__add_btf(acc, m);
		if (err < 0) {
			fprintf(stderr, "btf__add_btf member %d: %s\n", members - 1, strerror(-err));
			return 1;
		}
		btf__free(m);
		continue;
	}
	err = btf__dedup(acc, NULL);
	if (err) {
		fprintf(stderr, "btf__dedup: %s\n", strerror(-err));
		return 1;
	}
	raw = btf__raw_data(acc, &raw_sz);
	f = fopen(out_path, "wb");
	if (!f || fwrite(raw, 1, raw_sz, f) != raw_sz || fclose(f)) {
		fprintf(stderr, "%s: write failed\n", out_path);
		return 1;
	}
	fprintf(stderr, "libbpf %s: %d members, %u types\n", libbpf_version_string(), members, btf__type_cnt(acc) - 1);
	return 0;
}
