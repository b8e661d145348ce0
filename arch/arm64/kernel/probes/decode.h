/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A64 instruction classes, as kprobes, uprobes and optimized kprobes see
 * them, and the fields of the encodings they read.
 */
#ifndef __ARM64_KERNEL_PROBES_DECODE_H
#define __ARM64_KERNEL_PROBES_DECODE_H

#include <linux/align.h>
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/sizes.h>
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

/*
 * The fields of the encodings that the simulation and the detours read or
 * rewrite, as the Arm ARM lays them out: every reader goes through these
 * with FIELD_GET() and FIELD_PREP().
 */
#define A64_RT		GENMASK(4, 0)	/* also Rd */
#define A64_RN		GENMASK(9, 5)
#define A64_IMM26	GENMASK(25, 0)	/* B, BL */
#define A64_IMM19	GENMASK(23, 5)	/* CB[N]Z, B.cond, LDR (literal) */
#define A64_IMM14	GENMASK(18, 5)	/* TB[N]Z */
#define A64_IMMHI	GENMASK(23, 5)	/* ADR, ADRP */
#define A64_IMMLO	GENMASK(30, 29)
#define A64_ADR_PAGE	BIT(31)		/* ADRP rather than ADR */
#define A64_LDR_OPC	GENMASK(31, 30)	/* LDR (literal): W, X, SW; S, D, Q */

/* The PC-relative offsets, in bytes, sign-extended. */
static inline s64 probe_imm26_offset(u32 insn)
{
	return sign_extend64((u64)FIELD_GET(A64_IMM26, insn) << 2, 27);
}

static inline s64 probe_imm19_offset(u32 insn)
{
	return sign_extend64((u64)FIELD_GET(A64_IMM19, insn) << 2, 20);
}

static inline s64 probe_imm14_offset(u32 insn)
{
	return sign_extend64((u64)FIELD_GET(A64_IMM14, insn) << 2, 15);
}

/* The address ADR or ADRP at @pc computes: immhi:immlo, bytes or 4KB pages. */
static inline u64 probe_adr_value(u32 insn, u64 pc)
{
	s64 imm = sign_extend64(FIELD_GET(A64_IMMHI, insn) << 2 |
				FIELD_GET(A64_IMMLO, insn), 20);

	if (insn & A64_ADR_PAGE)
		return ALIGN_DOWN(pc, SZ_4K) + (imm << 12);
	return pc + imm;
}

#endif /* __ARM64_KERNEL_PROBES_DECODE_H */
