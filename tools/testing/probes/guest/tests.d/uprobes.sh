#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# uprobe events on a user program (progs/uprobe_target.S): probes on a BL,
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
