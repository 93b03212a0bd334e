package dedup

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Generated C sources that share headers the way kernel objects do: every
// unit includes a different subset of the subsystem headers and only
// forward-declares the structs of the others, so the same struct reaches
// dedup complete in some units and as a FWD in others, through pointer
// cycles that cross units; some units define a same-named local struct
// differently (which keeps name-based FWD resolution honest), some
// forward-declare an enum, some wrap anonymous structs in typedefs.

var genHeaders = map[string]string{
	"types.h": `#ifndef TYPES_H
#define TYPES_H
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed int s32;
typedef _Bool bool;
struct list_head { struct list_head *next, *prev; };
struct hlist_node { struct hlist_node *next, **pprev; };
typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic64_t;
struct rb_node { unsigned long __rb_parent_color; struct rb_node *rb_right, *rb_left; } __attribute__((aligned(sizeof(long))));
enum state_kind { ST_IDLE, ST_RUN = 4, ST_DEAD = -1 };
#endif
`,
	"sched.h": `#ifndef SCHED_H
#define SCHED_H
#include "types.h"
struct mm_struct;
struct files_struct;
struct task_struct {
	volatile long state;
	struct task_struct *parent;
	struct list_head children, sibling;
	struct mm_struct *mm, *active_mm;
	struct files_struct *files;
	u64 flags : 3, prio : 9, pad : 52;
	enum state_kind kind;
	const char *comm;
	void (*exit_fn)(struct task_struct *, int);
	union { atomic_t usage; u64 raw; };
	struct { u32 a, b; } pair;
	char name[16];
	struct rb_node node;
};
#endif
`,
	"mm.h": `#ifndef MM_H
#define MM_H
#include "types.h"
struct task_struct;
struct vm_area_struct;
struct mm_struct {
	struct vm_area_struct *mmap;
	struct task_struct *owner;
	atomic_t mm_users;
	unsigned long pgd[4];
	struct rb_node rb;
};
struct vm_area_struct {
	unsigned long vm_start, vm_end;
	struct mm_struct *vm_mm;
	struct vm_area_struct *vm_next, *vm_prev;
	const struct vm_operations_struct *vm_ops;
};
struct vm_operations_struct {
	void (*open)(struct vm_area_struct *);
	int (*fault)(struct vm_area_struct *, unsigned long addr);
};
#endif
`,
	"fs.h": `#ifndef FS_H
#define FS_H
#include "types.h"
struct task_struct;
struct inode;
struct file;
struct file_operations {
	long (*read)(struct file *, char *, unsigned long, long long *);
	long (*write)(struct file *, const char *, unsigned long, long long *);
	int (*open)(struct inode *, struct file *);
	int (*flush)(struct file *, void *id, ...);
};
struct file {
	const struct file_operations *f_op;
	struct inode *f_inode;
	atomic64_t f_count;
	unsigned int f_flags;
	union { struct list_head fu_list; struct hlist_node fu_hnode; } f_u;
};
struct inode {
	u16 i_mode;
	struct file *i_files[4];
	struct list_head i_list;
	const volatile u32 *i_counter;
};
struct files_struct {
	atomic_t count;
	struct file **fd_array;
	struct task_struct *owner;
};
#endif
`,
	"net.h": `#ifndef NET_H
#define NET_H
#include "types.h"
struct sock;
struct sk_buff {
	union {
		struct { struct sk_buff *next, *prev; };
		struct rb_node rbnode;
	};
	struct sock *sk;
	unsigned int len, data_len;
	u8 cloned : 1, nohdr : 1, fclone : 2, peeked : 1;
	enum { SKB_A, SKB_B } anon_kind;
	typeof(struct { u16 proto; u16 vlan; }) hdr;
	unsigned char cb[48] __attribute__((aligned(8)));
};
struct sock {
	struct sk_buff *sk_send_head;
	struct list_head sk_list;
	int (*sk_backlog_rcv)(struct sock *, struct sk_buff *);
	enum state_kind sk_state;
};
typedef struct { struct sock *sk; u32 hash; } sock_ref_t;
#endif
`,
}

var genSubsystems = []string{"sched.h", "mm.h", "fs.h", "net.h"}

