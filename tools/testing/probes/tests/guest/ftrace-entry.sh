#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: Probes at a function's entry armed through its ftrace site
# requires: kprobe_events
# Probes at a function's entry armed through its ftrace site
# (KPROBES_ON_FTRACE; on arm64 the series' probes/ftrace.c): the probe is
# listed [FTRACE] and in enabled_functions while enabled and only then,
# every call is recorded, and it shares the site with the function tracer,
# an fprobe and a kretprobe, each seeing every call. The registers a
# handler reads are those of the call: an fprobe event's $arg1 and the
# kprobe's first argument register agree hit by hit, $retval is what
# getppid returned, and on arm64 x9 holds the link register (MOV X9, X30
# has run) while the registers ftrace does not save read as zero.
# A kernel without KPROBES_ON_FTRACE (upstream's arm64) reports each check
# UNSUPPORTED, for the comparison.
. /harness/lib.sh
suite_start
list=/sys/kernel/debug/kprobes/list

names="listed-ftrace enabled-function every-hit with-function-tracer
       with-fprobe-and-kretprobe same-argument retval with-function-graph
       with-kprobe-multi with-bpf-fentry-fexit
       fregs-arguments fregs-kretprobe fregs-aggregate
       disarmed armed-under-load armed-beside-another one-at-a-time
       nothing-left"
if ! has_config KPROBES_ON_FTRACE; then
	for t in $names; do
		result ftrace-entry UNSUPPORTED "$t"
	done
	exit 0
fi

show_state() {
	echo "kprobes/list:"; cat $list
	echo "enabled_functions:"; cat enabled_functions
	echo "kprobe_profile:"; cat kprobe_profile
	echo "error_log:"; cat error_log
	echo "trace:"; grep -v '^#' trace | head -12
	echo "bpf_count:"; cat /tmp/fte.bpf 2>/dev/null
	echo "fregs: kprobe, fprobe:"; cat /tmp/fte.fa /tmp/fte.ff 2>/dev/null
	echo "aggregate: list, aa, ab:"; cat /tmp/fte.alist /tmp/fte.aa /tmp/fte.ab 2>/dev/null
}
check() { check_that ftrace-entry "$@"; }
# records EVENT: how many records of EVENT the trace holds.
records() { grep -c " $1: (" trace; }
# hits EVENT: its hit count in kprobe_profile.
hits() { awk -v e="$1" '$1 == e { print $2 }' kprobe_profile; }
# The suite's probe is the only one, and kallsyms may name its function
# by an alias (x86's __do_sys_getppid): the lists are read for the probe's
# marks, not its name.
listed() { [ "$(grep -c '\[FTRACE\]' $list)" = 1 ]; }
# enabled_functions names the handler of a site's only ftrace user where
# ftrace calls it directly (arm64's CALL_OPS, which Clang's kCFI rules out);
# else the site is the one line.
in_enabled() {
	grep -q 'kprobe_ftrace_handler' enabled_functions ||
		[ "$(grep -c . enabled_functions)" = 1 ]
}
not() { ! "$@"; }

echo "p:fte/entry $f a0=$A0" >>kprobe_events
check listed-ftrace listed
echo 1 >events/fte/entry/enable
check enabled-function in_enabled
$loop 50 1 >/dev/null
echo 0 >events/fte/entry/enable
every_hit() { [ "$(records entry)" = 50 ] && [ "$(hits entry)" = 50 ]; }
check every-hit every_hit
check disarmed not in_enabled
echo >trace

# The function tracer on the same function: both see every call. ftrace
# knows the function by the name the probe list gives it.
ff=$(awk '/\[FTRACE\]/ { sub(/\+.*/, "", $3); print $3 }' $list)
echo "$ff" >set_ftrace_filter
[ "$(cat set_ftrace_filter)" = "$ff" ] && echo function >current_tracer
echo 1 >events/fte/entry/enable
$loop 30 1 >/dev/null
echo 0 >events/fte/entry/enable
both_traced() {
	[ "$(records entry)" = 30 ] && [ "$(grep -c " $ff <-" trace)" = 30 ]
}
# Counted before the tracer goes: switching tracers clears the buffer.
check with-function-tracer both_traced
echo nop >current_tracer
echo >set_ftrace_filter
echo >trace

