#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of `make run`: the seed documents' walkthrough on this
# kernel, each step shown as a user would type it, with what they would see.
. /harness/lib.sh
cd /sys/kernel/tracing

step() { printf '\n==== %s\n' "$*"; }
show() { # command, shown then run by this shell (a fork would be traced)
	printf '# %s\n' "$*"
	eval "$*"
}
reset_tracing() {
	echo 0 >tracing_on
	echo 0 >events/enable
	echo >kprobe_events
	echo >trace
	echo 1 >tracing_on
}
# Print the trace without its comment header, so each step shows its lines.
trace_lines() { grep -v '^#' trace; }

forks() { # n: fork and wait n times from this shell
	i=0
	while [ $i -lt "$1" ]; do
		/bin/sh -c 'exit 0'
		i=$((i + 1))
	done
}

step "Function entry: do_sys_openat2, its dfd in $A0 and its path through $A1"
reset_tracing
show "echo 'p:myprobe do_sys_openat2 dfd=$A0 path=+0($A1):string' > kprobe_events"
show "echo 1 > events/kprobes/myprobe/enable"
show "cat /etc/passwd /etc/group > /dev/null"
show "echo 0 > events/kprobes/myprobe/enable"
show "cat events/kprobes/myprobe/format"
trace_lines | grep -E 'path="/etc/(passwd|group)"'

step "kprobe and kretprobe on kernel_clone, after three forks"
reset_tracing
show "echo 'p kernel_clone $A0 $A1 $A2 $A3 $A4 $A5' > kprobe_events"
show "echo 'r kernel_clone pid=$RRET' >> kprobe_events"
show "cat kprobe_events"
show "echo 1 > events/kprobes/enable"
forks 3
show "echo 0 > events/kprobes/enable"
trace_lines

step "Pointer dereference on do_wait, and \$retval"
reset_tracing
show "echo 'p:wait_p do_wait wo_type=+0($A0):u32 wo_flags=+4($A0):u32' > kprobe_events"
show "echo 'r:wait_r do_wait \$retval' >> kprobe_events"
show "echo 1 > events/kprobes/enable"
forks 2
show "echo 0 > events/kprobes/enable"
trace_lines

step "Probes at raw instruction addresses inside kernel_clone"
reset_tracing
# walkthrough.insns was made on the host from a disassembly of vmlinux:
# "OFFSET TEXT" for the instructions right after two calls, where $RRET holds
# what the callee returned.
base=$(grep -E ' [tT] kernel_clone$' /proc/kallsyms | cut -d' ' -f1)
echo "kernel_clone is at 0x$base (/proc/kallsyms); from the disassembly:"
cat /harness/walkthrough.disasm
while read -r off text; do
	low=$(printf '%08x' $((0x${base#????????} + off)))
	addr=${base%????????}$low
	show "echo 'p 0x$addr $RRET' >> kprobe_events"
done </harness/walkthrough.insns
show "echo 1 > events/kprobes/enable"
forks 3
show "echo 0 > events/kprobes/enable"
trace_lines
show "cat kprobe_profile"

step "A filter on one event: only the forks of the shell that runs this"
reset_tracing
show "echo 'p:fork_p kernel_clone' > kprobe_events"
show "echo 'r:fork_r kernel_clone pid=\$retval:s32' >> kprobe_events"
show "echo 'common_pid == $$' > events/kprobes/fork_r/filter"
show "echo 1 > events/kprobes/enable"
forks 2
(/bin/sh -c 'exit 0' &
 wait)
show "echo 0 > events/kprobes/enable"
trace_lines
show "cat kprobe_profile"
reset_tracing
