#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: uprobes under a guarded control stack (GCS), and uprobes on MOPS sequences
# requires: arch:aarch64 uprobe_events
# uprobes under a guarded control stack (progs/arm64/gcs_target.S). The BL,
# BLR and RET that a uprobe simulates must push to and pop from a task's
# GCS as the CPU would, and a uretprobe's hijack of x30 must replace the
# GCS's top entry with it, or the task's next RET takes a control
# protection fault (SIGSEGV, SEGV_CPERR) far from the probe. Where x30 is
# not what the GCS holds, mid-function, the return probe must be skipped.
# And MOPS (CPY*, SET*): the three instructions of a sequence must run back
# to back, so a uprobe on one is refused when it is enabled (with the
# program mapped).
#
# GCS is FEAT_GCS of Armv9.4, which bookworm's QEMU 7.2 does not emulate:
# the GCS checks report one SKIP there (no-gcs); newqemu.sh's QEMU has it
# (make check-gcs). The MOPS refusals need no CPU support: they run on any.
. /harness/lib.sh
# arm64's own GCS and decoder: nothing of it on other guests.
[ "$(uname -m)" = aarch64 ] || exit 0
prog=/harness/progs/gcs_target
cd /sys/kernel/tracing
if [ ! -e uprobe_events ]; then
	result gcs SKIP no-uprobe-events
	exit 0
fi
clean_slate
log=/tmp/gcs.log

features=" $(sed -n 's/^Features[[:space:]]*: *//p' /proc/cpuinfo | head -n 1) "
has_feature() { case $features in *" $1 "*) return 0 ;; esac; return 1; }

off() { sed -n "s/^\([0-9a-fx]*\) $1\$/\1/p" "$prog.syms"; }

# uprobe [r] LABEL [ARGS...]: define gcs/LABEL, a uprobe on gcs_target's
# LABEL, or with r gcs/r_LABEL, a return probe.
uprobe() {
	if [ "$1" = r ]; then
		shift
		set -- "r:gcs/r_$1 $prog:$(off "$1")" "$@"
	else
		set -- "p:gcs/$1 $prog:$(off "$1")" "$@"
	fi
	def="$1"
	shift 2
	echo "$def $*" >>uprobe_events || echo "refused: $def $*" >>$log
}

# verdict NAME OK: PASS if OK is 0, else FAIL with the log.
verdict() {
	if [ "$2" = 0 ]; then
		result gcs PASS "$1"
	else
		result gcs FAIL "$1"
		log_file gcs "$1" $log
	fi
}

# ---- MOPS ----------------------------------------------------------------

# The program waits, mapped, while a uprobe on each instruction of its two
# sequences is enabled: the write must fail, and leave nothing behind (on a
# CPU with MOPS, the program then runs them right).
mkfifo /tmp/gcs.fifo
exec 4<>/tmp/gcs.fifo
: >/tmp/gcs.ready
$prog mops <&4 >/tmp/gcs.ready &
pid=$!
n=0
while [ ! -s /tmp/gcs.ready ] && [ $n -lt 100 ]; do
	usleep 100000
	n=$((n + 1))
done
for insn in cpyp cpym cpye setp setm sete; do
	: >$log
	uprobe mops_$insn
	if [ ! -s /tmp/gcs.ready ]; then
		echo "the program never said it was ready" >>$log
		ok=1
	elif echo 1 >events/gcs/mops_$insn/enable 2>>$log; then
		echo "a uprobe on $insn was enabled" >>$log
		echo 0 >events/gcs/mops_$insn/enable
		ok=1
	else
		ok=$(cat events/gcs/mops_$insn/enable)
	fi
	echo "-:gcs/mops_$insn" >>uprobe_events
	verdict mops-uprobe-$insn "$ok"
done
if has_feature mops; then
	echo go >&4
	wait $pid
	rc=$?
	echo "exit status $rc (0: the copy and the fill came out right)" >$log
	verdict mops-runs-after-refusal $rc
else
	# Its MOPS would be undefined instructions here.
	kill $pid
	wait $pid 2>/dev/null
fi
exec 4>&-
rm -f /tmp/gcs.fifo

