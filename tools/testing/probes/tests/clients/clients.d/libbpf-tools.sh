#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# libbpf-tools (trixie's 0.31: BCC's tools built on libbpf and CO-RE,
# /usr/sbin/NAME-libbpf) as people run them: started, given the time to
# attach, the workload run, then stopped with SIGINT. Every test runs a
# workload whose calls it knows (clients_target) and checks what the tool
# prints for it, value for value.
# funclatency -k and ksnoop attach kprobes and kretprobes through the
# kprobe PMU (trace_kprobe.c); funclatency by default takes fentry and
# fexit (BPF trampolines) where the kernel has them, and is run both ways;
# opensnoop, execsnoop and exitsnoop read tracepoints, and check the rest
# of the path (BTF, CO-RE, ring and perf buffers) on the same kernels. How
# each kernel function was hooked while a tool ran (its kprobes, its
# ftrace users) is kept in the results as the log "attach-types".
. /harness/lib.sh

suite=libbpf-tools
T=/harness/clients_target
out=/tmp/lt.out
err=/tmp/lt.err
wout=/tmp/lt.workload
hooks=/tmp/lt.hooks
log=/tmp/lt.log
attach=/tmp/lt.attach
tracefs=/sys/kernel/tracing
kprobes=/sys/kernel/debug/kprobes/list
: >$attach
: >$wout
before=$(wc -l <$kprobes)

