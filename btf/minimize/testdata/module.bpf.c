// A BPF program with CO-RE relocations against types of two modules of
// the Debian 6.1 kernel (kvm: kvm_io_device; nf_conntrack:
// nf_conn_acct, nf_conn_counter, nf_conn_tstamp, ip_conntrack_events)
// and of vmlinux (task_struct, gfn_to_pfn_cache, kvm_vcpu): the minimize tests compile it
// with clang -g -O2 -target bpf and minimize the kernel's BTF with both
// modules (cmd/btfkit/minimize_test.go).
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct kvm_vcpu {
	int vcpu_id;
} __attribute__((preserve_access_index));

/* kvm.ko: a module type whose member points to a vmlinux type. */
struct gfn_to_pfn_cache {
	__u64 generation;
	struct kvm_vcpu *vcpu;
} __attribute__((preserve_access_index));

typedef struct {
	__s64 counter;
} __attribute__((preserve_access_index)) atomic64_t;

/* kvm.ko only: kvm_io_device (gfn_to_pfn_cache is in vmlinux too). */
struct kvm_io_device_ops;
struct kvm_io_device {
	const struct kvm_io_device_ops *ops;
} __attribute__((preserve_access_index));

/* nf_conntrack.ko: an array of module structs in a module struct. */
struct nf_conn_counter {
	atomic64_t packets;
	atomic64_t bytes;
} __attribute__((preserve_access_index));

struct nf_conn_acct {
	struct nf_conn_counter counter[2];
} __attribute__((preserve_access_index));

struct nf_conn_tstamp {
	__u64 start;
} __attribute__((preserve_access_index));

enum ip_conntrack_events {
	IPCT_ASSURED = 4,
};

struct task_struct {
	int pid;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, int);
	__type(value, __u64);
} out SEC(".maps");

static __always_inline void put(int k, __u64 v)
{
	bpf_map_update_elem(&out, &k, &v, BPF_ANY);
}

SEC("kprobe/kvm_gpc_check")
int gpc(struct gfn_to_pfn_cache *gpc)
{
	put(1, BPF_CORE_READ(gpc, generation));
	put(2, BPF_CORE_READ(gpc, vcpu, vcpu_id));
	return 0;
}

SEC("kprobe/kvm_io_bus_write")
int iodev(struct kvm_io_device *dev)
{
	put(8, bpf_core_field_exists(dev->ops));
	put(9, (__u64)BPF_CORE_READ(dev, ops));
	return 0;
}

SEC("kprobe/nf_ct_acct_add")
int acct(struct nf_conn_acct *acct)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();

	put(3, BPF_CORE_READ(acct, counter[1].bytes.counter));
	put(4, bpf_core_type_exists(struct nf_conn_tstamp));
	put(5, bpf_core_type_size(struct nf_conn_tstamp));
	put(6, bpf_core_enum_value(enum ip_conntrack_events, IPCT_ASSURED));
	put(7, BPF_CORE_READ(t, pid));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
