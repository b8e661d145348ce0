#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Load: stress-ng's filesystem, scheduler, memory and system-call
# stressors run for load_seconds= (from the kernel command line; 600 if
# none) while 2,000 kprobe events, 1,000 uprobe events and ten bpftrace
# programs are attached. The kprobe events sit on functions taken evenly
# from the ftrace-traceable ones: of the functions tried, half at the
# entry (ridden through ftrace where the kernel can), a quarter returns, a
# quarter on an instruction in the middle of the function (where the
# optimizer puts a branch); the uprobe events on the C library's
# exported functions, which every stressor calls. Then:
# - every hit that kprobe_profile and uprobe_profile count is a record in
#   the ring buffer: committed (in the buffer, overwritten or read), none
#   dropped;
# - stress-ng passes and each bpftrace program counted its probes' hits and
#   exited cleanly;
# - nothing is left: every event removed, kprobes/list as before, no BPF
#   link; on a kernel with kmemleak on from boot, nothing leaked.
# The host's boot.sh fails the run on any report from the kernel (oops,
# warning, lockup, stall). Only run when named (clients=load): the host
# boots a guest for it alone, once per CPU count.
. /harness/lib.sh

cd /sys/kernel/tracing || exit 1
dir=/tmp/load
rm -rf $dir
mkdir -p $dir/stress
log=$dir/log
: >$log
cpus=$(nproc)
name() { echo "cpus$cpus-$1"; }
# The phase reached, with the guest's uptime, on the results channel as it
# happens: the console is quiet, and on a debug kernel a phase can take
# many minutes.
phase() { echo "@phase $(name "$1") at $(cut -d. -f1 /proc/uptime) s" >&3; }
secs=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^load_seconds=\([0-9][0-9]*\)$/\1/p')
secs=${secs:-600}
KPROBES=2000
UPROBES=1000
case $(uname -m) in
aarch64) SYS=__arm64_sys ;;
x86_64) SYS=__x64_sys ;;
esac
STRESS=/usr/bin/stress-ng
LIBC=$(ldd $STRESS | awk '$1 ~ /^libc\.so/ { print $3 }')
kplist=/sys/kernel/debug/kprobes/list
# bpftrace's wildcards attach a probe each through perf where the kernel
# has no kprobe_multi: one file descriptor each.
export BPFTRACE_MAX_PROBES=1024 BPFTRACE_MAX_BPF_PROGS=1024
ulimit -n 8192

echo 0 >events/enable
echo >dynamic_events
echo >trace
echo >error_log
kprobes_before=$(wc -l <$kplist)
links() { bpftool link show 2>/dev/null | grep -c '^[0-9][0-9]*:'; }
links_before=$(links)
echo "$cpus CPUs, $secs s of load; kprobes listed before: $kprobes_before, BPF links: $links_before" >>$log

# --- The kprobe events ------------------------------------------------

phase define

# Function sizes from the kernel's symbol table (vmlinux, on the
# kernel-files disk at /boot): the instruction in the middle of each.
# Names that two functions share are left out: a probe on one is refused.
vmlinux=/boot/vmlinux-$(uname -r)
if [ -r "$vmlinux" ]; then
	readelf -sW "$vmlinux" | awk '$4 == "FUNC" && $3 > 0 { n[$8]++; s[$8] = $3 }
		END { for (f in n) if (n[f] == 1) print f, s[f] }' >$dir/sizes
else
	echo "no $vmlinux: no probe inside a function" >>$log
	: >$dir/sizes
fi
# The candidates: the traceable functions of the kernel itself (not of a
# module), each once, in a fixed order whatever their listing's. A hash of
# its name puts each in one of BUCKETS (taken in turn, so that the probes
# spread over the whole kernel) and gives it its kind. Neither depends on
# the other functions, so two kernels that list different functions, or
# refuse different probes, still probe the functions they share the same
# way, and their runs compare probe for probe.
BUCKETS=8
sed -n 's/^\([A-Za-z_][A-Za-z0-9_.]*\)$/\1/p' available_filter_functions |
	sort | uniq -u >$dir/functions
