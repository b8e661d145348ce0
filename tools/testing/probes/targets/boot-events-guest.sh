#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of make check's second boot: probe events the kernel
# command line defines (kprobe_event=, targets/check.sh gives it). They
# are created and enabled by an initcall, so they must record the
# initcalls init (pid 1) runs after it, before it executes /init. Entry
# and return probes on do_one_initcall(): each call init made must show
# up at both, the same number of times. (The records are told by pid:
# the comm a record prints is the one last saved for its pid, and may
# be "<...>" for the first.)
. /harness/lib.sh
cd /sys/kernel/tracing || exit 1
log=/tmp/boot-events.log
# Every event kprobe_event= defined, as kprobe_events lists it.
events=$(sed -n 's|^[pr][0-9]*:kprobes/\([^ ]*\) .*|\1|p' kprobe_events)
{
	echo "# cmdline"; cat /proc/cmdline
	echo "# kprobe_events"; cat kprobe_events
	echo "# kprobe_profile"; cat kprobe_profile
	echo "# enable"
	for e in $events; do
		echo "$e: $(cat events/kprobes/$e/enable 2>&1)"
	done
	echo "# buffer_size_kb"; cat buffer_size_kb
	echo "# trace (header)"; grep "^# entries-in-buffer" trace
	echo "# trace (head)"; grep -v "^#" trace | head -8
	echo "# trace (pid 1, last)"; grep -E '^ *[^ ]+-1 +\[' trace | tail -4
} >$log

entry_def=$(grep -c '^p:kprobes/bootentry do_one_initcall$' kprobe_events)
ret_def=$(grep -cE '^r[0-9]*:kprobes/bootret do_one_initcall ret=\$retval$' kprobe_events)
[ "$entry_def" = 1 ] && [ "$ret_def" = 1 ]
verdict_of $? boot-events listed $log

# Each enabled. (Whether each has its directory in tracefs is a race
# that one boot seldom loses: check.sh boots many times for it, with
# boot-dirs-guest.sh.)
ok=1
for e in $events; do
	[ -d "events/kprobes/$e" ] || continue
	[ "$(cat "events/kprobes/$e/enable")" = 1 ] || { ok=1; break; }
	ok=0
done
[ "$ok" = 0 ]
verdict_of $? boot-events enabled $log

entries=$(grep -cE '^ *[^ ]+-1 +\[.* bootentry: \(do_one_initcall\+0x[0-9a-f]+/0x[0-9a-f]+\)$' trace)
returns=$(grep -cE '^ *[^ ]+-1 +\[.* bootret: \([a-z_0-9.]+\+0x[0-9a-f]+/0x[0-9a-f]+ <- do_one_initcall\) ret=' trace)
echo "# init's records: $entries at the entry, $returns at the return" >>$log
[ "$entries" -gt 0 ] && [ "$entries" = "$returns" ]
verdict_of $? boot-events init-hits-before-init $log

hits=$(awk '$1 == "bootentry" { print $2 }' kprobe_profile)
[ "${hits:-0}" -ge "$entries" ]
verdict_of $? boot-events profile-counts-them $log

# Nothing overwritten: kprobe_event= gives the ring buffer its full size
# at boot, as trace_event= does (7.3 left it at a page per CPU, and the
# boot's own records were the ones lost).
written=$(sed -n 's|^# entries-in-buffer/entries-written: \([0-9]*\)/\([0-9]*\) .*|\1 \2|p' trace)
[ -n "$written" ] && [ "${written% *}" = "${written#* }" ]
verdict_of $? boot-events no-record-overwritten $log
