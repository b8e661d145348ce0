// SPDX-License-Identifier: GPL-2.0-only
/*
 * Return probes on arm64.
 *
 * At the entry of a probed function, x30 is swapped for the address of
 * __kretprobe_trampoline. The function returns into it, and it calls
 * kretprobe_return_handler() to run the return handlers and find the real
 * return address, which it then returns to. The entry probe sits before
 * the function's PACIASP, so the function signs, and later authenticates,
 * the trampoline's address: the swap is invisible to return-address
 * signing.
 */

#include <linux/kprobes.h>

#include <asm/debug-monitors.h>
#include <asm/ptrace.h>

void __kprobes arch_prepare_kretprobe(struct kretprobe_instance *ri,
				      struct pt_regs *regs)
{
	ri->ret_addr = (kprobe_opcode_t *)procedure_link_pointer(regs);
	/*
	 * The caller's frame record: the same when the function returns,
	 * it tells this instance from those of recursive calls.
	 */
	ri->fp = (void *)regs->regs[29];
	procedure_link_pointer_set(regs, (unsigned long)__kretprobe_trampoline);
}

/*
 * The probe the CPU is busy with while the return handlers run: a probe
 * they hit is then counted as missed, as kprobe_busy_begin() arranges.
 */
static struct kprobe kretprobe_busy = {
	.addr = (kprobe_opcode_t *)__kretprobe_trampoline,
};

/**
 * kretprobe_return_handler() - a probed function returned into the trampoline
 * @regs: its registers at the return, saved by the trampoline
 *
 * What kretprobe_trampoline_handler() does, but with preemption disabled
 * without the preempt tracer's hooks, as for an optimized probe's hit:
 * this runs on every return of a probed function, and the hooks of
 * kprobe_busy_begin() and kprobe_busy_end() would cost more than the
 * rest of it.
 *
 * Return: the address the function was called from, to return to.
 */
unsigned long __kprobes kretprobe_return_handler(struct pt_regs *regs)
{
	unsigned long ret;

	preempt_disable_notrace();
	__this_cpu_write(current_kprobe, &kretprobe_busy);
	get_kprobe_ctlblk()->kprobe_status = KPROBE_HIT_ACTIVE;
	ret = __kretprobe_trampoline_handler(regs, (void *)regs->regs[29]);
	__this_cpu_write(current_kprobe, NULL);
	preempt_enable_notrace();
	return ret;
}

/**
 * kretprobe_brk_handler() - a BRK with the kretprobe immediate
 * @regs: the state at the BRK
 * @esr: its syndrome
 *
 * The trampoline takes no exception: no BRK of the kernel's has this
 * immediate any more, and one that is hit is not ours.
 *
 * Return: DBG_HOOK_ERROR.
 */
int __kprobes kretprobe_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	return DBG_HOOK_ERROR;
}

int arch_trampoline_kprobe(struct kprobe *p)
{
	return 0;
}
