#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: for each guest architecture (GUESTS, by default arm64 and
# x86_64), build the kernel, boot it and run the guest suites; run the
# host's own tests once; judge everything against the expectations. Each
# guest's report ends with its totals, then the sum of all of them.
. "$(dirname "$0")/../../lib.sh"

GUESTS=${GUESTS:-arm64 x86_64}
out=$BUILD/check-$KERNEL$VARIANT
mkdir -p "$out"
rc=0

# The tests of the host, which no guest's kernel changes.
host=$out/host.results
: >"$host"
for t in "$HARNESS/suites/harness/selftest.sh" "$HARNESS"/suites/host/*-test.sh; do
	[ -x "$t" ] && { "$t" >>"$host" 2>&1 || true; }
done
"$HARNESS/report.py" --no-total host "$KERNEL" "$host" | tee "$out/host.report" || rc=1

for guest in $GUESTS; do
	export GUEST=$guest
	# lib.sh's per-guest settings, for this guest (its own KDIR too).
	KDIR=
	. "$HARNESS/lib.sh"
	results=$LOGS/boot.results
	mkdir -p "$LOGS"
	: >"$results"
	if ! { "$HARNESS/build/assemble.sh" && "$HARNESS/build/build.sh" &&
	       "$HARNESS/build/initramfs.sh"; } >"$LOGS/prepare.log" 2>&1; then
		cat "$LOGS/prepare.log" >&2
		verdict guest FAIL build >>"$results"
		{ echo "@log guest build"; tail -60 "$LOGS/prepare.log"; echo "@endlog"; } >>"$results"
	else
		grep -E '^(config|  CONFIG_|build:)' "$LOGS/prepare.log" >&2 || true
		start=$(date +%s)
		if "$HARNESS/guest/boot.sh" check "${CHECK_TIMEOUT:-2400}" >"$LOGS/check.out" 2>"$LOGS/boot.err"; then
			verdict guest PASS boot-and-run >>"$results"
		else
			verdict guest FAIL boot-and-run >>"$results"
			{ echo "@log guest boot-and-run"; cat "$LOGS/boot.err"; tail -60 "$LOGS/check.console"; echo "@endlog"; } >>"$results"
		fi
		say "check: the $guest guest ran in $(($(date +%s) - start)) s"
	fi
	"$HARNESS/report.py" --no-total "$guest" "$KERNEL" "$LOGS/check.results" "$results" |
		tee "$out/$guest.report" || rc=1
done

# The sum over the host and every guest: the line CI reads.
echo
for g in host $GUESTS; do
	tail -n 1 "$out/$g.report"
done
awk 'END { print p " passed, " f " failed, " s " skipped" }
     { p += $(NF - 5); f += $(NF - 3); s += $(NF - 1) }' \
	< <(for g in host $GUESTS; do tail -n 1 "$out/$g.report"; done)
exit $rc
