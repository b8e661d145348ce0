#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: arm64's optimized probes: detours, the run-time switch, removal under load
# requires: arch:aarch64 kprobe_events
# Optimized probes (arch/arm64/kernel/probes/opt.c): what ftracetest's
# kprobe_opt_types.tc checks (it skips aarch64), the run-time switch, every
# hit recorded through a detour, the detours within reach under KASLR,
# probes on a module's function, adjacent optimized probes, a probe on a
# function the function tracer patches meanwhile, and probes removed while
# other CPUs run through their detours. The host fails the run on any oops,
# warning or hang. Two probes at one address share a detour, each skipped
# while disabled; a hit while the CPU handles another probe is missed.
# A kernel without optimized probes (no /proc/sys/debug/kprobes-optimization,
# upstream's arm64) reports each check UNSUPPORTED.
. /harness/lib.sh
# arm64's own backend: other guests test theirs with ftracetest.
[ "$(uname -m)" = aarch64 ] || exit 0
cd /sys/kernel/tracing
loop=/harness/progs/getppid_loop
bench_points
list=/sys/kernel/debug/kprobes/list
sysctl=/proc/sys/debug/kprobes-optimization
log=/tmp/optprobes.log
: >$log

if [ ! -e $sysctl ]; then
	for t in kprobe-opt-types switch-and-record adjacent function-tracer \
		 remove-while-running shared-address nested-missed \
		 enable-while-optimizing detours-in-reach module-function; do
		result optprobes UNSUPPORTED $t
	done
	exit 0
fi

echo 0 >events/enable
echo >trace
echo >kprobe_events

# hits EVENT: its hit count in kprobe_profile.
hits() { awk -v e="$1" '$1 == e { print $2 }' kprobe_profile; }
# misses EVENT: its missed count there.
misses() { awk -v e="$1" '$1 == e { print $3 }' kprobe_profile; }
# optimized OFFSET: the probe at $f+OFFSET is marked optimized.
optimized() { grep -q "$f+$1 .*\[OPTIMIZED\]" $list; }
# entry_as_wanted [FUNC]: the probe on FUNC's ($f's) entry is armed
# through its ftrace site where the kernel can (ftrace-entry.sh), else the
# probe on its first instruction is optimized; with BTI in the kernel that
# instruction is the function's landing pad, which must stay a breakpoint
# (landing-pads.sh).
entry_as_wanted() {
	if has_config KPROBES_ON_FTRACE; then
		grep -q "${1:-$f}+0x[0-9a-f]* .*\[FTRACE\]" $list
	elif has_config ARM64_BTI_KERNEL; then
		grep -q "${1:-$f}+0x0 " $list &&
			! grep -q "${1:-$f}+0x0 .*\[OPTIMIZED\]" $list
	else
		grep -q "${1:-$f}+0x0 .*\[OPTIMIZED\]" $list
	fi
}
# settle: the optimizer switches probes in after an RCU-tasks grace period.
settle() { sleep 2; }

# kprobe_opt_types.tc, for aarch64: some probe on kernel_clone is optimized.
found=
for i in $(seq 0 4 252); do
	echo "p:testprobe kernel_clone+$i" >kprobe_events 2>/dev/null || continue
	echo 1 >events/kprobes/enable || continue
	(echo forked) >/dev/null
	probe=$(grep kernel_clone $list)
	echo 0 >events/kprobes/enable
	echo >kprobe_events
	if echo "$probe" | grep -q OPTIMIZED; then
		found=$i
		break
	fi
done
echo "kernel_clone+$found optimized" >>$log
[ -n "$found" ] && result optprobes PASS kprobe-opt-types ||
	result optprobes FAIL kprobe-opt-types

