/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space probes on arm64.
 */
#ifndef __ASM_UPROBES_H
#define __ASM_UPROBES_H

#include <asm/debug-monitors.h>
#include <asm/insn.h>
#include <asm/probes.h>

#define UPROBE_SWBP_INSN	cpu_to_le32(BRK64_OPCODE_UPROBES)
#define UPROBE_SWBP_INSN_SIZE	AARCH64_INSN_SIZE
#define UPROBE_XOL_SLOT_BYTES	AARCH64_INSN_SIZE

typedef __le32 uprobe_opcode_t;

struct arch_uprobe_task {
};

/**
 * struct arch_uprobe - how a uprobe runs the instruction it replaced
 * @insn: the instruction, as read from the file
 * @ixol: what the out-of-line slot holds: the same instruction
 * @simulate: the simulation routine, or NULL to step @ixol
 * @func_entry: the instruction is one that opens a function before it
 *	pushes its frame record: at it, the caller's return address is in
 *	x30 and in no frame record yet
 */
struct arch_uprobe {
	union {
		__le32 insn;
		__le32 ixol;
	};
	probe_simulate_t *simulate;
	bool func_entry;
};

int uprobe_brk_handler(struct pt_regs *regs, unsigned long esr);
#ifdef CONFIG_UPROBES
int uprobe_single_step_handler(struct pt_regs *regs, unsigned long esr);
bool is_uprobe_at_func_entry(const struct pt_regs *regs);
#else
static inline int uprobe_single_step_handler(struct pt_regs *regs,
					     unsigned long esr)
{
	return DBG_HOOK_ERROR;
}

static inline bool is_uprobe_at_func_entry(const struct pt_regs *regs)
{
	return false;
}
#endif

#endif /* __ASM_UPROBES_H */
