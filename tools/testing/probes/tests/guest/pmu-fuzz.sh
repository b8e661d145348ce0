#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: perf's kprobe and uprobe PMUs fed random and edge-case attributes
# requires: /sys/bus/event_source/devices/kprobe /sys/bus/event_source/devices/uprobe
# perf's kprobe and uprobe PMUs fed random and edge-case attributes
# (pmu_probe.c, beside it): unknown, huge and unterminated names and paths,
# offsets past a function or a file and inside an instruction, raw
# addresses into data, user space, the vectors and module space, the
# return-probe bit, files that are not regular or no longer there, bad
# ref_ctr_offset values, many events on one place at once. Each edge case
# must end as upstream (7.3, as 6.12) ends it (the errno of each, read from
# perf_kprobe_init(), create_local_trace_[ku]probe(), register_kprobe()
# and uprobe_register()); then 5,000 random calls (100,000 on the debug
# kernel), whose histogram of errnos and call-by-call outcomes are kept in
# the "histogram" log to compare two kernels (on arm64 they differ where
# the series' decoder differs by design: AUTIASP kprobes taken, UDF and
# unallocated words refused as uprobes); no probe may be left behind,
# nor, with kmemleak, any leak.
. /harness/lib.sh
cd /sys/kernel/tracing
[ -d /sys/bus/event_source/devices/kprobe ] || exit 0
[ -d /sys/bus/event_source/devices/uprobe ] || exit 0
clean_slate
prog=/harness/progs/pmu_probe
calls=5000
limit=
# The debug kernel: all of them, within 40 minutes ("full-run" says so).
has_config KASAN && calls=100000 limit="-t 2400"
seed=20

# What each case must give: upstream's errno. Some depend on the
# architecture: a misaligned kprobe is EINVAL on arm64 (its
# arch_prepare_kprobe()), EILSEQ on x86 (can_probe()); a uprobe's offset
# must be a multiple of the breakpoint's size, 4 on arm64, 1 on x86.
case $(uname -m) in
aarch64) misaligned=EINVAL uprobe_unaligned=EINVAL ;;
*) misaligned=EILSEQ uprobe_unaligned=ok ;;
esac
cat >/tmp/pmu-fuzz.want <<EOF
kprobe-entry ok
kprobe-body ok
kprobe-retprobe-entry ok
kprobe-retprobe-body EINVAL
kprobe-last-insn ok
kprobe-inside-insn $misaligned
kprobe-offset-4g ok
kprobe-offset-4g-minus-4 ENOENT
kprobe-unknown-symbol ENOENT
kprobe-null-name-no-addr EINVAL
kprobe-empty-name-no-addr EINVAL
kprobe-name-511 ENOENT
kprobe-name-512 E2BIG
kprobe-name-unterminated EFAULT
kprobe-name-unterminated-long E2BIG
kprobe-name-bad-pointer EFAULT
kprobe-name-kernel-pointer EFAULT
kprobe-duplicate-symbol EADDRNOTAVAIL
kprobe-data-symbol EINVAL
kprobe-blacklisted EINVAL
kprobe-module-not-loaded ENOENT
kprobe-module-name-55 ENOENT
kprobe-module-name-56 ENOENT
kprobe-colon-only ENOENT
kprobe-symbol-plus-offset ENOENT
kprobe-name-non-ascii ENOENT
kprobe-addr-entry ok
kprobe-addr-body ok
kprobe-addr-retprobe-entry ok
kprobe-addr-inside-insn $misaligned
kprobe-addr-data EINVAL
kprobe-addr-rodata EINVAL
kprobe-addr-user ENOENT
kprobe-addr-low ENOENT
kprobe-addr-vectors EINVAL
kprobe-addr-module-space ENOENT
kprobe-addr-non-canonical ENOENT
kprobe-config-high-bits ok
kprobe-branch-stack EOPNOTSUPP
kprobe-counts-hits ok
kretprobe-counts-hits ok
kprobe-sample-raw-counts-hits ok
kprobe-addr-counts-hits ok
kprobe-16-same-address ok
kprobe-kretprobe-16-same-address ok
kprobe-name-and-addr-16-same-address ok
uprobe-offset-0 ok
uprobe-entry ok
uprobe-offset-eof ok
uprobe-offset-past-eof EINVAL
uprobe-offset-unaligned $uprobe_unaligned
uprobe-offset-huge EINVAL
uprobe-offset-negative ok
uprobe-retprobe ok
uprobe-directory EINVAL
uprobe-root-directory EINVAL
uprobe-device EINVAL
uprobe-fifo EINVAL
uprobe-socket EINVAL
uprobe-procfs-file EIO
uprobe-tracefs-file EIO
uprobe-missing ENOENT
uprobe-not-a-directory ENOTDIR
uprobe-trailing-slash ENOTDIR
uprobe-symlink ok
uprobe-dangling-symlink ENOENT
uprobe-symlink-loop ELOOP
uprobe-deleted-by-name ENOENT
uprobe-deleted-open ok
uprobe-unreadable ok
uprobe-relative-path ok
uprobe-path-null EINVAL
uprobe-path-empty EINVAL
uprobe-path-component-255 ENOENT
uprobe-path-component-256 ENAMETOOLONG
uprobe-path-4095 ok
uprobe-path-4096 E2BIG
uprobe-path-unterminated EFAULT
uprobe-path-unterminated-4096 E2BIG
uprobe-path-bad-pointer EFAULT
uprobe-ref-ctr ok
uprobe-ref-ctr-odd EINVAL
uprobe-ref-ctr-past-eof ok
uprobe-ref-ctr-mismatch EINVAL
uprobe-branch-stack EOPNOTSUPP
uprobe-16-same-offset ok
uprobe-mapped-16-same-offset ok
uprobe-counts-hits ok
uretprobe-counts-hits ok
uprobe-sample-raw-counts-hits ok
uprobe-none-left ok
EOF

