#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: arm64 uprobe events on user programs: BL, LDR literal, ADD, TBZ, return, strings
# requires: arch:aarch64 uprobe_events
# uprobe events on user programs (progs/arm64/): probes on a BL,
# an LDR literal, the ADD after it and a TBZ, a return probe, and a string
# argument on a page the program never touches. The
# program must still compute right, and each event must show, in order, the
# values of its ten hits.
. /harness/lib.sh
# arm64's own backend: other guests test theirs with ftracetest.
[ "$(uname -m)" = aarch64 ] || exit 0
prog=/harness/progs/uprobe_target
cd /sys/kernel/tracing

off() { sed -n "s/^\([0-9a-fx]*\) $1\$/\1/p" "$prog.syms"; }

# check NAME EVENT: the EVENT's arguments must be the lines of /tmp/EVENT.
check() {
	grep " $2: " trace | sed "s/.* $2: ([^)]*) *//" >/tmp/got
	if cmp -s /tmp/got "/tmp/$2"; then
		result uprobes PASS "$1"
	else
		result uprobes FAIL "$1"
		{ echo "want:"; cat "/tmp/$2"; echo "got:"; cat /tmp/got; } >/tmp/diff
		log_file uprobes "$1" /tmp/diff
	fi
}

echo 0 >events/enable
echo >trace
echo >uprobe_events
echo "p:uprobes/u_bl $prog:$(off probe_bl) i=%x0" >>uprobe_events
echo "p:uprobes/u_ldr $prog:$(off probe_ldr_literal) x0=%x0" >>uprobe_events
echo "p:uprobes/u_add $prog:$(off probe_add) x2=%x2 x1=%x1" >>uprobe_events
echo "p:uprobes/u_tbz $prog:$(off probe_tbz) x0=%x0" >>uprobe_events
echo "r:uprobes/u_ret $prog:$(off target) ret=%x0" >>uprobe_events
echo "p:uprobes/u_str $prog:$(off probe_untouched) s=+0(%x21):string" >>uprobe_events
echo 1 >events/uprobes/enable
$prog
rc=$?
echo 0 >events/uprobes/enable

if [ $rc -eq 0 ]; then
	result uprobes PASS program-computes-right
else
	result uprobes FAIL program-computes-right
fi

: >/tmp/u_bl; : >/tmp/u_ldr; : >/tmp/u_add; : >/tmp/u_tbz; : >/tmp/u_ret
i=0
while [ $i -lt 10 ]; do
	v=$((i + 0x100))
	printf 'i=0x%x\n' $i >>/tmp/u_bl
	printf 'x0=0x%x\n' $i >>/tmp/u_ldr
	printf 'x2=0x%x x1=0x100\n' $i >>/tmp/u_add
	printf 'x0=0x%x\n' $v >>/tmp/u_tbz
	printf 'ret=0x%x\n' $((v + (i & 1) * 2)) >>/tmp/u_ret
	i=$((i + 1))
done
check bl u_bl
check ldr-literal u_ldr
check add-after-literal u_add
check tbz u_tbz
check return u_ret
# A string on a page the task has not touched yet: read by faulting it in.
echo 's="paged in on demand"' >/tmp/u_str
check string-on-untouched-page u_str
echo >uprobe_events

# The push of the frame record and the frame pointer that open most
# functions (progs/arm64/uprobe_push.S), which uprobes simulate rather than
# step: the program checks the pushed record, x29 and SP itself, and the
# events the values the probes saw. Then a push that faults, with SP at the
# top of a read-only page: with the probe on it, the signal handler must
# report the same signal, si_code, addresses and registers as without.
push=/harness/progs/uprobe_push
poff() { sed -n "s/^\([0-9a-fx]*\) $1\$/\1/p" "$push.syms"; }
$push >/tmp/push.plain
rc_plain=$?
echo >trace
echo "p:uprobes/u_push $push:$(poff probe_push) fp=%x29" >>uprobe_events
echo "p:uprobes/u_fp $push:$(poff probe_fp) fp=%x29" >>uprobe_events
after=$(printf '0x%x' $(($(poff probe_fp) + 4)))
echo "p:uprobes/u_after $push:$after fp=%x29 sp=%sp" >>uprobe_events
echo "p:uprobes/u_fault $push:$(poff probe_push_fault) fp=%x29" >>uprobe_events
echo 1 >events/uprobes/enable
$push >/tmp/push.probed
rc_probed=$?
echo 0 >events/uprobes/enable

if [ $rc_plain -eq 0 ] && [ $rc_probed -eq 0 ]; then
	result uprobes PASS push-frame-computes-right
else
	result uprobes FAIL push-frame-computes-right
fi
: >/tmp/u_push
i=10
while [ $i -gt 0 ]; do
	printf 'fp=0x%x\n' $i >>/tmp/u_push
	i=$((i - 1))
done
cp /tmp/u_push /tmp/u_fp
check push-frame u_push
check frame-pointer u_fp
# After MOV x29, SP: x29 equals SP on each of the ten hits.
same=$(grep ' u_after: ' trace | awk '{ split($(NF - 1), f, "="); split($NF, s, "=");
	if (f[2] == s[2]) n++ } END { print n + 0 }')
if [ "$same" -eq 10 ]; then
	result uprobes PASS frame-pointer-is-sp
else
	result uprobes FAIL frame-pointer-is-sp
	grep ' u_after: ' trace >/tmp/u_after
	log_file uprobes frame-pointer-is-sp /tmp/u_after
fi
# The signal, si_code, si_addr, fault address, PC, SP, x29, x30.
od -An -tx8 -v /tmp/push.plain >/tmp/push.plain.txt
od -An -tx8 -v /tmp/push.probed >/tmp/push.probed.txt
want=" 000000000000000b 0000000000000002
 0000000000000ff0 0000000000000ff0
 0000000000000000 0000000000001000
 0000000000002929 0000000000003030"
faults=$(grep -c ' u_fault: ' trace)
if [ "$(cat /tmp/push.plain.txt)" = "$want" ] &&
   cmp -s /tmp/push.plain.txt /tmp/push.probed.txt && [ "$faults" -eq 1 ]; then
	result uprobes PASS push-frame-fault
else
	result uprobes FAIL push-frame-fault
	{ echo "want:"; echo "$want"; echo "unprobed:"; cat /tmp/push.plain.txt
	  echo "probed ($faults hits):"; cat /tmp/push.probed.txt; } >/tmp/push.diff
	log_file uprobes push-frame-fault /tmp/push.diff
fi
echo >uprobe_events
