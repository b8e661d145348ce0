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
#include <linux/uprobes.h>

#include <asm/gcs.h>

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

int arch_uprobe_analyze_insn(struct arch_uprobe *auprobe, struct mm_struct *mm,
			     unsigned long addr)
{
	const struct probe_insn_class *class;

	if (mm->context.flags & MMCF_AARCH32)
		return -EOPNOTSUPP;
	if (!IS_ALIGNED(addr, AARCH64_INSN_SIZE))
		return -EINVAL;

	class = probe_decode(le32_to_cpu(auprobe->insn));
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
