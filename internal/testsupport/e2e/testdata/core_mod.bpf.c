// SPDX-License-Identifier: GPL-2.0
/*
 * The CO-RE program of scripts/kernel-e2e's mod_core check (issue 32):
 * each program returns a constant that a CO-RE relocation fills from the
 * kernel's BTF (here: btfkit minimize's minimized vmlinux and module BTF,
 * given to the loader as libbpf's btf_custom_path is). The local types
 * have only the members read, not in the kernel's order, so every offset
 * must come from the target BTF. SEC("syscall") loads without networking.
 */
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* vmlinux's */
struct task_struct {
	int pid;
	int tgid;
} __attribute__((preserve_access_index));

/* the out-of-tree module's (btfkit_e2e) */
struct btfkit_e2e_item {
	char tag[12];
	const char *label;
	void *owner;
} __attribute__((preserve_access_index));

struct btfkit_e2e_state {
	unsigned long visits;
	long long started;
} __attribute__((preserve_access_index));

SEC("syscall") int task_struct__pid(void *ctx) { return bpf_core_field_offset(struct task_struct, pid); }
SEC("syscall") int task_struct__tgid(void *ctx) { return bpf_core_field_offset(struct task_struct, tgid); }
SEC("syscall") int btfkit_e2e_item__tag(void *ctx) { return bpf_core_field_offset(struct btfkit_e2e_item, tag); }
SEC("syscall") int btfkit_e2e_item__owner(void *ctx) { return bpf_core_field_offset(struct btfkit_e2e_item, owner); }
SEC("syscall") int btfkit_e2e_state__started(void *ctx) { return bpf_core_field_offset(struct btfkit_e2e_state, started); }
SEC("syscall") int btfkit_e2e_state__sizeof(void *ctx) { return bpf_core_type_size(struct btfkit_e2e_state); }

char LICENSE[] SEC("license") = "GPL";
