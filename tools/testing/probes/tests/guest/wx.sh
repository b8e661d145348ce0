#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: W^X: no kernel mapping writable and executable while probes write text and slots
# requires: kprobe_events CONFIG_PTDUMP_DEBUGFS
# W^X. Probes write kernel text and put code in memory of their own: the
# slots that step an instruction out of line and the detours of optimized
# probes (the kprobes core's insn and optinsn pages). None of that may
# leave a kernel mapping both writable and executable, and the pages that
# hold such code must be read-only while it is in use: code is written
# through a temporary alias (the text poke), never through a writable
# executable mapping. Read from the kernel's page table dump
# (PTDUMP_DEBUGFS) at boot, with 1,000 probes enabled and the optimizer
# done, after they are disabled, and after they are deleted. The slot
# pages in use are those kallsyms names [__builtin__kprobes].
. /harness/lib.sh
cd /sys/kernel/tracing
for dump in /sys/kernel/debug/kernel_page_tables /sys/kernel/debug/page_tables/kernel; do
	[ -r $dump ] && break
done
[ -r "$dump" ] || exit 0
log=/tmp/wx.log
list=/sys/kernel/debug/kprobes/list
clean_slate

# The dump's mappings that are writable and executable (both arm64's and
# x86's dumps print "RW" or "ro", and "x" or "NX"; arm64's "F" marks an
# entry that is not valid).
wx() {
	awk '$1 ~ /^0x/ {
		w = x = f = 0
		for (i = 2; i <= NF; i++) {
			if ($i == "RW") w = 1
			if ($i == "x") x = 1
			if ($i == "F") f = 1
		}
		if (w && x && !f) print
	}' "$dump"
}

# mapping ADDR: the dump's line whose range holds ADDR (16 hex digits;
# compared as strings, as awk's numbers are doubles).
mapping() {
	awk -v a="x$1" '$1 ~ /^0x/ {
		split($1, r, "-")
		if ("x" substr(r[1], 3) <= a && a < "x" substr(r[2], 3)) { print; exit }
	}' "$dump"
}

no_wx() { # NAME
	wx >$log
	if [ -s $log ]; then
		result wx FAIL "$1"
		log_file wx "$1" $log
	else
		result wx PASS "$1"
	fi
}

# Every slot page in use, and the code in the kernel's image that probes
# branch to, is mapped read-only and executable.
ro_x() { awk '{ r = x = 0; for (i = 1; i <= NF; i++) { if ($i == "ro") r = 1; if ($i == "x") x = 1 } exit !(r && x) }'; }
slots_read_only() { # NAME
	awk '$4 == "[__builtin__kprobes]" { print $1 }' /proc/kallsyms >/tmp/wx.slots
	# (x86's optprobe_template_entry is data: a template detours copy.)
	awk '$3 == "__kretprobe_trampoline" || $3 == "optprobe_common" { print $1 }' \
		/proc/kallsyms >/tmp/wx.code
	: >$log
	bad=0
	# shellcheck disable=SC2013
	for a in $(cat /tmp/wx.slots /tmp/wx.code); do
		m=$(mapping "$a")
		echo "$a: $m" >>$log
		echo "$m" | ro_x || bad=$((bad + 1))
	done
	if [ $bad -eq 0 ] && [ -s /tmp/wx.slots ]; then
		result wx PASS "$1"
	else
		result wx FAIL "$1"
		cat /tmp/wx.count >>$log
		log_file wx "$1" $log
	fi
}

no_wx none-at-boot

# 1,000 probes on the instructions of stress.sh's busy functions: each
# stepped from a slot or, on arm64, optimized into a detour (on x86 a
# probe on a function's entry would be ftrace's, with neither), and a
# kretprobe.
awk '{ for (i = 2; i <= NF; i++) print $1 "+" $i }' /harness/stress.funcs |
	head -n 1000 | awk '{ printf "p:wx/p%d %s\n", NR, $1 }' >/tmp/wx.defs
echo "r:wx/ret $(sed -n 's/^func //p' /harness/bench.offsets)" >>/tmp/wx.defs
/harness/progs/write_lines kprobe_events </tmp/wx.defs >/dev/null
echo 1 >events/wx/enable
# The optimizer switches probes in from a worker: wait until the count of
# optimized probes stops changing.
n=-1
for _ in 1 2 3 4 5 6 7 8 9 10; do
	sleep 1
	m=$(grep -c OPTIMIZED $list)
	[ "$m" = "$n" ] && break
	n=$m
done
/harness/progs/getppid_loop 100 1 >/dev/null
echo "optimized $n of $(grep -c '^p:wx/' kprobe_events)" >/tmp/wx.count
no_wx none-with-1000-enabled
slots_read_only slots-read-only-with-1000-enabled
echo 0 >events/wx/enable
no_wx none-after-disable
echo >kprobe_events
no_wx none-after-delete
clean_slate