# Every hit through the detour is recorded; the switch takes probes out of
# optimization and back, and each way every hit is still recorded.
echo "p:opt/entry $f x0=%x0" >>kprobe_events
echo "p:opt/body $f+$stp" >>kprobe_events
echo 1 >events/opt/enable
settle
cat $list >>$log
pass=1
for want in 1 0 1; do
	echo $want >$sysctl
	settle
	if [ $want = 1 ]; then
		entry_as_wanted && optimized "0x$(printf %x "$stp")" || pass=0
	else
		! grep -q "$f.*OPTIMIZED" $list || pass=0
	fi
	echo >trace
	e0=$(hits entry)
	$loop 1000 1 >/dev/null
	e1=$(hits entry)
	rec=$(grep -c ' entry: ' trace)
	body=$(grep -c ' body: ' trace)
	echo "optimization $want: hits $((e1 - e0)), records $rec/$body" >>$log
	[ $((e1 - e0)) -ge 1000 ] && [ "$rec" -eq $((e1 - e0)) ] &&
		[ "$body" -eq "$rec" ] || pass=0
done
[ $pass = 1 ] && result optprobes PASS switch-and-record ||
	result optprobes FAIL switch-and-record

# Where the detours lie, with the two probes above optimized: every detour
# page is within a B's reach of every instruction of the kernel's text, and
# a kernel built with KASLR runs away from where it was linked, its modules
# anywhere in a 2 GB window (RANDOMIZE_MODULE_REGION_FULL): else that reach
# would be tested only where it always holds. Addresses are compared by
# their low 48 bits, which busybox's arithmetic holds without a sign.
low48() { echo $((0x$(echo "$1" | cut -c5-16))); }
pass=1
stext=$(awk '$3 == "_stext" { print $1 }' /proc/kallsyms)
echo "_stext at $stext, linked at $(cat /harness/kernel.stext)" >>$log
if has_config RANDOMIZE_BASE && ! grep -qw nokaslr /proc/cmdline; then
	[ "$stext" != "$(cat /harness/kernel.stext)" ] || pass=0
fi
stext=$(low48 "$stext")
etext=$(low48 "$(awk '$3 == "_etext" { print $1 }' /proc/kallsyms)")
pages=$(awk '$3 == "kprobe_optinsn_page" { print $1 }' /proc/kallsyms)
[ -n "$pages" ] || pass=0
# A B reaches 128 MB back and 128 MB less 4 bytes on: from the text's last
# instruction back to a page, from its first on to a page's last (the
# guest's pages are 4 KB).
for page in $pages; do
	p=$(low48 "$page")
	back=$((etext - 4 - p))
	on=$((p + 4096 - stext))
	echo "detour page $page: $back bytes back from the text's end," \
	     "$on on from its start" >>$log
	[ $back -le $((128 << 20)) ] && [ $on -le $((128 << 20)) ] || pass=0
done
[ $pass = 1 ] && result optprobes PASS detours-in-reach ||
	result optprobes FAIL detours-in-reach
echo 0 >events/opt/enable
echo >kprobe_events

# Probes on a module's function, optimized and every hit recorded. Under
# KASLR the module may lie out of reach of the core's detour pages, and
# its detours then come from a page of its own 128 MB window, which
# kallsyms names kprobe_module_optinsn_page. trace-events-sample's thread
# calls the function once a second; of its first instructions, a landing
# pad keeps its breakpoint under BTI.
pass=0
if modprobe trace-events-sample 2>>$log; then
	mf=$(awk '$3 ~ /^do_simple_thread_func/ && $4 == "[trace_events_sample]" {
		print $3; exit }' /proc/kallsyms)
	for off in 0 4 8 12; do
		echo "p:mod/m$off $mf+$off" >>kprobe_events 2>>$log
	done
	# The probes are new: every hit they count comes after the enabling
	# and before the disabling, and so does every record, so the two are
	# compared whole; comparing from a point in between would race with
	# the thread's next call. The hits once settled (optimized) only
	# need to be enough.
	echo >trace
	echo 1 >events/mod/enable
	settle
	h0=$(awk '$1 ~ /^m[0-9]+$/ { n += $2 } END { print n + 0 }' kprobe_profile)
	sleep 3
	# Counted before the disable, which takes the probes out.
	opt=$(grep -c "$mf.*\[OPTIMIZED\]" $list)
	grep "$mf" $list >>$log
	echo 0 >events/mod/enable
	h=$(awk '$1 ~ /^m[0-9]+$/ { n += $2 } END { print n + 0 }' kprobe_profile)
	rec=$(grep -c ' m[0-9]*: ' trace)
	grep kprobe_module_optinsn_page /proc/kallsyms >>$log
	echo "module function $mf: $opt optimized, $h hits ($((h - h0)) once settled), $rec records" >>$log
	[ -n "$mf" ] && [ "$opt" -ge 1 ] && [ $((h - h0)) -ge 4 ] &&
		[ "$rec" -eq "$h" ] && pass=1
	echo >kprobe_events
	rmmod trace_events_sample
