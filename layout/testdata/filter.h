/* A type declared in a header, for -D/--decl_exclude (layout/testdata/filter.c). */
struct hdr_decl {
	int h;
	char hc;
};
