#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: BPF error injection (bpf_override_return()) through the kprobe PMU
# requires: /sys/bus/event_source/devices/kprobe
# BPF error injection (bpf_override_return()) through the perf kprobe PMU,
# as bpftrace's override() and BCC's inject use it: allowed only at the
# entry of a function on the error-injection list, where the caller sees
# the injected error on the breakpoint path and once the probe is
# optimized, and nowhere after the program is detached.
. /harness/lib.sh
cd /sys/kernel/tracing
[ -d /sys/bus/event_source/devices/kprobe ] || exit 0
clean_slate
bench_points
prog=/harness/progs/bpf_override

check() { # NAME CONDITION...: PASS if the condition holds
	name=$1
	shift
	if "$@"; then
		result bpf PASS "$name"
	else
		result bpf FAIL "$name"
		log_file bpf "$name" /tmp/bpf.out
	fi
}
says() { grep -qx "$1" /tmp/bpf.out; }
# The override took on every call while attached, optimized or not, and
# on none once detached.
injected() {
	says 'attach ok' && says 'breakpoint 5/5' && says 'detached 0/5' &&
		{ says 'optimized 5/5' || says 'optimized none'; }
}

$prog "$f" 0 5 >/tmp/bpf.out 2>&1
# A kernel without BPF, or without BPF_KPROBE_OVERRIDE, cannot load it.
says 'attach E38' && exit 0
check override-entry injected
# arm64's optimized probes: the override must survive the switch to the
# detour. With BTI in the kernel, the entry is a landing pad, which keeps
# its breakpoint.
# Where the entry is armed through ftrace instead, the override goes back
# through ftrace's saved registers (the probe list, which the program
# printed, may name the function by an alias).
if has_config KPROBES_ON_FTRACE; then
	check override-ftrace grep -q '\[FTRACE\]' /tmp/bpf.out
elif [ "$(uname -m)" = aarch64 ] && [ -e /proc/sys/debug/kprobes-optimization ] &&
   ! has_config ARM64_BTI_KERNEL; then
	check override-optimized says 'optimized 5/5'
fi

# The function's own events keep working after the program has gone.
echo "p:bpf/after $f" >>kprobe_events
echo 1 >events/bpf/after/enable
/harness/progs/getppid_loop 3 1 >/dev/null
echo 0 >events/bpf/after/enable
grep -c ' after: (' trace >/tmp/bpf.out
check override-then-event [ "$(cat /tmp/bpf.out)" -eq 3 ]
clean_slate

# The entry given as an address is the same place.
addr=$(ksym "$f")
$prog "0x$addr" 0 5 >/tmp/bpf.out 2>&1
check override-address injected

# Past the entry (at an instruction of the body), or a function not on
# the list: refused.
$prog "$f" "$body" 5 >/tmp/bpf.out 2>&1
check refused-past-entry says 'attach E22'
$prog vfs_read 0 5 >/tmp/bpf.out 2>&1
check refused-not-injectable says 'attach E22'

# A return probe is on the entry too, and upstream lets the program set
# the return value there: the caller sees it.
$prog -r "$f" 0 5 >/tmp/bpf.out 2>&1
check override-return injected

# bpf_get_func_ip() in a kprobe program at the entry is the function's
# address (bpftrace's func, BPF's get_func_ip_test), wherever the probe
# is armed: through ftrace on arm64, its site is past the address.
/harness/progs/bpf_count -i "$f" /harness/progs/getppid_loop 10 1 >/tmp/bpf.out 2>&1
check func-ip says "bpf_count: ip 0x$addr"

# Closed while another CPU keeps calling the function: a kprobe perf
# event's close disarms the probe and returns, waiting for no grace
# period; the program's last run there may end after close() returned,
# on memory that RCU must keep until then (the event, its kprobe, the
# program: were one freed early, make check-debug's KASAN would report
# it). Twenty rounds, each counting hits; the kernel reports nothing.
/harness/progs/getppid_loop 1000000000 1 >/dev/null &
busy=$!
rounds=0
for i in $(seq 20); do
	/harness/progs/bpf_count "$f" /harness/progs/getppid_loop 10 1 \
		>/tmp/bpf.out 2>&1 && rounds=$((rounds + 1))
done
kill $busy
wait $busy 2>/dev/null
echo "$rounds of 20 rounds counted hits" >>/tmp/bpf.out
check closed-while-hit [ "$rounds" = 20 ]

kprobes_gone
cat /sys/kernel/debug/kprobes/list >/tmp/bpf.out
check none-left [ ! -s /tmp/bpf.out ]
