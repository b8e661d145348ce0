#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: Probes on the first instruction of functions called through pointers (BTI, kCFI)
# requires: kprobe_events kprobe_profile
# Probes on the first instruction of functions called through pointers: a
# system call's handler (from the call table) and tmpfs's read_iter (from
# the file operations), entry and return probes, on the breakpoint path
# and once the optimizer has had its turn, each hit many times. With BTI in
# the kernel (make check-clang) that first instruction is a landing pad: a
# jump written over it faults at the next indirect call, which the host
# sees as an oops. With kCFI, the word before a function is its type hash,
# which every indirect call reads: a probe there must be refused.
. /harness/lib.sh
cd /sys/kernel/tracing
clean_slate
bench_points
loop=/harness/progs/getppid_loop
list=/sys/kernel/debug/kprobes/list
log=/tmp/landing-pads.log
: >$log

hits() { awk -v e="$1" '$1 == e { print $2 }' kprobe_profile; }
reads() { # N: read a tmpfs file N times
	i=0
	while [ $i -lt "$1" ]; do
		read -r _ </tmp/landing-pads.file
		i=$((i + 1))
	done
}
echo data >/tmp/landing-pads.file

# round NAME: every event's hits went up by at least the calls made, and
# each hit was recorded.
round() {
	echo >trace
	s0=$(hits sys_entry); r0=$(hits read_entry)
	$loop 500 1 >/dev/null
	reads 200
	s1=$(hits sys_entry); r1=$(hits read_entry)
	sret=$(grep -c ' sys_ret: ' trace)
	rret=$(grep -c ' read_ret: ' trace)
	srec=$(grep -c ' sys_entry: ' trace)
	echo "$1: syscall $((s1 - s0)) hits, $srec records, $sret returns;" \
	     "read_iter $((r1 - r0)) hits, $rret returns" >>$log
	grep -E "$f|shmem_file_read_iter" $list >>$log
	if [ $((s1 - s0)) -ge 500 ] && [ "$srec" -eq $((s1 - s0)) ] &&
	   [ "$sret" -ge 500 ] && [ $((r1 - r0)) -ge 200 ] &&
	   [ "$rret" -ge 200 ]; then
		result landing-pads PASS "$1"
	else
		result landing-pads FAIL "$1"
		log_file landing-pads "$1" $log
	fi
}

echo "p:lp/sys_entry $f" >>kprobe_events &&
	echo "r:lp/sys_ret $f" >>kprobe_events &&
	echo 'p:lp/read_entry shmem_file_read_iter' >>kprobe_events &&
	echo 'r:lp/read_ret shmem_file_read_iter' >>kprobe_events ||
	echo "definitions refused" >>$log
echo 1 >events/lp/enable
round indirect-calls-first-hits
# The optimizer switches what it can in from a worker.
sleep 2
round indirect-calls-after-optimizer
echo 0 >events/lp/enable
clean_slate

# kCFI: the type hash before the system call's handler.
if has_config CFI; then
	addr=$(ksym "$f")
	hash=$(printf '0x%x' $((0x$addr - 4)))
	echo >error_log
	if echo "p:lp/hash $hash" >>kprobe_events 2>/dev/null; then
		result landing-pads FAIL cfi-type-hash-refused
		echo 'p:lp/hash accepted' >$log
		log_file landing-pads cfi-type-hash-refused $log
	elif grep -q 'Failed to register probe event' error_log; then
		result landing-pads PASS cfi-type-hash-refused
	else
		result landing-pads FAIL cfi-type-hash-refused
		log_file landing-pads cfi-type-hash-refused error_log
	fi
	clean_slate
fi
