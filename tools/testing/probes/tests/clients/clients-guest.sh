#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of `make check-clients`: bpftrace, perf, perf's own tests
# of probes, the ftracetest tests that need a real shell and the kernel's
# BPF selftests of probes (test_progs), run in the
# Debian userland that the host attached as a disk (userland.sh's image,
# labelled "userland"), with the kernel's own files (its vmlinux and some
# of its sources, for perf probe) on another ("kernel-files"): found by
# label, as arm64's virt machine numbers its virtio-mmio disks in the
# reverse of QEMU's order; the BPF selftests' on a third ("bpf-selftests").
# Each suite of clients.d/ runs by bash in a chroot of that userland, and
# reports on fd 3 as the other guest suites do. "clients.sh mount" only
# mounts it (for make shell).
. /harness/lib.sh

# disk LABEL: the block device whose file system has that label.
disk() {
	findfs "LABEL=$1"
}

root=/mnt/userland
mkdir -p $root
if ! mount -t ext4 "$(disk userland)" $root; then
	result clients FAIL mount-userland
	exit 1
fi
mount -t proc proc $root/proc
mount -t sysfs sysfs $root/sys
mount -t tracefs tracefs $root/sys/kernel/tracing
mount -t debugfs debugfs $root/sys/kernel/debug
mount -t devtmpfs devtmpfs $root/dev
mount -t tmpfs tmpfs $root/tmp
mount -t tmpfs tmpfs $root/run
mkdir -p $root/harness $root/ftrace $root/boot
mount -o bind /harness $root/harness
mount -o bind /ftrace $root/ftrace
if ! mount -t ext4 "$(disk kernel-files)" $root/boot; then
	result clients FAIL mount-kernel-files
	exit 1
fi
# The kernel's sources that the host copied (src/) where perf looks for
# them when not told (perf probe -L with no -s, as perf's own tests run
# it): under the directory each file was compiled in, a directory of the
# host's build tree that the host listed in comp-dirs. Its mount point is
# made in the userland, as /harness and /boot are, and none is put over
# anything the userland has.
if [ -f $root/boot/comp-dirs ]; then
	while read -r d; do
		case $d in
		*..*) continue ;;
		/?*) ;;
		*) continue ;;
		esac
		[ -z "$(ls -A "$root$d" 2>/dev/null)" ] || continue
		mkdir -p "$root$d" && mount -o bind $root/boot/src "$root$d"
	done <$root/boot/comp-dirs
fi
# test_progs, the kernel's own BPF selftests runner, and this kernel's
# bpf_testmod.ko, on a third disk when the host built them (bpf-selftests-image.sh;
# clients.d/bpf-selftests.sh runs them from there).
if bpfsel=$(disk bpf-selftests 2>/dev/null); then
	mkdir -p $root/bpf-selftests
	mount -t ext4 "$bpfsel" $root/bpf-selftests || result clients FAIL mount-bpf-selftests
fi
[ "${1:-}" != mount ] || exit 0

# clients=NAME[,NAME...] on the kernel command line (clients.sh's
# CLIENTS_SUITES): only those suites of clients.d/, for work on one.
# load.sh runs only when named: the host boots a guest for it alone.
names=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^clients=//p' | tr , ' ')
for t in /harness/clients.d/*.sh; do
	case " ${names:-all} " in
	*" $(basename "$t" .sh) "*) ;;
	" all ") [ "$t" != /harness/clients.d/load.sh ] || continue ;;
	*) continue ;;
	esac
	ktap_end
	t0=$(cut -d. -f1 /proc/uptime)
	env -i HOME=/root TERM=dumb PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		RESULTS_FD=3 chroot $root /bin/bash "$t" ||
		result clients FAIL "run-${t##*/}"
	echo "@time ${t##*/} $(($(cut -d. -f1 /proc/uptime) - t0))" >&3
done
