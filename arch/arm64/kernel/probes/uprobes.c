// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space probes on arm64: the architecture's part under the generic
 * uprobes core.
 *
 * A uprobe's BRK is handled in the task's context. Its instruction is
 * simulated when decode.c says so; otherwise the core copies it to the
 * task's out-of-line area and the task executes it there under hardware
 * single step, which, unlike a BRK after the slot, needs no second slot word
 * and is already how ptrace steps user code.
 */

#include <linux/cacheflush.h>
#include <linux/highmem.h>
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/gcs.h>
#include <asm/pointer_auth.h>

#include "decode.h"

/*
 * No fault sets thread.fault_code to this value: if it changes while the
 * task steps its slot, the stepped instruction trapped.
 */
#define XOL_NOT_TRAPPED		UINT_MAX

void arch_uprobe_copy_ixol(struct page *page, unsigned long vaddr,
			   void *src, unsigned long len)
{
	unsigned long slot = (unsigned long)kmap_local_page(page) +
			     offset_in_page(vaddr);

	memcpy((void *)slot, src, len);
	/* The task fetches the slot through its own mapping of the page. */
	sync_icache_aliases(slot, slot + len);
	kunmap_local((void *)slot);
}

/* A BRK leaves the PC at itself. */
unsigned long uprobe_get_swbp_addr(struct pt_regs *regs)
{
	return instruction_pointer(regs);
}

/*
 * Whether @insn is one that a function executes before it pushes its frame
 * record, and only there: while it has not run, the caller's return address
 * is in x30 alone and x29 still points at the caller's own record, so a
 * walk of the frame records from x29 misses the caller. Each is the first
 * instruction of functions built some way:
 * - PACIASP, PACIBSP: with return address signing (pac-ret), which signs
 *   x30 before the push saves it; the instruction is then the landing pad
 *   of an indirect call as well, and no BTI C comes before it;
 * - BTI C: with BTI and no return address signing; it marks where an
 *   indirect call may land, a function's entry or a PLT entry, not where
 *   a branch within a function lands (BTI J);
 * - STP x29, x30, [SP, #-N]!: with frame pointers and no branch protection,
 *   the push itself, where the record is at the bottom of a frame small
 *   enough for the instruction's offset (512 bytes).
 * A function can open otherwise: with a SUB from SP, for a larger frame or
 * a record above the locals, or with whatever its body starts with when it
 * pushes no record at all (a leaf). called_to_pc() finds those entries that
 * a BL reached.
 */
static bool insn_opens_function(u32 insn)
{
	if (insn == aarch64_insn_gen_hint(AARCH64_INSN_HINT_PACIASP) ||
	    insn == aarch64_insn_gen_hint(AARCH64_INSN_HINT_PACIBSP) ||
	    insn == aarch64_insn_gen_hint(AARCH64_INSN_HINT_BTIC))
		return true;

	/* 64-bit registers, and imm7 negative: SP goes down. */
	return aarch64_insn_is_stp_pre(insn) && (insn & BIT(31)) &&
	       aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RT, insn) ==
			AARCH64_INSN_REG_FP &&
	       aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RT2, insn) ==
			AARCH64_INSN_REG_LR &&
	       aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RN, insn) ==
			AARCH64_INSN_REG_SP &&
	       (aarch64_insn_decode_immediate(AARCH64_INSN_IMM_7, insn) & BIT(6));
}