# Enabled with no task mapping the program, the uprobes are accepted (there
# is nothing to analyse yet), and the exec that maps it must leave the
# refused instructions as they are.
if has_feature mops; then
	: >$log
	for insn in cpyp cpym cpye setp setm sete; do
		uprobe mops_$insn
	done
	echo >trace
	echo 1 >events/gcs/enable 2>>$log
	$prog mops </dev/null >/dev/null
	rc=$?
	echo 0 >events/gcs/enable
	hits=$(grep -c ' mops_' trace)
	echo "exit status $rc, $hits hits" >>$log
	[ $rc -eq 0 ] && [ "$hits" -eq 0 ]
	verdict mops-not-installed-at-exec $?
	clean_slate
fi

# No kprobe here: the kernel's MOPS are all in arch/arm64/lib's assembly
# (memcpy, memset, clear_page...), which has no ftrace call site, and
# kprobe events refuse such a "notrace" function before the decoder sees
# the instruction. The arm64_kprobes_insn KUnit suite registers a kprobe
# on a CPYFP itself (refused_test).

# ---- GCS -----------------------------------------------------------------

if ! has_feature gcs; then
	result gcs SKIP no-gcs
	exit 0
fi

# decode: the gcs events of the trace, one a line: the event's name, then
# what it shows with each address named by gcs_target's label there
# ("probe_bl probe_bl", "leaf_bl leaf_bl lr=after_bl", "r_leaf_bl after_bl
# <- leaf_bl ret=0xb"). The program is static, loaded where it was linked:
# its base is taken from the first event, at its own label's offset.
base=
label() {
	o=$(printf '0x%x' $(($1 - base)))
	l=$(sed -n "s/^$o //p" "$prog.syms" | head -n 1)
	echo "${l:-?$o}"
}
decode() {
	sed -n 's/^.* \([a-z_]*\): (\([^)]*\))\(.*\)$/\1 \2\3/p' trace |
	while read -r ev a rest; do
		if [ -z "$base" ]; then
			case $ev in
			r_*) set -- $rest; base=$(($2 - $(off "${ev#r_}"))) ;;
			*) base=$((a - $(off "$ev"))) ;;
			esac
		fi
		line="$ev $(label "$a")"
		for w in $rest; do
			case $w in
			0x*) line="$line $(label "$w")" ;;
			lr=0x*) line="$line lr=$(label "${w#lr=}")" ;;
			*) line="$line $w" ;;
			esac
		done
		echo "$line"
	done
}

# run NAME WANT-STATUS [ARG]: run the program with the probes defined
# since the last clean_slate enabled, and check its exit status; the trace
# is left for check_trace.
run() {
	echo >trace
	[ ! -d events/gcs ] || echo 1 >events/gcs/enable 2>>$log
	$prog ${3:-}
	rc=$?
	[ ! -d events/gcs ] || echo 0 >events/gcs/enable
	echo "exit status $rc, want $2" >>$log
	[ -z "${3:-}" ] ||
		echo "(with \"$3\": the SIGSEGV's si_code, plus 64 if si_addr is not bad_ret)" >>$log
	[ $rc -eq "$2" ]
	verdict "$1" $?
}

# check_trace NAME: the decoded trace must be /tmp/gcs.want.
check_trace() {
	decode >/tmp/gcs.got
	cmp -s /tmp/gcs.got /tmp/gcs.want
	ok=$?
	{ echo "want:"; cat /tmp/gcs.want; echo "got:"; cat /tmp/gcs.got; } >>$log
	verdict "$1" $ok
}

