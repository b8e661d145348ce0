#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: Values the newer argument forms record: $current, this_cpu_read(), BTF typecasts
# requires: kprobe_events
# What the newer argument forms record, each checked against a value the
# record or the workload gives another way: $current's fields against
# the task the record names, a per-CPU structure's fields (with BTF)
# against the record's CPU and task, BTF typecasts (plain, nested,
# container_of's "(STRUCT,FIELD)", on a return value) against the name
# of the file read, or the same field reached without a cast. ftracetest
# checks they are accepted; the series' ftracetest cases check reads
# that fault (kprobe/kprobe_args_faulting_reads.tc), this_cpu_ptr() and
# this_cpu_read() without BTF (kprobe/kprobe_args_this_cpu.tc), and an
# entry argument at the return (kprobe/kretprobe_entry_arg_retval.tc).
. /harness/lib.sh
suite_start

show_state() {
	echo "kprobe_events:"; cat kprobe_events
	echo "error_log:"; cat error_log
	echo "trace:"; grep -v '^#' trace | head -20
}
check() { check_that fetch-values "$@"; }
# field NAME: the value of NAME= in each record of the trace, a line each.
field() { grep -v '^#' trace | sed -n "s/.* $1=\\([^ ]*\\).*/\\1/p"; }
# The task's pid and the CPU of each record, "PID CPU" a line.
task_cpu() {
	grep -v '^#' trace | sed -n 's/^ *[^ ]*-\([0-9]*\) *\[0*\([0-9][0-9]*\)\].*/\1 \2/p'
}
# run EVENT COMMAND...: enabled, run, disabled.
run() {
	ev=$1
	shift
	echo 1 >"events/vals/$ev/enable"
	"$@" >/dev/null 2>&1
	echo 0 >"events/vals/$ev/enable"
}

# The scheduler's per-CPU run queue, reached through this CPU's copy
# with BTF: its cpu member is the CPU the record shows, its curr the
# task. (this_cpu_ptr() and this_cpu_read() without BTF are ftracetest's
# kprobe/kprobe_args_this_cpu.tc.)
if has_config PROBE_EVENTS_BTF_ARGS; then
	echo "p:vals/cpu $f n=(rq)this_cpu_ptr(@runqueues)->cpu:s32 t=(rq)this_cpu_ptr(@runqueues)->curr c=\$current" \
		>>kprobe_events
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		run cpu taskset -c "$cpu" $loop 20 1
	done
	task_cpu | cut -d' ' -f2 >/tmp/fv.cpu
	field n >/tmp/fv.n
	cpus=$(sort -u /tmp/fv.cpu | wc -l)
	ok=false
	[ -s /tmp/fv.n ] && cmp -s /tmp/fv.cpu /tmp/fv.n &&
		[ "$cpus" -eq "$(nproc)" ] && ok=true
	check this-cpu-rq-cpu $ok
	field t >/tmp/fv.t
	field c >/tmp/fv.c
	ok=false
	[ -s /tmp/fv.t ] && cmp -s /tmp/fv.t /tmp/fv.c && ok=true
	check this-cpu-rq-curr $ok
fi
echo >trace
echo >kprobe_events

if ! has_config PROBE_EVENTS_BTF_ARGS; then
	for t in this-cpu-rq-cpu this-cpu-rq-curr current-fields btf-bitfields \
		 cast-file-name cast-nested cast-container-of cast-retval \
		 this-cpu-read-btf-type this-cpu-read-btf-value; do
		result fetch-values SKIP "$t"
	done
	exit 0
fi

# $current->pid and a typecast of $current: the pid the record is
# filed under; and the task's name.
echo "p:vals/cur $f pid=\$current->pid tgid=(task_struct)\$current->tgid c=\$current->comm:string" \
	>>kprobe_events
run cur $loop 10 1
pids=$(task_cpu | cut -d' ' -f1 | sort -u)
ok=false
[ -n "$pids" ] && [ "$(field pid | sort -u)" = "$pids" ] &&
	[ "$(field tgid | sort -u)" = "$pids" ] &&
	[ "$(field c | sort -u)" = '"getppid_loop"' ] && ok=true
check current-fields $ok
echo >trace
echo >kprobe_events

