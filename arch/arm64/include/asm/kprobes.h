/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel probes on arm64.
 */
#ifndef __ASM_KPROBES_H
#define __ASM_KPROBES_H

#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/types.h>

#include <asm/probes.h>

/* The generic slot allocator; a slot holds the copy and a BRK after it. */
#define __ARCH_WANT_KPROBES_INSN_SLOT
#define MAX_INSN_SIZE			2

#define kretprobe_blacklist_size	0

#ifdef CONFIG_OPTPROBES
/*
 * An optimized probe replaces its one instruction with a B to a detour of
 * MAX_OPTINSN_SIZE instructions (opt.c lays it out).
 */
#define MAX_OPTIMIZED_LENGTH		AARCH64_INSN_SIZE
#define MAX_OPTINSN_SIZE		16

/*
 * That one B is patched as the BRK is, while other CPUs run it: there is
 * no middle of a jump a preempted task could return into, and the
 * optimizer need not wait for RCU tasks before it writes one.
 */
#define arch_optprobe_replaces_one_insn()	true

/**
 * struct arch_optimized_insn - the detour of an optimized probe
 * @detour: its slot, within branch range of the probe; NULL until ready
 */
struct arch_optimized_insn {
	kprobe_opcode_t *detour;
};
#endif

struct kprobe;

/* A slot is written through aarch64_insn_patch_text_nosync(), which syncs. */
static inline void flush_insn_slot(struct kprobe *p)
{
}

/**
 * struct kprobe_ctlblk - the per-CPU state of the probe being handled
 * @kprobe_status: where its handling is (KPROBE_HIT_ACTIVE, ...)
 * @saved_daif: the DAIF bits of the probed code, while stepping masks them
 * @outer: the probe whose handling a reentered probe interrupted
 * @outer_status: its @kprobe_status
 * @outer_daif: its @saved_daif
 * @saved_irqflags: what masking interrupts for the handlers of a hit
 *	through ftrace saved: the probed code's DAIF bits, or under
 *	pseudo-NMI its priority mask
 * @ftrace_regs: the pt_regs that a hit through ftrace on the core's
 *	aggregate of probes hands on, made from ftrace's registers, here
 *	rather than in the aggregate's frame. While it is in use this CPU's
 *	current_kprobe is set, and any other hit on the CPU through ftrace
 *	is missed before it could touch it.
 */
struct kprobe_ctlblk {
	unsigned int kprobe_status;
	unsigned long saved_daif;
	struct kprobe *outer;
	unsigned int outer_status;
	unsigned long outer_daif;
#ifdef CONFIG_KPROBES_ON_FTRACE
	unsigned long saved_irqflags;
	struct pt_regs ftrace_regs;
#endif
};

void arch_remove_kprobe(struct kprobe *p);
int kprobe_fault_handler(struct pt_regs *regs, unsigned int fsr);
void __kretprobe_trampoline(void);
extern struct kprobe kretprobe_busy;

#endif /* CONFIG_KPROBES */

int kprobe_brk_handler(struct pt_regs *regs, unsigned long esr);
int kprobe_ss_brk_handler(struct pt_regs *regs, unsigned long esr);
int kretprobe_brk_handler(struct pt_regs *regs, unsigned long esr);

#endif /* __ASM_KPROBES_H */
