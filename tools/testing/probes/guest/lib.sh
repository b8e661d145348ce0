# SPDX-License-Identifier: GPL-2.0
# Helpers of the guest jobs; sourced.

# Results are KTAP (Documentation/dev-tools/ktap.rst), written on fd 3
# (hvc0) with kselftest's own helpers: one document per suite, between
# "@ktap SUITE" and "@endktap" lines, which the host's report.py reads.
# A suite's document opens at its first result and closes when another
# suite reports or the job's process exits. Logs go between "@log SUITE
# NAME" and "@endlog".
. /harness/ktap_helpers.sh
ktap_suite=

ktap_end() { # close the open suite's document, if any
	[ -n "$ktap_suite" ] || return 0
	{
		ktap_set_plan $((KTAP_TESTNO - 1))
		ktap_print_totals
		echo "@endktap"
	} >&3
	ktap_suite=
}
trap ktap_end EXIT

# result SUITE STATUS NAME: one KTAP result line. PASS, FAIL, SKIP and
# XFAIL are KTAP's own; another status, a test's that neither passed nor
# failed (ftracetest's UNSUPPORTED, the harness's NOTRUN for a test not
# run), is a skip with that status as the reason, and ftracetest's
# UNRESOLVED a failure with it, so that the host's expectations can name
# the status they accept.
result() {
	if [ "$1" != "$ktap_suite" ]; then
		ktap_end
		ktap_suite=$1
		KTAP_TESTNO=1 KTAP_CNT_PASS=0 KTAP_CNT_FAIL=0
		KTAP_CNT_XFAIL=0 KTAP_CNT_SKIP=0
		{ echo "@ktap $1"; ktap_print_header; } >&3
	fi
	# The helpers echo unquoted: no file name may replace a test's name.
	case $- in *f*) noglob=1 ;; *) noglob=; set -f ;; esac
	case $2 in
	PASS) ktap_test_pass "$3" ;;
	FAIL) ktap_test_fail "$3" ;;
	SKIP) ktap_test_skip "$3" ;;
	XFAIL) ktap_test_xfail "$3" ;;
	UNRESOLVED | UNDEFINED | LOST)
		__ktap_test "not ok" "$3" "$2"
		KTAP_CNT_FAIL=$((KTAP_CNT_FAIL + 1)) ;;
	*)
		__ktap_test ok "$3" "SKIP $2"
		KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1)) ;;
	esac >&3
	[ -n "$noglob" ] || set +f
}

log_file() { # suite name file
	echo "@log $1 $2" >&3
	cat "$3" >&3
	echo "@endlog" >&3
}

# check_prints SUITE NAME WANT COMMAND...: PASS if the command prints
# WANT (its output and errors), else FAIL with what it printed.
check_prints() {
	suite=$1
	name=$2
	want=$3
	shift 3
	"$@" >/tmp/check_prints.out 2>&1
	if [ "$(cat /tmp/check_prints.out)" = "$want" ]; then
		result "$suite" PASS "$name"
	else
		result "$suite" FAIL "$name"
		{ echo "command: $*"; echo "want: $want"; echo "got:"
		  cat /tmp/check_prints.out; } >/tmp/check_prints.log
		log_file "$suite" "$name" /tmp/check_prints.log
	fi
}

# check_that SUITE NAME CONDITION...: PASS if the condition holds, else
# FAIL with what the calling suite's show_state function prints.
check_that() {
	suite=$1
	name=$2
	shift 2
	if "$@"; then
		result "$suite" PASS "$name"
	else
		result "$suite" FAIL "$name"
		show_state >/tmp/check_that.log 2>&1
		log_file "$suite" "$name" /tmp/check_that.log
	fi
}

# verdict_of STATUS SUITE NAME LOG: PASS if STATUS (a command's) is 0,
# else FAIL with LOG.
verdict_of() {
	if [ "$1" = 0 ]; then
		result "$2" PASS "$3"
	else
		result "$2" FAIL "$3"
		log_file "$2" "$3" "$4"
	fi
}

# Registers as probe definitions name them on this guest: the first six
# argument registers, and one that holds a code address at a function's
# entry (the link register; on x86 the PC, the return address being on
# the stack), and the one a function returns its value in.
case $(uname -m) in
aarch64) A0=%x0 A1=%x1 A2=%x2 A3=%x3 A4=%x4 A5=%x5 RCODE=%x30 RRET=%x0 ;;
x86_64) A0=%di A1=%si A2=%dx A3=%cx A4=%r8 A5=%r9 RCODE=%ip RRET=%ax ;;
esac

