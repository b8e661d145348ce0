#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: Kprobe handlers run with interrupts disabled, however the probe is hit
# requires: CONFIG_KPROBES CONFIG_KRETPROBES
# The harness's module kprobe_irqs (tests/guest/modules/) puts a kprobe
# on its own function's entry (armed through ftrace where the kernel has
# kprobes on ftrace), one inside it (optimized where the kernel has
# optimized probes), and a kretprobe on it, calls the function with
# interrupts enabled, and counts the hits whose handler found interrupts
# enabled. While a handler runs, its CPU is busy with the probe: a probe
# an interrupt hits meanwhile is counted as missed. A breakpoint's
# exception disables interrupts (7.3's arm64 takes one on every path);
# 7.3's x86 ftrace, optimized and return trampoline paths leave them as
# the probed code had them. The series' own arm64 paths, without an
# exception, disable them.
. /harness/lib.sh
suite=kprobe-irqs
params=/sys/module/kprobe_irqs/parameters
list=/sys/kernel/debug/kprobes/list
log=/tmp/kprobe-irqs.log
calls=1000

# inside_flags OFFSET: the flags kprobes/list shows on the probe inside.
inside_flags() {
	grep "probed_function+$(printf 0x%x "$1") " $list
}

# The first offset where the module's probe inside is accepted and, with
# optimized probes, optimized: the optimizer switches a probe in from a
# worker after an RCU-tasks grace period, so each gets up to 3 s. Where
# none is, the first accepted, which the check below then shows.
first=
for off in $(seq 1 63); do
	modprobe kprobe_irqs offset=$off 2>/dev/null || continue
	[ -n "$first" ] || first=$off
	has_config OPTPROBES || break
	for i in $(seq 30); do
		inside_flags $off | grep -q OPTIMIZED && break 2
		sleep 0.1
	done
	rmmod kprobe_irqs
done
if [ ! -d $params ] && [ -n "$first" ]; then
	modprobe kprobe_irqs offset=$first 2>$log
fi
if [ ! -d $params ]; then
	echo "no offset accepted" >>$log
	result $suite FAIL module
	log_file $suite module $log
	exit 0
fi
# The core flags a probe optimized when it queues it for the optimizer,
# which writes the jump to the detour after a grace period: until then
# the probe is hit through its breakpoint.
if has_config OPTPROBES; then
	for i in $(seq 100); do
		[ "$(cat $params/jump)" = 1 ] && break
		sleep 0.1
	done
fi
jump_before=$(cat $params/jump)
echo $calls >$params/calls
{ cat $params/report; echo "jump before=$jump_before after=$(cat $params/jump)"
  grep kprobe_irqs $list; } >$log
rmmod kprobe_irqs
echo "@note $suite: $(head -4 $log | tr '\n' ';')" >&3

# field PROBE NAME: the value of NAME= on the report's line for PROBE.
field() {
	awk -v p="$1" -v n="$2" '$1 == p {
		for (i = 2; i <= NF; i++)
			if (index($i, n "=") == 1) print substr($i, length(n) + 2)
	}' $log
}
show_state() { cat $log; }
check() { check_that $suite "$@"; }

for p in entry inside return; do
	check $p-hit-each-call [ "$(field $p hits)" = $calls ]
	check $p-irqs-off [ "$(field $p irqs_on)" = 0 ]
done
# Each path is the one meant, where the kernel has it.
if has_config KPROBES_ON_FTRACE; then
	# At the function's ftrace site, which on arm64 may follow a BTI.
	check entry-through-ftrace grep -q "  k  probed_function+0x[0-9a-f]* .*FTRACE" $log
fi
if has_config OPTPROBES; then
	check inside-through-detour [ "$(field jump before)$(field jump after)" = 11 ]
fi