# kmemleak on (the debug kernel): what it knew of before the run.
leaks=/sys/kernel/debug/kmemleak
kmemleak=
if [ -r $leaks ] && echo scan >$leaks 2>/dev/null; then
	kmemleak=1
	# A line that matches no report: grep -f wants a pattern.
	{ echo '#'; grep '^unreferenced object' $leaks; } | sort >/tmp/pmu-fuzz.leaks0
fi

$prog fuzz $calls $seed $limit >/tmp/pmu-fuzz.out 2>&1
rc=$?

# The fuzzer ran to its end and closed every event.
if [ $rc -eq 0 ] && grep -qx 'done' /tmp/pmu-fuzz.out; then
	result pmu-fuzz PASS run
else
	result pmu-fuzz FAIL run
	log_file pmu-fuzz run /tmp/pmu-fuzz.out
fi
if [ -n "$limit" ]; then
	if grep -q '^stopped ' /tmp/pmu-fuzz.out; then
		result pmu-fuzz FAIL full-run
		grep -E '^(stopped|calls) ' /tmp/pmu-fuzz.out >/tmp/pmu-fuzz.stop
		log_file pmu-fuzz full-run /tmp/pmu-fuzz.stop
	else
		result pmu-fuzz PASS full-run
	fi
fi
# The histogram, for comparing kernels.
grep -E "^(hist|calls|cases|seq|stopped) " /tmp/pmu-fuzz.out >/tmp/pmu-fuzz.hist
log_file pmu-fuzz histogram /tmp/pmu-fuzz.hist

# Each edge case as upstream gives it.
while read -r name want; do
	got=$(sed -n "s/^case $name //p" /tmp/pmu-fuzz.out)
	[ "$got" = skip ] && continue
	if [ "$got" = "$want" ]; then
		result pmu-fuzz PASS "$name"
	else
		result pmu-fuzz FAIL "$name"
		echo "want $want, got ${got:-nothing}" >/tmp/pmu-fuzz.case
		log_file pmu-fuzz "$name" /tmp/pmu-fuzz.case
	fi
done </tmp/pmu-fuzz.want
# A case the test does not know of is a case it does not check.
sed -n 's/^case \([^ ]*\) .*/\1/p' /tmp/pmu-fuzz.out | while read -r name; do
	grep -q "^$name " /tmp/pmu-fuzz.want || echo "$name"
done >/tmp/pmu-fuzz.unknown
if [ -s /tmp/pmu-fuzz.unknown ]; then
	result pmu-fuzz FAIL all-cases-known
	log_file pmu-fuzz all-cases-known /tmp/pmu-fuzz.unknown
fi

# No kprobe left registered (the uprobes: case uprobe-none-left).
kprobes_gone
cat /sys/kernel/debug/kprobes/list >/tmp/pmu-fuzz.left
if [ -s /tmp/pmu-fuzz.left ]; then
	result pmu-fuzz FAIL no-kprobe-left
	log_file pmu-fuzz no-kprobe-left /tmp/pmu-fuzz.left
else
	result pmu-fuzz PASS no-kprobe-left
fi

# No leak of the run's own: objects reported now and not before, allocated
# by the probe code or perf.
if [ -n "$kmemleak" ]; then
	: >/tmp/pmu-fuzz.leaks
	: >/tmp/pmu-fuzz.mine
	kmemleak_report /tmp/pmu-fuzz.leaks ||
		echo 'kmemleak: the scans after the run failed' >/tmp/pmu-fuzz.mine
	grep '^unreferenced object' /tmp/pmu-fuzz.leaks | sort |
		grep -vxF -f /tmp/pmu-fuzz.leaks0 >/tmp/pmu-fuzz.new
	while read -r line; do
		# The object's report: its header to the next header.
		awk -v h="$line" '$0 == h { p = 1; print; next }
			/^unreferenced object/ { p = 0 } p' /tmp/pmu-fuzz.leaks >/tmp/pmu-fuzz.one
		if grep -qE 'probe|perf_|strndup_user|uprobe' /tmp/pmu-fuzz.one; then
			cat /tmp/pmu-fuzz.one >>/tmp/pmu-fuzz.mine
		fi
	done </tmp/pmu-fuzz.new
	if [ -s /tmp/pmu-fuzz.mine ]; then
		result pmu-fuzz FAIL no-leak
		log_file pmu-fuzz no-leak /tmp/pmu-fuzz.mine
	else
		result pmu-fuzz PASS no-leak
	fi
fi
clean_slate
