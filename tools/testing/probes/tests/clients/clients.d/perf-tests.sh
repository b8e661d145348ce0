#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf's own tests of probes, as perf runs them: each test of `perf test`
# (linux-perf 7.3's, its shell tests from /usr/lib/perf-core/tests/shell
# and its built-in ones) whose description, or whose shell script's file
# name, mentions probe (uprobe too) or vfs_getname. In 7.3.4 that is
# perftool-testsuite_probe.sh (base_probe/: perf probe on the kernel from
# vmlinux's DWARF, listed, used by perf stat and record, removed), the three
# vfs_getname tests (a probe on a line of getname_flags, used by perf
# record, script and trace), record+probe_libc_inet_pton.sh (a uprobe on
# libc, with a DWARF call graph), test_uprobe_from_different_cu.sh (perf
# probe -x on a binary it compiles) and the built-in "Probe SDT events".
# Each runs alone by its number in `perf test list`, with -vv, so that its
# whole output comes back: perf's "Ok" is PASS, "Skip" SKIP, "FAILED!"
# FAIL, under a name made from the test's description. The output of each
# test that does not pass, a skip's reason with it (most of these tests
# skip without a word of their own), is kept in the results as a log, after
# what this guest has of what the tests look for.
. /harness/lib.sh

suite=perf-tests
out=/tmp/perf-tests.out
log=/tmp/perf-tests.log
guest=/tmp/perf-tests.guest
tracefs=/sys/kernel/tracing
# Where perf test finds its shell tests when run outside a perf source tree.
shell_dir=$(perf --exec-path 2>/dev/null)/tests/shell
# The tests to run: their descriptions or their scripts' names match this.
want='probe|vfs_getname'
export PAGER=cat
# perftool-testsuite_probe.sh then keeps its base_probe/ tests' own logs
# (the output of each perf command they check), for a failure's log.
export PERFTEST_KEEP_LOGS=y
# Each test's bound, in seconds: a hung test fails alone, before the guest's
# own time limit takes the whole run (perf probe reads vmlinux's DWARF on
# each call, slow under emulation).
limit=1200