// genUnit returns the source of unit i.
func genUnit(i int) string {
	var b strings.Builder
	b.WriteString("#include \"types.h\"\n")
	used := 0
	for j, h := range genSubsystems {
		if (i+1)>>j&1 != 0 || (i%7 == j) {
			fmt.Fprintf(&b, "#include %q\n", h)
			used |= 1 << j
		}
	}
	// Forward declarations of what this unit does not include.
	b.WriteString("struct task_struct; struct mm_struct; struct file; struct inode; struct sock; struct sk_buff;\n")
	if i%5 == 0 {
		fmt.Fprintf(&b, "enum later_enum;\nenum later_enum *later_ptr_%d;\n", i)
	}
	if i%5 == 3 {
		fmt.Fprintf(&b, "enum later_enum { LE_A, LE_B = 7 };\nenum later_enum later_val_%d;\n", i)
	}
	// Pointers to everything, complete or not.
	fmt.Fprintf(&b, "struct task_struct *cur_task_%d;\n", i)
	fmt.Fprintf(&b, "struct mm_struct *cur_mm_%d;\n", i)
	fmt.Fprintf(&b, "struct file *const *cur_files_%d;\n", i)
	fmt.Fprintf(&b, "struct sk_buff *skb_%d;\n", i)
	b.WriteString("extern struct list_head global_list;\n")
	fmt.Fprintf(&b, "struct list_head *list_%d = &global_list;\n", i)
	if used&1 != 0 {
		fmt.Fprintf(&b, "struct task_struct init_task_%d;\n", i)
		fmt.Fprintf(&b, "int task_prio_%d(struct task_struct *t) { return t->prio + %d; }\n", i, i)
	}
	if used&2 != 0 {
		fmt.Fprintf(&b, "unsigned long vma_len_%d(const struct vm_area_struct *v) { return v->vm_end - v->vm_start; }\n", i)
	}
	if used&4 != 0 {
		fmt.Fprintf(&b, "struct file_operations fops_%d;\n", i)
		fmt.Fprintf(&b, "struct inode *file_inode_%d(struct file *f) { return f->f_inode; }\n", i)
	}
	if used&8 != 0 {
		fmt.Fprintf(&b, "sock_ref_t ref_%d;\n", i)
		fmt.Fprintf(&b, "unsigned int skb_len_%d(struct sk_buff *s) { return s->len + s->cloned; }\n", i)
	}
	// A same-named local struct, three layouts across units.
	switch i % 3 {
	case 0:
		b.WriteString("struct local_state { int a; struct local_state *next; };\n")
	case 1:
		b.WriteString("struct local_state { long a; struct local_state *next; };\n")
	case 2:
		b.WriteString("struct local_state { int a; struct local_state *next; };\n")
	}
	fmt.Fprintf(&b, "struct local_state local_%d;\n", i)
	// A unit-private type.
	fmt.Fprintf(&b, "struct priv_%d { u%d x[%d]; struct priv_%d *self; struct task_struct *t; };\n", i, []int{8, 16, 32, 64}[i%4], i%5+1, i)
	fmt.Fprintf(&b, "struct priv_%d priv_var_%d;\n", i, i)
	fmt.Fprintf(&b, "typedef struct { int x; } anon_%d_t;\nanon_%d_t anon_var_%d;\n", i%4, i%4, i)
	fmt.Fprintf(&b, "static int helper_%d(int (*cb)(void *, int), void *arg) { return cb(arg, %d); }\n", i, i)
	fmt.Fprintf(&b, "int (*use_helper_%d)(int (*)(void *, int), void *) = helper_%d;\n", i, i)
	return b.String()
}

// writeGenSources writes the headers and n units into dir and returns the
// units' paths.
func writeGenSources(t testing.TB, dir string, n int) []string {
	t.Helper()
	for name, src := range genHeaders {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, fmt.Sprintf("unit%02d.c", i))
		if err := os.WriteFile(p, []byte(genUnit(i)), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	// The one definition of global_list.
	p := filepath.Join(dir, "globals.c")
	if err := os.WriteFile(p, []byte("#include \"types.h\"\nstruct list_head global_list;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(paths, p)
}