total=$(wc -l <$dir/functions)
# Each line: NAME SIZE BUCKET KIND (0 and 1 entry, 2 return, 3 inside).
awk -v b=$BUCKETS 'BEGIN { for (i = 33; i < 127; i++) ord[sprintf("%c", i)] = i }
	FILENAME == ARGV[1] { s[$1] = $2; next }
	{
		h = 0
		for (i = 1; i <= length($1); i++)
			h = (h * 31 + ord[substr($1, i, 1)]) % 2147483629
		print $1, ($1 in s) ? s[$1] : 0, h % b, int(h / b) % 4
	}' $dir/sizes $dir/functions >$dir/candidates

# inner FUNCTION SIZE: define load/kN on an instruction in the middle of
# the function. arm64's are four bytes each; x86's are found by trying:
# an offset inside an instruction is refused.
inner() {
	local f=$1 size=$2 off tries
	((size >= 16)) || return 1
	case $(uname -m) in
	aarch64)
		off=$((size / 2 & ~3))
		echo "p:load/k$k $f+$off a0=$A0" >>kprobe_events 2>/dev/null
		;;
	*)
		off=$((size / 2))
		for ((tries = 0; tries < 15 && off < size; tries++, off++)); do
			echo "p:load/k$k $f+$off a0=$A0" >>kprobe_events 2>/dev/null && return 0
		done
		return 1
		;;
	esac
}

k=0
refused=0
kind=()
entries=0
returns=0
inners=0
for ((pass = 0; pass < BUCKETS && k < KPROBES; pass++)); do
	awk -v p=$pass '$3 == p' $dir/candidates >$dir/pass
	while read -r f size _ kd && ((k < KPROBES)); do
		case $kd in
		0 | 1)
			echo "p:load/k$k $f a0=$A0 a1=$A1" >>kprobe_events 2>/dev/null &&
				entries=$((entries + 1))
			;;
		2)
			echo "r:load/k$k $f rv=$RRET" >>kprobe_events 2>/dev/null &&
				returns=$((returns + 1))
			;;
		3)
			inner "$f" "$size" && inners=$((inners + 1))
			;;
		esac
		if [ -d events/load/k$k ]; then
			k=$((k + 1))
		else
			refused=$((refused + 1))
			kind[kd]=$((${kind[kd]:-0} + 1))
		fi
	done <$dir/pass
done
echo "kprobe events: $k ($entries entries, $returns returns, $inners inside a function), $refused refused (entries $((${kind[0]:-0} + ${kind[1]:-0})), returns ${kind[2]:-0}, inside ${kind[3]:-0}), $((k + refused)) tried of $total functions" >>$log

# --- The uprobe events ------------------------------------------------

# The C library's exported functions (FUNC, not the IFUNC resolvers), each
# address once, at its file offset: the executable PT_LOAD segment's
# address and offset convert it.
# (No process substitution here: the guest's /dev has no /dev/fd.)
readelf -lW "$LIBC" |
	awk '$1 == "LOAD" && ($7 ~ /E/ || $8 == "E") { print $2, $3, $5; exit }' >$dir/libc-text