# description FILE: a shell test's description, read as perf reads it
# (tests/tests-scripts.c): the first comment line with text that is neither
# the #! line nor the SPDX one, cut at " (exclusive)", perf's mark of a
# test that runs alone.
description() {
	local line
	while IFS= read -r line; do
		line=${line#"${line%%[![:space:]]*}"}
		[[ $line == '#'* ]] || continue
		line=${line#\#}
		[[ $line == '!'* ]] && continue
		[[ $line == *SPDX-License* && $line == *-Identifier:* ]] && continue
		line=${line#"${line%%[![:space:]]*}"}
		line=${line%"${line##*[![:space:]]}"}
		[ -n "$line" ] || continue
		printf '%s\n' "${line%%" (exclusive)"*}"
		return 0
	done <"$1"
	return 1
}

# name_of DESCRIPTION: sets tn, the test's name in the results, the same
# from run to run as long as perf's description is: lower case, each run of
# characters other than letters, digits and "_" made one "-" (apostrophes
# dropped). Another test of the same name takes a suffix.
declare -A taken=()
name_of() {
	tn=$(printf '%s' "${1,,}" | sed -E "s/'//g; s/[^a-z0-9_]+/-/g; s/^-+//; s/-+\$//")
	[ -z "${taken[$tn]:-}" ] || tn=$tn-2
	taken[$tn]=1
}

# No probe left by a test for the next one, nor for the suites after.
clean_probes() {
	echo 0 >$tracefs/events/enable
	echo >$tracefs/dynamic_events
} 2>/dev/null

# record+probe_libc_inet_pton.sh pings ::1, which lo has once it is up:
# nothing else in the guest brings it up.
command -v ip >/dev/null && ip link set lo up 2>/dev/null

# What the tests look for that this guest may not have, for the logs.
{
	echo "guest: $(uname -m), kernel $(uname -r), $(perf version 2>&1)"
	if [ -f "/boot/vmlinux-$(uname -r)" ]; then
		echo "guest: /boot/vmlinux-$(uname -r): the kernel's vmlinux, with DWARF, where perf looks"
	else
		echo "guest: no /boot/vmlinux-$(uname -r): perf probe has no DWARF of the kernel"
	fi
	for tool in gcc ip ping nm perl; do
		if command -v $tool >/dev/null; then
			echo "guest: $tool: $(command -v $tool)"
		else
			echo "guest: $tool: not in the userland"
		fi
	done
	if [ -e /proc/net/if_inet6 ]; then
		echo "guest: IPv6: yes"
	else
		echo "guest: IPv6: no (no /proc/net/if_inet6: the kernel has no CONFIG_IPV6)"
	fi
	if [ -e /sys/kernel/debug/tracing/kprobe_events ]; then
		echo "guest: /sys/kernel/debug/tracing/kprobe_events: yes"
	else
		echo "guest: no /sys/kernel/debug/tracing (tracefs is not automounted on debugfs:" \
			"CONFIG_TRACEFS_AUTOMOUNT_DEPRECATED is unset), where perftool-testsuite's" \
			"common/init.sh looks for kprobe_events: its base_probe/ tests skip, and" \
			"perftool-testsuite_probe.sh counts a skip as a failure"
	fi
	# lib/probe_vfs_getname.sh picks its line to probe out of this listing;
	# perf looks for the source under the directory the file was compiled
	# in (clients.sh and clients-guest.sh put it there).
	echo "guest: perf probe -L getname_flags, where lib/probe_vfs_getname.sh looks for the line to probe:"
	timeout -k 5 600 perf probe -L getname_flags 2>&1 | head -n 20 | sed 's/^/guest:   /'
} >$guest 2>&1

# The tests: first the shell scripts whose file names match (perf reads
# the executable *.sh files of the directory and of its subdirectories but
# base_*, which have a driver of their own), by their descriptions; then
# the list's numbers of those and of every test whose description matches.
declare -A by_file=()
while IFS= read -r f; do
	f_name=${f##*/}
	[[ ${f_name,,} =~ $want ]] || continue
	d=$(description "$f") && by_file[$d]=${f#"$shell_dir"/}
done < <(find "$shell_dir" -mindepth 1 \( -name 'base_*' -o -name '.*' \) -prune -o \
	-name '*.sh' -type f -perm -u+x -print 2>/dev/null | sort)

if ! timeout -k 5 300 perf test list >$out 2>&1; then
	result $suite FAIL perf-test-list
	log_file $suite perf-test-list $out
	exit 0
fi
nums=()
declare -A descs=() listed=()
while IFS= read -r line; do
	# "NUM: DESCRIPTION" for each test ("NUM.CASE: ..." for its cases).
	[[ $line =~ ^\ *([0-9]+):\ (.*)$ ]] || continue
	n=${BASH_REMATCH[1]}
	d=${BASH_REMATCH[2]}
	listed[$d]=1
	if [[ ${d,,} =~ $want ]] || [ -n "${by_file[$d]:-}" ]; then
		nums+=("$n")
		descs[$n]=$d
	fi
done <$out
if [ ${#nums[@]} = 0 ]; then
	{ echo "no test of perf test list matches '$want' (shell tests in $shell_dir)"
	  cat $out; } >$log
	result $suite FAIL found-tests
	log_file $suite found-tests $log
	exit 0
fi
# A script of a matching name that perf does not list (not executable, no
# description) is a test that perf would not run.
for d in "${!by_file[@]}"; do
	[ -n "${listed[$d]:-}" ] && continue
	echo "perf test list does not list ${by_file[$d]} ($d)" >$log
	name_of "$d"
	result $suite FAIL "$tn"
	log_file $suite "$tn" $log
done

# Each test alone, by its number; from /tmp, as perf test would take a
# ./tools/perf/tests/shell of the directory it runs in for its own, and the
# built-in tests write there. perf test prints a verdict for the test, or
# one for each of its cases: the test fails if one fails, else passes if
# one passes, else it skipped.
for n in "${nums[@]}"; do
	d=${descs[$n]}
	name_of "$d"
	clean_probes
	rm -rf /tmp/perftool-testsuite_*.*
	(cd /tmp && timeout -k 10 $limit perf test -vv "$n") >$out 2>&1
	rc=$?
	# Its verdict line, "NUM: DESCRIPTION: Ok" (or "NUM.CASE: ..."), perhaps
	# after a last line of the test's output that had no newline.
	verdicts=$(sed -nE "s/(^|.*[^0-9.])$n(\\.[0-9]+)?: .*: (Ok|FAILED!|Skip)( \\(.*\\))?\$/\\3/p" $out)
	if grep -qx 'FAILED!' <<<"$verdicts" || [ -z "$verdicts" ]; then
		status=FAIL
	elif grep -qx Ok <<<"$verdicts"; then
		status=PASS
	else
		status=SKIP
	fi
	result $suite $status "$tn"
	[ $status = PASS ] && continue
	{
		echo "perf test -vv $n: $d${by_file[$d]:+ (${by_file[$d]})}: exit $rc"
		[ -n "$verdicts" ] || echo "no verdict from perf test: it timed out ($limit s) or died"
		cat $guest
		echo "---- perf test's output"
		cat $out
		# perftool-testsuite's logs: the output of each command it checked.
		for f in /tmp/perftool-testsuite_*.*/*/logs/*; do
			[ -f "$f" ] || continue
			echo "---- ${f#/tmp/}"
			head -n 40 "$f"
		done
	} >$log 2>&1
	log_file $suite "$tn" $log
done
clean_probes
rm -rf /tmp/perftool-testsuite_*.*

exit 0
