#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One of make check's repeated boots with kprobe_event= (targets/check.sh
# boots this BOOT_DIRS_BOOTS times): every event the command line defined
# must have its directory under events/. The events are created by an
# fs_initcall while tracefs sets up events/ from a work item; 7.3 left an
# event created in between without its directory (it still records, but
# nothing in tracefs reaches it), in about one boot in seven, so a single
# boot proves little.
. /harness/lib.sh
cd /sys/kernel/tracing || exit 1
log=/tmp/boot-dirs.log
events=$(sed -n 's|^[pr][0-9]*:kprobes/\([^ ]*\) .*|\1|p' kprobe_events)
missing=
for e in $events; do
	[ -f "events/kprobes/$e/enable" ] || missing="$missing $e"
done
{
	echo "# kprobe_events"; cat kprobe_events
	echo "# events without a directory:${missing:- none}"
} >$log
[ -n "$events" ] && [ -z "$missing" ]
verdict_of $? boot-dirs every-event-has-its-directory $log
