/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The part every optimized probe's detour shares: complete the struct
 * pt_regs the detour began, call the handlers, restore the registers.
 */

#include <linux/linkage.h>
#include <asm/assembler.h>

#include "pt-regs-asm.h"

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
	save_x2_to_x29
	add	x2, sp, #PT_REGS_SIZE
	str	x2, [sp, #S_SP]
	save_pstate x2, x3

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
	load_x2_to_x29
	ldr	x30, [sp, #S_LR]
	ret	x1
SYM_CODE_END(optprobe_common)
NOKPROBE(optprobe_common)
