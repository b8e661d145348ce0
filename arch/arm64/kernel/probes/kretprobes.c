// SPDX-License-Identifier: GPL-2.0-only
/*
 * Return probes on arm64.
 *
 * At the entry of a probed function, x30 is swapped for the address of
 * __kretprobe_trampoline. The function returns into it, and it runs the
 * return handlers and returns to the real return address, which the core
 * finds. The entry probe sits before the function's PACIASP, so the
 * function signs, and later authenticates, the trampoline's address: the
 * swap is invisible to return-address signing.
 */

#include <linux/ftrace.h>
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

#ifdef CONFIG_HAVE_KPROBES_FREGS_HANDLER
/*
 * The same at an ftrace site, on the registers ftrace_caller saved and
 * reloads: x30 is there as the link register, x29 as the frame pointer.
 */
void __kprobes arch_prepare_kretprobe_fregs(struct kretprobe_instance *ri,
					    struct ftrace_regs *fregs)
{
	struct __arch_ftrace_regs *af = arch_ftrace_regs(fregs);

	ri->ret_addr = (kprobe_opcode_t *)af->lr;
	ri->fp = (void *)af->fp;
	af->lr = (unsigned long)__kretprobe_trampoline;
}
#endif

/*
 * The probe the CPU is busy with while the return handlers run (the
 * trampoline sets it): a probe they hit is then counted as missed, as
 * kprobe_busy_begin() arranges.
 */
struct kprobe kretprobe_busy = {
	.addr = (kprobe_opcode_t *)__kretprobe_trampoline,
};

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

int __kprobes arch_trampoline_kprobe(struct kprobe *p)
{
	return 0;
}
