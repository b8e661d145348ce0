#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of `make check`. Every suite reports on fd 3 (hvc0), in
# KTAP (lib.sh's result, or the kernel's own for KUnit), with the logs of
# the tests that did not pass. The host (report.py) judges; the guest only
# runs and records.
. /harness/lib.sh

# Built-in KUnit suites (the series' parser suite) ran at boot: keep their
# KTAP before the tests fill the kernel log.
dmesg >/tmp/boot.dmesg

ftracetest_suite() {
	cd /ftrace || return
	logdir=/tmp/ftracetest-logs
	# Every test of the directories (wprobe/, the series' own, where the
	# kernel's tree has it) but those the host said not to run here (each
	# is reported NOTRUN). ftracetest=T[,T...] on the
	# kernel command line, T a path under test.d/, runs only those: with
	# BOOT_ARGS='suites=ftracetest ftracetest=kprobe/profile.tc' make
	# check, a guest of under a minute while working on one test.
	only_tc=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^ftracetest=//p' | tr , ' ')
	tests=
	for t in test.d/kprobe/*.tc test.d/dynevent/*.tc test.d/wprobe/*.tc; do
		if [ ! -f "$t" ]; then
			continue
		elif [ -n "$only_tc" ] && ! echo " $only_tc " | grep -qF " ${t#test.d/} "; then
			continue
		elif grep -qx "${t#test.d/}" /harness/ftracetest.skip; then
			result ftracetest NOTRUN "${t#test.d/}"
		else
			tests="$tests $t"
		fi
	done
	# shellcheck disable=SC2086
	./ftracetest -k -l "$logdir" $tests
	for log in "$logdir"/*-log.*; do
		[ -f "$log" ] || continue
		test=$(sed -n '1s|^execute[^:]*: *||p' "$log")
		test=${test#*/test.d/}
		no=${log##*/}
		no=${no%%-*}
		status=$(grep -E "^\[$no\]" "$logdir/ftracetest.log" |
			sed -nE 's/.*\[(PASS|FAIL|UNRESOLVED|UNTESTED|UNSUPPORTED|XFAIL|UNDEFINED)\]$/\1/p')
		result ftracetest "${status:-LOST}" "$test"
		[ "$status" = PASS ] || log_file ftracetest "$test" "$log"
	done
	cd /
}

# ktap_lines: the KTAP lines of a kernel log, without the timestamps
# that PRINTK_TIME (defconfig's) puts before each.
ktap_lines() {
	sed 's/^\[ *[0-9]*\.[0-9]*\] //' | grep -E '^ *(KTAP|TAP|1\.\.|#|ok|not ok)'
}

# KUnit suites: the built-in ones from the boot log, then those run by
# loading their modules: the kprobes one, and the
# series' instruction matrix where the kernel has it.
kunit_suite() {
	if grep -q '# Subtest:' /tmp/boot.dmesg; then
		echo "@ktap kunit" >&3
		ktap_lines </tmp/boot.dmesg >&3
		echo "@endktap" >&3
		ktap_lines </tmp/boot.dmesg | grep -q '^not ok' &&
			log_file kunit built-in /tmp/boot.dmesg
	fi
	for mod in test_kprobes arm64_kprobes_insn_test; do
		[ $mod = test_kprobes ] ||
			[ -n "$(find /lib/modules -name "$mod.ko")" ] || continue
		dmesg -c >/dev/null
		modprobe "$mod"
		echo "@ktap kunit" >&3
		dmesg | ktap_lines >&3
		echo "@endktap" >&3
		dmesg >/tmp/kunit.log
		log_file kunit "$mod" /tmp/kunit.log
		rmmod "$mod" 2>/dev/null
	done
}

# The kprobe samples print from their handlers; a fork must reach each
# pattern given.
sample_test() { # module pattern...
	mod=$1
	shift
	dmesg -c >/dev/null
	if ! modprobe "$mod"; then
		result samples FAIL "$mod"
		return
	fi
	sh -c true
	rmmod "$mod"
	dmesg >/tmp/sample.log
	for pattern in "$@"; do
		if ! grep -qE "$pattern" /tmp/sample.log; then
			echo "no line matches: $pattern" >>/tmp/sample.log
			result samples FAIL "$mod"
			log_file samples "$mod" /tmp/sample.log
			return
		fi
	done
	result samples PASS "$mod"
}