fi
[ $pass = 1 ] && result optprobes PASS module-function ||
	result optprobes FAIL module-function

# Adjacent probes, each optimized alone: stp and the next instruction.
next=$((stp + 4))
echo "p:opt/a $f+$stp" >>kprobe_events
echo "p:opt/b $f+$next" >>kprobe_events 2>>$log
echo 1 >events/opt/enable
settle
a0=$(hits a); b0=$(hits b)
$loop 1000 1 >/dev/null
a1=$(hits a); b1=$(hits b)
echo "adjacent: $((a1 - a0)) $((b1 - b0))" >>$log
grep "$f" $list >>$log
if optimized "0x$(printf %x $stp)" && optimized "0x$(printf %x $next)" &&
   [ $((a1 - a0)) -ge 1000 ] && [ $((a1 - a0)) -eq $((b1 - b0)) ]; then
	result optprobes PASS adjacent
else
	result optprobes FAIL adjacent
fi
echo 0 >events/opt/enable
echo >kprobe_events

# The function tracer patches the function's entry (its BL to ftrace, one
# instruction after the probe) on and off while the optimized probe runs.
echo "p:opt/entry $f" >>kprobe_events
echo 1 >events/opt/enable
settle
echo "$f" >set_ftrace_filter
e0=$(hits entry)
for i in 1 2 3 4 5; do
	echo function >current_tracer
	$loop 200 1 >/dev/null
	echo nop >current_tracer
	$loop 200 1 >/dev/null
done
e1=$(hits entry)
echo >set_ftrace_filter
echo "under the function tracer: $((e1 - e0)) hits" >>$log
entry_as_wanted && [ $((e1 - e0)) -ge 2000 ] &&
	result optprobes PASS function-tracer || result optprobes FAIL function-tracer
echo 0 >events/opt/enable
echo >kprobe_events

# Removal while other CPUs run through the detours: two loops hit the
# function while its probes are enabled, optimized, disabled and removed.
$loop 2000000 1 >/dev/null &
l1=$!
$loop 2000000 1 >/dev/null &
l2=$!
for i in 1 2 3 4 5; do
	echo "p:opt/entry $f x0=%x0" >>kprobe_events
	echo "p:opt/body $f+$stp" >>kprobe_events
	echo "r:opt/ret $f ret=\$retval" >>kprobe_events
	echo 1 >events/opt/enable
	settle
	grep -c "$f.*OPTIMIZED" $list >>$log
	echo 0 >events/opt/enable
	echo >kprobe_events
done
kill $l1 $l2 2>/dev/null
wait 2>/dev/null
[ -z "$(cat kprobe_events)" ] && ! grep -q "$f" $list &&
	result optprobes PASS remove-while-running ||
	result optprobes FAIL remove-while-running

# A kprobe and a kretprobe event on one address: the core aggregates them
# behind one detour, which runs the pre-handler of each that is enabled.
# With either disabled, its hits stay still and the other's are recorded.
echo "p:opt/entry $f" >>kprobe_events
echo "r:opt/ret $f" >>kprobe_events
echo 1 >events/opt/enable
settle
pass=1
for off in entry ret; do
	on=entry
	[ $off = entry ] && on=ret
	echo 0 >events/opt/$off/enable
	echo >trace
	o0=$(hits $off); n0=$(hits $on)
	$loop 1000 1 >/dev/null
	o1=$(hits $off); n1=$(hits $on)
	rec=$(grep -c " $on: " trace)
	echo "one address, $off disabled: $off $((o1 - o0)) hits;" \
	     "$on $((n1 - n0)) hits, $rec records" >>$log
	entry_as_wanted && [ $((o1 - o0)) -eq 0 ] && [ $((n1 - n0)) -ge 1000 ] &&
		[ "$rec" -eq $((n1 - n0)) ] || pass=0
	echo 1 >events/opt/$off/enable
