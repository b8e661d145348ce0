#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bpftrace (trixie's 0.23) as people run it: BPF programs attached
# through the kprobe and uprobe PMUs of trace_kprobe.c and trace_uprobe.c.
# Every test runs a workload whose calls it knows (clients_target) and
# checks the values bpftrace reports against them.
. /harness/lib.sh

T=/harness/clients_target
out=/tmp/bpftrace.out
tracefs=/sys/kernel/tracing
# GETPPID: the getppid handler by the name its BTF has, which fentry and
# fexit need. GCC's x86_64 __x64_sys_getppid is an alias of
# __do_sys_getppid, the only name pahole gives the function; Clang folds
# __do_sys_getppid into it.
case $(uname -m) in
aarch64) SYS=__arm64_sys ;;
x86_64) SYS=__x64_sys ;;
esac
GETPPID=${SYS}_getppid
grep -q ' [tT] __do_sys_getppid$' /proc/kallsyms && GETPPID=__do_sys_getppid
LIBC=$(ldd $T | awk '$1 ~ /^libc\.so/ { print $3 }')
# The wildcard test attaches over a thousand probes, each with a program:
# above 0.23's default limits (1024 each; 0.17's were 512).
export BPFTRACE_MAX_PROBES=4096 BPFTRACE_MAX_BPF_PROGS=4096
# Each probe attached through the PMU is a file descriptor.
ulimit -n 8192

# bt ARGS...: bpftrace, bounded in time, its output and errors in $out.
bt() {
	timeout -k 5 600 bpftrace "$@" >$out 2>&1
}

# verdict NAME: PASS if the command before succeeded, else FAIL with $out.
verdict() { verdict_of $? bpftrace "$1" $out; }

# map NAME [KEY]: the value bpftrace printed for @NAME (or @NAME[KEY]).
map() {
	sed -n "s/^@$1${2:+\\[$2\\]}: \\(-\\?[0-9]*\\)\$/\\1/p" $out
}

# elapsed FROM TO: the seconds, to the millisecond, from one $EPOCHREALTIME
# stamp to a later one; false, printing nothing, without both.
elapsed() {
	local us
	[[ $1 =~ ^[0-9]+\.[0-9]{6}$ && $2 =~ ^[0-9]+\.[0-9]{6}$ ]] || return 1
	us=$((10#${2/./} - 10#${1/./}))
	((us >= 0)) || return 1
	printf '%d.%03d\n' $((us / 1000000)) $((us % 1000000 / 1000))
}

# kprobe: a system call's open, with arg0 (dfd, AT_FDCWD) and str() of
# the user's path: five opens of the workload's own path, each seen once.
bt -e 'kprobe:do_sys_openat2 /comm == "clients_target"/ {
	printf("open %d %s\n", (int32)arg0, str(uptr(arg1))); }' \
	-c "$T open /tmp/bt-open 5"
n=$(grep -cx 'open -100 /tmp/bt-open' $out)
[ "$n" = 5 ]
verdict kprobe-arg-str

# BTF: the open's struct open_how, read by its members' names.
bt -e 'kprobe:do_sys_openat2 /comm == "clients_target"/ {
	$how = (struct open_how *)arg2;
	if (str(uptr(arg1)) == "/tmp/bt-btf") {
		printf("how %x %o\n", $how->flags, $how->mode); } }' \
	-c "$T open /tmp/bt-btf 3"
# O_WRONLY | O_CREAT | O_TRUNC is 0x241 on both guests; the kernel adds
# O_LARGEFILE.
n=0
while read -r tag flags mode _; do
	[ "$tag" = how ] && [ "$mode" = 644 ] &&
		(((0x$flags & 0x241) == 0x241)) && n=$((n + 1))
done <$out
[ "$n" = 3 ]
verdict kprobe-btf-members

# kretprobe: what vfs_read returned, in a histogram: 20 reads of 4096
# bytes each fall in [4K, 8K); the dynamic loader's reads are smaller.
bt -e 'kretprobe:vfs_read /comm == "clients_target"/ { @ = hist(retval); }' \
	-c "$T read 20 4096"
n=$(sed -n 's/^\[4K, 8K) *\([0-9]*\) .*/\1/p' $out)
[ "$n" = 20 ]
verdict kretprobe-retval-hist

