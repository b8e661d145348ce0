/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A64 instruction classes, as kprobes, uprobes and optimized kprobes see
 * them.
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
 * enum probe_opt_action - what an optimized kprobe's detour does in place
 *	of the instruction, before it branches back
 * @OPT_KEEP: nothing can: the probe keeps its breakpoint.
 * @OPT_COPY: run the instruction itself; it does not read the PC.
 * @OPT_PAD: the same, but the instruction is a landing pad of BTI: where
 *	the kernel runs with BTI, the probe keeps its breakpoint.
 * @OPT_SKIP: nothing: the instruction has no effect to carry out.
 * @OPT_B: branch to its target (B).
 * @OPT_BL: set x30 to the probe's next instruction, then branch (BL).
 * @OPT_COND19: run it retargeted, its imm19 offset leading to a branch
 *	to its target (CBZ, CBNZ, B.cond, BC.cond).
 * @OPT_COND14: the same with an imm14 offset (TBZ, TBNZ).
 * @OPT_ADR: load the address it computes, known when the detour is
 *	built (ADR, ADRP).
 * @OPT_LDR_LIT: load the literal's address, then load from it.
 */
enum probe_opt_action {
	OPT_KEEP,
	OPT_COPY,
	OPT_PAD,
	OPT_SKIP,
	OPT_B,
	OPT_BL,
	OPT_COND19,
	OPT_COND14,
	OPT_ADR,
	OPT_LDR_LIT,
};

/**
 * struct probe_insn_class - one row of the decoding table
 * @mask: the bits that identify the class
 * @value: their value for this class
 * @kernel: the action for a kprobe (enum probe_action)
 * @user: the action for a uprobe (enum probe_action)
 * @opt: the action for an optimized kprobe's detour (enum probe_opt_action)
 * @simulate: the routine, for rows whose action is PROBE_SIMULATE
 * @name: the class, as the Arm ARM names it, for messages
 */
struct probe_insn_class {
	u32 mask;
	u32 value;
	u8 kernel;
	u8 user;
	u8 opt;
	probe_simulate_t *simulate;
	const char *name;
};

const struct probe_insn_class *probe_decode(u32 insn);

#endif /* __ARM64_KERNEL_PROBES_DECODE_H */