# A BTF bitfield, the last fixed field: the 1-bit in_execve, clear in a
# task past its execve(), and sched_reset_on_fork, clear for the loop.
# Each is cut in its own 4 bytes: the string after them, whose bytes
# start right past the last fixed field, must stay whole.
echo "p:vals/bits $f c=\$comm:string r=\$current->sched_reset_on_fork x=\$current->in_execve" \
	>>kprobe_events
run bits $loop 10 1
ok=false
[ "$(field c | sort -u)" = '"getppid_loop"' ] && [ "$(field r | sort -u)" = 0 ] &&
	[ "$(field x | sort -u)" = 0 ] && ok=true
check btf-bitfields $ok
echo >trace
echo >kprobe_events

# The name of the file vfs_read() reads, through a cast of its argument,
# the cast's own parentheses, and a cast of a cast.
echo 'p:vals/cast vfs_read a=(file)file->f_path.dentry->d_name.name:string b=(file)(file)->f_path.dentry->d_name.name:string c=(dentry)((file)file->f_path.dentry)->d_name.name:string' \
	>>kprobe_events
# dd reads with read(2); busybox cat would sendfile(2).
run cast dd if=/harness/lib.sh of=/dev/null bs=4096
n=$(grep -c 'a="lib.sh"' trace)
check cast-file-name [ "$n" -ge 1 ]
ok=false
[ "$n" -ge 1 ] && [ "$(grep -c 'a="lib.sh" b="lib.sh" c="lib.sh"' trace)" -eq "$n" ] &&
	ok=true
check cast-nested $ok
echo >trace
echo >kprobe_events

# container_of(), "(STRUCT,FIELD)": the next task's tasks.prev points at
# current's tasks member, whose task_struct is current: its pid is the
# pid the record is filed under.
echo "p:vals/cont $f pid=(task_struct,tasks)((task_struct,tasks)(\$current->tasks.next)->tasks.prev)->pid" \
	>>kprobe_events
run cont $loop 10 1
pids=$(task_cpu | cut -d' ' -f1 | sort -u)
ok=false
[ -n "$pids" ] && [ "$(field pid | sort -u)" = "$pids" ] && ok=true
check cast-container-of $ok
echo >trace
echo >kprobe_events

# A kretprobe's return value, cast: the file path_openat() opened.
echo 'r:vals/ret path_openat a=(file)$retval->f_path.dentry->d_name.name:string' \
	>>kprobe_events
run ret cat /harness/lib.sh
check cast-retval [ "$(grep -c 'a="lib.sh"' trace)" -ge 1 ]
echo >trace
echo >kprobe_events

# this_cpu_read() through a per-CPU pointer BTF types: the sample
# module's timer counts its fires in a per-CPU int, which its
# foo_timer_fn tracepoint records on each fire, in the same softirq just
# after a probe at the callback's entry.  The probe's value is that int,
# an s32 of 4 bytes, not a hex word that reaches past it: every fire the
# tracepoint records has its count in the probe's record just before it.
# The probe is enabled before and disabled after the tracepoint.
fires_match() {
	grep -v '^#' trace | awk '
		/ pcpu: / { c = $NF; next }
		/ foo_timer_fn: / { n++; if ($NF != c) bad++; c = "" }
		END { exit !(n >= 2 && !bad) }'
}
loaded=true
lsmod | grep -q '^trace_events_sample' || { loaded=false; modprobe trace-events-sample; }
echo 'p:vals/pcpu sample_timer_cb count=this_cpu_read((foo_timer_data,timer)t->counter)' \
	>>kprobe_events
check this-cpu-read-btf-type grep -q 'field:s32 count;.*size:4;.*signed:1;' \
	events/vals/pcpu/format
echo 1 >events/vals/pcpu/enable
echo 1 >events/sample-trace/foo_timer_fn/enable
# The timer fires once a second; a debug kernel is slow to enable events.
i=0
while [ "$(grep -c ' foo_timer_fn: ' trace)" -lt 2 ] && [ $i -lt 30 ]; do
	sleep 1
	i=$((i + 1))
done
echo 0 >events/sample-trace/foo_timer_fn/enable
echo 0 >events/vals/pcpu/enable
check this-cpu-read-btf-value fires_match
echo >trace
echo >kprobe_events
$loaded || rmmod trace_events_sample

clean_slate