# start TOOL ARGS...: TOOL-libbpf with ARGS in the background, bounded in
# time, its output line-buffered into $out (these tools print with printf,
# which a file would otherwise hold back until they exit) and its errors
# into $err; then wait, up to a minute, until it is ready: it has printed
# its header, which it does once its programs are attached, and it catches
# SIGINT, which the tools that read a buffer set up once it is open. Sets
# tpid (timeout's) and tool (the tool's own pid). False if it exited first
# or the minute ran out.
start() {
	local i
	cmd="$1-libbpf ${*:2}"
	: >$out
	: >$err
	: >$hooks
	tool=
	timeout -k 5 300 stdbuf -oL "/usr/sbin/$1-libbpf" "${@:2}" >$out 2>$err 3>&- &
	tpid=$!
	for ((i = 0; i < 600; i++)); do
		[ -n "$tool" ] || tool=$(pgrep -P $tpid)
		[ -n "$tool" ] && [ -s $out ] && catches_sigint "$tool" && return 0
		kill -0 $tpid 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# catches_sigint PID: PID has a handler for SIGINT (signal 2, bit 1 of
# SigCgt).
catches_sigint() {
	local key mask
	while read -r key mask; do
		[ "$key" = SigCgt: ] && (((0x$mask & 2) != 0)) && return 0
	done 2>/dev/null <"/proc/$1/status"
	return 1
}

# stop: SIGINT to the tool, which then prints what it has and leaves, and
# wait for it (timeout's SIGKILL 5 s after, if it does not): true if it
# left with status 0.
stop() {
	local rc
	kill -INT "${tool:-$tpid}" 2>/dev/null
	wait "$tpid"
	rc=$?
	tpid=
	tool=
	return $rc
}

# until_seen COUNT REGEX: wait, up to 20 s, until the tool has printed
# COUNT lines that match REGEX: the events of the workload, which it prints
# as it reads them from its buffer, and of which it reads no more once it
# has its SIGINT.
until_seen() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ "$(grep -cE "$2" $out)" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# paused ARGS...: the workload with ARGS, started stopped (its "stop"
# command): its dynamic loader's calls are behind it and its command's
# ahead, so that a tool filtering on its pid sees the command's alone. Its
# output is appended to $wout, without the results' file descriptor (so
# that its first open returns 3). Sets wpid, and adds it to wpids, the
# workloads not waited for yet.
paused() {
	local i state
	$T stop "$@" >>$wout 2>&1 3>&- &
	wpid=$!
	wpids="$wpids $wpid"
	for ((i = 0; i < 100; i++)); do
		read -r _ _ state _ 2>/dev/null </proc/$wpid/stat
		[ "$state" = T ] && return 0
		sleep 0.1
	done
	return 1
}

# resume: let the paused workload run its command and wait for it; its
# exit status.
resume() {
	kill -CONT $wpid
	waited $wpid
}

# waited PID: wait for the workload PID, and drop it from wpids; its exit
# status.
waited() {
	local rc p rest=
	wait "$1"
	rc=$?
	for p in $wpids; do
		[ "$p" = "$1" ] || rest="$rest $p"
	done
	wpids=$rest
	return $rc
}

# reap: what a test that failed half-way left running: its workloads and
# the tool (those not waited for: the pid of one waited for may be
# another process's by now).
reap() {
	local p
	for p in $wpids $tool $tpid; do
		kill -KILL "$p" 2>/dev/null
	done
	wait 2>/dev/null
	wpids=
	tpid=
	tool=
}

# hook_state FUNC: how FUNC is hooked now, for the log: its kprobes (k
# or r, with [FTRACE] where the kprobe is armed through the function's
# ftrace site), its ftrace users (enabled_functions: a kprobe's ftrace_ops,
# a BPF trampoline's direct call) and the kprobe events of tracefs, where
# libbpf makes its kprobes when the kernel has no kprobe PMU.
hook_state() {
	echo "kprobes on $1 ($kprobes):"
	grep -E "^[0-9a-f]+ +[kr] +$1\\+" $kprobes
	echo "ftrace users of $1 ($tracefs/enabled_functions):"
	grep -E "^$1 " $tracefs/enabled_functions
	echo "$tracefs/kprobe_events:"
	cat $tracefs/kprobe_events
}

# has_kprobes FUNC KIND: the hook state shows a kprobe of that kind (k,
# r) on FUNC.
has_kprobes() { grep -qE "^[0-9a-f]+ +$2 +$1\\+" $hooks; }

# note_hooks NAME: this test's hook state, into the attach-types log.
note_hooks() { { echo "== $1: $cmd"; cat $hooks; } >>$attach; }

# The tools whose objects have a BPF_MAP_TYPE_CGROUP_ARRAY map, for their
# -c filter, which libbpf creates at load whether -c is given or not: the
# kernel has the map type only with CONFIG_CGROUPS.
cgroup_map_tools=" execsnoop funclatency exitsnoop "

# verdict NAME: PASS if the test before returned 0, else FAIL with the
# command, the tool's output and errors, the workload's output and the hook
# state; then clean up after it.
verdict() {
	local rc=$? t=${cmd%%-libbpf *}
	{
		echo "command: $cmd"
		if [[ $cgroup_map_tools == *" $t "* ]] && ! has_config CGROUPS; then
			echo "note: this kernel has no CONFIG_CGROUPS, and $t's object has a cgroup array map, which libbpf creates at load"
		fi
		echo "---- output"
		cat $out
		echo "---- errors"
		cat $err
		echo "---- workload's output"
		cat $wout
		echo "---- hooked while it ran"
		cat $hooks
	} >$log 2>&1
	verdict_of $rc $suite "$1" $log
	reap
	: >$wout
	cmd=
}

if [ ! -x /usr/sbin/opensnoop-libbpf ]; then
	result $suite FAIL installed
	exit 0
fi

# opensnoop -e -p: the workload's five opens of one path, each a line with
# the fd it returned (the one the workload printed: the lowest free), no
# error and the flags it gave (0.31's -e adds them alone: O_WRONLY |
# O_CREAT | O_TRUNC, 01101, as the system call's tracepoint has them,
# before the kernel adds O_LARGEFILE), and nothing else. Its header is its
# columns.
t_opensnoop() {
	local fd want i
	rm -f /tmp/lt-open
	paused open /tmp/lt-open 5 && start opensnoop -e -p $wpid && resume || return 1
	fd=$(sed -n 's/^fd //p' $wout)
	until_seen 5 ' /tmp/lt-open$'
	stop || return 1
	want=$(printf '%-6s %-16s %3s %3s %-8s %s\n' PID COMM FD ERR FLAGS PATH
	       for i in 1 2 3 4 5; do
		       printf '%-6d %-16s %3d %3d %08o %s\n' $wpid clients_target "$fd" 0 \
			       $((01101)) /tmp/lt-open
	       done)
	[ -n "$fd" ] && [ "$(sed 's/ *$//' $out)" = "$(sed 's/ *$//' <<<"$want")" ]
}
t_opensnoop
verdict opensnoop
rm -f /tmp/lt-open

# execsnoop -x: an exec that succeeds, the workload's, and one that fails,
# of a program that does not exist (ENOENT, -2: bash forks and tries it);
# each a line: the command name after the exec (bash's own when it failed),
# the pid, the parent (this shell), the return value and the path exec was
# given followed by the arguments after argv[0]. The lines of other
# processes (this script's own commands) are left out by pid.
t_execsnoop() {
	local ok bad want
	start execsnoop -x || return 1
	$T add 3 >>$wout 2>&1 3>&- &
	ok=$!
	wait $ok
	/harness/no-such-program one two >>$wout 2>&1 3>&- &
	bad=$!
	wait $bad
	until_seen 2 "^[^ ]+ +($ok|$bad) "
	stop || return 1
	want=$(printf '%-16s %-6d %-6d %3d %s\n' \
		clients_target $ok $$ 0 "$T add 3" \
		bash $bad $$ -2 "/harness/no-such-program one two" | sort)
	[ "$(awk -v a=$ok -v b=$bad '$2 == a || $2 == b' $out | sed 's/ *$//' | sort)" = "$want" ]
}
t_execsnoop
verdict execsnoop

# funclatency -p on vfs_read: the workload's 20 reads of /dev/zero, and
# no other, counted in its histogram of latencies (nanoseconds); its
# header once attached, its trailer after SIGINT. funclatency ARGS sets
# how it attaches.
t_funclatency() {
	local sum
	paused read 20 4096 && start funclatency "$@" -p $wpid vfs_read || return 1
	hook_state vfs_read >$hooks 2>&1
	resume || return 1
	stop || return 1
	sum=$(awk -F: '/^ *[0-9]+ -> [0-9]+ *:/ { split($2, f, " "); s += f[1] } END { print s + 0 }' $out)
	[ "$(sed -n 1p $out)" = "Tracing vfs_read.  Hit Ctrl-C to exit" ] &&
		grep -qE '^ +nsec +: count +distribution$' $out &&
		[ "$sum" = 20 ] &&
		[ "$(tail -n 1 $out)" = "Exiting trace of vfs_read" ]
	set -- $?
	echo "(the histogram's counts sum to $sum)" >>$out
	return "$1"
}
# -k: a kprobe and a kretprobe, through the kprobe PMU, whatever else the
# kernel offers; both must have been there while it ran.
t_funclatency -k && has_kprobes vfs_read k && has_kprobes vfs_read r
rc=$?
note_hooks funclatency-kprobe
(exit $rc)
verdict funclatency-kprobe
# As people run it: fentry and fexit where the kernel can attach them
# (a BPF trampoline on vfs_read's ftrace site), else the same kprobes.
t_funclatency
rc=$?
note_hooks funclatency-default
(exit $rc)
verdict funclatency-default

# ksnoop: do_sys_openat2's arguments by their BTF names, one a member
# reached through a pointer, and its return value, from a kprobe and a
# kretprobe: for each of the workload's four opens, a record at the entry,
# dfd AT_FDCWD and how->mode 0644, and one at the return, the fd. ksnoop
# finds the function's trace by the address bpf_get_func_ip() gives at the
# entry, which must be the function's own, as /proc/kallsyms has it.
# Its records span lines: they are joined, white space squeezed, the time
# and CPU fields dropped and the type casts of the values ("(int)-100")
# taken off; the order between records read from two CPUs' buffers is
# not the workload's, so they are compared as counts.
ksnoop_records() {
	sed 1d $out | tr -s ' \n' ' ' | sed 's/); */);\n/g' |
		sed -E 's/^ *[0-9]+ +[0-9]+ +//; s/= \([^)]*\)/= /g; s/ +$//' | grep . | sort | uniq -c
}
t_ksnoop() {
	local fd want got
	paused open /tmp/lt-ksnoop 4 &&
		start ksnoop -p $wpid trace 'do_sys_openat2(dfd,how->mode,return)' || return 1
	hook_state do_sys_openat2 >$hooks 2>&1
	echo "kallsyms: $(grep -E ' [tT] do_sys_openat2$' /proc/kallsyms)" >>$hooks
	resume || return 1
	fd=$(sed -n 's/^fd //p' $wout)
	until_seen 8 "^ *[0-9]+ +[0-9]+ +$wpid do_sys_openat2\\($"
	stop || return 1
	want=$(printf '%7d %s\n' \
		4 "$wpid do_sys_openat2( dfd = -100, how->mode = 420 );" \
		4 "$wpid do_sys_openat2( return = $fd );" | sort)
	got=$(ksnoop_records)
	[ "$(sed -n 1p $out)" = "$(printf '%16s %4s %8s %s' TIME CPU PID FUNCTION/ARGS)" ] &&
		[ -n "$fd" ] && [ "$got" = "$want" ]
	set -- $?
	printf '(its records, as compared:)\n%s\n' "$got" >>$out
	return "$1"
}
t_ksnoop
rc=$?
note_hooks ksnoop
(exit $rc)
verdict ksnoop
rm -f /tmp/lt-ksnoop

# exitsnoop: two exits of the workload, one by a status (2, its answer
# to an unknown command) and one by a signal (SIGKILL while stopped); each
# a line: the command name, pid, parent (this shell), thread (the pid), its
# age in seconds (two decimals, not checked) and how it ended.
t_exitsnoop() {
	local code killed want
	paused nosuch 1 || return 1
	code=$wpid
	paused getppid 1 && start exitsnoop || return 1
	killed=$wpid
	# Not a word from bash on the one killed ("Killed") on the console.
	{
		kill -CONT $code
		kill -KILL $killed
		waited $code
		waited $killed
	} 2>/dev/null
	until_seen 2 "^clients_target +($code|$killed) "
	stop || return 1
	want=$(printf '%s\n' "clients_target $code $$ $code code 2" \
		"clients_target $killed $$ $killed signal 9 (Killed)" | sort)
	[ "$(awk -v a=$code -v b=$killed '
		$2 != a && $2 != b { next }
		$5 !~ /^[0-9]+\.[0-9][0-9]$/ { print "age?", $0; next }
		{ s = $1 " " $2 " " $3 " " $4; for (i = 6; i <= NF; i++) s = s " " $i; print s }
	' $out | sort)" = "$want" ]
}
t_exitsnoop
verdict exitsnoop

# Nothing of the tools' is left: their kprobes went with their file
# descriptors (the last of which may be put by a worker, after the tool
# has gone), and libbpf made no kprobe event.
cmd="after the tools"
: >$err
: >$hooks
for ((i = 0; i < 100; i++)); do
	[ "$(wc -l <$kprobes)" = "$before" ] && break
	sleep 0.1
done
{ echo "kprobes before: $before, after: $(wc -l <$kprobes)"; cat $kprobes
  echo "kprobe_events:"; cat $tracefs/kprobe_events; } >$out
[ "$(wc -l <$kprobes)" = "$before" ] && ! grep -q libbpf_ $tracefs/kprobe_events
verdict nothing-left

log_file $suite attach-types $attach
exit 0
