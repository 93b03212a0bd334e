// SPDX-License-Identifier: GPL-2.0
/*
 * btfkit_e2e: the out-of-tree module of scripts/kernel-e2e.
 *
 * Built with make M=, it gets split BTF against a distilled base
 * (.BTF.base), which the kernel relocates onto its own vmlinux BTF when the
 * module is loaded. Its types use vmlinux types in the ways relocation
 * treats differently: structs embedded by value (list_head, spinlock_t's
 * struct spinlock), pointers to structs (task_struct, kobject), typedefs
 * (u32, u64, atomic_t, ktime_t), an enum of the kernel's, bitfields, a
 * union, an array and a function pointer. struct btfkit_e2e_state is the
 * type the guest looks up: it exists only in this module.
 */
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/ktime.h>

enum btfkit_e2e_mode {
	BTFKIT_E2E_IDLE,
	BTFKIT_E2E_BUSY = 3,
	BTFKIT_E2E_DONE = 1 << 20,
};

struct btfkit_e2e_item {
	struct list_head node;
	union {
		u64 raw;
		struct {
			u32 lo;
			u32 hi;
		};
	} value;
	enum btfkit_e2e_mode mode;
	enum hrtimer_restart restart;
	unsigned int flags : 3;
	unsigned int spare : 5;
	const char *label;
	struct task_struct *owner;
	int (*visit)(struct btfkit_e2e_item *item, void *arg);
	spinlock_t lock;
	atomic_t refs;
	char tag[12];
};

struct btfkit_e2e_state {
	struct btfkit_e2e_item items[4];
	struct list_head list;
	struct kobject *kobj;
	ktime_t started;
	unsigned long visits;
};

static struct btfkit_e2e_state btfkit_e2e_state;

static noinline int btfkit_e2e_visit(struct btfkit_e2e_item *item, void *arg)
{
	struct btfkit_e2e_state *s = arg;

	s->visits += item->flags + 1;
	item->mode = BTFKIT_E2E_BUSY;
	return 0;
}

noinline int btfkit_e2e_walk(struct btfkit_e2e_state *s)
{
	struct btfkit_e2e_item *item;
	int n = 0;

	list_for_each_entry(item, &s->list, node) {
		spin_lock(&item->lock);
		if (item->visit(item, s) == 0)
			n++;
		atomic_inc(&item->refs);
		spin_unlock(&item->lock);
	}
	return n;
}
EXPORT_SYMBOL_GPL(btfkit_e2e_walk);

static int __init btfkit_e2e_init(void)
{
	struct btfkit_e2e_state *s = &btfkit_e2e_state;
	int i;

	INIT_LIST_HEAD(&s->list);
	s->started = ktime_get();
	for (i = 0; i < ARRAY_SIZE(s->items); i++) {
		struct btfkit_e2e_item *item = &s->items[i];

		spin_lock_init(&item->lock);
		item->visit = btfkit_e2e_visit;
		item->flags = i;
		item->owner = current;
		item->value.lo = i;
		snprintf(item->tag, sizeof(item->tag), "item%d", i);
		list_add_tail(&item->node, &s->list);
	}
	pr_info("btfkit_e2e: %d items visited\n", btfkit_e2e_walk(s));
	return 0;
}

static void __exit btfkit_e2e_exit(void)
{
}

module_init(btfkit_e2e_init);
module_exit(btfkit_e2e_exit);
MODULE_DESCRIPTION("btfkit kernel-e2e out-of-tree module (split BTF with a distilled base)");
MODULE_LICENSE("GPL");
