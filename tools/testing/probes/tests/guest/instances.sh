#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: One hit recorded into several instances' buffers, and perf's, at once
# requires: dynamic_events instances
# One hit recorded into several instances' buffers at once. The series
# fetches the arguments once, into the first buffer's record, and copies
# them into the others: each instance must still show exactly its own
# records, strings included, a filter set in one instance must drop
# records there only, and an instance the event is not enabled in must
# get none. When perf takes the hit as well, the arguments are fetched
# once, into perf's record, and the instance's record is copied from it:
# both must hold the hit's values, strings included. The kprobe,
# kretprobe and fprobe front ends each.
. /harness/lib.sh
suite_start

show_state() {
	echo "dynamic_events:"; cat dynamic_events
	echo "error_log:"; cat error_log
	for d in . instances/*; do
		echo "$d/trace:"; grep -v '^#' "$d/trace" | head -8
	done
	for f in /tmp/inst.perf.*; do
		[ -f "$f" ] && { echo "$f:"; cat "$f"; }
	done
}
check() { check_that instances "$@"; }
# args DIR EVENT: the text of EVENT's records in DIR's buffer, from the
# event's name on (the task, CPU and time differ between buffers).
args() { grep -v '^#' "$1/trace" | sed -n "s/.* $2: /$2: /p"; }
# same A B: the files A and B hold the same lines, and at least one.
same() { [ -s "$1" ] && cmp -s "$1" "$2"; }

# The same loop under a second name: its records show another $comm, for
# the filter to tell them apart.
ln -sf $loop /tmp/other_loop
mkdir instances/inst_a instances/inst_b instances/inst_off

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

for ev in k r f; do
	[ -d events/inst/$ev ] || continue
	echo "c == \"getppid_loop\"" >instances/inst_b/events/inst/$ev/filter
	for d in . instances/inst_a instances/inst_b; do
		echo 1 >"$d/events/inst/$ev/enable"
	done
done
$loop 20 1 >/dev/null
/tmp/other_loop 20 1 >/dev/null
for ev in k r f; do
	[ -d events/inst/$ev ] || continue
	for d in . instances/inst_a instances/inst_b; do
		echo 0 >"$d/events/inst/$ev/enable"
	done
done

for ev in k r f; do
	[ -d events/inst/$ev ] || continue
	args . $ev >/tmp/inst.top
	args instances/inst_a $ev >/tmp/inst.a
	cp /tmp/inst.a /tmp/inst.$ev.a
	args instances/inst_b $ev >/tmp/inst.b
	args instances/inst_off $ev >/tmp/inst.off
	# Both loops' records, 20 of each at the least, in both buffers.
	n=$(grep -c 'c="getppid_loop"' /tmp/inst.top)
	m=$(grep -c 'c="other_loop"' /tmp/inst.top)
	check "$ev-every-hit" [ "$n" -ge 20 -a "$m" -ge 20 ]
	check "$ev-same-records" same /tmp/inst.top /tmp/inst.a
	grep 'c="getppid_loop"' /tmp/inst.a >/tmp/inst.want
	check "$ev-filter-own-instance" same /tmp/inst.want /tmp/inst.b
	check "$ev-not-enabled-none" [ ! -s /tmp/inst.off ]
done
# Both strings were copied whole, the second after the first: the
# kernel's name (init_uts_ns's first field, its sysname) and $comm.
check k-strings-copied [ "$(grep -c '^k: (.*) u="Linux" c="[a-z_]*_loop"$' /tmp/inst.k.a)" -ge 40 ]

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
for d in instances/inst_a instances/inst_b instances/inst_off; do
	echo 0 >"$d/events/enable" 2>/dev/null
	rmdir "$d"
done
rm -f /tmp/other_loop /tmp/inst.*
