/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Calls and returns under a guarded control stack (GCS), for tests/guest/gcs.sh,
 * freestanding (no libc). Each mode that uses GCS enables it for itself
 * first (prctl PR_SET_SHADOW_STACK_STATUS), and from then on never returns
 * from _start: the GCS holds nothing _start could return to. Exit status 2
 * if the prctl fails or leaves GCSPR_EL0 at 0. The labels are global, for
 * the test to find their file offsets (initramfs.sh lists them in .syms).
 *
 * No argument: ten times over, it calls leaf_bl with BL (probe_bl), leaf_blr
 * with BLR through x23 (probe_blr), and nonleaf (probe_bl_nonleaf), which
 * calls leaf_bl in turn (probe_bl_inner). Each leaf opens with a landing pad
 * and checks that the GCS's top entry is its x30 (what BL and BLR push, and
 * what a uretprobe's hijack replaces together), and returns with RET
 * (ret_bl, ret_blr), which the CPU checks against that entry: a wrong one
 * is SIGSEGV, SEGV_CPERR. After each round GCSPR_EL0 must be back where it
 * started. Exit status 0 if all checks hold and the results add up, 1 if
 * not. At probe_mid, inside nonleaf after its call, x30 is the address of
 * probe_mid and the GCS's top entry nonleaf's own return address: a return
 * probe there must be skipped, not hijack the GCS entry.
 *
 * "c": a RET that GCS refuses (bad_ret, x30 changed under it), whose
 * SIGSEGV handler exits with si_code, plus 64 if si_addr is not bad_ret:
 * 10 (SEGV_CPERR) is right, with a probe on the RET as without.
 *
 * Any other argument: the target of the MOPS probes, without GCS. It writes
 * "ready\n" to stdout, waits for a byte (or EOF) on stdin, then copies a
 * buffer with CPYP/CPYM/CPYE and fills one with SETP/SETM/SETE, and exits
 * 0 if both came out right, 1 if not. Waiting, it keeps its text mapped, so
 * that enabling a uprobe on those instructions analyses them at once and
 * the write to "enable" fails if the kernel refuses them. The caller lets
 * it run them only on a CPU that has FEAT_MOPS.
 *
 * GCSPR_EL0 is s3_3_c2_c5_1: binutils 2.40 does not know its name.
 */
	.arch_extension	mops

	.equ	SYS_read, 63
	.equ	SYS_write, 64
	.equ	SYS_exit, 93
	.equ	SYS_rt_sigaction, 134
	.equ	SYS_prctl, 167
	.equ	SIGSEGV, 11
	.equ	SA_SIGINFO, 4
	.equ	PR_SET_SHADOW_STACK_STATUS, 75
	.equ	PR_SHADOW_STACK_ENABLE, 1
	.equ	ROUNDS, 10

/* Enable GCS, or exit 2: from here on, nothing may return past this. */
	.macro	enable_gcs
	mov	x0, #PR_SET_SHADOW_STACK_STATUS
	mov	x1, #PR_SHADOW_STACK_ENABLE
	mov	x2, #0
	mov	x3, #0
	mov	x4, #0
	mov	x8, #SYS_prctl
	svc	#0
	cbnz	x0, no_gcs
	mrs	x21, s3_3_c2_c5_1	/* GCSPR_EL0, to come back to */
	cbz	x21, no_gcs
	.endm

	.text
	.globl	_start
