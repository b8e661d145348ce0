// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel probes on arm64: the breakpoint, the out-of-line step and the
 * simulation of what cannot be stepped.
 *
 * A probe replaces its instruction with BRK #KPROBES_BRK_IMM. When the BRK
 * is hit, the pre-handler runs; then the instruction is either simulated
 * (see decode.c for which) or executed from a slot, a copy of it followed by
 * BRK #KPROBES_BRK_SS_IMM, whose exception brings control back to run the
 * post-handler and resume after the probe.
 *
 * Why a BRK after the slot rather than hardware single step: a BRK needs no
 * MDSCR_EL1 state, so it cannot disturb a debugger or kgdb using the
 * debug registers, and its exception is taken only on the slot's way out,
 * never on the way in. The slot runs with DAIF masked, so nothing else can
 * be taken on this CPU while the PC is in the slot and the per-CPU state
 * describes it.
 */

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/extable.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/string.h>

#include <asm/daifflags.h>
#include <asm/debug-monitors.h>
#include <asm/insn.h>
#include <asm/ptrace.h>
#include <asm/sections.h>

#include "decode.h"
#include "patch.h"

DEFINE_PER_CPU(struct kprobe *, current_kprobe);
DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/*
 * The Arm ARM recommends at most 128 bytes between a load-exclusive and its
 * store-exclusive; look that far back for the start of a sequence.
 */
#define EXCLUSIVE_WINDOW	(128 / AARCH64_INSN_SIZE)

/*
 * Whether @addr lies between a load-exclusive and its store-exclusive. A
 * probe there would clear the exclusive monitor on every pass, and the
 * sequence would never complete. The search stops at the start of the
 * function, as far as kallsyms knows it.
 *
 * Only the exclusives open and close a sequence: LDXR, LDAXR, LDXP and
 * LDAXP, STXR, STLXR, STXP and STLXP (o2 = 0), which is what
 * aarch64_insn_is_load_ex() and aarch64_insn_is_store_ex() match, the
 * decoding table's rows too, but for CASP, an atomic instruction of the
 * same space. LDAR, STLR and their kin (o2 = 1) leave the monitor alone:
 * neither opens a sequence after which probes are refused, nor closes one.
 */
static bool in_exclusive_sequence(kprobe_opcode_t *addr)
{
	unsigned long size, offset;
	kprobe_opcode_t *p, *stop;

	if (!kallsyms_lookup_size_offset((unsigned long)addr, &size, &offset))
		return false;
	stop = addr - min_t(unsigned long, offset / AARCH64_INSN_SIZE,
			    EXCLUSIVE_WINDOW);
	for (p = addr - 1; p >= stop; p--) {
		u32 insn = le32_to_cpu(*p);

		if (aarch64_insn_is_casp(insn))
			continue;
		if (aarch64_insn_is_store_ex(insn))
			return false;
		if (aarch64_insn_is_load_ex(insn))
			return true;
	}
	return false;
}

/*
 * Whether @addr may hold a kCFI type hash. With CFI (kCFI) the word before
 * a function that can be called through a pointer is its type's hash,
 * which every such call reads and compares first, and which decodes as
 * some instruction. A BRK in its place fails the next call's check. Which
 * functions have a hash kallsyms cannot say, so the word before each
 * function is refused.
 */
static bool is_cfi_type_hash(kprobe_opcode_t *addr)
{
	unsigned long size, offset;

	return IS_ENABLED(CONFIG_CFI) &&
	       kallsyms_lookup_size_offset((unsigned long)(addr + 1), &size,
					   &offset) &&
	       !offset;
}

/*
 * The hooks that prepare, arm, disarm and remove a probe write the kernel's
 * text and the slots, with text_mutex held. Like the rest of the backend,
 * they are no place for a probe: .kprobes.text.
 */
int __kprobes arch_prepare_kprobe(struct kprobe *p)
{
	const struct probe_insn_class *class;
	kprobe_opcode_t *slot;
	__le32 insns[MAX_INSN_SIZE];

	if (!IS_ALIGNED((unsigned long)p->addr, AARCH64_INSN_SIZE))
		return -EINVAL;
	/* A fixup would resume at the wrong place after a slot or in C. */
	if (search_exception_tables((unsigned long)p->addr))
		return -EINVAL;
	if (is_cfi_type_hash(p->addr)) {
		pr_debug("cannot probe a kCFI type hash at %pS\n", p->addr);
		return -EINVAL;
	}

	p->opcode = le32_to_cpu(*p->addr);
	class = probe_decode(p->opcode);
	if (class->kernel == PROBE_REJECT) {
		pr_debug("cannot probe %s at %pS\n", class->name, p->addr);
		return -EINVAL;
	}
	if (in_exclusive_sequence(p->addr)) {
		pr_debug("cannot probe inside an exclusive sequence at %pS\n",
			 p->addr);
		return -EINVAL;
	}

	if (class->kernel == PROBE_SIMULATE) {
		p->ainsn.run = (unsigned long)class->simulate | PROBE_RUN_SIMULATE;
		return 0;
	}

	slot = get_insn_slot();
	if (!slot)
		return -ENOMEM;
	/*
	 * The slot is written before the probe's BRK is, and reached only
	 * through that BRK's exception, which synchronises the context: no
	 * CPU can fetch a stale slot, so no ISB is needed here.
	 */
	insns[0] = cpu_to_le32(p->opcode);
	insns[1] = cpu_to_le32(BRK64_OPCODE_KPROBES_SS);
	if (probe_write_code(slot, insns, sizeof(insns))) {
		free_insn_slot(slot, 0);
		return -EFAULT;
	}
	p->ainsn.run = (unsigned long)slot;
	return 0;
}