samples_suite() {
	# The kprobe events' startup selftest (FTRACE_STARTUP_TEST) defined,
	# enabled, hit and removed an entry and a return probe before init
	# ran; its line is in the boot log. (7.3 prints the verdict as a
	# continuation of the line the test starts with, and a message
	# printed meanwhile leaves it, "OK", on a line of its own.)
	if grep -q 'Testing kprobe tracing: OK' /tmp/boot.dmesg ||
	   sed 's/^\[ *[0-9.]*\] //' /tmp/boot.dmesg |
	   awk '/Testing kprobe tracing: *$/ { t = 1 } t && $0 == "OK" { ok = 1 }
		/NG: Some tests are failed/ { ng = 1 } END { exit !(ok && !ng) }'; then
		result samples PASS kprobe-events-startup-selftest
	else
		result samples FAIL kprobe-events-startup-selftest
		grep -iE 'kprobe|selftest|self test|warning' /tmp/boot.dmesg >/tmp/st.log
		log_file samples kprobe-events-startup-selftest /tmp/st.log
	fi
	# The pre- and post-handler's lines, as each architecture prints them.
	case $(uname -m) in
	aarch64) pre='pc = 0x' post='pstate = 0x' ;;
	*) pre='ip = [0-9a-f]+, flags = 0x' post='flags = 0x' ;;
	esac
	sample_test kprobe_example "<kernel_clone> p->addr = 0x[0-9a-f]+, $pre" \
		"<kernel_clone> p->addr = 0x[0-9a-f]+, $post"
	sample_test kretprobe_example 'kernel_clone returned [0-9]+ and took [0-9]+ ns'
	# The in-kernel event generation API: the module's init creates,
	# enables and records two events; a failure refuses the load.
	dmesg -c >/dev/null
	if modprobe kprobe_event_gen_test && rmmod kprobe_event_gen_test; then
		result samples PASS kprobe_event_gen_test
	else
		result samples FAIL kprobe_event_gen_test
		dmesg >/tmp/gen.log
		log_file samples kprobe_event_gen_test /tmp/gen.log
	fi
}

# The project's own guest tests: each prints @result lines itself, or,
# where the guest lacks what its "# requires:" line lists, reports one
# SKIP (lib.sh's run_guest_test). lockdown.sh locks the kernel down for
# good: it runs after all else.
project_test() {
	t0=$(cut -d. -f1 /proc/uptime)
	[ -x "$1" ] && run_guest_test "$1"
	echo "@time ${1##*/} $(($(cut -d. -f1 /proc/uptime) - t0))" >&3
}
project_suite() {
	for t in /harness/tests.d/*; do
		[ "${t##*/}" = lockdown.sh ] || project_test "$t"
	done
}
lockdown_suite() { project_test /harness/tests.d/lockdown.sh; }

# Where kmemleak runs from boot (FLAVOR=debug), what every suite allocated
# and lost.
leaks_suite() {
	kmemleak_on || return 0
	echo >/sys/kernel/tracing/dynamic_events
	kmemleak_report /tmp/leaks || { result kmemleak FAIL scan; return; }
	if grep -q '^unreferenced object' /tmp/leaks; then
		result kmemleak FAIL no-leak
		log_file kmemleak no-leak /tmp/leaks
	else
		result kmemleak PASS no-leak
	fi
}

# Each suite's time goes to the results too, for the README's figures.
# suites=NAME[,NAME...] on the kernel command line runs only those (make
# bisect runs ftracetest alone).
only=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^suites=//p' | tr , ' ')
for suite in ftracetest_suite kunit_suite samples_suite project_suite \
	     leaks_suite lockdown_suite; do
	if [ -n "$only" ] && ! echo " $only " | grep -q " ${suite%_suite} "; then
		continue
	fi
	start=$(cut -d. -f1 /proc/uptime)
	$suite
	ktap_end
	echo "@time $suite $(($(cut -d. -f1 /proc/uptime) - start))" >&3
done
