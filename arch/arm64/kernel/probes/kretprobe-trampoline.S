/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The return address of a function under a kretprobe. The function returns
 * here; its registers are saved in a struct pt_regs, the return handlers
 * run on it (kretprobes.c), and the saved registers, as the handlers left
 * them, come back with x30 the real return address, which a RET then takes:
 * the caller resumes as if the function had returned to it directly, x30
 * included. No exception is taken.
 */

#include <linux/linkage.h>
#include <asm/assembler.h>

#include "pt-regs-asm.h"

	.text
SYM_CODE_START(__kretprobe_trampoline)
	sub	sp, sp, #PT_REGS_SIZE
	stp	x0, x1, [sp, #S_X0]
	save_x2_to_x29
	add	x0, sp, #PT_REGS_SIZE
	stp	x30, x0, [sp, #S_LR]
	save_pstate x0, x1
	/* An unwinder from a handler sees this trampoline, and recovers. */
	adr	x0, __kretprobe_trampoline
	str	x0, [sp, #S_PC]
	stp	x29, x0, [sp, #S_STACKFRAME]
	add	x29, sp, #S_STACKFRAME

	mov	x0, sp
	bl	kretprobe_return_handler
	mov	x30, x0

	ldp	x0, x1, [sp, #S_X0]
	load_x2_to_x29
	add	sp, sp, #PT_REGS_SIZE
	ret
SYM_CODE_END(__kretprobe_trampoline)
NOKPROBE(__kretprobe_trampoline)