/*
 * A probe disabled and enabled again before the optimizer has taken its
 * branch out is armed while the core still counts it as optimized, and the
 * core then only takes it off the unoptimizing list: it gets its branch
 * back, where a BRK would leave it on the breakpoint path for good.
 */
void __kprobes arch_arm_kprobe(struct kprobe *p)
{
	probe_patch_site(p, probe_armed_insn(p));
}

void __kprobes arch_disarm_kprobe(struct kprobe *p)
{
	probe_patch_site(p, p->opcode);
}

void __kprobes arch_remove_kprobe(struct kprobe *p)
{
	kprobe_opcode_t *slot = probe_slot(&p->ainsn);

	if (slot) {
		free_insn_slot(slot, 0);
		p->ainsn.run = 0;
	}
}

/*
 * The slot runs with DAIF masked; the probed code's own DAIF bits wait in
 * the control block until the CPU leaves the slot.
 */
static void __kprobes enter_slot(struct kprobe *p, struct kprobe_ctlblk *kcb,
				 struct pt_regs *regs)
{
	kcb->saved_daif = regs->pstate & DAIF_MASK;
	regs->pstate |= DAIF_MASK;
	instruction_pointer_set(regs, (unsigned long)probe_slot(&p->ainsn));
}

static void __kprobes leave_slot(struct kprobe_ctlblk *kcb,
				 struct pt_regs *regs, kprobe_opcode_t *pc)
{
	regs->pstate = (regs->pstate & ~DAIF_MASK) | kcb->saved_daif;
	instruction_pointer_set(regs, (unsigned long)pc);
}

/* A reentered probe is done: hand the CPU back to the probe it interrupted. */
static void __kprobes resume_outer(struct kprobe_ctlblk *kcb)
{
	__this_cpu_write(current_kprobe, kcb->outer);
	kcb->kprobe_status = kcb->outer_status;
	kcb->saved_daif = kcb->outer_daif;
}

/*
 * The instruction has run, from its slot or in C. A reentered probe hands
 * the CPU back to the probe it interrupted; any other runs its
 * post-handler and is done.
 */
static void __kprobes finish_kprobe(struct kprobe *p,
				    struct kprobe_ctlblk *kcb,
				    struct pt_regs *regs)
{
	if (kcb->kprobe_status == KPROBE_REENTER) {
		resume_outer(kcb);
		return;
	}
	kcb->kprobe_status = KPROBE_HIT_SSDONE;
	if (p->post_handler)
		p->post_handler(p, regs, 0);
	reset_current_kprobe();
}

/* Run the probed instruction: in C, or from the slot on the way out. */
static void __kprobes run_probed_insn(struct kprobe *p,
				      struct kprobe_ctlblk *kcb,
				      struct pt_regs *regs)
{
	probe_simulate_t *simulate = probe_simulate(&p->ainsn);

	/*
	 * The BRK, compatible with every BTYPE, was the landing pad of the
	 * branch that led here; the exception kept that branch's BTYPE.
	 * Whether simulated or run from its slot, the probed instruction
	 * has now landed: clear it, as arm64_skip_faulting_instruction()
	 * does, so that no later instruction is checked as a pad.
	 */
	regs->pstate &= ~PSR_BTYPE_MASK;
	if (simulate) {
		simulate(p->opcode, regs);
		finish_kprobe(p, kcb, regs);
		return;
	}
	if (kcb->kprobe_status != KPROBE_REENTER)
		kcb->kprobe_status = KPROBE_HIT_SS;
	enter_slot(p, kcb, regs);
}

/*
 * A probe hit while another's handling is under way on this CPU, from one
 * of its handlers: the new probe's handlers are skipped and counted as
 * missed, its instruction still runs. One level only: a probe hit while a
 * reentered one runs its instruction means the probes are in the path of
 * their own handling, which cannot be recovered from.
 */
