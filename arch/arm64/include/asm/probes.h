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
 * it leaves regs->pc at the instruction to execute next and returns true.
 * Only a uprobe's simulation of a store may return false: the store would
 * fault, nothing has changed, and the instruction is to be stepped, so that
 * the fault and the signal are the instruction's own.
 */
typedef bool (probe_simulate_t)(u32 insn, struct pt_regs *regs);

#ifdef CONFIG_KPROBES
typedef u32 kprobe_opcode_t;

/**
 * struct arch_specific_insn - how a kprobe runs the instruction it replaced
 * @run: its out-of-line slot (the copy, then a BRK), or the routine that
 *	simulates it, tagged with PROBE_RUN_SIMULATE; read through
 *	probe_slot() and probe_simulate()
 *
 * One word rather than two: struct kprobe is then 104 bytes, and the
 * generic core's struct optimized_kprobe around it, one of which it
 * allocates for every registered probe, fits kmalloc-128 rather than
 * kmalloc-192.
 */
struct arch_specific_insn {
	unsigned long run;
};

/* Code is 4-byte aligned: bit 0 of a slot or a routine's address is free. */
#define PROBE_RUN_SIMULATE	1UL

static inline kprobe_opcode_t *probe_slot(const struct arch_specific_insn *ai)
{
	return ai->run & PROBE_RUN_SIMULATE ? NULL : (kprobe_opcode_t *)ai->run;
}

static inline probe_simulate_t *
probe_simulate(const struct arch_specific_insn *ai)
{
	return ai->run & PROBE_RUN_SIMULATE ?
	       (probe_simulate_t *)(ai->run & ~PROBE_RUN_SIMULATE) : NULL;
}
#endif

#endif /* __ASM_PROBES_H */
