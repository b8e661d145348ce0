/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A user program for the uprobe test, freestanding (no libc): it calls
 * target() ten times and exits 0 if the results add up, 1 if not. The test
 * probes a BL (simulated), an LDR literal (simulated), the ADD after it
 * (stepped out of line) and a TBZ (simulated), and the return of target().
 */
	.text
	.globl	_start
_start:
	/* The address of a string on a page the program never touches. */
	adrp	x21, untouched
	add	x21, x21, :lo12:untouched
	.globl	probe_untouched
probe_untouched:
	nop
	mov	x19, #0
	mov	x20, #0
1:	mov	x0, x19
	.globl	probe_bl
probe_bl:
	bl	target
	add	x20, x20, x0
	add	x19, x19, #1
	cmp	x19, #10
	b.ne	1b
	/* sum of i + 0x100, plus 2 for each odd i */
	mov	x1, #(45 + 10 * 0x100 + 5 * 2)
	cmp	x20, x1
	cset	w0, ne
	mov	x8, #93			/* exit */
	svc	#0

	.globl	target
target:
	mov	x2, x0
	.globl	probe_ldr_literal
probe_ldr_literal:
	ldr	x1, literal
	.globl	probe_add
probe_add:
	add	x0, x2, x1
	.globl	probe_tbz
probe_tbz:
	tbz	x0, #0, 2f
	add	x0, x0, #2
2:	ret

	.p2align 3
literal:
	.quad	0x100

	/* Its own page of data, faulted in only when something reads it. */
	.data
	.balign	4096
untouched:
	.asciz	"paged in on demand"
