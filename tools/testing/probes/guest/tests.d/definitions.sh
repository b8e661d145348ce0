#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Defining probes: event names are looked up in an index of the probe
# events (trace_probe.c) and a walk of the other events; a probe by name
# is registered by the address its one lookup found (trace_kprobe.c); its
# hit counters come with its first arming; the events of a group share an
# event class, and those without arguments a print fmt.
. /harness/lib.sh
suite_start

# hits EVENT: the hit counts of its probes in kprobe_profile, one a line.
hits() { awk -v e="$1" '$1 == e { print $2 }' kprobe_profile; }
check() { # NAME CONDITION...: PASS if the condition holds
	name=$1
	shift
	if "$@"; then result definitions PASS "$name"; else result definitions FAIL "$name"; fi
}

# A tracepoint's name is taken; so is a kprobe event's, for a uprobe.
! echo "p:sched/sched_switch $f" >>kprobe_events 2>/dev/null &&
	grep -q 'already used by another event' error_log
check name-of-a-tracepoint [ $? -eq 0 ]
echo "p:defs/ev $f" >>kprobe_events
! echo "p:defs/ev /bin/busybox:0x100" >>uprobe_events 2>/dev/null
check name-of-another-kind [ $? -eq 0 ]

# Never enabled: no hits counted, and none to count them with.
check not-enabled-no-hits [ "$(hits ev)" = 0 ]

# Removed, the name is free again, for another kind too.
echo "-:defs/ev" >>kprobe_events
echo "p:defs/ev /bin/busybox:0x100" >>uprobe_events
echo "-:defs/ev" >>uprobe_events
echo "p:defs/ev $f" >>kprobe_events
check name-free-after-removal [ $? -eq 0 ]

# A probe joining an enabled event is armed at once, with its counters.
echo 1 >events/defs/ev/enable
echo "p:defs/ev $f+$body" >>kprobe_events
$loop 100 1 >/dev/null
n=$(hits ev | awk '$1 >= 100' | wc -l)
rec=$(grep -c 'ev: (' trace)
echo 0 >events/defs/ev/enable
ok=false
[ "$n" -eq 2 ] && [ "$rec" -ge 200 ] &&
	ok=true
check joined-enabled-event $ok

# By name after all: the probe is where the symbol is (on x86 with IBT,
# past its landing pad, as the core places a probe by name; on arm64 with
# kprobes on ftrace, at the ftrace site 4 or, past a BTI, 8 bytes on), and
# on re-enable. The list names the address by its first symbol, which may
# be an alias (x86's __do_sys_getppid for __x64_sys_getppid), so the
# probe's address is compared, the low 32 bits (ash's arithmetic is
# signed 64-bit).
addr=$(ksym "$f")
lo() { printf '%08x' $((0x${1#????????} + ${2:-0})); }
at_symbol() {
	[ -n "$addr" ] || return 1
	for at in $(awk '$2 == "k" { print $1 }' /sys/kernel/debug/kprobes/list); do
		[ "$(lo "$at")" = "$(lo "$addr")" ] && return 0
		[ "$(uname -m)" = x86_64 ] && [ "$(lo "$at")" = "$(lo "$addr" 4)" ] && return 0
		has_config KPROBES_ON_FTRACE && [ "$(uname -m)" = aarch64 ] &&
			{ [ "$(lo "$at")" = "$(lo "$addr" 4)" ] ||
			  [ "$(lo "$at")" = "$(lo "$addr" 8)" ]; } && return 0
	done
	return 1
}
check registered-at-symbol at_symbol
echo >trace
echo 1 >events/defs/ev/enable
$loop 10 1 >/dev/null
echo 0 >events/defs/ev/enable
check hits-after-re-enable [ "$(grep -c 'ev: (' trace)" -ge 20 ]
echo >dynamic_events
echo >trace

# The events of a group share their class (trace_probe.c), each kind its
# own; the fields stay each event's, whichever goes first.
fields() { sed -n 's/^\tfield:[^;]* \([a-z_0-9]*\);.*/\1/p' "events/defs/$1/format" | tr '\n' ' '; }
echo "p:defs/k $f a=$A0" >>kprobe_events
echo "r:defs/r $f b=\$retval" >>kprobe_events
echo "p:defs/u /bin/busybox:0x100 c=$A1" >>uprobe_events
echo "-:defs/k" >>kprobe_events
u=$(fields u)
r=$(fields r)
echo "p:defs/k $f d=$A2" >>kprobe_events
k=$(fields k)
echo >dynamic_events
ok=false
[ "$k" = "common_type common_flags common_preempt_count common_pid __probe_ip d " ] &&
	[ "$r" = "common_type common_flags common_preempt_count common_pid __probe_func __probe_ret_ip b " ] &&
	[ "$u" = "common_type common_flags common_preempt_count common_pid __probe_ip c " ] &&
	ok=true
check group-of-kinds-own-fields $ok
[ ! -d events/defs ]
check group-gone-with-its-events [ $? -eq 0 ]

# Probes without arguments share their print fmt; it reads as ever.
echo "p:defs/k $f" >>kprobe_events
echo "r:defs/r $f" >>kprobe_events
pk=$(grep '^print fmt' events/defs/k/format)
pr=$(grep '^print fmt' events/defs/r/format)
echo >dynamic_events
ok=false
[ "$pk" = 'print fmt: "(%lx)", REC->__probe_ip' ] &&
	[ "$pr" = 'print fmt: "(%lx <- %lx)", REC->__probe_func, REC->__probe_ret_ip' ] &&
	ok=true
check no-args-print-fmt $ok

# Arguments that read memory but hold no string: recorded inline when the
# file has no filter, by the general path when it has one. Both records
# must be right, at the entry and at the return ("Linux version ..." is
# the banner).
echo "p:defs/m $f v=@linux_banner:x32 w=@linux_banner+4:x8[2]" >>kprobe_events
echo "r:defs/mr $f v=@linux_banner:x32" >>kprobe_events
echo >trace
echo 1 >events/defs/enable
$loop 10 1 >/dev/null
echo 'v != 0' >events/defs/m/filter
echo 'v != 0' >events/defs/mr/filter
$loop 10 1 >/dev/null
echo 0 >events/defs/enable
all=$(grep -c ' mr\?: (' trace)
good=$(grep -cE ' m: \(.*\) v=0x756e694c w=\{0x78,0x20\}$| mr: \(.*\) v=0x756e694c$' trace)
echo >dynamic_events
ok=false
[ "$all" -ge 40 ] && [ "$good" -eq "$all" ] &&
	ok=true
check memory-args-inline-and-general $ok