# An fprobe and a kretprobe on it as well, where the kernel has fprobe
# events; the kretprobe alone where not.
echo "r:fte/ret $f ret=\$retval:s32" >>kprobe_events
has_config FPROBE_EVENTS && echo "f:fte/fp $f a1=\$arg1" >>dynamic_events
echo 1 >events/fte/enable
$loop 30 1 >/dev/null
echo 0 >events/fte/enable
want_fp=30
has_config FPROBE_EVENTS || want_fp=0
all_traced() {
	[ "$(records entry)" = 30 ] && [ "$(records ret)" = 30 ] &&
		[ "$(records fp)" = "$want_fp" ]
}
check with-fprobe-and-kretprobe all_traced
# Hit by hit, the kprobe's first argument register is the fprobe's $arg1.
grep -o ' entry: ([^)]*) a0=0x[0-9a-f]*' trace | sed 's/.*a0=//' >/tmp/fte.a0
grep -o ' fp: ([^)]*) a1=0x[0-9a-f]*' trace | sed 's/.*a1=//' >/tmp/fte.a1
if has_config FPROBE_EVENTS; then
	same_args() { [ "$(wc -l </tmp/fte.a0)" = 30 ] && cmp -s /tmp/fte.a0 /tmp/fte.a1; }
	check same-argument same_args
else
	result ftrace-entry UNSUPPORTED same-argument
