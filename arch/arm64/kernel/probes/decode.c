// SPDX-License-Identifier: GPL-2.0-only
/*
 * The A64 decoding table of kprobes, uprobes and optimized kprobes.
 *
 * Each row is one instruction class of the Arm ARM's encoding index (C4.1),
 * as asm/insn.h defines it, with what a kprobe and a uprobe do with it:
 *
 *   SIM   simulate: the instruction's effect depends on where it executes
 *         (it reads the PC), or is nothing at all, or costs less in C than
 *         a trip through a slot;
 *   STEP  execute a copy out of line: the instruction does not care where
 *         it runs, so the copy behaves exactly as the original;
 *   NO    refuse the probe, for the reason given in the row's comment;
 *
 * and what the detour of an optimized kprobe, which runs in the probed
 * code's own context rather than in an exception's, does in its place
 * (enum probe_opt_action): OPT_COPY for what is stepped, and for what is
 * simulated only because the exception's state would differ from the
 * probed code's (the hints, MRS DAIF); the PC-relative classes rebuilt for
 * the detour's address; OPT_KEEP, the breakpoint stays, for the reason
 * given in the row's comment.
 *
 * The first row that matches decides, so narrower rows come before the
 * broader ones that contain them; every class ends in a catch-all, and the
 * table ends in one for the whole space, so an encoding this table does not
 * know is refused, never stepped blindly.
 */

#include <linux/kernel.h>

#include <asm/insn.h>

#include "decode.h"
#include "simulate.h"

#define NO	PROBE_REJECT
#define STEP	PROBE_STEP
#define SIM	PROBE_SIMULATE

/* A class as asm/insn.h defines it (__AARCH64_INSN_FUNCS). */
#define ROW(cls, k, u, o, fn, nm) \
	{ .mask = AARCH64_INSN_MASK_##cls, .value = AARCH64_INSN_VALUE_##cls, \
	  .kernel = (k), .user = (u), .opt = (o), .simulate = (fn), .name = (nm) }

/* One hint, CRm:op2 as asm/insn.h names it (enum aarch64_insn_hint_cr_op). */
#define HINT(op, k, u, o, fn, nm) \
	{ .mask = ~0U, .value = AARCH64_INSN_VALUE_hint | AARCH64_INSN_HINT_##op, \
	  .kernel = (k), .user = (u), .opt = (o), .simulate = (fn), .name = (nm) }