int arch_uprobe_analyze_insn(struct arch_uprobe *auprobe, struct mm_struct *mm,
			     unsigned long addr)
{
	const struct probe_insn_class *class;
	u32 insn = le32_to_cpu(auprobe->insn);

	if (mm->context.flags & MMCF_AARCH32)
		return -EOPNOTSUPP;
	if (!IS_ALIGNED(addr, AARCH64_INSN_SIZE))
		return -EINVAL;

	auprobe->func_entry = insn_opens_function(insn);
	class = probe_decode(insn);
	switch (class->user) {
	case PROBE_SIMULATE:
		auprobe->simulate = class->simulate;
		return 0;
	case PROBE_STEP:
		auprobe->simulate = NULL;
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * Whether a BL called the task to its PC: x30 is then the address after
 * that BL, and the BL branches to the PC: the task is at the first
 * instruction of a function it has just entered (or branched back to, as
 * a loop made of a tail call does), with nothing pushed, whatever that
 * instruction is: the body of a leaf, which pushes no frame record; a SUB
 * that makes a large frame; the NOP of a USDT probe. A function entered
 * through a pointer or a PLT entry is not told by this; its instruction
 * may tell it (insn_opens_function()).
 */
static bool called_to_pc(const struct pt_regs *regs)
{
	unsigned long ret = ptrauth_strip_user_insn_pac(regs->regs[30]);
	unsigned long bl = ret - AARCH64_INSN_SIZE;
	__le32 insn;

	/* Any context: the unwinder may run in an NMI. */
	if (!IS_ALIGNED(ret, AARCH64_INSN_SIZE) ||
	    copy_from_user_nofault(&insn, (const void __user *)bl, sizeof(insn)))
		return false;

	return aarch64_insn_is_bl(le32_to_cpu(insn)) &&
	       bl + aarch64_get_branch_offset(le32_to_cpu(insn)) == regs->pc;
}

/**
 * is_uprobe_at_func_entry() - whether the task is at a function's entry
 * @regs: the task's user registers, which the user unwinder walks
 *
 * While the handlers of a uprobe run, the generic core keeps the uprobe in
 * the task's utask->auprobe, and @regs are as the BRK left them, at the
 * probed instruction. The user unwinder asks, to add the caller that no
 * frame record names yet (see arch_stack_walk_user()).
 *
 * Return: true while the current task runs the handlers of a uprobe at a
 * function's entry, before the function pushes its frame record: the
 * caller's return address is then in x30.
 */
bool is_uprobe_at_func_entry(const struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	if (!utask || !utask->auprobe)
		return false;
	return utask->auprobe->func_entry || called_to_pc(regs);
}

bool arch_uprobe_skip_sstep(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	u64 btype = regs->pstate & PSR_BTYPE_MASK;

	if (!auprobe->simulate)
		return false;
	/* Landed, as in run_probed_insn(): see there. */
	regs->pstate &= ~PSR_BTYPE_MASK;
	if (auprobe->simulate(le32_to_cpu(auprobe->insn), regs))
		return true;
	/* A store that would fault: the step takes the fault, as it was. */
	regs->pstate |= btype;
	return false;
}

int arch_uprobe_pre_xol(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	current->thread.fault_code = XOL_NOT_TRAPPED;
	instruction_pointer_set(regs, current->utask->xol_vaddr);
	user_enable_single_step(current);
	return 0;
}

int arch_uprobe_post_xol(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	WARN_ON_ONCE(current->thread.fault_code != XOL_NOT_TRAPPED);
	instruction_pointer_set(regs, current->utask->vaddr + AARCH64_INSN_SIZE);
	user_disable_single_step(current);
	return 0;
}

bool arch_uprobe_xol_was_trapped(struct task_struct *t)
{
	return t->thread.fault_code != XOL_NOT_TRAPPED;
}

/* The task is leaving the slot for a signal: back to the probed address. */
void arch_uprobe_abort_xol(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	instruction_pointer_set(regs, current->utask->vaddr);
	user_disable_single_step(current);
}

/*
 * Whether a return instance is still live: the frame that called the
 * probed function is not popped while SP is at or below it. A chained
 * call (a tail branch into another probed function) returns with the same
 * SP, hence the equality for that case.
 */
bool arch_uretprobe_is_alive(struct return_instance *ret, enum rp_check ctx,
			     struct pt_regs *regs)
{
	if (ctx == RP_CHECK_CHAIN_CALL)
		return regs->sp <= ret->stack;
	return regs->sp < ret->stack;
}

/*
 * At a function's entry, x30 holds the return address; the trampoline
 * takes its place. With the task's GCS enabled, the BL that called the
 * function pushed the same address there, and the function's RET will
 * compare the two: the GCS entry is replaced too, or the return to the
 * trampoline faults. Where the two differ, the probe is not at an entry
 * (or x30 has been signed since), and the core is told to skip the return
 * probe (-1) rather than leave a return the GCS would refuse.
 */
unsigned long arch_uretprobe_hijack_return_addr(unsigned long trampoline_vaddr,
						struct pt_regs *regs)
{
	unsigned long ret = procedure_link_pointer(regs);

	if (task_gcs_el0_enabled(current)) {
		unsigned long __user *gcspr;
		int err = 0;

		gcspr = (unsigned long __user *)read_sysreg_s(SYS_GCSPR_EL0);
		if (get_user_gcs(gcspr, &err) != ret && !err)
			return -1;
		if (!err)
			put_user_gcs(trampoline_vaddr, gcspr, &err);
		if (err) {
			force_sig_fault(SIGSEGV, SEGV_ACCERR, gcspr);
			return -1;
		}
	}
	procedure_link_pointer_set(regs, trampoline_vaddr);
	return ret;
}

int arch_uprobe_exception_notify(struct notifier_block *self,
				 unsigned long val, void *data)
{
	return NOTIFY_DONE;
}

/*
 * The generic core expects the hit to be handled on the way back to user
 * space: the notifiers set TIF_UPROBE, and exit_to_user_mode() calls
 * uprobe_notify_resume() from its work loop, after masking interrupts to
 * look at the flags and unmasking them again to run the work. arm64 calls
 * do_el0_brk64() and do_el0_softstep() with interrupts unmasked and
 * preemption enabled, the context of that work, so the handlers below run
 * it at once: a hit then masks and unmasks interrupts once less, which is
 * not cheap where their tracing is on, and each check the work loop makes
 * after it finds nothing left to do. uprobe_notify_resume() clears
 * TIF_UPROBE, so the loop does not run the work a second time, and it
 * runs before any signal the hit raises is delivered, as from the loop.
 */

/**
 * uprobe_brk_handler() - a task hit the BRK of a uprobe
 * @regs: the task's state
 * @esr: the syndrome of the BRK
 *
 * Return: DBG_HOOK_HANDLED, or DBG_HOOK_ERROR when no uprobe owns the BRK.
 */
int uprobe_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	if (!uprobe_pre_sstep_notifier(regs))
		return DBG_HOOK_ERROR;
	uprobe_notify_resume(regs);
	return DBG_HOOK_HANDLED;
}

/**
 * uprobe_single_step_handler() - a task stepped its out-of-line slot
 * @regs: the task's state
 * @esr: the syndrome of the step exception
 *
 * Return: DBG_HOOK_HANDLED, or DBG_HOOK_ERROR when the step is not a
 * uprobe's.
 */
int uprobe_single_step_handler(struct pt_regs *regs, unsigned long esr)
{
	struct uprobe_task *utask = current->utask;

	WARN_ON(utask && instruction_pointer(regs) !=
			 utask->xol_vaddr + AARCH64_INSN_SIZE);
	if (!uprobe_post_sstep_notifier(regs))
		return DBG_HOOK_ERROR;
	uprobe_notify_resume(regs);
	return DBG_HOOK_HANDLED;
}
