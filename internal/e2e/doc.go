// Package e2e holds what scripts/kernel-e2e needs besides the kernel: the
// checks the guest runs on its own BTF (this package), the static /init that
// runs them inside a qemu guest (e2e/guest), and the host-side helper that
// corrupts a BTF type for the negative control (e2e/e2etool).
//
// The guest checks prove that a kernel accepted the BTF it was built with:
//
//   - sysfs_btf: /sys/kernel/btf/vmlinux exists and equals the expected
//     bytes (the vmlinux .BTF section, shipped in the initramfs);
//   - vmlinux_registered: the kernel parsed its BTF and registered a BTF
//     object named "vmlinux" (BPF_BTF_GET_NEXT_ID, BPF_BTF_GET_FD_BY_ID,
//     BPF_OBJ_GET_INFO_BY_FD), whose bytes equal the expected ones;
//   - btf_load: the same bytes pass BPF_BTF_LOAD, the kernel's full verifier.
//
// It is Linux-only and knows nothing of BTF's structure beyond its bytes.
package e2e
