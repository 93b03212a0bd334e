// Package e2e holds what scripts/kernel-e2e needs besides the kernel: the
// checks the guest runs on its own BTF and its modules' (this package), the
// static /init that runs them inside a qemu guest (e2e/guest), and the
// host-side helper that corrupts BTF for the negative controls and works
// out what the guest must find (e2e/e2etool).
//
// The guest checks prove that a kernel accepted the BTF it was built with:
//
//   - sysfs_btf: /sys/kernel/btf/vmlinux exists and equals the expected
//     bytes (the vmlinux .BTF section, shipped in the initramfs);
//   - vmlinux_registered: the kernel parsed its BTF and registered a BTF
//     object named "vmlinux" (BPF_BTF_GET_NEXT_ID, BPF_BTF_GET_FD_BY_ID,
//     BPF_OBJ_GET_INFO_BY_FD), whose bytes equal the expected ones;
//   - btf_load: the same bytes pass BPF_BTF_LOAD, the kernel's full verifier;
//
// and, for each module a manifest names (modules.go), in its order:
//
//   - mod_load, mod_sysfs, mod_registered: insmod works, and
//     /sys/kernel/btf/MOD and the BTF object named MOD hold the expected
//     bytes (the module's .BTF, relocated onto vmlinux by the host when the
//     module has a distilled base);
//   - mod_type: the kernel's CO-RE relocation (FindType, core.go) finds a
//     type only that module defines at the expected type ID once the
//     module is loaded, and nowhere before;
//   - mod_refused: a module with corrupted BTF (CorruptName) fails to load
//     with the kernel's refusal in its log and leaves no trace in sysfs or
//     among the BTF objects.
//
// The guest side is Linux-only. It compares BTF as bytes; it builds the
// CO-RE probe's few types with the btf model and walks records only to
// corrupt them (corrupt.go). How BTF is made is none of its business.
package e2e
