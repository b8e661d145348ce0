#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: One hit recorded into perf's buffer and the top instance's at once
# requires: dynamic_events
# One hit recorded into perf's buffer and a tracefs buffer at once. The
# series fetches the arguments once, into perf's record, and copies the
# instance's record from it: both must hold the hit's values, strings
# included. The kprobe, kretprobe and fprobe front ends each. Several
# tracefs instances at once, each with its own filter, are ftracetest's
# kprobe/kprobe_instance_buffers.tc and dynevent/fprobe_instance_buffers.tc.
. /harness/lib.sh
suite_start

show_state() {
	echo "dynamic_events:"; cat dynamic_events
	echo "error_log:"; cat error_log
	echo "trace:"; grep -v '^#' trace | head -8
	for f in /tmp/inst.perf.*; do
		[ -f "$f" ] && { echo "$f:"; cat "$f"; }
	done
}
check() { check_that instances "$@"; }
# args DIR EVENT: the text of EVENT's records in DIR's buffer, from the
# event's name on (the task, CPU and time differ between buffers).
args() { grep -v '^#' "$1/trace" | sed -n "s/.* $2: /$2: /p"; }

events="p:inst/k $f u=@init_uts_ns:string c=\$comm:string
r:inst/r $f ret=\$retval c=\$comm:string"
if has_config FPROBE_EVENTS; then
	events="$events
f:inst/f $f%return ret=\$retval c=\$comm:string"
fi
echo "$events" | while read -r def; do
	echo "$def" >>dynamic_events || echo "refused: $def" >>/tmp/inst.refused
done
check defined [ ! -s /tmp/inst.refused ]

# perf and the top instance take the same hits: pmu_probe opens the event
# by its id for itself alone, samples each hit's raw record into a mapped
# buffer and makes 30 getppid() calls; its records' $comm is "pmu_probe".
echo >trace
for ev in k r f; do
	[ -d events/inst/$ev ] || continue
	echo 1 >events/inst/$ev/enable
	/harness/progs/pmu_probe -D -n 30 tracepoint "$(cat events/inst/$ev/id)" \
		>/tmp/inst.perf.$ev 2>&1
	echo 0 >events/inst/$ev/enable
	check "$ev-perf-every-hit" grep -qx 'samples 30 lost 0' /tmp/inst.perf.$ev
	check "$ev-perf-instance-every-hit" \
		[ "$(args . $ev | grep -c 'c="pmu_probe"$')" -eq 30 ]
	# A string's bytes in perf's record: NULs and binary words as '.'.
	check "$ev-perf-strings" grep -q '^raw .*pmu_probe' /tmp/inst.perf.$ev
done
if [ -d events/inst/k ]; then
	check k-perf-strings-both grep -q '^raw .*Linux.pmu_probe' /tmp/inst.perf.k
	check k-perf-instance-strings \
		[ "$(args . k | grep -c '^k: (.*) u="Linux" c="pmu_probe"$')" -eq 30 ]
fi

clean_slate
rm -f /tmp/inst.*
