#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fprobe events (kernel/trace/trace_fprobe.c), where the kernel has them
# (both guests from 7.x, whose arm64 has fprobe): what ftracetest's fprobe and tprobe
# tests leave out.
. /harness/lib.sh
cd /sys/kernel/tracing
grep -q 'f\[:\[<group>/\]\[<event>\]\] <func-name>' README || exit 0
clean_slate
echo >error_log

check() { # NAME CONDITION...: PASS if the condition holds
	name=$1
	shift
	if "$@"; then result fprobes PASS "$name"; else result fprobes FAIL "$name"; fi
}
records() { grep -c " $1: (" trace; }
forks() { i=0; while [ $i -lt "$1" ]; do /bin/sh -c true; i=$((i + 1)); done; }

# A glob names every function it matches, as set_ftrace_filter's do:
# one event, recorded from each of them.
echo 'f:fp/glob vfs_rea*' >>dynamic_events
check glob-accepted [ $? -eq 0 ]
echo 1 >events/fp/glob/enable
cat /proc/version >/dev/null
echo 0 >events/fp/glob/enable
check glob-records [ "$(records glob)" -ge 1 ]
echo >dynamic_events
echo >trace

# An unknown function is refused with EINVAL, and the error_log says why
# under the name.
echo 'f:fp/none no_such_function_here' >>dynamic_events 2>/tmp/fp.err
rc=$?
ok=false
[ $rc -ne 0 ] && grep -q 'Invalid argument' /tmp/fp.err &&
	grep -q 'Invalid probed address or symbol' error_log &&
	[ ! -d events/fp/none ] &&
	ok=true
check unknown-function $ok

# Two tracepoint probes on one tracepoint both record; the first removed,
# the other goes on recording.
echo 't:fp/t1 sched_process_fork' >>dynamic_events &&
	echo 't:fp/t2 sched_process_fork' >>dynamic_events
check two-on-one-tracepoint [ $? -eq 0 ]
echo 1 >events/fp/enable
forks 3
t1=$(records t1)
t2=$(records t2)
echo 0 >events/fp/t1/enable
echo '-:fp/t1' >>dynamic_events
echo >trace
forks 3
echo 0 >events/fp/enable
ok=false
[ "$t1" -ge 3 ] && [ "$t2" -ge 3 ] &&
	ok=true
check both-record $ok
check other-keeps-recording [ "$(records t2)" -ge 3 ]
echo >dynamic_events
echo >trace

# An argument at the entry, and at the exit the same argument, read from
# what the entry saved, with the return value: the exact values of one
# open of a missing file (AT_FDCWD, -ENOENT), copied into the record as
# words, with no fetch program run.
echo 'f:fp/in do_sys_openat2 dfd=$arg1:s32' >>dynamic_events &&
	echo 'f:fp/out do_sys_openat2%return dfd=$arg1:s32 r=$retval:s32' >>dynamic_events
check entry-and-exit-defined [ $? -eq 0 ]
echo 1 >events/fp/enable
cat /no/such/file 2>/dev/null
echo 0 >events/fp/enable
check entry-argument grep -q ' in: (.* dfd=-100$' trace
check exit-argument-and-retval grep -q ' out: (.* dfd=-100 r=-2$' trace
echo >dynamic_events
echo >trace