read -r loff lva lsz <$dir/libc-text
readelf -W --dyn-syms "$LIBC" | awk '$4 == "FUNC" && $7 != "UND" && $3 > 0 { print $2 }' |
	sort -u | while read -r a; do
		a=$((16#$a))
		((a >= lva && a < lva + lsz)) && printf '0x%x\n' $((a - lva + loff))
	done >$dir/libc-all
# Every other one first, so that the ones taken spread over the library.
{ awk 'NR % 2' $dir/libc-all; awk 'NR % 2 == 0' $dir/libc-all; } >$dir/libc-offsets
u=0
urefused=0
while read -r off && ((u < UPROBES)); do
	if echo "p:loadu/u$u $LIBC:$off a0=$A0" >>uprobe_events 2>/dev/null; then
		u=$((u + 1))
	else
		urefused=$((urefused + 1))
	fi
done <$dir/libc-offsets
echo "uprobe events: $u on $LIBC, $urefused refused, of $(wc -l <$dir/libc-offsets) functions" >>$log


# Enabled: a uprobe's instruction is checked when it is first written into
# a process, and one that cannot be stepped leaves its event disabled.
echo 1 >events/load/enable 2>>$log
echo 1 >events/loadu/enable 2>>$log
kon=$(grep -lx 1 events/load/k*/enable | wc -l)
uon=$(grep -lx 1 events/loadu/u*/enable | wc -l)
echo "enabled: $kon kprobe events, $uon uprobe events" >>$log
[ "$k" = $KPROBES ] && [ "$u" = $UPROBES ] && ((inners > 0 && returns > 0)) &&
	[ "$kon" = "$k" ] && [ "$uon" = "$u" ]
verdict_of $? load "$(name probes-defined)" $log

# --- bpftrace ---------------------------------------------------------

# Ten programs, each counting its probes' hits in @n: kprobes and
# kretprobes on one function and on a wildcard (kprobe_multi where the
# kernel has it), uprobes and uretprobes on the C library.
programs=(
	'kprobe:vfs_read { @n = count(); }'
	'kretprobe:vfs_write { @n = count(); @h = hist(retval); }'
	'kprobe:do_sys_openat2 { @n = count(); @c[comm] = count(); }'
	'kprobe:vfs_* { @n = count(); }'
	"kretprobe:${SYS}_getpid { @n = count(); }"
	"uprobe:$LIBC:malloc { @n = count(); @s = sum(arg0); }"
	"uretprobe:$LIBC:free { @n = count(); }"
	'kprobe:wake_up_new_task { @n = count(); }'
	"kprobe:${SYS}_sched_yield { @n = count(); }"
	'kretprobe:shmem_* { @n = count(); }'
)
phase bpftrace
bpids=()
for i in "${!programs[@]}"; do
	bpftrace -e "${programs[$i]}" >$dir/bt$i.out 2>&1 &
	bpids[i]=$!
done
# Each prints "Attaching N probes..." once its program is compiled, then
# attaches: wait for the line, and for the attaching to settle.
for i in "${!programs[@]}"; do
	for ((t = 0; t < 600; t++)); do
		grep -q '^Attaching' $dir/bt$i.out && break
		kill -0 "${bpids[i]}" 2>/dev/null || break
		sleep 1
	done
done
sleep 30
# How the kernel armed them, the optimizer done by now: through ftrace, a
# branch to a detour, or a breakpoint.
echo "kprobes/list: $(grep -c '\[FTRACE\]' $kplist) [FTRACE], $(grep -c '\[OPTIMIZED\]' $kplist) [OPTIMIZED], of $(wc -l <$kplist)" >>$log

# --- The load ---------------------------------------------------------

# stress-ng stops its stressors when the time is up, and each stops at its
# next check: 5 minutes allowed for that, 30 on a kernel with KASAN, where
# every access is checked in software. A minute before stress-ng is killed,
# its processes and where each sleeps go to its log, for a hang. The
# watchdog's sleep is its child: killed with it, it is not left behind.
grace=300
has_config KASAN && grace=1800
phase stress-ng
t0=$(cut -d. -f1 /proc/uptime)
(
	sleep $((secs + grace - 60)) &
	nap=$!
	trap 'kill $nap 2>/dev/null; exit 0' TERM
	wait $nap
	{
		echo "--- still running at $((secs + grace - 60)) s:"
		ps -eo pid,ppid,stat,etime,wchan:32,comm | awk 'NR == 1 || /stress/'
		for p in $(pgrep stress-ng); do
			echo "--- $p $(cat /proc/$p/comm 2>/dev/null):"
			cat /proc/$p/stack 2>/dev/null
		done
	} >$dir/stress.hang 2>&1
) &
watch=$!
timeout -k 30 $((secs + grace)) $STRESS --temp-path $dir/stress --timeout "${secs}s" \
	--metrics-brief \
	--dentry 1 --dir 1 --open 1 --rename 1 --hdd 1 --hdd-bytes 8M \
	--getdent 1 --fstat 1 \
	--fork 1 --switch 1 --yield 1 --futex 1 --sem 1 --clone 1 \
	--vm 1 --vm-bytes 64M --malloc 1 --mmap 1 --mmap-bytes 16M --pipe 1 \
	--syscall 1 --get 1 --sysinfo 1 >$dir/stress.out 2>&1
stress=$?
kill $watch 2>/dev/null
wait $watch 2>/dev/null
[ -s $dir/stress.hang ] && cat $dir/stress.hang >>$dir/stress.out
echo "@time $(name stress-ng) $(($(cut -d. -f1 /proc/uptime) - t0))" >&3
grep -q 'successful run completed' $dir/stress.out && [ $stress = 0 ]
verdict_of $? load "$(name stress-ng)" $dir/stress.out

# bpftrace prints its maps and exits on SIGINT.
phase bpftrace-exit
bt_bad=0
for i in "${!programs[@]}"; do
	kill -INT "${bpids[i]}" 2>/dev/null
	wait "${bpids[i]}"
	st=$?
	n=$(sed -n 's/^@n: \([0-9]*\)$/\1/p' $dir/bt$i.out)
	echo "bpftrace '${programs[$i]}': exit $st, @n ${n:-none}" >>$log
	if [ "$st" != 0 ] || [ "${n:-0}" -le 0 ]; then
		bt_bad=$((bt_bad + 1))
		tail -20 $dir/bt$i.out >>$log
	fi
done
[ $bt_bad = 0 ]
verdict_of $? load "$(name bpftrace)" $log

# --- Every hit a record -----------------------------------------------

# No process but this shell runs now. The uprobe events go first: while
# this shell is in the write that disables them, no process runs user
# code, so none is hit between its flag going and its breakpoint. Then
# every kprobe is disarmed at once (the events keep their flag): no hit
# can be counted after its event stops recording. A return probe's
# instance taken before still fires at its return, and records: the
# counts are read until two readings agree.
phase count
echo 0 >events/loadu/enable
echo 0 >/sys/kernel/debug/kprobes/enabled
snapshot() {
	awk 'FILENAME ~ /kprobe_profile$/ && $1 ~ /^k[0-9]+$/ { h += $2; m += $3 }
	     FILENAME ~ /uprobe_profile$/ && $2 ~ /^u[0-9]+$/ { u += $3 }
	     FILENAME ~ /stats$/ && /^(entries|overrun|read events):/ { w += $NF }
	     FILENAME ~ /stats$/ && /^(commit overrun|dropped events):/ { lost += $NF }
	     END { print h + 0, m + 0, u + 0, w + 0, lost + 0 }' \
		kprobe_profile uprobe_profile per_cpu/cpu*/stats
}
s1=$(snapshot)
for ((t = 0; t < 10; t++)); do
	s2=$(snapshot)
	[ "$s1" = "$s2" ] && break
	s1=$s2
	sleep 1
done
read -r khits kmissed uhits written lost <<<"$s1"
echo "kprobe hits $khits (missed $kmissed), uprobe hits $uhits, records $written, lost $lost; readings agreed: $([ "$s1" = "$s2" ] && echo yes || echo no)" >>$log
# Where the missed hits were: the five events that missed the most, with
# what each probes. A probe is missed when it is hit while this CPU runs
# another's handlers, so these are mostly functions the hit path calls.
awk '$1 ~ /^k[0-9]+$/ && $3 > 0 { print $3, $1 }' kprobe_profile |
	sort -rn | head -5 | while read -r m e; do
		echo "missed $m: $(awk -v e="$e" '$1 ~ ("/" e "$") { print $1, $2; exit }' kprobe_events)"
	done >>$log
echo 0 >events/load/enable
echo 1 >/sys/kernel/debug/kprobes/enabled
((khits > 0 && uhits > 0)) && [ "$s1" = "$s2" ] && [ "$lost" = 0 ] &&
	[ $((khits + uhits)) = "$written" ]
verdict_of $? load "$(name every-hit-recorded)" $log

# --- Nothing left -----------------------------------------------------

phase remove
echo >dynamic_events
left_events=$(cat kprobe_events uprobe_events | wc -l)
kprobes_back_to "$kprobes_before"
kprobes_after=$(wc -l <$kplist)
links_after=$(links)
bt_left=$(pgrep -c bpftrace)
echo "after: $left_events events, kprobes listed $kprobes_after, BPF links $links_after, bpftrace running ${bt_left:-0}" >>$log
[ "$left_events" = 0 ] && [ "$kprobes_after" = "$kprobes_before" ] &&
	[ "$links_after" = "$links_before" ] && [ "${bt_left:-0}" = 0 ] &&
	[ ! -d events/load ] && [ ! -d events/loadu ]
verdict_of $? load "$(name nothing-left)" $log

# --- Nothing leaked ---------------------------------------------------

# Where kmemleak runs from boot (the debug kernel): what the 3,000 events,
# their probes and the BPF programs allocated is freed.
if kmemleak_on; then
	phase leaks
	kmemleak_report $dir/leaks && ! grep -q '^unreferenced object' $dir/leaks
	verdict_of $? load "$(name no-leak)" $dir/leaks
fi

log_file load "$(name summary)" $log
exit 0
