#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: The interrupt and preemption toggles' parents, as recorded
# requires: CONFIG_FRAME_POINTER CONFIG_IRQSOFF_TRACER CONFIG_PREEMPT_TRACER events/preemptirq
# The irq_disable, irq_enable, preempt_disable and preempt_enable events
# record a toggle's caller and its parent, the caller's caller (beyond
# the lock functions for preemption), and the irqsoff tracer starts its
# trace with the section's first toggle and its parent. The series looks
# the parent up only while one of these records it, so each event is
# enabled alone, and the tracer alone: a parent left out is 0, which an
# event prints as an address in no symbol (0x...) and the tracer as
# "<-0". The records of an event being disabled are kept: none may go
# out without its parent as the keys flip. Without frame pointers an
# architecture may have no parent to give (x86's ftrace_return_address()
# is 0 then).
. /harness/lib.sh
cd /sys/kernel/tracing || exit 1
clean_slate

show_state() {
	echo "records without a parent:"; grep -E ' parent=0x|<-0$' /tmp/pi.trace | head
	echo "trace:"; head -40 /tmp/pi.trace
}
check() { check_that preemptirq "$@"; }

# Some toggles, a lock's among them.
work() {
	for i in 1 2 3 4; do
		cat /proc/self/stat /sys/kernel/tracing/README >/dev/null
	done
	sleep 0.2
}

for ev in irq_disable irq_enable preempt_disable preempt_enable; do
	echo 1 >events/preemptirq/$ev/enable
	# What the event recorded while it was being enabled goes.
	echo >trace
	work
	echo 0 >events/preemptirq/$ev/enable
	grep " $ev: " trace >/tmp/pi.trace
	echo >trace
	check "$ev-recorded" [ -s /tmp/pi.trace ]
	check "$ev-parents" [ "$(grep -c ' parent=0x' /tmp/pi.trace)" -eq 0 ]
done

# The trace of the longest section yet, read while the tracer is set.
# On a kernel built with KASAN and lockdep (make check-debug's), setting
# 7.3's irqsoff tracer stalls both of the guest's CPUs for good under
# QEMU's emulation, on upstream's kernel as on the series' (soft lockups
# from 22 s on, an idle CPU and the writing task's): not tried there.
if has_config KASAN && has_config PROVE_LOCKING; then
	result preemptirq SKIP irqsoff-recorded
	result preemptirq SKIP irqsoff-parents
else
	echo irqsoff >current_tracer
	work
	cat trace >/tmp/pi.trace
	echo nop >current_tracer
	echo >trace
	check irqsoff-recorded grep -q '=> started at: [A-Za-z_]' /tmp/pi.trace
	check irqsoff-parents [ "$(grep -c '<-0$' /tmp/pi.trace)" -eq 0 ]
fi

clean_slate
