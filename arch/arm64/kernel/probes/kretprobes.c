// SPDX-License-Identifier: GPL-2.0-only
/*
 * Return probes on arm64.
 *
 * At the entry of a probed function, x30 is swapped for the address of
 * __kretprobe_trampoline, a BRK. The function returns into it, and the
 * BRK's handler runs the return handlers and resumes at the real return
 * address. The entry probe sits before the function's PACIASP, so the
 * function signs, and later authenticates, the trampoline's address: the
 * swap is invisible to return-address signing.
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

/**
 * kretprobe_brk_handler() - a probed function returned into the trampoline
 * @regs: the state at the return
 * @esr: the syndrome of the BRK
 *
 * Return: DBG_HOOK_HANDLED, or DBG_HOOK_ERROR for a BRK elsewhere.
 */
int __kprobes kretprobe_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	unsigned long ret;

	if (instruction_pointer(regs) != (unsigned long)__kretprobe_trampoline)
		return DBG_HOOK_ERROR;

	ret = kretprobe_trampoline_handler(regs, (void *)regs->regs[29]);
	instruction_pointer_set(regs, ret);
	return DBG_HOOK_HANDLED;
}

int arch_trampoline_kprobe(struct kprobe *p)
{
	return 0;
}
