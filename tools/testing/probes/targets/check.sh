#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: for each guest architecture (GUESTS, by default arm64 and
# x86_64), build the kernel, boot it and run the guest suites, then
# bpftrace's and libbpf-tools' on a Debian userland; run the host's own
# tests once; judge everything against the expectations. Each report ends
# with its totals, then the sum of all of them.
. "$(dirname "$0")/../settings.sh"

GUESTS=${GUESTS:-arm64 x86_64}
out=$BUILD/check-$KERNEL$VARIANT
mkdir -p "$out"
rc=0

# The tests of the host, which no guest's kernel changes.
host=$out/host.results
: >"$host"
for t in "$HARNESS/tests/harness/selftest.sh" "$HARNESS"/tests/host/*-test.sh; do
	[ -x "$t" ] && { "$t" >>"$host" 2>&1 || true; }
done
"$HARNESS/report.py" --no-total host "$KERNEL" "$host" | tee "$out/host.report" || rc=1

for guest in $GUESTS; do
	export GUEST=$guest
	# settings.sh's per-guest settings, for this guest (its own KDIR too).
	KDIR=
	. "$HARNESS/settings.sh"
	results=$LOGS/boot.results
	mkdir -p "$LOGS"
	: >"$results"
	rm -f "$LOGS/boot-events.results" "$LOGS"/boot-dirs-*
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
		# Probe events from the kernel command line, created and
		# enabled while init runs the initcalls: a boot of their own
		# (boot-events-guest.sh), as kprobe_event= also turns the
		# startup selftests off.
		boot_events='kprobe_event=p:bootentry,do_one_initcall;r:bootret,do_one_initcall,ret=$retval'
		if BOOT_ARGS=$boot_events "$HARNESS/guest/boot.sh" boot-events 600 \
			>"$LOGS/boot-events.out" 2>"$LOGS/boot-events.err"; then
			verdict guest PASS boot-events >>"$results"
		else
			verdict guest FAIL boot-events >>"$results"
			{ echo "@log guest boot-events"; cat "$LOGS/boot-events.err"; tail -60 "$LOGS/boot-events.console"; echo "@endlog"; } >>"$results"
		fi
		# The same events' directories in tracefs, over many boots:
		# what decides them is a race between the initcall that
		# creates the events and tracefs' setup from a work item
		# (boot-dirs-guest.sh), so one boot would prove little.
		boots=${BOOT_DIRS_BOOTS:-30} lost=0 failed=0
		start=$(date +%s)
		for i in $(seq "$boots"); do
			if ! BOOT_ARGS=$boot_events "$HARNESS/guest/boot.sh" boot-dirs 120 \
				>"$LOGS/boot-dirs.out" 2>"$LOGS/boot-dirs.err"; then
				failed=$((failed + 1))
				cp "$LOGS/boot-dirs.console" "$LOGS/boot-dirs-failed.console"
			elif ! grep -q '^ok 1 every-event-has-its-directory' "$LOGS/boot-dirs.results"; then
				lost=$((lost + 1))
				cp "$LOGS/boot-dirs.results" "$LOGS/boot-dirs-lost.results"
			fi
		done
		say "check: $boots boots with kprobe_event= in $(($(date +%s) - start)) s: $lost lost a directory, $failed failed"
		if [ "$lost" = 0 ] && [ "$failed" = 0 ]; then
			verdict boot-events PASS each-event-has-its-directory-in-every-boot >>"$results"
		else
			verdict boot-events FAIL each-event-has-its-directory-in-every-boot >>"$results"
			{ echo "@log boot-events each-event-has-its-directory-in-every-boot"
			  echo "$lost of $boots boots lost an event's directory, $failed did not boot or run"
			  if [ -f "$LOGS/boot-dirs-lost.results" ]; then
				sed -n '/^@log/,/^@endlog/p' "$LOGS/boot-dirs-lost.results" | sed '/^@/d'
			  fi
			  if [ -f "$LOGS/boot-dirs-failed.console" ]; then
				tail -40 "$LOGS/boot-dirs-failed.console"
			  fi
			  echo "@endlog"; } >>"$results"
		fi
	fi
	"$HARNESS/report.py" --no-total "$guest" "$KERNEL" "$LOGS/check.results" "$LOGS/boot-events.results" "$results" |
		tee "$out/$guest.report" || rc=1
done

# The tools people probe with, on the same kernels: make check-clients'
# quicker suites (CHECK_CLIENTS, comma-separated; empty for none) on the
# Debian userland, which clients.sh fetches once. On GCC's ordinary
# kernels, those check-clients boots; not yet run on the others.
CHECK_CLIENTS=${CHECK_CLIENTS-bpftrace,libbpf-tools,ftracetest}
[ -z "$FLAVOR" ] && [ "$TOOLCHAIN" = gcc ] || CHECK_CLIENTS=
reports=()
for g in host $GUESTS; do
	reports+=("$out/$g.report")
done
if [ -n "$CHECK_CLIENTS" ]; then
	rm -rf "$out/clients"
	GUESTS=$GUESTS KERNELS=$KERNEL CLIENTS_SUITES=$CHECK_CLIENTS \
	CLIENTS_REPORTS=$out/clients "$HARNESS/tests/clients/clients.sh" || rc=1
	for g in $GUESTS; do
		reports+=("$out/clients/$g-$KERNEL.report")
	done
fi

# The sum over the host, every guest and the tools' runs: the line CI
# reads. A report that is missing counts as a failure (clients.sh, which
# writes the tools' reports, has failed then, and rc says so).
totals() {
	local r
	for r in "${reports[@]}"; do
		if [ ! -s "$r" ]; then
			echo "${r#"$out"/}: no report: 0 passed, 1 failed, 0 skipped"
		elif [[ $r == "$out/clients/"* ]]; then
			echo "clients $(tail -n 1 "$r")"
		else
			tail -n 1 "$r"
		fi
	done
}
sum=$(totals)
printf '\n%s\n' "$sum"
awk 'END { print p " passed, " f " failed, " s " skipped" }
     { p += $(NF - 5); f += $(NF - 3); s += $(NF - 1) }' <<<"$sum"
exit $rc