# The bench's function, the getppid system call's handler, and its probe
# points (bench.offsets, from the host's disassembly): "body", an
# instruction past the entry; "copied", the first a kprobe runs from a
# copy, and "call", the first call, which a kprobe simulates; on arm64
# "stp", its first STP (stepped out of line) and "bl", its first BL. Sets
# f, body, copied, call, stp, bl; ftrace_f and btf_f, the names ftrace
# and BTF give the function (on x86 GCC makes __x64_sys_getppid an alias
# of __do_sys_getppid, the name both use).
bench_points() {
	f=$(sed -n 's/^func //p' /harness/bench.offsets)
	btf_f=$f
	grep -q ' [tT] __do_sys_getppid$' /proc/kallsyms && btf_f=__do_sys_getppid
	ftrace_f=$(awk -v a="$(ksym "$f")" '
		NR == FNR { if ($1 == a && $2 ~ /^[tT]$/) name[$3] = 1; next }
		$1 in name { print $1; exit }' /proc/kallsyms /sys/kernel/tracing/available_filter_functions)
	body=$(sed -n 's/^body //p' /harness/bench.offsets)
	copied=$(sed -n 's/^copied //p' /harness/bench.offsets)
	call=$(sed -n 's/^call //p' /harness/bench.offsets)
	stp=$(sed -n 's/^stp //p' /harness/bench.offsets)
	bl=$(sed -n 's/^bl //p' /harness/bench.offsets)
	watch=$(sed -n 's/^watch //p' /harness/bench.offsets)
}

# ksym NAME: the address, in hex without 0x, of the kernel's text symbol
# NAME (the built-in one, which kallsyms lists before modules' symbols);
# nothing if there is none.
ksym() { awk -v s="$1" '$3 == s && $2 ~ /^[tT]$/ { print $1; exit }' /proc/kallsyms; }

# has_config OPTION: the kernel was built with CONFIG_OPTION=y.
has_config() { grep -qx "CONFIG_$1=y" /harness/kernel.config; }

# missing_requirements FILE: the words of a guest test's "# requires:"
# line that this guest lacks, one a line: a tracefs file as ftracetest
# writes it (kprobe_events), a kernel option (CONFIG_NAME, built in or a
# module), a machine (arch:aarch64, as uname -m says), an absolute path,
# or a program on PATH (trace-cmd). Only the comment lines the file opens
# with are read.
missing_requirements() {
	sed -n '/^[^#]/q; s/^# requires://p' "$1" | tr ' \t' '\n\n' |
	while read -r w; do
		[ -n "$w" ] || continue
		case $w in
		arch:*) [ "$(uname -m)" = "${w#arch:}" ] ;;
		CONFIG_*) grep -qE "^$w=[ym]\$" /harness/kernel.config ;;
		/*) [ -e "$w" ] ;;
		*) [ -e "/sys/kernel/tracing/$w" ] || command -v "$w" >/dev/null ;;
		esac || echo "$w"
	done
}

# run_guest_test FILE: run a test of tests/guest/ (/harness/tests.d/),
# whose suite is its name; where the guest lacks something its
# "# requires:" line lists, the test does not run and its suite reports
# one SKIP, "requires", with what was missing as its log (ftracetest's
# UNSUPPORTED).
run_guest_test() {
	rg_suite=${1##*/}
	rg_suite=${rg_suite%.sh}
	rg_missing=$(missing_requirements "$1")
	if [ -z "$rg_missing" ]; then
		"$1"
		return
	fi
	result "$rg_suite" SKIP requires
	echo "missing:" $rg_missing >/tmp/requires.log
	log_file "$rg_suite" requires /tmp/requires.log
	ktap_end
}

# kmemleak_on: kmemleak was built and runs from boot (the debug kernel).
kmemleak_on() {
	has_config DEBUG_KMEMLEAK && ! has_config DEBUG_KMEMLEAK_DEFAULT_OFF
}

# kmemleak_report FILE: kmemleak's report, in FILE, of what is allocated
# and no longer referenced. kmemleak reports no object younger than 5 s,
# so a second scan, 6 s after the first, is what finds what the caller
# freed last. Fails where kmemleak cannot scan (not built, or off).
kmemleak_report() {
	echo scan >/sys/kernel/debug/kmemleak 2>/dev/null || return 1
	sleep 6
	echo scan >/sys/kernel/debug/kmemleak &&
		cat /sys/kernel/debug/kmemleak >"$1"
}

# From the tracefs directory: no event enabled, none defined, no trace.
clean_slate() {
	echo 0 >events/enable
	echo >dynamic_events
	echo >trace
}

# kprobes_back_to N: wait, up to 5 s, until N kprobes are registered (the
# lines of kprobes/list); kprobes_gone: until none is. The kprobe of a
# closed kprobe perf event is unregistered after the close, with those of
# the events closed meanwhile, once their handlers are done.
kprobes_back_to() {
	for kb_i in 1 2 3 4 5; do
		[ "$(wc -l </sys/kernel/debug/kprobes/list)" = "$1" ] && return 0
		sleep 1
	done
	[ "$(wc -l </sys/kernel/debug/kprobes/list)" = "$1" ]
}

kprobes_gone() { kprobes_back_to 0; }

# suite_start: how a suite on the bench's function opens: in the tracefs
# directory, $loop the bench's loop, its probe points set (bench_points),
# a clean slate and an empty error log.
suite_start() {
	cd /sys/kernel/tracing || exit 1
	loop=/harness/progs/getppid_loop
	bench_points
	clean_slate
	echo >error_log
}

# with_bench_probes NAME MEASURE DEFINITION...: define the probes (event
# group "bench"), enable them, run MEASURE once they are in their steady
# state, then remove them. A definition refused is reported as @error.
# With bench_also set to an instance's directory, the events record into
# that instance too.
with_bench_probes() {
	name=$1
	measure=$2
	shift 2
	for def in "$@"; do
		echo "$def" >>dynamic_events || echo "@error $name: $def" >&3
	done
	echo 1 >events/bench/enable
	[ -z "${bench_also:-}" ] || echo 1 >"$bench_also/events/bench/enable"
	# A kernel with optimized probes switches them in from a worker,
	# after an RCU-tasks grace period.
	sleep 1
	"$measure"
	echo 0 >events/bench/enable
	[ -z "${bench_also:-}" ] || echo 0 >"$bench_also/events/bench/enable"
	echo >trace
	[ -z "${bench_also:-}" ] || echo >"$bench_also/trace"
	echo >dynamic_events
}
