/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frame-record push and frame pointer that open most functions, where
 * uprobes sit most (tests/guest/uprobes.sh probes the labels):
 *
 * 1. frame_fn, called ten times, pushes x29 and x30 with probe_push, sets
 *    x29 with probe_fp, and checks that the record holds the caller's x29
 *    and x30, that x29 is SP, and, back in the caller, that SP is as it was.
 *    The exit status is 1 if any check fails.
 * 2. probe_push_fault pushes with SP at the top of a read-only page. The
 *    SIGSEGV handler, on an alternate stack, writes eight words to stdout:
 *    the signal, si_code, si_addr and the fault address (from the page),
 *    the PC (from probe_push_fault), SP (from the page), x29 and x30, and
 *    exits with 0. With a probe on the push, these must be the words the
 *    unprobed instruction gives.
 */
	.text
	.global	_start
_start:
	mov	x19, #10
	mov	x20, #0
1:	mov	x29, x19
	mov	x21, sp
	bl	frame_fn
	mov	x1, sp
	cmp	x1, x21
	cset	x1, ne
	orr	x20, x20, x1
	orr	x20, x20, x0
	subs	x19, x19, #1
	b.ne	1b
	cbnz	x20, fail

	/* sigaltstack(&ss, NULL) */
	adrp	x0, ss
	add	x0, x0, :lo12:ss
	adrp	x1, altstack
	add	x1, x1, :lo12:altstack
	str	x1, [x0]
	mov	x1, #0
	mov	x8, #132
	svc	#0
	/* rt_sigaction(SIGSEGV, &sa, NULL, 8), and the same for SIGBUS */
	adrp	x1, sa
	add	x1, x1, :lo12:sa
	adr	x2, handler
	str	x2, [x1]
	mov	x0, #11
	mov	x2, #0
	mov	x3, #8
	mov	x8, #134
	svc	#0
	adrp	x1, sa
	add	x1, x1, :lo12:sa
	mov	x0, #7
	mov	x2, #0
	mov	x3, #8
	mov	x8, #134
	svc	#0
	/* mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) */
	mov	x0, #0
	mov	x1, #4096
	mov	x2, #1
	mov	x3, #0x22
	mov	x4, #-1
	mov	x5, #0
	mov	x8, #222
	svc	#0
	adrp	x9, page
	add	x9, x9, :lo12:page
	str	x0, [x9]
	add	x0, x0, #4096
	mov	sp, x0
	movz	x29, #0x2929
	movz	x30, #0x3030
	.global	probe_push_fault
probe_push_fault:
	stp	x29, x30, [sp, #-16]!
	b	fail

	.global	frame_fn
frame_fn:
	.global	probe_push
probe_push:
	stp	x29, x30, [sp, #-32]!
	.global	probe_fp
probe_fp:
	mov	x29, sp
	mov	x0, #0
	ldr	x1, [x29]
	cmp	x1, x19
	cset	x2, ne
	orr	x0, x0, x2
	ldr	x1, [x29, #8]
	cmp	x1, x30
	cset	x2, ne
	orr	x0, x0, x2
	mov	x1, sp
	cmp	x1, x29
	cset	x2, ne
	orr	x0, x0, x2
	ldp	x29, x30, [sp], #32
	ret

/* x0: the signal, x1: its siginfo, x2: the ucontext. */
handler:
	adrp	x9, out
	add	x9, x9, :lo12:out
	adrp	x10, page
	add	x10, x10, :lo12:page
	ldr	x10, [x10]
	str	x0, [x9]
	ldr	w3, [x1, #8]		/* si_code */
	str	x3, [x9, #8]
	ldr	x3, [x1, #16]		/* si_addr */
	sub	x3, x3, x10
	str	x3, [x9, #16]
	ldr	x3, [x2, #176]		/* uc_mcontext.fault_address */
	sub	x3, x3, x10
	str	x3, [x9, #24]
	ldr	x3, [x2, #440]		/* uc_mcontext.pc */
	adr	x4, probe_push_fault
	sub	x3, x3, x4
	str	x3, [x9, #32]
	ldr	x3, [x2, #432]		/* uc_mcontext.sp */
	sub	x3, x3, x10
	str	x3, [x9, #40]
	ldr	x3, [x2, #416]		/* uc_mcontext.regs[29] */
	str	x3, [x9, #48]
	ldr	x3, [x2, #424]		/* uc_mcontext.regs[30] */
	str	x3, [x9, #56]
	mov	x0, #1
	mov	x1, x9
	mov	x2, #64
	mov	x8, #64
	svc	#0
	mov	x0, #0
	mov	x8, #94
	svc	#0

fail:
	mov	x0, #1
	mov	x8, #94
	svc	#0

	.data
	.p2align 3
/* struct sigaction: handler, SA_SIGINFO | SA_ONSTACK, restorer, mask */
sa:	.quad	0, 0x08000004, 0, 0
/* stack_t: ss_sp, ss_flags, ss_size */
ss:	.quad	0, 0, 16384
page:	.quad	0
out:	.skip	64

	.bss
	.p2align 4
altstack:
	.skip	16384
