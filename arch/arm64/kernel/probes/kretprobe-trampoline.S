/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The return address of a function under a kretprobe: a BRK whose handler
 * moves the PC to the real return address. Nothing after it ever runs.
 */

#include <linux/linkage.h>
#include <asm/asm-bug.h>
#include <asm/assembler.h>
#include <asm/brk-imm.h>

	.text
SYM_CODE_START(__kretprobe_trampoline)
	brk	#KRETPROBES_BRK_IMM
	ASM_BUG()
SYM_CODE_END(__kretprobe_trampoline)
NOKPROBE(__kretprobe_trampoline)