# A wildcard: one probe for each traceable vfs_, ext4_, jbd2_ and tcp_
# function that bpftrace lists (over a thousand on both guests), all
# attached at once, hit, then all detached. The workload's reads hit
# vfs_ and ext4_ functions; nothing in the guest talks TCP.
# How long the attaching and the detaching take is reported, not judged,
# as "@time bpftrace-NAME-attach SECONDS" and "@time bpftrace-NAME-detach
# SECONDS" in the results (to the millisecond), for the kernels side by
# side. Attach: from bpftrace's "Attaching N probes..." (printed once its
# programs are compiled, before it loads them) to the start of the
# workload, which bpftrace lets run once every probe is attached. Detach:
# from the end of the workload to bpftrace's own, its maps printed and
# every probe detached. The stamps are bash's $EPOCHREALTIME: bpftrace's
# line is stamped as it comes through a pipe (bpftrace flushes it), the
# workload's by a bash around it (whose own calls the filter leaves out).
# The workload also counts the kprobe BPF programs loaded meanwhile, and
# the kprobe_multi links, before its end (bpftool's calls are no part of
# the detaching).
WILDCARD='kprobe:vfs_*,kprobe:ext4_*,kprobe:jbd2_*,kprobe:tcp_*'
IFS=, read -ra patterns <<<"$WILDCARD"
want=$(for w in "${patterns[@]}"; do bpftrace -l "$w"; done 2>/dev/null | wc -l)
before=$(wc -l </sys/kernel/debug/kprobes/list)
cat >/tmp/bt-wild.sh <<WORKLOAD
echo "@start \$EPOCHREALTIME"
$T read 20 4096
echo "@progs \$(bpftool prog show | grep -c ': kprobe ')"
echo "@links \$(bpftool link show | grep -c ': kprobe_multi ')"
echo "@end \$EPOCHREALTIME"
WORKLOAD
# wildcard NAME PROGRAM: attach PROGRAM to the wildcard's probes, run the
# workload, detach; sets attached, progs, links and after for the
# verdict, and stamps to the attaching's start and end and the
# detaching's. bpftrace runs under the command in the array wrap, if any.
wrap=()
wildcard() {
	local t_run t_attaching t_exit t_start t_end attach detach compile
	t_run=$EPOCHREALTIME
	t_attaching=
	shopt -s lastpipe
	timeout -k 5 600 "${wrap[@]}" bpftrace -c "/bin/bash /tmp/bt-wild.sh" \
		-e "$WILDCARD /comm == \"clients_target\"/ $2" 2>&1 |
		while IFS= read -r line || [ -n "$line" ]; do
			[[ $line == "Attaching "* ]] && t_attaching=$EPOCHREALTIME
			printf '%s\n' "$line"
		done >$out
	t_exit=$EPOCHREALTIME
	shopt -u lastpipe
	attached=$(sed -n 's/^Attaching \([0-9]*\) probes.*/\1/p' $out)
	progs=$(sed -n 's/^@progs //p' $out)
	links=$(sed -n 's/^@links //p' $out)
	kprobes_back_to "$before"
	after=$(wc -l </sys/kernel/debug/kprobes/list)
	t_start=$(sed -n 's/^@start //p' $out)
	t_end=$(sed -n 's/^@end //p' $out)
	compile=$(elapsed "$t_run" "$t_attaching")
	attach=$(elapsed "$t_attaching" "$t_start") &&
		echo "@time bpftrace-$1-attach $attach" >&3
	detach=$(elapsed "$t_end" "$t_exit") &&
		echo "@time bpftrace-$1-detach $detach" >&3
	echo "listed $want, attached $attached, kprobe programs $progs, kprobe_multi links $links, kprobes before $before after $after" >>$out
	echo "seconds: to compile ${compile:-?}, attach ${attach:-?}, detach ${detach:-?}" >>$out
	stamps="$t_attaching $t_start $t_end $t_exit"
}
# A program for each probe, as bpftrace makes them for "probe": bpftrace
# 0.23 attaches each with a link of its own, a kprobe_multi link of one
# function where the kernel has them (fprobe), else a kprobe perf event.
wildcard wildcard '{ @[probe] = count(); }'
reads=$(map '' 'kprobe:vfs_read')
[ "$want" -ge 1000 ] && [ "$attached" = "$want" ] && [ "${progs:-0}" -ge "$want" ] &&
	[ "$reads" -ge 20 ] && [ "$after" = "$before" ]
verdict kprobe-wildcard
# One program for all of them, which bpftrace attaches through a
# kprobe_multi link (fprobe) for each pattern where the kernel has them:
# the same functions, no perf event and no program for each.
wildcard wildcard-multi '{ @ = count(); }'
reads=$(map '')
[ "${links:-0}" -ge 1 ] && [ "${progs:-10}" -lt 10 ] &&
	[ "$reads" -ge 20 ] && [ "$after" = "$before" ]
verdict kprobe-wildcard-multi

