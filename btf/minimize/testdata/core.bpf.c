// A BPF program with CO-RE relocations of every kind, against kernel types
// declared here (no vmlinux.h): the minimize tests compile it with
// clang -g -O2 -target bpf and compare btfkit minimize with bpftool gen
// min_core_btf on the kernel BTFs of the machine (cmd/btfkit/minimize_test.go).
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

typedef int pid_t;

struct list_head {
	struct list_head *next, *prev;
} __attribute__((preserve_access_index));

struct mm_struct {
	unsigned long task_size;
	unsigned long start_code, end_code;
} __attribute__((preserve_access_index));

struct task_struct {
	unsigned int __state;
	unsigned int flags;
	pid_t pid;
	pid_t tgid;
	struct task_struct *real_parent;
	struct mm_struct *mm;
	struct list_head children;
	char comm[16];
	/* bitfields: read with byte offset, byte size, lshift, rshift, signed */
	unsigned in_execve:1;
	unsigned in_iowait:1;
	unsigned sched_reset_on_fork:1;
	int prio;
} __attribute__((preserve_access_index));

/* A flavor: the field task_struct had before 5.14 (state, not __state). */
struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

/* A type that no kernel has. */
struct btfkit_no_such_type {
	int x;
} __attribute__((preserve_access_index));

struct net_device {
	char name[16];
	int ifindex;
} __attribute__((preserve_access_index));

/* dev sits in anonymous unions and structs of the kernel's sk_buff. */
struct sk_buff {
	struct net_device *dev;
	unsigned int len;
	__u8 pkt_type:3;
} __attribute__((preserve_access_index));

/* TYPE_MATCHES: the members named, with types that match. clang 14 (Debian
 * 12's) cannot write a TYPE_MATCHES relocation: the program asks whether
 * the type exists, and the test turns every TYPE_EXISTS relocation of a
 * type whose name ends in ___m into a TYPE_MATCHES one. */
struct list_head___m {
	struct list_head___m *next;
	struct list_head___m *prev;
};

enum bpf_func_id___local {
	BPF_FUNC_map_lookup_elem___local = 1,
	BPF_FUNC_ringbuf_output___local = 130,
	BPF_FUNC_btfkit_nonexistent___local = 100000,
};

enum pid_type {
	PIDTYPE_PID,
	PIDTYPE_TGID,
	PIDTYPE_PGID,
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, int);
	__type(value, __u64);
} out SEC(".maps");

static __always_inline void put(int k, __u64 v)
{
	bpf_map_update_elem(&out, &k, &v, BPF_ANY);
}

/* PART=1 compiles the field relocations only, PART=2 the others: two
 * objects whose relocations together are those of the whole program. */
#if !defined(PART) || PART == 1
SEC("tp/sched/sched_process_exec")
int fields(void *ctx)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	char c;

	put(1, BPF_CORE_READ(t, pid));
	put(2, BPF_CORE_READ(t, real_parent, tgid));
	put(3, BPF_CORE_READ(t, mm, start_code));
	put(4, bpf_core_field_size(t->comm));
	put(5, bpf_core_field_offset(t->children));
	bpf_core_read(&c, 1, &t->comm[3]);
	put(6, c);
	put(7, BPF_CORE_READ_BITFIELD_PROBED(t, in_execve));
	put(8, BPF_CORE_READ_BITFIELD_PROBED(t, sched_reset_on_fork));
	put(9, __builtin_preserve_field_info(t->prio, BPF_FIELD_SIGNED));
	if (bpf_core_field_exists(t->__state))
		put(10, BPF_CORE_READ(t, __state));
	if (bpf_core_field_exists(((struct task_struct___old *)t)->state))
		put(11, BPF_CORE_READ((struct task_struct___old *)t, state));
	put(12, (__u64)BPF_CORE_READ(t, children.next));
	return 0;
}

SEC("tp/net/netif_receive_skb")
int skb(struct sk_buff *skb)
{
	put(20, BPF_CORE_READ(skb, dev, ifindex));
	put(21, BPF_CORE_READ(skb, len));
	put(22, BPF_CORE_READ_BITFIELD_PROBED(skb, pkt_type));
	put(23, bpf_core_field_size(skb->dev->name));
	return 0;
}

#endif

#if !defined(PART) || PART == 2
SEC("tp/sched/sched_switch")
int types(void *ctx)
{
	put(30, bpf_core_type_exists(struct task_struct));
	put(31, bpf_core_type_exists(struct btfkit_no_such_type));
	put(32, bpf_core_type_size(struct mm_struct));
	put(33, bpf_core_type_id_kernel(struct net_device));
	put(34, bpf_core_type_id_local(struct sk_buff));
	put(35, bpf_core_type_exists(struct list_head___m));
	put(36, bpf_core_type_exists(pid_t));
	put(37, bpf_core_type_size(pid_t));
	return 0;
}

SEC("tp/sched/sched_wakeup")
int enums(void *ctx)
{
	put(40, bpf_core_enum_value_exists(enum bpf_func_id___local, BPF_FUNC_ringbuf_output___local));
	put(41, bpf_core_enum_value(enum bpf_func_id___local, BPF_FUNC_map_lookup_elem___local));
	put(42, bpf_core_enum_value_exists(enum bpf_func_id___local, BPF_FUNC_btfkit_nonexistent___local));
	put(43, bpf_core_enum_value(enum pid_type, PIDTYPE_TGID));
	return 0;
}

#endif

char LICENSE[] SEC("license") = "GPL";
