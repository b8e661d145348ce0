#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: A kernel watchpoint with a handler of its own counts each write once, and the write completes
# requires: CONFIG_HAVE_HW_BREAKPOINT
# The harness's module hwbp_watch (tests/guest/modules/) watches its
# parameter "value" through register_wide_hw_breakpoint() with a handler
# of its own, as in-kernel users of watchpoints have, and counts the hits
# in "hits". An arm64 watchpoint exception is taken before the access
# completes; 7.3's arm64 steps over the access only for perf's default
# handler, so that for any other the write is taken again, forever: the
# CPU that makes it never returns, and the guest stalls at the first
# write. The series steps over a kernel watchpoint whatever its handler.
# x86's data breakpoints trap after the access: the same on both kernels.
. /harness/lib.sh
suite=hw-breakpoint
params=/sys/module/hwbp_watch/parameters
log=/tmp/hw-breakpoint.log
if ! modprobe hwbp_watch 2>$log; then
	result $suite FAIL module
	log_file $suite module $log
	exit 0
fi
# Where a kernel stalls, the results show how far the test went.
echo "@note $suite: module loaded, writing" >&3
for v in 1 2 3; do
	echo $v >$params/value
done
hits=$(cat $params/hits)
value=$(cat $params/value)
rmmod hwbp_watch
echo "hits $hits, value $value" >$log
[ "$hits" = 3 ] && [ "$value" = 3 ]
verdict_of $? $suite writes-counted-once
