#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The ftracetest tests that the busybox guest cannot run, run here with
# Debian's dash as /bin/sh: add_remove_uprobe.tc probes the executable
# mapping of /bin/sh, which busybox-static maps from file offset 0.
. /harness/lib.sh

logdir=/tmp/ftracetest-userland
tests=test.d/dynevent/add_remove_uprobe.tc
cd /ftrace || exit
for t in $tests; do
	rm -rf $logdir
	./ftracetest -k -l $logdir "$t" >/tmp/ftracetest.out 2>&1
	status=$(sed -nE 's/.*\[(PASS|FAIL|UNRESOLVED|UNTESTED|UNSUPPORTED|XFAIL|UNDEFINED)\]$/\1/p' \
		$logdir/ftracetest.log | head -1)
	result userland-ftracetest "${status:-LOST}" "${t#test.d/}"
	if [ "$status" != PASS ]; then
		cat $logdir/*-log.* >>/tmp/ftracetest.out 2>/dev/null
		log_file userland-ftracetest "${t#test.d/}" /tmp/ftracetest.out
	fi
done

exit 0
