/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A64 instruction classes, as kprobes and uprobes see them.
 */
#ifndef __ARM64_KERNEL_PROBES_DECODE_H
#define __ARM64_KERNEL_PROBES_DECODE_H

#include <linux/types.h>
#include <asm/probes.h>

/**
 * enum probe_action - what a probe does with the instruction it replaces
 * @PROBE_REJECT: no probe may be placed on it.
 * @PROBE_STEP: execute it out of line, from a slot holding a copy.
 * @PROBE_SIMULATE: carry out its effect on the saved registers in C.
 */
enum probe_action {
	PROBE_REJECT,
	PROBE_STEP,
	PROBE_SIMULATE,
};

/**
 * struct probe_insn_class - one row of the decoding table
 * @mask: the bits that identify the class
 * @value: their value for this class
 * @kernel: the action for a kprobe
 * @user: the action for a uprobe
 * @simulate: the routine, for rows whose action is PROBE_SIMULATE
 * @name: the class, as the Arm ARM names it, for messages
 */
struct probe_insn_class {
	u32 mask;
	u32 value;
	u8 kernel;
	u8 user;
	probe_simulate_t *simulate;
	const char *name;
};

const struct probe_insn_class *probe_decode(u32 insn);

#endif /* __ARM64_KERNEL_PROBES_DECODE_H */
