# kernel-config.sh, sourced by scripts/kernel-e2e and scripts/bench-kbuild:
# the Linux configuration both build on top of tinyconfig (serial console,
# initramfs, bpf, modules; scripts/config's -e, -d and -m lists), so that
# the benchmark measures the kernel the end-to-end test boots. The debug
# information and BTF options are each caller's, by route.
KCONFIG_ENABLE="64BIT PRINTK TTY SERIAL_8250 SERIAL_8250_CONSOLE BINFMT_ELF BLK_DEV_INITRD
PROC_FS SYSFS BPF BPF_SYSCALL DEBUG_KERNEL FUTEX EPOLL EVENTFD SIGNALFD TIMERFD MODULES"
KCONFIG_DISABLE="DEBUG_INFO_DWARF4 DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT DEBUG_INFO_REDUCED
DEBUG_INFO_SPLIT MODULE_SIG MODVERSIONS MODULE_ALLOW_BTF_MISMATCH"
# In-tree modules, =m: file systems and a binary format that load without
# hardware, block devices or networking, each defining structs of its own.
KCONFIG_MODULES_M="AUTOFS_FS CONFIGFS_FS BINFMT_MISC FUSE_FS"
