// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the probes' assembly (opt-trampoline.S, kretprobe-trampoline.S)
 * reads of C structures and constants, generated as probes-asm-offsets.h.
 */
#define COMPILE_OFFSETS

#include <linux/kbuild.h>
#include <linux/kprobes.h>
#include <linux/log2.h>

static void __used probes_asm_offsets(void)
{
	OFFSET(KP_LIST, kprobe, list);
	OFFSET(KP_ADDR, kprobe, addr);
	OFFSET(KP_PRE_HANDLER, kprobe, pre_handler);
	OFFSET(KP_FLAGS, kprobe, flags);
	DEFINE(KP_DISABLED_BIT, ilog2(KPROBE_FLAG_DISABLED));
	BLANK();
	OFFSET(KCB_STATUS, kprobe_ctlblk, kprobe_status);
	DEFINE(KCB_HIT_ACTIVE, KPROBE_HIT_ACTIVE);
}
