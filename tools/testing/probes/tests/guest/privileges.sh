#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: Who may make probes: an unprivileged user, CAP_PERFMON alone, root
# requires: /sys/bus/event_source/devices/kprobe
# Who may make probes. An unprivileged user (uid 1000, no capability,
# through progs/drop_privs) may open no probe file of tracefs, for reading
# or writing, even with tracefs's root opened to all (mode=755), and may
# not create a kprobe or uprobe event through perf's PMUs. With
# CAP_PERFMON alone it gets what upstream (7.3, as 6.12) gives it: kprobe events
# through the kprobe PMU (perfmon_capable()), no uprobe event (the uprobe
# PMU wants CAP_SYS_ADMIN), and still no tracefs file (no DAC override).
# A tracefs event opened as a tracepoint by its id follows perf's rules:
# counting this task's user-mode hits needs nothing, its raw records need
# CAP_PERFMON unless the event is a uprobe's (TRACE_EVENT_FL_CAP_ANY).
# Root does it all: the control that shows each refusal is the user's.
. /harness/lib.sh
cd /sys/kernel/tracing
[ -d /sys/bus/event_source/devices/kprobe ] || exit 0
prog=/harness/progs/pmu_probe
user=/harness/progs/drop_privs
perfmon="/harness/progs/drop_privs --perfmon"
clean_slate
bench_points
utarget=/harness/progs/getppid_loop

check() { check_prints privileges "$@"; }

# The helper drops what it says: uid, gid and capabilities (permitted,
# effective, ambient), through an exec of busybox.
ids='echo $(id -u) $(id -g) $(awk "/^Cap(Prm|Eff|Amb):/ { print \$2 }" /proc/self/status)'
check helper-drops-all "1000 1000 0000000000000000 0000000000000000 0000000000000000" \
	$user sh -c "$ids"
check helper-keeps-perfmon "1000 1000 0000004000000000 0000004000000000 0000004000000000" \
	$perfmon sh -c "$ids"

# Events of each kind, for their files and their ids.
echo "p:privtest/kev $f" >>kprobe_events
echo "p:privtest/uev $utarget:0" >>uprobe_events
kid=$(cat events/privtest/kev/id)
uid=$(cat events/privtest/uev/id)
files="kprobe_events uprobe_events dynamic_events trace kprobe_profile
	uprobe_profile error_log events/privtest/enable
	events/privtest/kev/enable events/privtest/kev/filter
	events/privtest/kev/trigger events/privtest/uev/enable
	events/privtest/uev/filter events/privtest/uev/trigger"

# opens WHO FILE: how reading and writing FILE ended for WHO.
opens() {
	echo "$($1 $prog open "$2" r 2>&1) $($1 $prog open "$2" w 2>&1)"
}

# tracefs as mounted: its root is root's alone.
: >/tmp/priv.log
for file in $files; do
	got=$(opens "$user" "$file")
	[ "$got" = "EACCES EACCES" ] || echo "$file: $got" >>/tmp/priv.log
done
if [ -s /tmp/priv.log ]; then
	result privileges FAIL user-opens-nothing-default-mount
	log_file privileges user-opens-nothing-default-mount /tmp/priv.log
else
	result privileges PASS user-opens-nothing-default-mount
fi

# tracefs's root opened to all: each file's own mode must refuse.
mode=$(stat -c %a /sys/kernel/tracing)
if mount -o remount,mode=755 /sys/kernel/tracing &&
   [ "$(stat -c %a /sys/kernel/tracing)" = 755 ]; then
	for file in $files; do
		check "user-open:$file" "EACCES EACCES" opens "$user" "$file"
		check "perfmon-open:$file" "EACCES EACCES" opens "$perfmon" "$file"
		check "root-open:$file" "ok" $prog open "$file" r
	done
else
	result privileges FAIL remount-mode-755
fi
mount -o remount,mode="$mode" /sys/kernel/tracing

# perf's PMUs. -k: exclude_kernel, so that perf's own paranoia lets the
# call reach the PMU's check; -w: every task on CPU 0; -n 3: count three
# getppid() calls.
addr=0x$(ksym "$f")
check user-kprobe-pmu EACCES $user $prog -k kprobe "$f"
check user-kprobe-pmu-with-kernel EACCES $user $prog kprobe "$f"
check user-kprobe-pmu-cpu EACCES $user $prog -k -w kprobe "$f"
check user-kprobe-pmu-addr EACCES $user $prog -k kprobe "$addr"
check user-kretprobe-pmu EACCES $user $prog -k -r kprobe "$f"
check user-uprobe-pmu EACCES $user $prog -k uprobe $utarget 0
check user-uretprobe-pmu EACCES $user $prog -k -r uprobe $utarget 0
check perfmon-kprobe-pmu "ok 3" $perfmon $prog -n 3 kprobe "$f"
check perfmon-kprobe-pmu-addr "ok 3" $perfmon $prog -n 3 kprobe "$addr"
check perfmon-kretprobe-pmu "ok 3" $perfmon $prog -r -n 3 kprobe "$f"
check perfmon-kprobe-pmu-cpu ok $perfmon $prog -w kprobe "$f"
check perfmon-kprobe-pmu-raw ok $perfmon $prog -S kprobe "$f"
check perfmon-uprobe-pmu EACCES $perfmon $prog uprobe $utarget 0
check root-kprobe-pmu "ok 3" $prog -n 3 kprobe "$f"
check root-uprobe-pmu ok $prog uprobe $utarget 0

# tracefs events through the tracepoint PMU, by id.
check user-tracepoint-kprobe-count "ok 0" $user $prog -k -n 3 tracepoint "$kid"
check user-tracepoint-kprobe-with-kernel EACCES $user $prog -n 3 tracepoint "$kid"
check user-tracepoint-kprobe-raw EPERM $user $prog -k -S tracepoint "$kid"
check user-tracepoint-uprobe-raw ok $user $prog -k -S tracepoint "$uid"
check perfmon-tracepoint-kprobe-count "ok 3" $perfmon $prog -n 3 tracepoint "$kid"
check perfmon-tracepoint-kprobe-raw ok $perfmon $prog -S tracepoint "$kid"

# The user's tries left nothing behind, nor did anyone's.
clean_slate
kprobes_gone
check none-left "" cat /sys/kernel/debug/kprobes/list