done
grep "$f" $list >>$log
[ $pass = 1 ] && result optprobes PASS shared-address ||
	result optprobes FAIL shared-address
echo 0 >events/opt/enable
echo >kprobe_events

# A hit while the CPU handles another probe is counted as missed, and its
# handler does not run: an optimized probe on a function that fetching
# another probe's argument calls (kernel/trace is notrace: not there).
echo "p:opt/outer $f s=+0(%x0):string" >>kprobe_events
inner=
for g in copy_from_kernel_nofault_allowed copy_from_kernel_nofault; do
	echo "p:opt/inner $g" >>kprobe_events 2>>$log && { inner=$g; break; }
done
echo 1 >events/opt/enable
settle
echo >trace
h0=$(hits outer); m0=$(misses inner); i0=$(hits inner)
$loop 1000 1 >/dev/null
h1=$(hits outer); m1=$(misses inner); i1=$(hits inner)
rec=$(grep -c ' outer: ' trace)
echo "nested in $inner: outer $((h1 - h0)) hits, $rec records;" \
     "inner $((m1 - m0)) missed, $((i1 - i0)) hits" >>$log
grep "$inner" $list >>$log
if [ -n "$inner" ] && entry_as_wanted "$inner" &&
   [ $((h1 - h0)) -ge 1000 ] && [ "$rec" -eq $((h1 - h0)) ] &&
   [ $((m1 - m0)) -ge $((h1 - h0)) ] && [ $((i1 - i0)) -lt $((h1 - h0)) ]; then
	result optprobes PASS nested-missed
else
	result optprobes FAIL nested-missed
fi
echo 0 >events/opt/enable
echo >kprobe_events

# A probe enabled while the optimizer works through hundreds of others is
# hit and recorded at once, on whichever path it is on: 300 system call
# handlers enabled one by one (each enable kicks the optimizer), each
# probed past its ftrace site (an optimizer's probe, not ftrace's), the probe
# on the bench's function enabled among them and hit at once, then again
# once every probe has been switched in.
echo >trace
n=0
for g in $(sed -n 's/^[0-9a-f]* [tT] \(__arm64_sys_[a-z0-9_]*\)$/\1/p' /proc/kallsyms |
	   grep -v "^$f\$" | head -300); do
	echo "p:many/p$n $g+12" >>kprobe_events 2>/dev/null && n=$((n + 1))
done
echo "p:opt/hot $f+$stp" >>kprobe_events
t0=$(cut -d' ' -f1 /proc/uptime)
i=0
pass=1
while [ $i -lt $n ]; do
	echo 1 >events/many/p$i/enable
	if [ $i = $((n / 2)) ]; then
		echo 1 >events/opt/hot/enable
		h0=$(hits hot)
		$loop 300 1 >/dev/null
		h1=$(hits hot)
		grep "$f" $list >>$log
		echo "enabled among $n: $((h1 - h0)) hits" >>$log
		[ $((h1 - h0)) -ge 300 ] || pass=0
	fi
	i=$((i + 1))
done
t1=$(cut -d' ' -f1 /proc/uptime)
echo "enabling $n probes took $t0 .. $t1 s" >>$log
settle
h0=$(hits hot)
$loop 300 1 >/dev/null
h1=$(hits hot)
opt=$(grep -c 'OPTIMIZED' $list)
optimized "0x$(printf %x "$stp")" || pass=0
# Read with the events off: with the read system call's handler probed,
# a reader of the trace file would chase the records its reads add.
echo 0 >events/many/enable
echo 0 >events/opt/enable
rec=$(grep -c ' hot: ' trace)
echo "after: $((h1 - h0)) hits, $rec records of $h1 hits in all," \
     "$opt optimized" >>$log
[ $((h1 - h0)) -ge 300 ] && [ "$rec" -eq "$h1" ] || pass=0
[ $pass = 1 ] && result optprobes PASS enable-while-optimizing ||
	result optprobes FAIL enable-while-optimizing
echo 0 >events/enable
echo >kprobe_events
echo >trace

echo 1 >$sysctl
log_file optprobes summary $log
