/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What kprobes and uprobes on arm64 share: an instruction and the routine
 * that simulates it.
 */
#ifndef __ASM_PROBES_H
#define __ASM_PROBES_H

#include <asm/insn.h>

struct pt_regs;

typedef u32 probe_opcode_t;

/*
 * A simulation routine: entered with regs->pc at the probed instruction,
 * it leaves regs->pc at the instruction to execute next.
 */
typedef void (probe_simulate_t)(u32 insn, struct pt_regs *regs);

#ifdef CONFIG_KPROBES
typedef u32 kprobe_opcode_t;

/**
 * struct arch_specific_insn - how a kprobe runs the instruction it replaced
 * @slot: the out-of-line copy followed by a BRK, or NULL when simulated
 * @simulate: the simulation routine, when @slot is NULL
 */
struct arch_specific_insn {
	kprobe_opcode_t *slot;
	probe_simulate_t *simulate;
};
#endif

#endif /* __ASM_PROBES_H */
