#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: boot the kernel, run the guest suites, add the host's own
# tests, and judge everything against the expectations.
. "$(dirname "$0")/lib.sh"

host=$LOGS/host.results
mkdir -p "$LOGS"
: >"$host"

start=$(date +%s)
if "$HARNESS/boot.sh" check "${CHECK_TIMEOUT:-2400}" >"$LOGS/check.out" 2>"$LOGS/boot.err"; then
	echo "@result guest PASS boot-and-run" >>"$host"
else
	echo "@result guest FAIL boot-and-run" >>"$host"
	{ echo "@log guest boot-and-run"; cat "$LOGS/boot.err"; tail -60 "$LOGS/check.console"; echo "@endlog"; } >>"$host"
fi
say "check: guest ran in $(($(date +%s) - start)) s"
for t in "$HARNESS/selftest.sh" "$HARNESS"/host/*-test.sh; do
	[ -x "$t" ] && { "$t" >>"$host" 2>&1 || true; }
done

exec "$HARNESS/report.py" "$KERNEL" "$LOGS/check.results" "$host"
