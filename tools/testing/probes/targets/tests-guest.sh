#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make tests`' guest job: the project's guest tests (tests/guest/,
# /harness/tests.d/ here) alone, for work on one of them: those named by
# tests=NAME[,NAME...] on the kernel command line, or all; a test whose
# "# requires:" this guest lacks reports one SKIP (lib.sh's run_guest_test).
. /harness/lib.sh
names=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^tests=//p' | tr , ' ')
[ -n "$names" ] || names=$(cd /harness/tests.d && ls | tr "\n" " ")
# lockdown locks the kernel down for good: it goes last.
case " $names " in
*" lockdown "* | *" lockdown.sh "*)
	names="$(echo "$names" | tr ' ' '\n' | grep -v '^lockdown' | tr '\n' ' ') lockdown" ;;
esac
for t in $names; do
	run_guest_test "/harness/tests.d/${t%.sh}.sh"
done
