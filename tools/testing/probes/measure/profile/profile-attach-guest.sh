#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of `make profile-attach`, whose debugger (profile.sh attach
# on the host) steps some of these system calls, all made on CPU 0, the
# CPU whose context perf installs the kprobe perf events in (so that the
# install runs in the stepped call, not in another CPU's interrupt):
#   1. one BPF program attached to 400 traceable functions (each one a
#      kprobe event may be defined on) through a kprobe perf event each,
#      as make bench's attach through perf does (progs/bpf_attach_many.c),
#      then detached;
#   2. 300 kprobe events on as many functions, each event's enable file
#      looked up, then written one after another three times, each time
#      announced by getpgid(K) (write_lines' WRITE_LINES_MARK): 1 to
#      enable (K = 1), 1 again, which arms nothing (K = 2), 0 to disable
#      (K = 3).
. /harness/lib.sh
cd /sys/kernel/tracing
clean_slate
grep -v -e __ -e '\.' -e '\[' available_filter_functions | awk '!seen[$1]++ { print $1 }' |
	grep -v -x -E 'arch_cpu_idle|default_idle|rcu_.*|migrate_(disable|enable)|preempt_count_(add|sub)|bpf_.*' |
	head -n 500 >/tmp/candidates
# Only functions a kprobe may sit on: a stepped open that fails is no
# attach's cost.
while read -r f; do
	echo "p:check/f $f" >>kprobe_events 2>/dev/null || continue
	echo "-:check/f" >>kprobe_events
	echo "$f"
done </tmp/candidates | head -n 400 >/tmp/funcs
taskset 1 /harness/progs/bpf_attach_many perf /tmp/funcs >&3 2>&1
head -n 300 /tmp/funcs | awk '{ printf "p:bench/p%d %s\n", NR, $1 }' >/tmp/defs
/harness/progs/write_lines kprobe_events </tmp/defs >/dev/null
for e in events/bench/*/enable; do echo "$e"; done >/tmp/enables
k=1
for text in 1 1 0; do
	sleep 1
	WRITE_LINES_MARK=$k taskset 1 /harness/progs/write_lines -to-each $text </tmp/enables >&3
	k=$((k + 1))
done
clean_slate
