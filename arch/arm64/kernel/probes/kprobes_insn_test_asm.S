/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The instruction matrix: one function per case. Each loads x0-x15, x30 and
 * NZCV from a struct insn_state, runs an optional prelude, then the
 * instruction under test at the global label <case>_probe, and records the
 * state, v0 and which way control went: 1 if it fell through, 2 if it
 * branched to the label 1 that the instruction may name. Label 3 is the
 * case's own data, for literal loads.
 */

#include <linux/linkage.h>
#include <asm/assembler.h>
#include "kprobes_insn_test.h"

	.arch	armv8.3-a+crc
	.text

.macro	insn_case name, how, inputs, insn, prelude, data
	.pushsection .rodata.str1.1, "aMS", @progbits, 1
.Lname_\name:
	.asciz	"\name"
	.popsection
	.pushsection .rodata
	.p2align 3
	.quad	.Lname_\name, \name, \name\()_probe
	.word	\how, \inputs
	.popsection
SYM_FUNC_START(\name)
	stp	x29, x30, [sp, #-48]!
	mov	x29, sp
	stp	x25, x26, [sp, #16]
	stp	x27, x28, [sp, #32]
	mov	x28, x0
	mrs	x26, daif
	ldr	x9, [x28, #ISTATE_NZCV]
	msr	nzcv, x9
	ldp	x0, x1, [x28, #ISTATE_X + 0]
	ldp	x2, x3, [x28, #ISTATE_X + 16]
	ldp	x4, x5, [x28, #ISTATE_X + 32]
	ldp	x6, x7, [x28, #ISTATE_X + 48]
	ldp	x8, x9, [x28, #ISTATE_X + 64]
	ldp	x10, x11, [x28, #ISTATE_X + 80]
	ldp	x12, x13, [x28, #ISTATE_X + 96]
	ldp	x14, x15, [x28, #ISTATE_X + 112]
	ldr	x30, [x28, #ISTATE_X30]
	movi	v0.2d, #0
	\prelude
SYM_INNER_LABEL(\name\()_probe, SYM_L_GLOBAL)
	\insn
	mov	x27, #1
	b	2f
	/* BTI JC: what BR and BLR cases reach, in guarded text. */
1:	hint	#38
	mov	x27, #2
2:	stp	x0, x1, [x28, #ISTATE_X + 0]
	stp	x2, x3, [x28, #ISTATE_X + 16]
	stp	x4, x5, [x28, #ISTATE_X + 32]
	stp	x6, x7, [x28, #ISTATE_X + 48]
	stp	x8, x9, [x28, #ISTATE_X + 64]
	stp	x10, x11, [x28, #ISTATE_X + 80]
	stp	x12, x13, [x28, #ISTATE_X + 96]
	stp	x14, x15, [x28, #ISTATE_X + 112]
	str	x30, [x28, #ISTATE_X30]
	mrs	x9, nzcv
	str	x9, [x28, #ISTATE_NZCV]
	str	q0, [x28, #ISTATE_Q0]
	str	x27, [x28, #ISTATE_PATH]
	msr	daif, x26
	mov	sp, x29
	ldp	x25, x26, [sp, #16]
	ldp	x27, x28, [sp, #32]
	ldp	x29, x30, [sp], #48
	ret
	.p2align 4
	\data
SYM_FUNC_END(\name)
.endm

	.pushsection .rodata
	.p2align 3
SYM_DATA_START(insn_cases)
	.popsection

/* Simulated: branches. */
insn_case ic_b, IC_SIM, IC_DEFAULT,		"b 1f"
insn_case ic_bl, IC_SIM, IC_DEFAULT,	"bl 1f"
.irp	cond, eq, ne, cs, cc, mi, pl, vs, vc, hi, ls, ge, lt, gt, le, al, nv
insn_case ic_b_\cond, IC_SIM, IC_FLAGS,	"b.\cond 1f"
.endr
insn_case ic_cbz_x, IC_SIM, IC_X1,	"cbz x1, 1f"
insn_case ic_cbz_w, IC_SIM, IC_X1,	"cbz w1, 1f"
insn_case ic_cbnz_x, IC_SIM, IC_X1,	"cbnz x1, 1f"
insn_case ic_cbnz_w, IC_SIM, IC_X1,	"cbnz w1, 1f"
insn_case ic_tbz_40, IC_SIM, IC_X1,	"tbz x1, #40, 1f"
insn_case ic_tbnz_3, IC_SIM, IC_X1,	"tbnz w1, #3, 1f"
insn_case ic_br, IC_SIM|IC_BTYPE_JC, IC_DEFAULT,	"br x1",	"adr x1, 1f"
insn_case ic_br_x16, IC_SIM|IC_BTYPE_J, IC_DEFAULT,	"br x16",	"adr x16, 1f"
insn_case ic_blr, IC_SIM|IC_KEEP_BRK|IC_BTYPE_C, IC_DEFAULT, "blr x1", "adr x1, 1f"
insn_case ic_blr_x30, IC_SIM|IC_KEEP_BRK|IC_BTYPE_C, IC_DEFAULT, "blr x30", "adr x30, 1f"
insn_case ic_ret, IC_SIM, IC_DEFAULT,	"ret",		"adr x30, 1f"
insn_case ic_ret_x3, IC_SIM, IC_DEFAULT,	"ret x3",	"adr x3, 1f"
insn_case ic_ret_signed, IC_SIM, IC_DEFAULT, "ret",		"adr x30, 1f; paciasp; autiasp"

/* Simulated: PC-relative addresses and loads. */
insn_case ic_adr, IC_SIM, IC_DEFAULT,	"adr x3, 1f"
insn_case ic_adrp, IC_SIM, IC_DEFAULT,	"adrp x4, 1f"
insn_case ic_adr_xzr, IC_SIM, IC_DEFAULT,	".inst 0x1000001f"	/* adr xzr, . */
insn_case ic_ldr_x_lit, IC_SIM, IC_DEFAULT,	"ldr x5, 3f",	"", \
			"3: .quad 0x0123456789abcdef"
insn_case ic_ldr_w_lit, IC_SIM, IC_DEFAULT,	"ldr w5, 3f",	"", \
			"3: .quad 0xfedcba9876543210"
insn_case ic_ldrsw_lit, IC_SIM, IC_DEFAULT,	"ldrsw x5, 3f",	"",	"3: .word 0x80000001"
/* LDR XZR, . : the detour would need Rt as the base of its load. */
insn_case ic_ldr_xzr_lit, IC_SIM|IC_KEEP_BRK, IC_DEFAULT, ".inst 0x5800001f"
insn_case ic_prfm_lit, IC_SIM, IC_DEFAULT,	"prfm pldl1keep, 3f", "", "3: .quad 0"
insn_case ic_ldr_q_lit, IC_SIM|IC_KEEP_BRK, IC_DEFAULT,	"ldr q0, 3f",	"movi v0.16b, #0xa5", \
			"3: .quad 0x1111222233334444, 0x5555666677778888"
insn_case ic_ldr_d_lit, IC_SIM|IC_KEEP_BRK, IC_DEFAULT,	"ldr d0, 3f",	"movi v0.16b, #0xa5", \
			"3: .quad 0x1111222233334444"
insn_case ic_ldr_s_lit, IC_SIM|IC_KEEP_BRK, IC_DEFAULT,	"ldr s0, 3f",	"movi v0.16b, #0xa5", \
			"3: .word 0x99aabbcc"

/* Simulated: hints and a system register read. */
insn_case ic_nop, IC_SIM, IC_DEFAULT,	"nop"
insn_case ic_yield, IC_SIM, IC_DEFAULT,	"yield"
insn_case ic_sevl, IC_SIM, IC_DEFAULT,	"sevl"
insn_case ic_wfe, IC_SIM, IC_DEFAULT,	"wfe",		"sevl"
insn_case ic_bti, IC_SIM|IC_PAD, IC_DEFAULT,	"hint #34"			/* BTI C */
insn_case ic_paciasp, IC_SIM|IC_PAD, IC_DEFAULT,	"paciasp",	"adr x30, 1f"
insn_case ic_pacibsp, IC_SIM|IC_PAD, IC_DEFAULT,	"pacibsp",	"adr x30, 1f"
insn_case ic_paciaz, IC_SIM, IC_DEFAULT,	"paciaz",	"adr x30, 1f"
insn_case ic_mrs_daif, IC_SIM, IC_DEFAULT,	"mrs x0, daif",	"msr daifset, #2"

/* Stepped out of line. */
insn_case ic_autiasp, IC_STEP, IC_DEFAULT,	"autiasp",	"adr x30, 1f; paciasp"
insn_case ic_xpaclri, IC_STEP, IC_DEFAULT,	"xpaclri",	"adr x30, 1f; paciasp"
insn_case ic_add, IC_STEP, IC_DEFAULT,	"add x0, x1, x2"
insn_case ic_adds, IC_STEP, IC_ARITH,	"adds x0, x1, x2"
insn_case ic_subs_w, IC_STEP, IC_ARITH,	"subs w0, w1, w2"
insn_case ic_movk, IC_STEP, IC_DEFAULT,	"movk x0, #0xbeef, lsl #32"
insn_case ic_csel, IC_STEP, IC_FLAGS,	"csel x0, x1, x2, ne"
insn_case ic_madd, IC_STEP, IC_DEFAULT,	"madd x0, x1, x2, x3"
insn_case ic_crc32, IC_STEP, IC_DEFAULT,	"crc32x w0, w1, x2"
insn_case ic_ldr, IC_STEP, IC_MEM,	"ldr x3, [x2, #8]",
insn_case ic_str, IC_STEP, IC_MEM,	"str x1, [x2, #16]",
insn_case ic_stp_pre, IC_STEP, IC_MEM,	"stp x0, x1, [x2, #8]!",
insn_case ic_ldp_post, IC_STEP, IC_MEM,	"ldp x3, x4, [x2], #16",
insn_case ic_ldrb_reg, IC_STEP, IC_MEM,	"ldrb w3, [x2, x1]",
insn_case ic_ldr_sp, IC_STEP, IC_DEFAULT,	"ldr x5, [sp, #8]", \
			"sub sp, sp, #16; str x1, [sp, #8]"
insn_case ic_ldar, IC_STEP, IC_MEM,	"ldar x3, [x2]",
insn_case ic_stlr, IC_STEP, IC_MEM,	"stlr x1, [x2]",
insn_case ic_mov_v, IC_STEP, IC_DEFAULT,	"mov v0.16b, v2.16b",	"movi v2.16b, #0x5a"
insn_case ic_mrs_nzcv, IC_STEP, IC_FLAGS,	"mrs x0, nzcv"
insn_case ic_mrs_sp_el0, IC_STEP, IC_DEFAULT, "mrs x0, sp_el0"
insn_case ic_dmb, IC_STEP, IC_DEFAULT,	"dmb ish"
insn_case ic_dsb, IC_STEP, IC_DEFAULT,	"dsb sy"
insn_case ic_isb, IC_STEP, IC_DEFAULT,	"isb"
insn_case ic_clrex, IC_STEP, IC_DEFAULT,	"clrex"
insn_case ic_sev, IC_STEP, IC_DEFAULT,	"sev"

	.pushsection .rodata
SYM_DATA_END(insn_cases)
SYM_DATA(insn_cases_end, .quad 0)
	.popsection

/*
 * void insn_case_call(struct insn_state *state,
 *		       void (*run)(struct insn_state *state))
 *
 * Run a case. The C code calls this directly, and the case is reached by a
 * branch from here: with kCFI a call through a pointer first checks the
 * type hash before its target, which these assembly functions have none
 * of. The branch is through x16, which the cases' BTI C accepts.
 */
SYM_FUNC_START(insn_case_call)
	mov	x16, x1
	br	x16
SYM_FUNC_END(insn_case_call)

/*
 * Instructions no probe may sit on. Never run: only their addresses are
 * used, to show that registering a probe on each is refused.
 */
SYM_FUNC_START(ic_refused)
SYM_INNER_LABEL(ic_refused_first, SYM_L_GLOBAL)
	svc	#0
	hvc	#0
	brk	#0x100
	hlt	#0
	eret
	.inst	0xd503221f		/* esb */
	.inst	0xd503213f		/* hint #9, unallocated */
	msr	daifset, #2
	msr	sctlr_el1, x0
	msr	sp_el0, x0
	mrs	x0, elr_el1
	mrs	x0, spsr_el1
	mrs	x0, esr_el1
	mrs	x0, far_el1
	ldxr	x0, [x1]
	stxr	w2, x0, [x1]
	ldaxp	x0, x3, [x1]
	.inst	0x19010440		/* cpyfp [x0]!, [x1]!, x2! */
	.inst	0xd65f0bff		/* retaa */
	.inst	0x00000000		/* udf #0 */
SYM_INNER_LABEL(ic_refused_end, SYM_L_GLOBAL)
	ret
SYM_FUNC_END(ic_refused)

/*
 * int ic_nested(int x): x + 1, with a place for a probe that a handler
 * of another probe reaches, and that is neither a landing pad nor the
 * function's entry.
 */
SYM_FUNC_START(ic_nested)
	mov	x1, x0
SYM_INNER_LABEL(ic_nested_probe, SYM_L_GLOBAL)
	add	x0, x1, #1
	ret
SYM_FUNC_END(ic_nested)

/*
 * An exclusive sequence: a probe on the ADD, between the load- and the
 * store-exclusive, is refused; one on the MOV after it is not. No inner
 * labels here: the search for the sequence's start stops at the nearest
 * symbol.
 */
SYM_FUNC_START(ic_exclusive)
	ldxr	x0, [x1]
	add	x0, x0, #1
	stxr	w2, x0, [x1]
	mov	x0, x2
	ret
SYM_FUNC_END(ic_exclusive)
