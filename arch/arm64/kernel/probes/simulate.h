/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Instructions that a probe carries out in C rather than out of line, and
 * the fields of their encodings, which the detours of optimized probes
 * read and rewrite too.
 */
#ifndef __ARM64_KERNEL_PROBES_SIMULATE_H
#define __ARM64_KERNEL_PROBES_SIMULATE_H

#include <linux/align.h>
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <asm/probes.h>

probe_simulate_t sim_nop;
probe_simulate_t sim_b;
probe_simulate_t sim_b_cond;
probe_simulate_t sim_cbz;
probe_simulate_t sim_tbz;
probe_simulate_t sim_br;
probe_simulate_t sim_adr;
probe_simulate_t sim_ldr_literal;
probe_simulate_t sim_ldr_fp_literal;
probe_simulate_t sim_pac_lr;
probe_simulate_t sim_mrs_daif;
probe_simulate_t sim_frame_pointer;
probe_simulate_t sim_push_frame;

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

#endif /* __ARM64_KERNEL_PROBES_SIMULATE_H */
