#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of `make check-clients`: bpftrace, perf and the ftracetest
# tests that need a real shell, run in the Debian userland that the host
# attached as a disk (userland.sh's image, labelled "userland"), with the
# kernel's own files (its vmlinux, for perf probe) on another ("kernel-
# files"): found by label, as arm64's virt machine numbers its virtio-mmio
# disks in the reverse of QEMU's order. Each suite of clients.d/ runs by
# bash in a chroot of that userland, and reports on fd 3 as the other
# guest suites do. "clients.sh mount" only mounts it (for make shell).
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
[ "${1:-}" != mount ] || exit 0

for t in /harness/clients.d/*.sh; do
	t0=$(cut -d. -f1 /proc/uptime)
	env -i HOME=/root TERM=dumb PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		RESULTS_FD=3 chroot $root /bin/bash "$t" ||
		result clients FAIL "run-${t##*/}"
	echo "@time ${t##*/} $(($(cut -d. -f1 /proc/uptime) - t0))" >&3
done
