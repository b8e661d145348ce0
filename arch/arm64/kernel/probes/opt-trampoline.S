/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The part every optimized probe's detour shares: complete the struct
 * pt_regs the detour began, call the handlers, restore the registers.
 */

#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/assembler.h>
#include <asm/ptrace.h>

	.text
/*
 * Entered by BLR from a detour (opt.c), with the probed code's x0, x1 and
 * x30 saved in the struct pt_regs at SP, which the detour has allocated,
 * x0 the optimized_kprobe and x30 the detour's resume point. Returns there
 * with every register but x0 and x1 as the handlers left them in the
 * pt_regs; the detour reloads those two and pops the pt_regs. NZCV is
 * restored too: the flags are live across the probed instruction.
 */
SYM_CODE_START(optprobe_common)
	hint	#34				// BTI C: reached by BLR
	stp	x2, x3, [sp, #S_X2]
	stp	x4, x5, [sp, #S_X4]
	stp	x6, x7, [sp, #S_X6]
	stp	x8, x9, [sp, #S_X8]
	stp	x10, x11, [sp, #S_X10]
	stp	x12, x13, [sp, #S_X12]
	stp	x14, x15, [sp, #S_X14]
	stp	x16, x17, [sp, #S_X16]
	stp	x18, x19, [sp, #S_X18]
	stp	x20, x21, [sp, #S_X20]
	stp	x22, x23, [sp, #S_X22]
	stp	x24, x25, [sp, #S_X24]
	stp	x26, x27, [sp, #S_X26]
	stp	x28, x29, [sp, #S_X28]
	add	x2, sp, #PT_REGS_SIZE
	str	x2, [sp, #S_SP]
	mrs	x2, nzcv
	mrs	x3, daif
	orr	x2, x2, x3
	mov	x3, #PSR_MODE_EL1h
	orr	x2, x2, x3
	str	x2, [sp, #S_PSTATE]

	/*
	 * A frame record whose return address the handler sets to the
	 * probed instruction: an unwinder started in a handler then shows
	 * the probed function, as it does through an exception's pt_regs.
	 */
	stp	x29, xzr, [sp, #S_STACKFRAME]
	add	x29, sp, #S_STACKFRAME
	mov	x19, x30
	mov	x1, sp
	bl	optprobe_handler

	ldr	x2, [sp, #S_PSTATE]
	msr	nzcv, x2
	mov	x1, x19
	ldp	x2, x3, [sp, #S_X2]
	ldp	x4, x5, [sp, #S_X4]
	ldp	x6, x7, [sp, #S_X6]
	ldp	x8, x9, [sp, #S_X8]
	ldp	x10, x11, [sp, #S_X10]
	ldp	x12, x13, [sp, #S_X12]
	ldp	x14, x15, [sp, #S_X14]
	ldp	x16, x17, [sp, #S_X16]
	ldp	x18, x19, [sp, #S_X18]
	ldp	x20, x21, [sp, #S_X20]
	ldp	x22, x23, [sp, #S_X22]
	ldp	x24, x25, [sp, #S_X24]
	ldp	x26, x27, [sp, #S_X26]
	ldp	x28, x29, [sp, #S_X28]
	ldr	x30, [sp, #S_LR]
	ret	x1
SYM_CODE_END(optprobe_common)
NOKPROBE(optprobe_common)
