#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: Where no probe may sit: exception entry, noinstr, the kprobes core, outside the text, a jump label
# requires: kprobe_events /sys/bus/event_source/devices/kprobe
# Where no probe may sit. A breakpoint in the code that takes or returns
# from an exception, in noinstr code (entered before the kernel's state
# is set up), in the kprobes core and the backend's handlers (.kprobes.text
# and the NOKPROBE_SYMBOL list), or outside the kernel's text (arm64's
# identity map, EL2's text), would be hit where it cannot be handled. For
# each such region found in kallsyms:
#   - a kprobe at every instruction of it (every byte on x86, where an
#     instruction may start anywhere), through the kprobe PMU by address,
#     is refused (progs/pmu_probe sweep);
#   - a kprobe event at its first instruction, through kprobe_events, is
#     refused with an error_log entry whose caret is under the address.
# Then the same for the first instruction of the functions a probe hit
# runs through, where this kernel has them (names of both the series and
# upstream; each kernel has some of them). With kCFI, the type hash
# words before functions are landing-pads.sh's. And a jump label's site
# in a function that may be probed at its entry is refused.
. /harness/lib.sh
cd /sys/kernel/tracing
[ -d /sys/bus/event_source/devices/kprobe ] || exit 0
prog=/harness/progs/pmu_probe
log=/tmp/unprobeable.log
clean_slate

# plus ADDR N: ADDR + N, in hex. The kernel's text lies in one 4 GiB
# window, and ash's arithmetic is signed: only the low half is added.
plus() {
	lo=$((0x${1#????????} + $2))
	[ $lo -lt 4294967296 ] && printf '%s%08x' "${1%????????}" $lo
}
fail() { # NAME: the log says why
	result unprobeable FAIL "$1"
	log_file unprobeable "$1" $log
}

# refused_by_tracefs NAME ADDR: the definition is refused, and the last
# error in error_log is the failed registration, its caret under ADDR.
refused_by_tracefs() {
	# Region names have hyphens, which an event name may not have.
	cmd="p:unprobeable/$(echo "$1" | tr - _) 0x$2"
	echo >error_log
	if echo "$cmd" >>kprobe_events 2>/dev/null; then
		echo "accepted: $cmd" >$log
		return 1
	fi
	pad=$(printf '%*s' $((11 + ${#cmd} - ${#2} - 2)) '')
	tail -n 3 error_log >$log
	sed -n 1p $log | grep -q ' error: Failed to register probe event$' &&
		[ "$(sed -n 2p $log)" = "  Command: $cmd" ] &&
		[ "$(sed -n 3p $log)" = "$pad^" ]
}

# region NAME START-SYMBOL END-SYMBOL|+SIZE
region() {
	start=$(ksym "$2")
	case $3 in
	+*) [ -n "$start" ] && end=$(plus "$start" "${3#+}") ;;
	*) end=$(ksym "$3") ;;
	esac
	# Absent or empty on this kernel (KVM's text without KVM).
	[ -n "$start" ] && [ -n "$end" ] && [ "$start" != "$end" ] || return 0
	$prog sweep "$start" "$end" "$step" >$log 2>&1
	if grep -q '^accepted 0 of [1-9]' $log; then
		result unprobeable PASS "$1-every-instruction"
	else
		fail "$1-every-instruction"
	fi
	if refused_by_tracefs "$1" "$start"; then
		result unprobeable PASS "$1-error-log"
	else
		fail "$1-error-log"
	fi
}

# The control: the same two ways accept a probe on an ordinary function,
# the getppid handler's first instructions.
control() {
	bench_points
	start=$(ksym "$f")
	$prog sweep "$start" "$(plus "$start" 16)" "$step" >$log 2>&1
	if grep -q '^accepted [1-9]' $log &&
	   echo "p:unprobeable/control 0x$start" >>kprobe_events; then
		result unprobeable PASS control-accepted
	else
		fail control-accepted
	fi
	clean_slate
}

# A jump label's site (jump.sites, from the kernel's jump table; none
# without CONFIG_JUMP_LABEL, as x86_64's small config has it) in a
# function ftrace lists, whose entry, on its ftrace site, is accepted:
# the site itself is refused, by address and through kprobe_events. The
# core walks the jump table for every probe but one on an ftrace site.
jump_label() {
	if ! has_config JUMP_LABEL; then
		result unprobeable SKIP jump-label-site
		return
	fi
	awk 'NR == FNR { listed[$1] = 1; next } $1 in listed { print; exit }' \
		available_filter_functions /harness/jump.sites >/tmp/jump.site
	read -r fn off </tmp/jump.site || { fail jump-label-site; return; }
	if echo "p:unprobeable/jump_label_entry $fn" >>kprobe_events; then
		result unprobeable PASS jump-label-entry-accepted
	else
		fail jump-label-entry-accepted
	fi
	clean_slate
	addr=$(plus "$(ksym "$fn")" "$off")
	$prog sweep "$addr" "$(plus "$addr" "$step")" "$step" >$log 2>&1
	if grep -q '^accepted 0 of 1$' $log; then
		result unprobeable PASS jump-label-site
	else
		echo "$fn+$off" >>$log
		fail jump-label-site
	fi
	if refused_by_tracefs jump-label "$addr"; then
		result unprobeable PASS jump-label-error-log
	else
		fail jump-label-error-log
	fi
}

case $(uname -m) in
aarch64)
	step=4
	region vectors vectors +0x800
	region entry __entry_text_start __entry_text_end
	region irqentry __irqentry_text_start __irqentry_text_end
	region noinstr __noinstr_text_start __noinstr_text_end
	region kprobes __kprobes_text_start __kprobes_text_end
	region idmap __idmap_text_start __idmap_text_end
	region hyp-idmap __hyp_idmap_text_start __hyp_idmap_text_end
	region hyp __hyp_text_start __hyp_text_end
	# The BRK and step exceptions' way to the backend, and the backend.
	handlers="el1_dbg do_debug_exception call_el1_break_hook brk_handler
		single_step_handler kprobe_breakpoint_handler
		kprobe_breakpoint_ss_handler kretprobe_breakpoint_handler
		kprobe_brk_handler kprobe_ss_brk_handler kretprobe_brk_handler
		kprobe_fault_handler __kretprobe_trampoline optprobe_common"
	;;
x86_64)
	step=1
	region entry __entry_text_start __entry_text_end
	region irqentry __irqentry_text_start __irqentry_text_end
	region noinstr __noinstr_text_start __noinstr_text_end
	region kprobes __kprobes_text_start __kprobes_text_end
	handlers="exc_int3 kprobe_int3_handler kprobe_fault_handler
		__kretprobe_trampoline optprobe_template_func"
	;;
esac
control
jump_label
# The generic core's and the probe events' part of a hit.
handlers="$handlers get_kprobe aggr_pre_handler opt_pre_handler
	pre_handler_kretprobe __kretprobe_trampoline_handler
	kprobes_inc_nmissed_count kprobe_dispatcher kretprobe_dispatcher
	store_trace_entry_data"
for h in $handlers; do
	addr=$(ksym "$h")
	[ -n "$addr" ] || continue
	if refused_by_tracefs "$h" "$addr"; then
		result unprobeable PASS "handler-$h"
	else
		fail "handler-$h"
	fi
done
clean_slate
