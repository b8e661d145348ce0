/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The return address of a function under a kretprobe. The function returns
 * here; its registers are saved in a struct pt_regs, the core runs the
 * return handlers on it, and the result registers, as the handlers left
 * them, come back with x30 the real return address, which a RET then
 * takes: the caller resumes as if the function had returned to it
 * directly, x30 included. No exception is taken.
 *
 * This runs on every return of a probed function, so what the core's
 * kprobe_busy_begin() and kprobe_busy_end() would do around the handlers
 * is done here, without the preempt tracer's hooks, which would cost more
 * than the rest of it.
 */

#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/assembler.h>

#include "probes-asm-offsets.h"
#include "trampoline-macros.S"

	.text
SYM_CODE_START(__kretprobe_trampoline)
	sub	sp, sp, #PT_REGS_SIZE
	stp	x0, x1, [sp, #S_X0]
	save_x2_to_x29
	add	x0, sp, #PT_REGS_SIZE
	stp	x30, x0, [sp, #S_LR]
	/*
	 * The flags are dead across a return: the mask and the mode only.
	 * x22 keeps the mask, to be written back as it was read: DAIF's
	 * other bits are RES0.
	 */
	mrs	x22, daif
	add	x0, x22, #PSR_MODE_EL1h
	str	x0, [sp, #S_PSTATE]
	save_pmr x0, w0
	/*
	 * An unwinder from a handler sees this trampoline, and recovers.
	 * The PC is left to the core, which sets it to the real return
	 * address before any handler runs.
	 */
	adr	x0, __kretprobe_trampoline
	stp	x29, x0, [sp, #S_STACKFRAME]
	add	x29, sp, #S_STACKFRAME

	/*
	 * Interrupts masked, preemption off, and this CPU busy with
	 * kretprobe_busy: a probe the handlers hit is counted as missed.
	 * Masked as on the breakpoint path and the detour's: with interrupts
	 * on, a probe hit in an interrupt taken while the handlers run would
	 * find the CPU busy and be missed too (under load, most of those in
	 * the timer interrupt's path). x19 to x22 are scratch that calls
	 * preserve from here: the pt_regs gives them back at the end.
	 */
	msr	daifset, #3			// IRQ, FIQ
	get_current_task x20
	probe_preempt_disable x20, w0
	probe_current_slot x19, x2
	adr_l	x0, kretprobe_busy
	str	x0, [x19]
	probe_status_active x2, x1, w0

	mov	x0, sp
	ldr	x1, [sp, #S_FP]
	bl	__kretprobe_trampoline_handler
	mov	x21, x0

	/*
	 * Preemption is still off: x19 is this CPU's current_kprobe. The
	 * mask goes first, so that a reschedule is taken with interrupts on.
	 */
	str	xzr, [x19]
	msr	daif, x22
	probe_preempt_enable x20, x0, w0

	/*
	 * Reloaded: what the caller may read after the return, the result
	 * registers x0-x8 as the handlers left them, and what this code
	 * changed, x19-x22 and the frame pointer. x9-x17 are scratch the
	 * function was free to clobber, and x18 and x23-x28 are as the
	 * function left them: the handlers' C code keeps them.
	 */
	mov	x30, x21
	ldp	x0, x1, [sp, #S_X0]
	ldp	x2, x3, [sp, #S_X2]
	ldp	x4, x5, [sp, #S_X4]
	ldp	x6, x7, [sp, #S_X6]
	ldr	x8, [sp, #S_X8]
	ldp	x19, x20, [sp, #S_X18 + 8]
	ldp	x21, x22, [sp, #S_X20 + 8]
	ldr	x29, [sp, #S_FP]
	add	sp, sp, #PT_REGS_SIZE
	ret
SYM_CODE_END(__kretprobe_trampoline)
NOKPROBE(__kretprobe_trampoline)
