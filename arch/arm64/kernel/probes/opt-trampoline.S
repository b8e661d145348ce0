/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The part every optimized probe's detour shares: complete the struct
 * pt_regs the detour began, run the probe's pre-handlers, restore the
 * registers.
 *
 * This runs on every hit, so it does in line what a C handler between it
 * and the pre-handlers would, as x86's optimized_callback() does, rather
 * than call the core's opt_pre_handler(): no frame of its own, no
 * kprobe_running() call, no per-CPU kprobe_instance written that nothing
 * here reads. What it repeats of the core (the list walk, the disabled
 * flag, current_kprobe and the missed count) must do as the core's does,
 * and as the breakpoint path does.
 */

#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/assembler.h>

#include "probes-asm-offsets.h"
#include "trampoline-macros.S"

	.text
/*
 * Entered by BL or BLR from a detour (opt.c), with the probed code's x0,
 * x1 and x30 saved in the struct pt_regs at SP, which the detour has
 * allocated, x0 the optimized_kprobe's kprobe (the core's aggregate of the
 * probes at the address) and x30 the detour's resume point. Returns there
 * with every register but x0 and x1 as the handlers left them in the
 * pt_regs; the detour reloads those two and pops the pt_regs. NZCV is
 * restored too: the flags are live across the probed instruction.
 *
 * As an exception from EL1 leaves them, orig_x0 and syscallno are not set:
 * they are a system call's.
 *
 * As kprobes.rst says of optimized probes, a pre-handler cannot divert the
 * probed code by changing the PC, with one exception: a PC set to x30, the
 * probed function made to return at once (override_function_with_return(),
 * which bpf_override_return() and fail_function use at a function's
 * entry). That is the one diversion that needs no free register, a RET,
 * and error injection must not stop working once a probe is optimized.
 */
SYM_CODE_START(optprobe_common)
	hint	#34				// BTI C: reached by BL or BLR
	save_x2_to_x29
	add	x2, sp, #PT_REGS_SIZE
	ldr	x3, [x0, #KP_ADDR]
	stp	x2, x3, [sp, #S_SP]		// SP, then the PC
	save_pstate x2, x24
	save_pmr x2, w2

	/*
	 * A frame record returning to the probed instruction: an unwinder
	 * started in a handler then shows the probed function, as it does
	 * through an exception's pt_regs.
	 */
	stp	x29, x3, [sp, #S_STACKFRAME]
	add	x29, sp, #S_STACKFRAME
	mov	x19, x30

	/*
	 * Interrupts masked and preemption off, as in the breakpoint path,
	 * without the preempt tracer's hooks. A hit while this CPU handles
	 * another probe is counted as missed: with interrupts on, every
	 * probe hit in an interrupt taken during the handlers would be, and
	 * the breakpoint path, whose exception masks them, misses none of
	 * those. x19 to x24 are scratch that calls preserve from here: the
	 * pt_regs gives them back at the end. x24 keeps the mask as read,
	 * to be written back so: DAIF's other bits are RES0, as are NZCV's.
	 */
	msr	daifset, #3			// IRQ, FIQ
	get_current_task x20
	probe_preempt_disable x20, w2
	probe_current_slot x21, x2
	ldr	x3, [x21]
	cbnz	x3, .Lmissed
	str	x0, [x21]
	probe_status_active x2, x1, w3

	/*
	 * The probes' pre-handlers, in the aggregate's list order, as the
	 * core's opt_pre_handler() runs them: those of disabled probes are
	 * skipped, and what they return is not looked at (see above for
	 * why not call it). Preemption being off keeps the list's entries
	 * alive: the core waits for an RCU grace period before it frees one.
	 */
	add	x23, x0, #KP_LIST
	mov	x22, x23
1:	ldr	x22, [x22]
	cmp	x22, x23
	b.eq	2f
	sub	x0, x22, #KP_LIST
	ldr	x2, [x0, #KP_PRE_HANDLER]
	cbz	x2, 1b
	ldr	w3, [x0, #KP_FLAGS]
	tbnz	w3, #KP_DISABLED_BIT, 1b
	mov	x1, sp
	blr	x2
	b	1b
2:	str	xzr, [x21]
	ldr	x2, [sp, #S_PC]
	ldr	x3, [x23, #KP_ADDR - KP_LIST]
	cmp	x2, x3
	b.ne	.Lpc_moved

.Lleave:
	/* The mask first: with interrupts masked no reschedule can be taken. */
	msr	daif, x24
	probe_preempt_enable x20, x2, w2
	restore_nzcv x2
	mov	x1, x19
	load_x2_to_x29
	ldr	x30, [sp, #S_LR]
	ret	x1

.Lmissed:
	bl	kprobes_inc_nmissed_count
	b	.Lleave

	/*
	 * x2 the new PC. Unless it is x30, ignored. Else every register
	 * comes back as the handlers left them, the pt_regs is popped and
	 * the RET leaves the detour and the probed function together.
	 */
.Lpc_moved:
	ldr	x3, [sp, #S_LR]
	cmp	x2, x3
	b.ne	.Lleave
	msr	daif, x24
	probe_preempt_enable x20, x2, w2
	restore_nzcv x2
	ldp	x0, x1, [sp, #S_X0]
	load_x2_to_x29
	ldr	x30, [sp, #S_LR]
	add	sp, sp, #PT_REGS_SIZE
	ret
SYM_CODE_END(optprobe_common)
NOKPROBE(optprobe_common)