# The wildcard's attaching taken apart: the program for each probe again,
# bpftrace run under strace, which stamps and times each of its bpf(),
# perf_event_open(), ioctl() and close() calls. Loading and verifying the
# programs (BPF_PROG_LOAD), and libbpf's and bpftrace's questions about
# what they loaded, are the BPF core's work, the same code on both
# kernels; making each probe's link (BPF_LINK_CREATE, on a perf event
# where bpftrace opens one) is the probe's, and so is closing the links
# and perf events. Reported, not judged: "@time
# bpftrace-wildcard-strace-attach SECONDS" and -detach as above, strace's
# stops included; and for the calls made while attaching and while
# detaching, for each kind, "@time bpftrace-wildcard-strace-PHASE-KIND
# SECONDS", the sum of strace's times for them, with "@calls ... N".
# The verdict checks the tally: a program and a link for each probe, and
# every link and perf event closed.
wrap=(strace -f -ttt -T -o /tmp/bt-strace -e "trace=bpf,perf_event_open,ioctl,close")
wildcard wildcard-strace '{ @[probe] = count(); }'
wrap=()
# One "PHASE KIND CALLS SECONDS" line for each kind of call begun while
# attaching or detaching: bpf-COMMAND for bpf(); perf-open, perf-ioctl
# and perf-close for the calls on a perf event's descriptor, link-close
# for a BPF link's, other-ioctl and other-close for the rest.
read -r t_attaching t_start t_end t_exit <<<"$stamps"
awk -v a0="$t_attaching" -v a1="$t_start" -v d0="$t_end" -v d1="$t_exit" '
function tally(call, start, ret, t,   k, arg, phase) {
	# The first argument: the command of bpf(), or the descriptor.
	arg = call; sub(/^[a-z_0-9]+\(/, "", arg); sub(/[,)].*/, "", arg)
	if (call ~ /^bpf\(/) {
		k = "bpf-" arg
		if (arg == "BPF_LINK_CREATE" && ret >= 0) link[ret] = 1
	} else if (call ~ /^perf_event_open\(/) {
		k = "perf-open"
		if (ret >= 0) perf[ret] = 1
	} else if (call ~ /^ioctl\(/) {
		k = (arg in perf) ? "perf-ioctl" : "other-ioctl"
	} else if (call ~ /^close\(/) {
		if (arg in perf) { k = "perf-close"; delete perf[arg] }
		else if (arg in link) { k = "link-close"; delete link[arg] }
		else k = "other-close"
	} else
		return
	if (start >= a0 && start < a1) phase = "attach"
	else if (start >= d0 && start < d1) phase = "detach"
	else return
	n[phase " " k]++
	s[phase " " k] += t
}
{
	# PID SECONDS.MICROSECONDS CALL(ARGS) = RET <TIME>, or a call in two
	# lines, "CALL(ARGS <unfinished ...>" and "<... NAME resumed>ARGS)".
	pid = $1
	start = $2
	line = $0
	sub(/^[0-9]+ +[0-9.]+ +/, "", line)
	if (sub(/ <unfinished \.\.\.>$/, "", line)) {
		pending[pid] = start " " line
		next
	}
	if (match(line, /^<\.\.\. [a-z_0-9]+ resumed>/)) {
		if (!(pid in pending))
			next
		rest = substr(line, RLENGTH + 1)
		line = pending[pid]
		delete pending[pid]
		start = line; sub(/ .*/, "", start)
		sub(/^[^ ]+ /, "", line)
		line = line rest
	}
	if (!match(line, /<[0-9]+\.[0-9]+>$/))
		next
	t = substr(line, RSTART + 1, RLENGTH - 2)
	ret = line
	sub(/ <[0-9.]+>$/, "", ret)
	sub(/.*\) += /, "", ret)
	ret = (ret ~ /^-?[0-9]+/) ? ret + 0 : -1
	tally(line, start, ret, t)
}
END { for (k in n) printf "%s %d %.3f\n", k, n[k], s[k] }
' /tmp/bt-strace | sort >/tmp/bt-strace.sum
cat /tmp/bt-strace.sum >>$out
while read -r phase kind calls seconds; do
	echo "@time bpftrace-wildcard-strace-$phase-$kind $seconds" >&3
	echo "@calls bpftrace-wildcard-strace-$phase-$kind $calls" >&3
done </tmp/bt-strace.sum
# calls KIND: how many calls of KIND bpftrace made, attaching and
# detaching.
calls() {
	awk -v k="$1" '$2 == k { n += $3 } END { print n + 0 }' /tmp/bt-strace.sum
}
reads=$(map '' 'kprobe:vfs_read')
made=$(calls bpf-BPF_LINK_CREATE)
[ "$attached" = "$want" ] && [ "$made" -ge "$want" ] &&
	[ "$(calls bpf-BPF_PROG_LOAD)" -ge "$want" ] &&
	[ "$(calls link-close)" = "$made" ] &&
	[ "$(calls perf-close)" = "$(calls perf-open)" ] &&
	[ "$reads" -ge 20 ] && [ "$after" = "$before" ]
verdict kprobe-wildcard-strace
rm -f /tmp/bt-strace

# uprobe and uretprobe on a function of the binary: add3(i, 2, 3) for i
# in 0..99, so its arguments sum to 4950 and 200, its results to 5550.
bt -e "uprobe:$T:add3 { @n = count(); @a = sum(arg0); @b = sum(arg1); @c = sum(arg2); }
	uretprobe:$T:add3 { @r = sum(retval); }" -c "$T add 100"
[ "$(map n)" = 100 ] && [ "$(map a)" = 4950 ] &&
	[ "$(map b)" = 200 ] && [ "$(map c)" = 300 ] && [ "$(map r)" = 5550 ] &&
	grep -qx 'sum 5550' $out
verdict uprobe-binary

# uprobe and uretprobe on a shared library's function: libc's atoi, its
# argument a string of the process's memory, its result the number.
bt -e "uprobe:$LIBC:atoi /comm == \"clients_target\"/ { @s[str(arg0)] = count(); }
	uretprobe:$LIBC:atoi /comm == \"clients_target\"/ { @r = sum(retval); @n = count(); }" \
	-c "$T atoi 50"
[ -n "$LIBC" ] && [ "$(map s 4242)" = 50 ] &&
	[ "$(map n)" = 50 ] && [ "$(map r)" = 212100 ]
verdict uprobe-library

# override(): the system call's handler is on the error-injection list;
# while bpftrace runs, the workload's getppid calls fail with E2BIG and
# the handler does not run. A kprobe event on the same function, defined
# before, keeps its place and counts the calls after bpftrace has gone.
echo "p:clients/getppid ${SYS}_getppid" >>$tracefs/kprobe_events
echo 1 >$tracefs/events/clients/getppid/enable
bt --unsafe -e "kprobe:${SYS}_getppid /comm == \"clients_target\"/ { override(-7); }" \
	-c "$T getppid 100"
echo >$tracefs/trace
$T getppid 50 >>$out
echo 0 >$tracefs/events/clients/getppid/enable
events=$(grep -c 'clients_target-.* getppid:' $tracefs/trace)
echo "events after: $events" >>$out
grep -qx 'errors 100 errno 7' $out &&
	grep -qx 'errors 0 errno 0' $out && [ "$events" = 50 ]
verdict override
echo '-:clients/getppid' >>$tracefs/kprobe_events

# fentry and fexit (BPF trampolines, which ftrace calls directly) on the
# function that a kprobe and a kretprobe event probe at its entry: where the
# kernel arms entry probes through ftrace ([FTRACE] in kprobes/list) all
# four share the one ftrace site. Each must see every call: 100 of the
# workload's, the kretprobe with what getppid returned, as fexit has it.
echo "p:clients/fe $GETPPID" >>$tracefs/kprobe_events
echo "r:clients/fx $GETPPID rv=\$retval" >>$tracefs/kprobe_events
echo 1 >$tracefs/events/clients/enable
echo >$tracefs/trace
bt -e "fentry:$GETPPID /comm == \"clients_target\"/ { @e = count(); }
	fexit:$GETPPID /comm == \"clients_target\"/ { @x = count(); @r = max(retval); }" \
	-c "$T getppid 100"
grep getppid /sys/kernel/debug/kprobes/list >>$out
echo 0 >$tracefs/events/clients/enable
entries=$(grep -c 'clients_target-.* fe:' $tracefs/trace)
returns=$(grep -c 'clients_target-.* fx:' $tracefs/trace)
rv=$(sed -n 's/.*clients_target-.* fx:.* rv=\([0-9a-fx]*\).*/\1/p' $tracefs/trace | sort -u)
echo "kprobe event records: $entries entries, $returns returns, rv $rv" >>$out
[ "$(map e)" = 100 ] && [ "$(map x)" = 100 ] && [ "$entries" = 100 ] &&
	[ "$returns" = 100 ] && [ -n "$rv" ] && [ "$(printf '%d' "$rv")" = "$(map r)" ]
verdict fentry-fexit-with-kprobe-events
echo '-:clients/fe' >>$tracefs/kprobe_events
echo '-:clients/fx' >>$tracefs/kprobe_events

# Nothing of bpftrace's is left: its probes went with its file descriptors
# (their kprobes after the closes).
kprobes_back_to "$before"
[ -z "$(cat $tracefs/kprobe_events $tracefs/uprobe_events)" ] &&
	[ "$(wc -l </sys/kernel/debug/kprobes/list)" = "$before" ]
verdict nothing-left

exit 0
