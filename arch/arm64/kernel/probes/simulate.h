/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Instructions that a probe carries out in C rather than out of line, and
 * the values of their encodings that the detours of optimized probes
 * compute too.
 */
#ifndef __ARM64_KERNEL_PROBES_SIMULATE_H
#define __ARM64_KERNEL_PROBES_SIMULATE_H

#include <linux/align.h>
#include <linux/bitops.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <asm/insn.h>
#include <asm/probes.h>

/* The routines, each a probe_simulate_t. */
#define PROBE_SIMULATION(routine)	extern probe_simulate_t routine
#include "simulations.h"

/* simulate-fp.S: load the 16 bytes at @q into vector register @n. */
void probe_load_vreg(unsigned int n, const u8 *q);

/*
 * The byte offset a PC-relative field of @bits bits (asm/insn.h's @type),
 * which counts words, gives: sign-extended from its top bit.
 */
static inline s64 probe_pcrel_offset(enum aarch64_insn_imm_type type,
				     int bits, u32 insn)
{
	return sign_extend64(aarch64_insn_decode_immediate(type, insn) << 2,
			     bits + 1);
}

/* B, BL */
static inline s64 probe_imm26_offset(u32 insn)
{
	return probe_pcrel_offset(AARCH64_INSN_IMM_26, 26, insn);
}

/* CB[N]Z, B.cond, BC.cond, LDR (literal) */
static inline s64 probe_imm19_offset(u32 insn)
{
	return probe_pcrel_offset(AARCH64_INSN_IMM_19, 19, insn);
}

/* TB[N]Z */
static inline s64 probe_imm14_offset(u32 insn)
{
	return probe_pcrel_offset(AARCH64_INSN_IMM_14, 14, insn);
}

/* The address ADR or ADRP at @pc computes: immhi:immlo, bytes or 4KB pages. */
static inline u64 probe_adr_value(u32 insn, u64 pc)
{
	s64 imm = sign_extend64(aarch64_insn_decode_immediate(AARCH64_INSN_IMM_ADR,
							      insn), 20);

	if (aarch64_insn_is_adrp(insn))
		return ALIGN_DOWN(pc, SZ_4K) + (imm << 12);
	return pc + imm;
}

/*
 * The bytes an LDR (literal) loads. Its opc, bits 31:30, is W, X or SW
 * for a general register, S, D or Q for a SIMD&FP one.
 */
static inline unsigned int probe_ldr_literal_size(u32 insn)
{
	return aarch64_insn_is_ldrsw_lit(insn) ? 4 : 4 << (insn >> 30);
}

#endif /* __ARM64_KERNEL_PROBES_SIMULATE_H */