static void __kprobes reenter_kprobe(struct kprobe *p,
				     struct kprobe_ctlblk *kcb,
				     struct pt_regs *regs)
{
	if (kcb->kprobe_status == KPROBE_REENTER) {
		dump_kprobe(p);
		panic("kprobes: probe at %pS hit while running a reentered probe\n",
		      p->addr);
	}
	kcb->outer = kprobe_running();
	kcb->outer_status = kcb->kprobe_status;
	kcb->outer_daif = kcb->saved_daif;
	__this_cpu_write(current_kprobe, p);
	kcb->kprobe_status = KPROBE_REENTER;
	kprobes_inc_nmissed_count(p);
	run_probed_insn(p, kcb, regs);
}

/**
 * kprobe_brk_handler() - a CPU hit the BRK of a kprobe
 * @regs: the state of the probed code
 * @esr: the syndrome of the BRK
 *
 * Return: DBG_HOOK_HANDLED, or DBG_HOOK_ERROR for a BRK no probe owns.
 */
int __kprobes kprobe_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe *p = get_kprobe((void *)instruction_pointer(regs));

	/* A kprobes BRK with no probe: something else wrote it. */
	if (WARN_ON_ONCE(!p))
		return DBG_HOOK_ERROR;

	if (kprobe_running()) {
		reenter_kprobe(p, kcb, regs);
		return DBG_HOOK_HANDLED;
	}

	__this_cpu_write(current_kprobe, p);
	kcb->kprobe_status = KPROBE_HIT_ACTIVE;
	/*
	 * A pre-handler that returns non-zero has set the PC itself, as
	 * bpf_override_return() does when it returns to x30. Resuming there
	 * is a return, not the branch that reached the BRK: drop that
	 * branch's BTYPE, or the next instruction, no landing pad, would
	 * take a Branch Target exception.
	 */
	if (p->pre_handler && p->pre_handler(p, regs)) {
		regs->pstate &= ~PSR_BTYPE_MASK;
		reset_current_kprobe();
	} else {
		run_probed_insn(p, kcb, regs);
	}
	return DBG_HOOK_HANDLED;
}

/**
 * kprobe_ss_brk_handler() - a CPU left a slot through its BRK
 * @regs: the state after the stepped instruction
 * @esr: the syndrome of the BRK
 *
 * Return: DBG_HOOK_HANDLED, or DBG_HOOK_ERROR for a BRK outside the
 * current probe's slot.
 */
int __kprobes kprobe_ss_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe *p = kprobe_running();
	kprobe_opcode_t *slot = p ? probe_slot(&p->ainsn) : NULL;

	if (!slot || instruction_pointer(regs) != (unsigned long)(slot + 1))
		return DBG_HOOK_ERROR;

	leave_slot(kcb, regs, p->addr + 1);
	finish_kprobe(p, kcb, regs);
	return DBG_HOOK_HANDLED;
}

/**
 * kprobe_fault_handler() - a fault was taken while a kprobe is running
 * @regs: the state at the fault
 * @fsr: the fault's syndrome
 *
 * A fault of the stepped instruction itself is rewound to the probed
 * address, with the probe's state dropped, so that the fault is handled
 * (and reported) as if the original instruction had taken it. Faults in
 * the handlers are left to the usual handling, fixups included.
 *
 * Return: 0, always: the fault handling goes on.
 */
int __kprobes kprobe_fault_handler(struct pt_regs *regs, unsigned int fsr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe *p = kprobe_running();
	kprobe_opcode_t *slot = probe_slot(&p->ainsn);

	if (!slot || instruction_pointer(regs) != (unsigned long)slot)
		return 0;
	if (kcb->kprobe_status != KPROBE_HIT_SS &&
	    kcb->kprobe_status != KPROBE_REENTER)
		return 0;

	leave_slot(kcb, regs, p->addr);
	if (kcb->kprobe_status == KPROBE_REENTER)
		resume_outer(kcb);
	else
		reset_current_kprobe();
	return 0;
}

/*
 * Text that runs where a probe's BRK could not be handled. The identity
 * map's and hibernation's text need no entry: they live outside the
 * kernel's text, where no probe is accepted at all.
 */
struct text_range {
	const char *start;
	const char *end;
};

static const struct text_range unprobeable_text[] __initconst = {
	/* Exception entry and return: the handler's state is not set up. */
	{ __entry_text_start, __entry_text_end },
	{ __irqentry_text_start, __irqentry_text_end },
	/*
	 * Runs at EL2 without the kernel's exception vectors, or (with VHE)
	 * with a guest's state loaded.
	 */
	{ __hyp_idmap_text_start, __hyp_idmap_text_end },
	{ __hyp_text_start, __hyp_text_end },
};

int __init arch_populate_kprobe_blacklist(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(unprobeable_text); i++) {
		ret = kprobe_add_area_blacklist((unsigned long)unprobeable_text[i].start,
						(unsigned long)unprobeable_text[i].end);
		if (ret)
			return ret;
	}
	return 0;
}

int __init arch_init_kprobes(void)
{
	return 0;
}