_start:
	ldr	x0, [sp]		/* argc */
	cmp	x0, #1
	b.eq	calls
	ldr	x0, [sp, #16]		/* argv[1] */
	ldrb	w0, [x0]
	cmp	w0, #'c'
	b.eq	cperr
	b	mops

calls:
	enable_gcs
	mov	x19, #ROUNDS
	mov	x20, #0			/* the checks that failed, or'ed */
	mov	x22, #0			/* the sum of the results */
	adr	x23, leaf_blr
1:	mov	x0, x19
	.globl	probe_bl
probe_bl:
	bl	leaf_bl
	.globl	after_bl
after_bl:
	add	x22, x22, x0
	mov	x0, x19
	.globl	probe_blr
probe_blr:
	blr	x23
	.globl	after_blr
after_blr:
	add	x22, x22, x0
	mov	x0, x19
	.globl	probe_bl_nonleaf
probe_bl_nonleaf:
	bl	nonleaf
	.globl	after_nonleaf
after_nonleaf:
	add	x22, x22, x0
	mrs	x9, s3_3_c2_c5_1
	cmp	x9, x21
	cset	x9, ne
	orr	x20, x20, x9
	subs	x19, x19, #1
	b.ne	1b
	/*
	 * For i from 1 to 10: leaf_bl(i) = i + 1, leaf_blr(i) = 2i and
	 * nonleaf(i) = i + 1 + 0x100; in all, 4 * 55 + 10 * 0x102.
	 */
	mov	x1, #(4 * 55 + ROUNDS * 0x102)
	cmp	x22, x1
	cset	x0, ne
	orr	x0, x0, x20
	mov	x8, #SYS_exit
	svc	#0

no_gcs:
	mov	x0, #2
	mov	x8, #SYS_exit
	svc	#0

/*
 * The landing pad that opens functions built with branch protection: a
 * hint, simulated by a uprobe (the pages are not guarded, so it does
 * nothing here). The leaves' entries are simulated instructions, as are
 * nonleaf's, the push of its frame record.
 */
	.macro	bti_c
	hint	#34
	.endm

/* x20 |= (the GCS's top entry != x30), with x9 and x10. */
	.macro	check_gcs_top
	mrs	x9, s3_3_c2_c5_1
	ldr	x10, [x9]
	cmp	x10, x30
	cset	x10, ne
	orr	x20, x20, x10
	.endm

	.globl	leaf_bl
leaf_bl:
	bti_c
	check_gcs_top
	add	x0, x0, #1
	.globl	ret_bl
ret_bl:
	ret

	.globl	leaf_blr
leaf_blr:
	bti_c
	check_gcs_top
	add	x0, x0, x0
	.globl	ret_blr
ret_blr:
	ret

	.globl	nonleaf
nonleaf:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	.globl	probe_bl_inner
probe_bl_inner:
	bl	leaf_bl
	/* x30 is this instruction's address, not what the GCS holds. */
	.globl	probe_mid
probe_mid:
	add	x0, x0, #0x100
	ldp	x29, x30, [sp], #16
	.globl	ret_nonleaf
ret_nonleaf:
	ret

/*
 * A return the GCS refuses: bad_leaf sets x30 to cperr_escaped before its
 * RET. The SIGSEGV handler exits with si_code (SEGV_CPERR is 10), plus 64
 * if si_addr is not bad_ret; a RET that is let through exits 3.
 */
cperr:
	mov	x0, #SIGSEGV
	adr	x1, sigsegv
	mov	x2, #0
	mov	x3, #8
	mov	x8, #SYS_rt_sigaction
	svc	#0
	enable_gcs
	.globl	probe_bl_bad
probe_bl_bad:
	bl	bad_leaf
	b	cperr_escaped

	.globl	bad_leaf
bad_leaf:
	bti_c
	adr	x30, cperr_escaped
	.globl	bad_ret
bad_ret:
	ret

cperr_escaped:
	mov	x0, #3
	mov	x8, #SYS_exit
	svc	#0

/* x1: the siginfo */
cperr_handler:
	ldr	w0, [x1, #8]		/* si_code */
	ldr	x2, [x1, #16]		/* si_addr */
	adr	x3, bad_ret
	cmp	x2, x3
	cset	x2, ne
	orr	x0, x0, x2, lsl #6
	mov	x8, #SYS_exit
	svc	#0

mops:
	mov	x0, #1
	adr	x1, ready
	mov	x2, #6
	mov	x8, #SYS_write
	svc	#0
	mov	x0, #0
	adrp	x1, dst
	add	x1, x1, :lo12:dst
	mov	x2, #1
	mov	x8, #SYS_read
	svc	#0

	/* dst = src, 64 bytes */
	adrp	x0, dst
	add	x0, x0, :lo12:dst
	adr	x1, src
	mov	x2, #64
	.globl	mops_cpyp
mops_cpyp:
	cpyp	[x0]!, [x1]!, x2!
	.globl	mops_cpym
mops_cpym:
	cpym	[x0]!, [x1]!, x2!
	.globl	mops_cpye
mops_cpye:
	cpye	[x0]!, [x1]!, x2!
	/* fill = 64 bytes of 0x5a */
	adrp	x0, fill
	add	x0, x0, :lo12:fill
	mov	x2, #64
	mov	x3, #0x5a
	.globl	mops_setp
mops_setp:
	setp	[x0]!, x2!, x3
	.globl	mops_setm
mops_setm:
	setm	[x0]!, x2!, x3
	.globl	mops_sete
mops_sete:
	sete	[x0]!, x2!, x3

	/* Compare dst with src and fill with 0x5a, a word at a time. */
	mov	x20, #0
	adrp	x0, dst
	add	x0, x0, :lo12:dst
	adr	x1, src
	adrp	x4, fill
	add	x4, x4, :lo12:fill
	ldr	x5, =0x5a5a5a5a5a5a5a5a
	mov	x2, #8
2:	ldr	x6, [x0], #8
	ldr	x7, [x1], #8
	cmp	x6, x7
	cset	x6, ne
	orr	x20, x20, x6
	ldr	x6, [x4], #8
	cmp	x6, x5
	cset	x6, ne
	orr	x20, x20, x6
	subs	x2, x2, #1
	b.ne	2b
	mov	x0, x20
	mov	x8, #SYS_exit
	svc	#0

/* struct sigaction: handler, flags, restorer, mask */
	.p2align 3
sigsegv:
	.quad	cperr_handler, SA_SIGINFO, 0, 0
ready:
	.ascii	"ready\n"
	.p2align 3
src:
	.ascii	"sixty-four bytes copied by CPYP, CPYM and CPYE, then compared..."
	.ltorg

	.bss
	.p2align 3
dst:
	.skip	64
fill:
	.skip	64