static const struct probe_insn_class probe_insn_classes[] = {
	/* --- Reserved, SME, SVE (op0 = x000x, op1 = 00xx) ---------------- */
	/* UDF and the unallocated rest of the reserved space. */
	ROW(class_reserved,	NO,   NO,   OPT_KEEP,    NULL, "udf"),
	/* SME: streaming-mode state lives outside pt_regs. */
	ROW(class_sme,		NO,   NO,   OPT_KEEP,    NULL, "sme"),
	/* SVE never addresses memory relative to the PC. */
	ROW(class_sve,		STEP, STEP, OPT_COPY,    NULL, "sve"),
	ROW(class_unalloc,	NO,   NO,   OPT_KEEP,    NULL, "unallocated"),

	/* --- Data processing, immediate (op1 = 100x) ---------------------- */
	/* ADR, ADRP: PC-relative. */
	ROW(adr,		SIM,  SIM,  OPT_ADR,     sim_adr, "adr"),
	ROW(adrp,		SIM,  SIM,  OPT_ADR,     sim_adr, "adrp"),
	/*
	 * MOV x29, SP: a uprobe on the second instruction of most functions
	 * saves the step's second exception and return to user space.
	 */
	ROW(mov_fp_sp,		STEP, SIM,  OPT_COPY,    sim_frame_pointer, "mov-fp-sp"),
	/* Arithmetic, logical, moves, bitfields, extract, tags, min/max. */
	ROW(class_dp_imm,	STEP, STEP, OPT_COPY,    NULL, "dp-immediate"),

	/* --- Branches, exception generation and system (op1 = 101x) ------- */
	/* B, BL: PC-relative. */
	ROW(b,			SIM,  SIM,  OPT_B,       sim_b, "b"),
	ROW(bl,			SIM,  SIM,  OPT_BL,      sim_b, "bl"),
	/* CBZ, CBNZ, TBZ, TBNZ: PC-relative. */
	ROW(cbz,		SIM,  SIM,  OPT_COND19,  sim_cbz, "cbz"),
	ROW(cbnz,		SIM,  SIM,  OPT_COND19,  sim_cbz, "cbnz"),
	ROW(tbz,		SIM,  SIM,  OPT_COND14,  sim_tbz, "tbz"),
	ROW(tbnz,		SIM,  SIM,  OPT_COND14,  sim_tbz, "tbnz"),
	/* B.cond, BC.cond: PC-relative. */
	ROW(bcond,		SIM,  SIM,  OPT_COND19,  sim_b_cond, "b.cond"),
	/*
	 * BR, BLR, RET: BLR links the PC. In a detour, BR and RET read no PC
	 * and run as they are; BLR would return into the detour, a frame no
	 * unwinder knows.
	 */
	ROW(br,			SIM,  SIM,  OPT_COPY,    sim_br, "br"),
	ROW(blr,		SIM,  SIM,  OPT_KEEP,    sim_br, "blr"),
	ROW(ret,		SIM,  SIM,  OPT_COPY,    sim_br, "ret"),
	/*
	 * Authenticated branches (BRAA, BLRAA, RETAA, ...), ERET, DRPS: the
	 * kernel is built without the first, and the others leave the
	 * exception level.
	 */
	ROW(branch_reg,		NO,   NO,   OPT_KEEP,    NULL, "branch-register"),
	/* SVC, HVC, SMC, BRK, HLT, DCPS: they take an exception. */
	ROW(exception,		NO,   NO,   OPT_KEEP,    NULL, "exception"),

	/*
	 * Hints (CRn = 0010). Those simulated are so for the exception's sake;
	 * a detour, with the probed code's SP, x30 and interrupt mask, runs
	 * each as it runs in place.
	 */
	HINT(NOP,		SIM,  SIM,  OPT_COPY,    sim_nop, "nop"),
	/* YIELD, WFE, WFI: may complete at once, so doing nothing is exact. */
	HINT(YIELD,		SIM,  SIM,  OPT_COPY,    sim_nop, "yield"),
	HINT(WFE,		SIM,  SIM,  OPT_COPY,    sim_nop, "wfe"),
	HINT(WFI,		SIM,  SIM,  OPT_COPY,    sim_nop, "wfi"),
	/* SEV signals other CPUs, which only a real SEV does. */
	HINT(SEV,		STEP, STEP, OPT_COPY,    NULL, "sev"),
	/* SEVL: the exception return after the probe sets the event. */
	HINT(SEVL,		SIM,  SIM,  OPT_COPY,    sim_nop, "sevl"),
	/* DGH, XPACLRI, the *1716 PAC forms: registers only. */
	HINT(DGH,		STEP, STEP, OPT_COPY,    NULL, "dgh"),
	HINT(XPACLRI,		STEP, STEP, OPT_COPY,    NULL, "xpaclri"),
	HINT(PACIA_1716,	STEP, STEP, OPT_COPY,    NULL, "pacia1716"),
	HINT(PACIB_1716,	STEP, STEP, OPT_COPY,    NULL, "pacib1716"),
	HINT(AUTIA_1716,	STEP, STEP, OPT_COPY,    NULL, "autia1716"),
	HINT(AUTIB_1716,	STEP, STEP, OPT_COPY,    NULL, "autib1716"),
	/*
	 * ESB: with SError masked, as it is in the slot, a pending error is
	 * deferred instead of taken, unlike the original.
	 */
	HINT(ESB,		NO,   NO,   OPT_KEEP,    NULL, "esb"),
	/* PSB CSYNC, TSB CSYNC, GCSB DSYNC, CSDB, CLRBHB: barriers. */
	HINT(PSB,		STEP, STEP, OPT_COPY,    NULL, "psb"),
	HINT(TSB,		STEP, STEP, OPT_COPY,    NULL, "tsb"),
	HINT(GCSB,		STEP, STEP, OPT_COPY,    NULL, "gcsb"),
	HINT(CSDB,		STEP, STEP, OPT_COPY,    NULL, "csdb"),
	HINT(CLEARBHB,		STEP, STEP, OPT_COPY,    NULL, "clrbhb"),
	/*
	 * PACIAZ, PACIASP, PACIBZ, PACIBSP sign x30 with the keys in force:
	 * the kernel's are in force in the handler too, a user task's not.
	 * PACIASP and PACIBSP are landing pads for calls, as BTI C is.
	 */
	HINT(PACIAZ,		SIM,  STEP, OPT_COPY,    sim_pac_lr, "paciaz"),
	HINT(PACIBZ,		SIM,  STEP, OPT_COPY,    sim_pac_lr, "pacibz"),
	HINT(PACIASP,		SIM,  STEP, OPT_PAD,     sim_pac_lr, "paciasp"),
	HINT(PACIBSP,		SIM,  STEP, OPT_PAD,     sim_pac_lr, "pacibsp"),
	/*
	 * AUTIAZ, AUTIASP, AUTIBZ, AUTIBSP: the slot runs with the same SP and
	 * x30, so a copy authenticates as the original does, and a failure
	 * faults (FEAT_FPAC) or poisons x30 as it would in place.
	 */
	HINT(AUTIAZ,		STEP, STEP, OPT_COPY,    NULL, "autiaz"),
	HINT(AUTIASP,		STEP, STEP, OPT_COPY,    NULL, "autiasp"),
	HINT(AUTIBZ,		STEP, STEP, OPT_COPY,    NULL, "autibz"),
	HINT(AUTIBSP,		STEP, STEP, OPT_COPY,    NULL, "autibsp"),
	/*
	 * BTI: a landing pad; nothing to do once landed. A B to a detour in
	 * place of a pad would take a Branch Target exception at the next
	 * indirect branch to it; a BRK is compatible with every branch type.
	 */
	ROW(bti,		SIM,  SIM,  OPT_PAD,     sim_nop, "bti"),
	/* CHKFEAT: registers only. */
	HINT(CHKFEAT,		STEP, STEP, OPT_COPY,    NULL, "chkfeat"),
	/* The other hints are unallocated: their future meaning is unknown. */
	ROW(hint,		NO,   NO,   OPT_KEEP,    NULL, "hint"),

	/* Barriers and CLREX (CRn = 0011): they act wherever they run. */
	ROW(clrex,		STEP, STEP, OPT_COPY,    NULL, "clrex"),
	ROW(dsb_base,		STEP, STEP, OPT_COPY,    NULL, "dsb"),
	ROW(dmb,		STEP, STEP, OPT_COPY,    NULL, "dmb"),
	ROW(isb,		STEP, STEP, OPT_COPY,    NULL, "isb"),
	ROW(sb,			STEP, STEP, OPT_COPY,    NULL, "sb"),
	ROW(dsb_nxs,		STEP, STEP, OPT_COPY,    NULL, "dsb-nxs"),
	/*
	 * MSR (immediate), SMSTART, SMSTOP and the rest of op0 = 00: they
	 * write PSTATE, which the step's own masking and restoring of DAIF
	 * would undo, or are TME and WFET/WFIT, not simulated.
	 */
	ROW(hint_barrier_pstate, NO,  NO,   OPT_KEEP,    NULL, "pstate/system"),
	/* SYS, SYSL: cache, TLB and address-translation operations on Xt. */
	ROW(sys,		STEP, STEP, OPT_COPY,    NULL, "sys"),
	ROW(sysl,		STEP, STEP, OPT_COPY,    NULL, "sysl"),
	/* MSR (register): writes system state. */
	ROW(msr_reg,		NO,   NO,   OPT_KEEP,    NULL, "msr"),
	/*
	 * MRS DAIF: the slot runs with DAIF masked, so read the saved value.
	 * At EL0 the read traps, in the slot as in place. A detour runs with
	 * the probed code's mask: it reads the right value itself.
	 */
	ROW(mrs_daif,		SIM,  STEP, OPT_COPY,    sim_mrs_daif, "mrs-daif"),
	/*
	 * MRS of ELR, SPSR, ESR and FAR at any level: the probe's own
	 * exception has overwritten them.
	 */
	ROW(mrs_spsr_elr,	NO,   NO,   OPT_KEEP,    NULL, "mrs-elr/spsr"),
	ROW(mrs_esr,		NO,   NO,   OPT_KEEP,    NULL, "mrs-esr"),
	ROW(mrs_far,		NO,   NO,   OPT_KEEP,    NULL, "mrs-far"),
	/* Other MRS: the register reads the same from the slot. */
	ROW(mrs,		STEP, STEP, OPT_COPY,    NULL, "mrs"),
	/* SYSP, MSRR, MRRS and what is unallocated. */
	ROW(class_branch_sys,	NO,   NO,   OPT_KEEP,    NULL, "branch/system"),

	/* --- Loads and stores (op1 = x1x0) -------------------------------- */
	/* LDR (literal): PC-relative. */
	ROW(ldr_lit,		SIM,  SIM,  OPT_LDR_LIT, sim_ldr_literal, "ldr-literal"),
	ROW(ldrsw_lit,		SIM,  SIM,  OPT_LDR_LIT, sim_ldr_literal, "ldrsw-literal"),
	/*
	 * PRFM (literal): a hint, without effect on the architected state,
	 * which a detour may leave out as the simulation does.
	 */
	ROW(prfm_lit,		SIM,  SIM,  OPT_SKIP,    sim_nop, "prfm-literal"),
	/*
	 * LDR (literal, SIMD&FP): the kernel's FP registers are live in the
	 * handler; a user task's may be saved, and in SVE form. A detour
	 * would need a free general register to load it through: none is.
	 */
	ROW(ldr_fp_lit_unalloc,	NO,   NO,   OPT_KEEP,    NULL, "unallocated"),
	ROW(ldr_fp_lit,		SIM,  NO,   OPT_KEEP,    sim_ldr_fp_literal, "ldr-fp-literal"),
	/*
	 * CPY*, SET* (FEAT_MOPS): a prologue, main and epilogue that must run
	 * back to back from consecutive addresses, passing their progress in
	 * registers and PSTATE.NZCV. One run alone from a slot breaks the
	 * sequence, and the next takes a MOPS exception. The kernel's own
	 * memcpy(), memmove() and memset() hold such sequences, run where the
	 * CPU has MOPS: probes on their instructions are refused.
	 */
	ROW(mops,		NO,   NO,   OPT_KEEP,    NULL, "mops"),
	/*
	 * Load/store exclusive, register and pair: the exception taken on
	 * the way out of the slot clears the exclusive monitor, so the
	 * store-exclusive of the sequence would fail for ever. CASP shares
	 * their encoding space but is one atomic instruction.
	 */
	ROW(casp,		STEP, STEP, OPT_COPY,    NULL, "casp"),
	ROW(load_ex,		NO,   NO,   OPT_KEEP,    NULL, "load-exclusive"),
	ROW(store_ex,		NO,   NO,   OPT_KEEP,    NULL, "store-exclusive"),
	/*
	 * STP x29, x30, [SP, #-N]!, the push of the frame record that opens
	 * most functions: for a uprobe, a store through uaccess rather than
	 * a step, or the step when that store would fault.
	 */
	ROW(stp_fp_lr_sp_pre,	STEP, SIM,  OPT_COPY,    sim_push_frame, "push-frame"),
	/*
	 * LDAR, STLR, LDLAR, STLLR, CAS and every other load or store: they
	 * address memory through registers only.
	 */
	ROW(class_ldst,		STEP, STEP, OPT_COPY,    NULL, "load/store"),

	/* --- Data processing, register and SIMD&FP (op1 = x101, x111) ----- */
	ROW(class_dp_reg,	STEP, STEP, OPT_COPY,    NULL, "dp-register"),
	ROW(class_dp_fpsimd,	STEP, STEP, OPT_COPY,    NULL, "dp-simd-fp"),

	/* Anything else is not an instruction this table knows. */
	{ .mask = 0, .value = 0, .kernel = NO, .user = NO, .opt = OPT_KEEP,
	  .name = "unknown" },
};

/**
 * probe_decode() - find the class of an A64 instruction
 * @insn: the instruction, in CPU byte order
 *
 * Return: the row of the decoding table that governs @insn; never NULL.
 */
const struct probe_insn_class *probe_decode(u32 insn)
{
	const struct probe_insn_class *row = probe_insn_classes;

	while ((insn & row->mask) != row->value)
		row++;
	return row;
}
