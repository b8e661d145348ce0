#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: What each lockdown level allows of probes (it locks the kernel down: last)
# requires: CONFIG_SECURITY_LOCKDOWN_LSM
# Lockdown (SECURITY_LOCKDOWN_LSM). The kernel is raised to "integrity",
# then to "confidentiality", through securityfs: the same state as
# booting with lockdown=LEVEL, and one way only, so this test runs after
# every other (targets/check-guest.sh, tests-guest.sh). What each level
# allows is upstream 7.3's, as 6.12's (upstream passes these checks on
# both):
#   integrity        everything: kprobe and kretprobe events through
#                    tracefs and the PMU, with arguments that read kernel
#                    memory, and uprobe events (kprobes are a
#                    confidentiality reason, LOCKDOWN_KPROBES);
#   confidentiality  no probe file of tracefs opens (LOCKDOWN_TRACEFS), no
#                    kprobe or kretprobe through the PMU (LOCKDOWN_KPROBES),
#                    both EPERM; the uprobe PMU, which reads no kernel
#                    memory, still opens.
# A kernel booted into a level (lockdown=LEVEL) is tested from that level
# on; booted into confidentiality, tracefs has made none of its files.
# The test mounts securityfs (/sys/kernel/security/lockdown) itself.
. /harness/lib.sh
lock=/sys/kernel/security/lockdown
[ -e $lock ] || mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
[ -w $lock ] || exit 0
cd /sys/kernel/tracing
prog=/harness/progs/pmu_probe
loop=/harness/progs/getppid_loop
bench_points

level() { sed -n 's/.*\[\([a-z]*\)\].*/\1/p' $lock; }
check() { # NAME WANT COMMAND...: named after the level too
	name=$1
	shift
	check_prints lockdown "$(level)-$name" "$@"
}
# define FILE DEFINITION: "ok", or the write's error.
define() { echo "$2" >>"$1" 2>&1 && echo ok; }
# records EVENT CALLS: the event's records of CALLS getppid() calls, with
# a string read from kernel memory (init_uts_ns's release).
records() {
	echo >trace
	echo 1 >"events/lockdown/$1/enable"
	$loop "$2" 1 >/dev/null
	echo 0 >"events/lockdown/$1/enable"
	grep " $1: " trace | grep -c 's="[0-9][^"]*"'
}

if [ "$(level)" = none ]; then
	clean_slate
	echo integrity >$lock
fi
if [ "$(level)" = integrity ]; then
	check kprobe-event ok define kprobe_events \
		"p:lockdown/k $f a=$A0 s=@init_uts_ns+130:string"
	check kprobe-event-records 10 records k 10
	check kretprobe-event ok define kprobe_events \
		"r:lockdown/r $f v=\$retval s=@init_uts_ns+130:string"
	check uprobe-event ok define uprobe_events \
		"p:lockdown/u $loop:0"
	check kprobe-pmu "ok 10" $prog -n 10 kprobe "$f"
	check kretprobe-pmu "ok 10" $prog -r -n 10 kprobe "$f"
	check uprobe-pmu ok $prog uprobe $loop 0
	clean_slate
	echo confidentiality >$lock
	raised=1
fi
[ "$(level)" = confidentiality ] || exit 0
# Raised here, the files are there and refuse to open; booted so, tracefs
# never made them.
closed=ENOENT
[ -z "${raised:-}" ] || closed=EPERM
for file in kprobe_events uprobe_events dynamic_events kprobe_profile \
	    uprobe_profile trace error_log; do
	check "open-$file" "$closed $closed" \
		sh -c "echo \$($prog open $file r) \$($prog open $file w)"
done
check kprobe-pmu EPERM $prog kprobe "$f"
check kprobe-pmu-by-address EPERM $prog kprobe \
	"0x$(ksym "$f")"
check kretprobe-pmu EPERM $prog -r kprobe "$f"
check uprobe-pmu ok $prog uprobe $loop 0