fi
# getppid's value, this shell's parent's pid as the loop sees it: the
# loop's parent is this shell.
check retval [ "$(grep -c " ret: (.* ret=$$\$" trace)" = 30 ]
echo >trace

# The function graph tracer on the same function, beside the probe and the
# kretprobe: fgraph and the kretprobe each take the function's return
# address in turn, and each return still comes back through both, with
# getppid's value. An event inside the graph is a comment, "/* ... */".
if has_config FUNCTION_GRAPH_TRACER; then
	echo "$ff" >set_ftrace_filter
	[ "$(cat set_ftrace_filter)" = "$ff" ] && echo function_graph >current_tracer
	echo 1 >events/fte/entry/enable
	echo 1 >events/fte/ret/enable
	$loop 30 1 >/dev/null
	echo 0 >events/fte/enable
	graph_traced() {
		[ "$(records entry)" = 30 ] &&
			[ "$(grep -c " ret: (.* ret=$$\( \*/\)\{0,1\}\$" trace)" = 30 ] &&
			[ "$(grep -c " $ff()" trace)" = 30 ]
	}
	check with-function-graph graph_traced
else
	result ftrace-entry UNSUPPORTED with-function-graph
fi
echo nop >current_tracer
echo >set_ftrace_filter
echo >trace

# A BPF kprobe_multi program (BPF_TRACE_KPROBE_MULTI, an fprobe) on the
# function as well, beside a kprobe event there: both on the ftrace site,
# each sees the loop's 50 calls (and any other task's, the event those
# of a longer window).
if has_config FPROBE && has_config BPF_EVENTS; then
	echo "p:fte/multi $f" >>kprobe_events
	echo 1 >events/fte/multi/enable
	/harness/progs/bpf_count -m "$f" $loop 50 1 >/dev/null 2>/tmp/fte.bpf
	echo 0 >events/fte/multi/enable
	bpf_hits=$(sed -n 's/^bpf_count: \([0-9]*\) hits$/\1/p' /tmp/fte.bpf)
	both_see() {
		[ "${bpf_hits:-0}" -ge 50 ] && [ "$(records multi)" -ge "$bpf_hits" ]
	}
	check with-kprobe-multi both_see
	echo "-:fte/multi" >>kprobe_events
else
	result ftrace-entry UNSUPPORTED with-kprobe-multi
fi
echo >trace

# BPF fentry and fexit programs (BPF trampolines, ftrace's direct call) on
# the function as well, beside the probe and the kretprobe: the site then
# calls the probes' handler and branches to the trampoline, which calls
# the function and returns through the kretprobe's trampoline. Each of the
# four sees the loop's 50 calls (and any other task's), and every return
# the kretprobe records gives the loop's parent's pid: the inner
# bpf_count's, the same for all. fentry and fexit name the function as
# its BTF does: GCC's x86_64 __x64_sys_getppid is an alias of
# __do_sys_getppid, the name BTF has; Clang folds __do_sys_getppid into it.
bf=$f
grep -q ' [tT] __do_sys_getppid$' /proc/kallsyms && bf=__do_sys_getppid
if has_config DEBUG_INFO_BTF && has_config DYNAMIC_FTRACE_WITH_DIRECT_CALLS &&
   has_config BPF_JIT; then
	echo 1 >events/fte/entry/enable
	echo 1 >events/fte/ret/enable
	/harness/progs/bpf_count -f "$bf" /harness/progs/bpf_count -x "$bf" \
		$loop 50 1 >/dev/null 2>/tmp/fte.bpf
	echo 0 >events/fte/enable
	fentry_hits=$(sed -n 's/^bpf_count: \([0-9]*\) hits$/\1/p' /tmp/fte.bpf | tail -1)
	fexit_hits=$(sed -n 's/^bpf_count: \([0-9]*\) hits$/\1/p' /tmp/fte.bpf | head -1)
	rets=$(grep -o ' ret: (.* ret=[0-9]*$' trace | sed 's/.*ret=//' | sort | uniq -c |
	       sort -rn | awk 'NR == 1 { print $1 }')
	all_see() {
		[ "${fentry_hits:-0}" -ge 50 ] && [ "${fexit_hits:-0}" -ge 50 ] &&
			[ "$(records entry)" -ge 50 ] && [ "${rets:-0}" -ge 50 ]
	}
	echo "# fentry $fentry_hits, fexit $fexit_hits, entry $(records entry), returns $rets"
	# Where the kernel's BTF has no such function, fentry cannot attach
	# (Clang's x86_64 build: pahole leaves the getppid handler out).
	if grep -q "not a function in the kernel's BTF" /tmp/fte.bpf; then
		result ftrace-entry UNSUPPORTED with-bpf-fentry-fexit
	else
		check with-bpf-fentry-fexit all_see
	fi
else
	result ftrace-entry UNSUPPORTED with-bpf-fentry-fexit
fi
echo >trace

# A probe alone on the site whose arguments are all in ftrace's registers
# reads them there (arm64: a fregs_handler, no pt_regs built): its first
# argument register, $stack, $stack0 and $comm are, hit by hit, an
# fprobe's $arg1, $stack, $stack0 and $comm on the same calls. The probes above go first: with another kprobe on the site, the
# core hands the hit to the probes' aggregate, which takes a pt_regs.
clean_slate
if has_config FPROBE_EVENTS; then
	echo "p:fte/fa $f a=$A0 sp=\$stack s0=\$stack0 c=\$comm" >>kprobe_events
	echo "f:fte/ff $f a=\$arg1 sp=\$stack s0=\$stack0 c=\$comm" >>dynamic_events
	echo 1 >events/fte/fa/enable
	echo 1 >events/fte/ff/enable
	$loop 20 1 >/dev/null
	echo 0 >events/fte/enable
	grep ' fa: (' trace | sed 's/.*fa: ([^)]*) //' >/tmp/fte.fa
	grep ' ff: (' trace | sed 's/.*ff: ([^)]*) //' >/tmp/fte.ff
	fregs_same() {
		[ "$(grep -c 'c="getppid_loop"$' /tmp/fte.fa)" -ge 20 ] &&
			cmp -s /tmp/fte.fa /tmp/fte.ff
	}
	check fregs-arguments fregs_same
	echo "-:fte/fa" >>kprobe_events
	echo "-:fte/ff" >>dynamic_events
else
	result ftrace-entry UNSUPPORTED fregs-arguments
fi
echo >trace

# A kretprobe alone on the site, without entry arguments: on arm64 the core
# swaps the return address in ftrace's registers (no pt_regs built). Each
# call returns through it: getppid's value, 20 times, none missed.
echo "r:fte/fr $f ret=\$retval:s32" >>kprobe_events
echo 1 >events/fte/fr/enable
$loop 20 1 >/dev/null
echo 0 >events/fte/fr/enable
fr_ok() {
	[ "$(grep -c " fr: (.* ret=$$\$" trace)" = 20 ] &&
		[ "$(awk '$1 == "fr" { print $3 }' kprobe_profile)" = 0 ]
}
check fregs-kretprobe fr_ok
echo "-:fte/fr" >>kprobe_events
echo >trace

# Three probes on the site, the core's aggregate: a kretprobe, a probe that
# reads a register ftrace does not save (a pt_regs), and one that reads
# only ftrace's registers, defined in that order, which the aggregate runs
# the other way round (the newest first; kprobes/list shows them so). On
# arm64 the first takes ftrace's registers, the second is given a pt_regs
# made from them, and the kretprobe then swaps the return address in that
# pt_regs, which goes back to ftrace: every call still returns through it.
# Both entry probes read the same first argument, call by call.
case $(uname -m) in
aarch64) xreg=%x19 ;;
*) xreg=%bx ;;
esac
clean_slate
echo "r:fte/ar $f ret=\$retval:s32" >>kprobe_events
echo "p:fte/ab $f a=$A0 x=$xreg" >>kprobe_events
echo "p:fte/aa $f a=$A0" >>kprobe_events
cp $list /tmp/fte.alist
echo 1 >events/fte/enable
$loop 20 1 >/dev/null
echo 0 >events/fte/enable
grep ' aa: (' trace | sed 's/.*aa: ([^)]*) a=//' >/tmp/fte.aa
grep ' ab: (' trace | sed 's/.*ab: ([^)]*) a=//; s/ x=.*//' >/tmp/fte.ab
aggregate_ok() {
	[ "$(grep -c " ar: (.* ret=$$\$" trace)" = 20 ] &&
		[ "$(awk '$1 == "ar" { print $3 }' kprobe_profile)" = 0 ] &&
		[ "$(wc -l </tmp/fte.aa)" -ge 20 ] && cmp -s /tmp/fte.aa /tmp/fte.ab
}
check fregs-aggregate aggregate_ok
clean_slate

# arm64: x9 is the link register at the site, the registers ftrace does
# not save read as zero.
if [ "$(uname -m)" = aarch64 ]; then
	echo "p:fte/regs $f x9=%x9 lr=%x30 x19=%x19 x28=%x28" >>kprobe_events
	echo 1 >events/fte/regs/enable
	$loop 5 1 >/dev/null
	echo 0 >events/fte/regs/enable
	grep ' regs: (' trace | sed 's/.*regs: ([^)]*) //' >/tmp/fte.regs
	check x9-is-lr [ "$(awk '$1 == "x9=" substr($2, 4)' /tmp/fte.regs |
		wc -l)" = 5 ]
	check unsaved-zero [ "$(grep -c 'x19=0x0 x28=0x0$' /tmp/fte.regs)" = 5 ]
	# The PC is the probe's address, the site, although ftrace's
	# registers hold the return address into the function there.
	clean_slate
	echo "p:fte/pc $f pc=%pc lr=%x30" >>kprobe_events
	site=$(awk '/\[FTRACE\]/ { print $1; exit }' $list)
	echo 1 >events/fte/pc/enable
	$loop 5 1 >/dev/null
	echo 0 >events/fte/pc/enable
	check pc-is-site [ "$(grep -c " pc: (.* pc=0x$site lr=" trace)" = 5 ]
fi

# Arming and disarming under load: a probe on kmem_cache_free(), which
# every CPU keeps calling, enabled and disabled 40 times, with the function
# tracer switched on and off over the same site in each round, while a
# worker per CPU forks, reads and frees. Each switch rewrites a live call
# site as other CPUs run it (an int3 of x86's text poking executed after
# the poke, or a stale BRK or branch on arm64, is an oops the host sees).
# Every write must succeed, the probe must have fired, none of its hits
# missed on arm64 (the series' handler), and the site be left unarmed.
echo >trace
echo 'p:fte/hot kmem_cache_free' >>kprobe_events
cpus=$(grep -c '^processor' /proc/cpuinfo)
# load_rounds LOG: the 40 rounds beside a worker per CPU, each write's
# error in LOG; $bad counts the rounds that failed. Every task started
# before it that stops on /tmp/fte.stop is waited for too.
load_rounds() {
	w=0
	# ls's complaints about a task that exits between its readdir and
	# its stat are no finding, and filled the console.
	while [ $w -lt "$cpus" ]; do
		(while [ ! -e /tmp/fte.stop ]; do ls /proc >/dev/null 2>&1; done) &
		w=$((w + 1))
	done
	bad=0
	round=0
	while [ $round -lt 40 ]; do
		{ echo 1 >events/fte/hot/enable &&
		  echo kmem_cache_free >set_ftrace_filter &&
		  echo function >current_tracer && echo nop >current_tracer &&
		  echo 0 >events/fte/hot/enable; } 2>>"$1" || bad=$((bad + 1))
		round=$((round + 1))
	done
	touch /tmp/fte.stop
	wait
	rm -f /tmp/fte.stop
	echo >set_ftrace_filter
}
load_rounds /tmp/fte.load
hot_hits=$(hits hot)
hot_missed=$(awk '$1 == "hot" { print $3 }' kprobe_profile)
echo "40 rounds, $bad failed writes, $hot_hits hits, $hot_missed missed" >>/tmp/fte.load
under_load() {
	[ $bad = 0 ] && [ "${hot_hits:-0}" -gt 0 ] &&
		{ [ "$(uname -m)" != aarch64 ] || [ "$hot_missed" = 0 ]; } &&
		! grep -q kmem_cache_free enabled_functions
}
if under_load; then
	result ftrace-entry PASS armed-under-load
else
	result ftrace-entry FAIL armed-under-load
	log_file ftrace-entry armed-under-load /tmp/fte.load
fi

# The same rounds beside a probe that stays enabled, so that the kprobes'
# ftrace_ops stays registered and each write adds or removes one address
# of its filter: ftrace patches the hot site alone. The probe that stays
# counts every getppid call that a loop makes meanwhile, none missed.
echo "p:fte/stay $f" >>kprobe_events
echo 1 >events/fte/stay/enable
before=$(hits stay)
(n=0; while [ ! -e /tmp/fte.stop ]; do
	$loop 100 1 >/dev/null; n=$((n + 100)); done; echo $n >/tmp/fte.calls) &
load_rounds /tmp/fte.beside
echo 0 >events/fte/stay/enable
calls=$(cat /tmp/fte.calls)
counted=$(($(hits stay) - before))
stay_missed=$(awk '$1 == "stay" { print $3 }' kprobe_profile)
echo "40 rounds, $bad failed writes, $(($(hits hot) - hot_hits)) hot hits," \
	"$calls calls, $counted counted, $stay_missed missed" >>/tmp/fte.beside
beside() {
	[ $bad = 0 ] && [ "$(hits hot)" -gt "${hot_hits:-0}" ] &&
		[ "$counted" = "$calls" ] && [ "$stay_missed" = 0 ] &&
		! grep -q kmem_cache_free enabled_functions && ! in_enabled
}
if beside; then
	result ftrace-entry PASS armed-beside-another
else
	result ftrace-entry FAIL armed-beside-another
	log_file ftrace-entry armed-beside-another /tmp/fte.beside
fi

# Forty-odd probes enabled in one write (the filter set whole), disabled
# one event at a time and enabled again so (one address each), then
# disabled in one write: enabled_functions holds one site per armed probe
# at every step. Functions that kprobes refuse or that kallsyms names
# twice are left out.
clean_slate
base=$(grep -c . enabled_functions)
n=0
for fn in $(grep -E '^vfs_[a-z_]+$' available_filter_functions | sort -u); do
	[ $n -lt 44 ] || break
	grep -q "[[:space:]]$fn\$" /sys/kernel/debug/kprobes/blacklist && continue
	echo "p:fte1/m$n $fn" >>kprobe_events 2>/dev/null || continue
	n=$((n + 1))
done
steps=""
# sites WANT STEP: note STEP unless enabled_functions holds WANT more sites.
sites() {
	[ "$(grep -c . enabled_functions)" = $((base + $1)) ] ||
		steps="$steps $2($(grep -c . enabled_functions)-$base/$1)"
}
echo 1 >events/fte1/enable
sites $n group-on
i=0
while [ $i -lt $n ]; do
	echo 0 >events/fte1/m$i/enable
	i=$((i + 1))
	sites $((n - i)) off$i
done
i=0
while [ $i -lt $n ]; do
	echo 1 >events/fte1/m$i/enable
	i=$((i + 1))
	sites $i on$i
done
echo 0 >events/fte1/enable
sites 0 group-off
echo "$n probes, steps off: ${steps:-none}" >/tmp/fte.each
if [ $n -gt 32 ] && [ -z "$steps" ]; then
	result ftrace-entry PASS one-at-a-time
else
	result ftrace-entry FAIL one-at-a-time
	log_file ftrace-entry one-at-a-time /tmp/fte.each
fi

clean_slate
left_none() { [ ! -s $list ] && ! in_enabled; }
check nothing-left left_none