# want_rounds KIND: the events of the ten rounds, for probes KIND: "calls"
# (the BLs, the BLR, the RETs and the entries, with x30), "returns" (return
# probes on the two leaves, with their results) or "both" (the two sets,
# the first without x30: at a RET it is the trampoline's address).
want_rounds() {
	i=10
	while [ $i -gt 0 ]; do
		bl=$(printf 'ret=0x%x' $((i + 1)))
		blr=$(printf 'ret=0x%x' $((i * 2)))
		case $1 in
		calls)
			echo "probe_bl probe_bl"
			echo "leaf_bl leaf_bl lr=after_bl"
			echo "ret_bl ret_bl lr=after_bl"
			echo "probe_blr probe_blr"
			echo "leaf_blr leaf_blr lr=after_blr"
			echo "ret_blr ret_blr lr=after_blr"
			echo "probe_bl_nonleaf probe_bl_nonleaf"
			echo "nonleaf nonleaf lr=after_nonleaf"
			echo "probe_bl_inner probe_bl_inner"
			echo "leaf_bl leaf_bl lr=probe_mid"
			echo "ret_bl ret_bl lr=probe_mid"
			echo "ret_nonleaf ret_nonleaf lr=after_nonleaf"
			;;
		returns)
			echo "r_leaf_bl after_bl <- leaf_bl $bl"
			echo "r_leaf_blr after_blr <- leaf_blr $blr"
			echo "r_leaf_bl probe_mid <- leaf_bl $bl"
			;;
		both)
			for e in probe_bl leaf_bl ret_bl; do echo "$e $e"; done
			echo "r_leaf_bl after_bl <- leaf_bl $bl"
			for e in probe_blr leaf_blr ret_blr; do echo "$e $e"; done
			echo "r_leaf_blr after_blr <- leaf_blr $blr"
			for e in probe_bl_nonleaf nonleaf probe_bl_inner leaf_bl ret_bl; do
				echo "$e $e"
			done
			echo "r_leaf_bl probe_mid <- leaf_bl $bl"
			echo "ret_nonleaf ret_nonleaf"
			;;
		esac
		i=$((i - 1))
	done >/tmp/gcs.want
}

# Each scenario below starts its log afresh: the definitions refused, the
# exit status, the trace wanted and got.
clean_slate
# Without probes: the calls keep the GCS right, and GCS is enforced (a RET
# to where x30 was changed to faults), or the rest would prove nothing.
: >$log
run plain 0
: >$log
run enforced 10 c

# uprobes on the BLs, the BLR, the RETs and the functions' entries (landing
# pads and a frame push), all simulated; ARGS on the entries and RETs.
call_probes() {
	for l in probe_bl probe_blr probe_bl_nonleaf probe_bl_inner; do
		uprobe $l
	done
	for l in leaf_bl ret_bl leaf_blr ret_blr nonleaf ret_nonleaf; do
		uprobe $l "$@"
	done
}
: >$log
call_probes lr=%x30
run simulated-calls 0
want_rounds calls
check_trace simulated-calls-recorded
clean_slate

# Return probes on the two leaves, one called with BL from two callers, the
# other with BLR: each return's caller, and its value.
: >$log
uprobe r leaf_bl ret=%x0
uprobe r leaf_blr ret=%x0
run uretprobes 0
want_rounds returns
check_trace uretprobes-recorded

# Both at once: the leaves' RETs, simulated, return to the trampoline
# through the GCS entry that the hijack replaced.
: >$log
call_probes
run uretprobes-and-simulated-calls 0
want_rounds both
check_trace uretprobes-and-simulated-calls-recorded
clean_slate

# A return probe mid-function, after a call: x30 is the address of
# probe_mid, not what the GCS holds. The hijack must be skipped (no return
# event), not replace the GCS entry that nonleaf's RET will check.
: >$log
uprobe probe_mid
uprobe r probe_mid
run uretprobe-mid-function 0
i=0
while [ $i -lt 10 ]; do
	echo "probe_mid probe_mid"
	i=$((i + 1))
done >/tmp/gcs.want
check_trace uretprobe-mid-function-skipped
clean_slate

# A probed RET that GCS refuses: the simulation must fault as the CPU
# does, SEGV_CPERR at the RET, not return where x30 says.
: >$log
uprobe probe_bl_bad
uprobe bad_leaf
uprobe bad_ret
run probed-ret-refused 10 c
printf '%s\n' "probe_bl_bad probe_bl_bad" "bad_leaf bad_leaf" \
	"bad_ret bad_ret" >/tmp/gcs.want
check_trace probed-ret-refused-recorded
clean_slate
