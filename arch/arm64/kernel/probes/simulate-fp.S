/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writing a vector register chosen at run time, for the simulation of
 * LDR (literal, SIMD&FP) in the kernel.
 */

#include <linux/linkage.h>
#include <asm/assembler.h>

/*
 * void probe_load_vreg(unsigned int n, const u8 *q)
 *
 * Load the 16 bytes at q into Vn: an indexed branch into a table of one
 * 16-byte entry per register. Each entry starts with BTI J, as the
 * indirect branch needs under BTI.
 */
SYM_FUNC_START(probe_load_vreg)
	adr	x2, .Lvreg_table
	add	x2, x2, x0, lsl #4
	br	x2
	.p2align 4
.Lvreg_table:
	.irp	n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
		   16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	hint	#36				// BTI J
	ldr	q\n, [x1]
	ret
	nop
	.endr
SYM_FUNC_END(probe_load_vreg)
NOKPROBE(probe_load_vreg)
