/* Types for the pretty package's tests: a file header, variable-size
 * records tagged by a kind from three enums, and a trailer, with members of
 * every sort pahole prints differently. The tests build byte streams of
 * these records and compare btfkit's output with pahole's. */

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

struct span { u64 offset; u64 size; };

struct file_hdr {
	char magic[8];
	struct span recs;	/* the records */
	struct span tail;	/* the trailers */
	u32 nr;
	u32 flags;
};

enum rec_kind {
	REC_POINT = 1, REC_NAME = 2, REC_BLOB = 3, REC_BITS = 4,
	REC_MIXED = 5, REC_NONE = 6,	/* REC_NONE has no struct */
};
enum rec_kind_ext { REC_EXT_FLOATS = 100, REC_EXT_DEEP = 101, REC_EXT_ANY = -1 };
enum rec_kind_last { LAST_SOLO = 200 };

struct rec_hdr { u16 kind; u16 len; };

struct rec_point { struct rec_hdr hdr; int x, y; long long z; short w; };
struct rec_name { struct rec_hdr hdr; char name[]; };
struct rec_blob { struct rec_hdr hdr; u32 n; u8 bytes[]; };

enum color { RED = 1, GREEN = 2, BLUE = 4 };
struct rec_bits {
	struct rec_hdr hdr;
	unsigned int a:3, b:5, c:12;
	int d:7;
	enum color e:3;
	u64 f:33, g:31;
	signed char h:4;
	_Bool i:1;
};

struct inner { short a; u8 b[3]; };
typedef struct inner inner_t;
typedef int arr4_t[4];

struct rec_mixed {
	struct rec_hdr hdr;
	void *ptr;
	enum color col;
	union { int i; float f; char s[4]; } named;
	union { u32 x; u16 y[2]; };
	struct { short q, r; } pair;
	struct { int anon_a; };
	struct inner arr[2];
	inner_t td;
	arr4_t ta;
	const char cstr[4];
	const int ci;
	signed char sc[3];
	_Bool flag;
	char tail[6];
	u32 more[];
};

struct rec_ext_floats { struct rec_hdr hdr; float f; double d; long double ld; __int128 big; };

struct l18 { int v; };
struct l17 { struct l18 n; };
struct l16 { struct l17 n; };
struct l15 { struct l16 n; };
struct l14 { struct l15 n; };
struct l13 { struct l14 n; };
struct l12 { struct l13 n; };
struct l11 { struct l12 n; };
struct l10 { struct l11 n; };
struct l9 { struct l10 n; };
struct l8 { struct l9 n; };
struct l7 { struct l8 n; };
struct l6 { struct l7 n; };
struct l5 { struct l6 n; };
struct l4 { struct l5 n; };
struct l3 { struct l4 n; };
struct l2 { struct l3 n; };
struct l1 { struct l2 n; };
struct rec_ext_deep { struct rec_hdr hdr; struct l1 n; };

struct trailer { u32 crc; char tag[4]; };

/* A record whose size member is wider: u32 type and u32 size. */
struct wide_hdr { u32 type; u32 size; u64 stamp; };

struct file_hdr f_hdr;
struct rec_hdr r_hdr;
enum rec_kind r_kind;
enum rec_kind_ext r_kind_ext;
enum rec_kind_last r_kind_last;
struct rec_point r_point;
struct rec_name r_name;
struct rec_blob r_blob;
struct rec_bits r_bits;
struct rec_mixed r_mixed;
struct rec_ext_floats r_floats;
struct rec_ext_deep r_deep;
struct trailer r_trailer;
struct wide_hdr r_wide;
