// SPDX-License-Identifier: GPL-2.0-only
/*
 * The A64 decoding table of kprobes, uprobes and optimized kprobes.
 *
 * Each row is one instruction class of the Arm ARM's encoding index (C4.1),
 * as a mask and a value, with what a kprobe and a uprobe do with it:
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

#include "decode.h"
#include "simulate.h"

#define NO	PROBE_REJECT
#define STEP	PROBE_STEP
#define SIM	PROBE_SIMULATE

#define ROW(m, v, k, u, o, fn, nm) \
	{ .mask = (m), .value = (v), .kernel = (k), .user = (u), .opt = (o), \
	  .simulate = (fn), .name = (nm) }

static const struct probe_insn_class probe_insn_classes[] = {
	/* --- Reserved, SME, SVE (op0 = x000x, op1 = 00xx) ---------------- */
	/* UDF and the unallocated rest of the reserved space. */
	ROW(0x9e000000, 0x00000000, NO,   NO,   OPT_KEEP,    NULL, "udf"),
	/* SME: streaming-mode state lives outside pt_regs. */
	ROW(0x9e000000, 0x80000000, NO,   NO,   OPT_KEEP,    NULL, "sme"),
	/* SVE never addresses memory relative to the PC. */
	ROW(0x1e000000, 0x04000000, STEP, STEP, OPT_COPY,    NULL, "sve"),
	/* Unallocated. */
	ROW(0x1a000000, 0x02000000, NO,   NO,   OPT_KEEP,    NULL, "unallocated"),

	/* --- Data processing, immediate (op1 = 100x) ---------------------- */
	/* ADR, ADRP: PC-relative. */
	ROW(0x1f000000, 0x10000000, SIM,  SIM,  OPT_ADR,     sim_adr, "adr/adrp"),
	/*
	 * MOV x29, SP: a uprobe on the second instruction of most functions
	 * saves the step's second exception and return to user space.
	 */
	ROW(0xffffffff, 0x910003fd, STEP, SIM,  OPT_COPY,    sim_frame_pointer, "mov-fp-sp"),
	/* Arithmetic, logical, moves, bitfields, extract, tags, min/max. */
	ROW(0x1c000000, 0x10000000, STEP, STEP, OPT_COPY,    NULL, "dp-immediate"),

	/* --- Branches, exception generation and system (op1 = 101x) ------- */
	/* B, BL: PC-relative. */
	ROW(0xfc000000, 0x14000000, SIM,  SIM,  OPT_B,       sim_b, "b"),
	ROW(0xfc000000, 0x94000000, SIM,  SIM,  OPT_BL,      sim_b, "bl"),
	/* CBZ, CBNZ, TBZ, TBNZ: PC-relative. */
	ROW(0x7e000000, 0x34000000, SIM,  SIM,  OPT_COND19,  sim_cbz, "cbz/cbnz"),
	ROW(0x7e000000, 0x36000000, SIM,  SIM,  OPT_COND14,  sim_tbz, "tbz/tbnz"),
	/* B.cond, BC.cond: PC-relative. */
	ROW(0xff000000, 0x54000000, SIM,  SIM,  OPT_COND19,  sim_b_cond, "b.cond"),
	/*
	 * BR, BLR, RET: BLR links the PC. In a detour, BR and RET read no PC
	 * and run as they are; BLR would return into the detour, a frame no
	 * unwinder knows.
	 */
	ROW(0xfffffc1f, 0xd61f0000, SIM,  SIM,  OPT_COPY,    sim_br, "br"),
	ROW(0xfffffc1f, 0xd63f0000, SIM,  SIM,  OPT_KEEP,    sim_br, "blr"),
	ROW(0xfffffc1f, 0xd65f0000, SIM,  SIM,  OPT_COPY,    sim_br, "ret"),
	/*
	 * Authenticated branches (BRAA, BLRAA, RETAA, ...), ERET, DRPS: the
	 * kernel is built without the first, and the others leave the
	 * exception level.
	 */
	ROW(0xfe000000, 0xd6000000, NO,   NO,   OPT_KEEP,    NULL, "branch-register"),
	/* SVC, HVC, SMC, BRK, HLT, DCPS: they take an exception. */
	ROW(0xff000000, 0xd4000000, NO,   NO,   OPT_KEEP,    NULL, "exception"),

	/*
	 * Hints (CRn = 0010). Those simulated are so for the exception's sake;
	 * a detour, with the probed code's SP, x30 and interrupt mask, runs
	 * each as it runs in place.
	 */
	ROW(0xffffffff, 0xd503201f, SIM,  SIM,  OPT_COPY,    sim_nop, "nop"),
	/* YIELD, WFE, WFI: may complete at once, so doing nothing is exact. */
	ROW(0xffffffff, 0xd503203f, SIM,  SIM,  OPT_COPY,    sim_nop, "yield"),
	ROW(0xffffffff, 0xd503205f, SIM,  SIM,  OPT_COPY,    sim_nop, "wfe"),
	ROW(0xffffffff, 0xd503207f, SIM,  SIM,  OPT_COPY,    sim_nop, "wfi"),
	/* SEV signals other CPUs, which only a real SEV does. */
	ROW(0xffffffff, 0xd503209f, STEP, STEP, OPT_COPY,    NULL, "sev"),
	/* SEVL: the exception return after the probe sets the event. */
	ROW(0xffffffff, 0xd50320bf, SIM,  SIM,  OPT_COPY,    sim_nop, "sevl"),
	/* DGH, XPACLRI, the *1716 PAC forms: registers only. */
	ROW(0xffffffff, 0xd50320df, STEP, STEP, OPT_COPY,    NULL, "dgh"),
	ROW(0xffffffff, 0xd50320ff, STEP, STEP, OPT_COPY,    NULL, "xpaclri"),
	ROW(0xffffff3f, 0xd503211f, STEP, STEP, OPT_COPY,    NULL, "pac/aut-1716"),
	/*
	 * ESB: with SError masked, as it is in the slot, a pending error is
	 * deferred instead of taken, unlike the original.
	 */
	ROW(0xffffffff, 0xd503221f, NO,   NO,   OPT_KEEP,    NULL, "esb"),
	/* PSB CSYNC, TSB CSYNC, GCSB DSYNC, CSDB, CLRBHB: barriers. */
	ROW(0xffffffff, 0xd503223f, STEP, STEP, OPT_COPY,    NULL, "psb"),
	ROW(0xffffffff, 0xd503225f, STEP, STEP, OPT_COPY,    NULL, "tsb"),
	ROW(0xffffffff, 0xd503227f, STEP, STEP, OPT_COPY,    NULL, "gcsb"),
	ROW(0xffffffff, 0xd503229f, STEP, STEP, OPT_COPY,    NULL, "csdb"),
	ROW(0xffffffff, 0xd50322df, STEP, STEP, OPT_COPY,    NULL, "clrbhb"),
	/*
	 * PACIAZ, PACIASP, PACIBZ, PACIBSP sign x30 with the keys in force:
	 * the kernel's are in force in the handler too, a user task's not.
	 * PACIASP and PACIBSP are landing pads for calls, as BTI C is.
	 */
	ROW(0xffffffbf, 0xd503231f, SIM,  STEP, OPT_COPY,    sim_pac_lr, "paci[ab]z"),
	ROW(0xffffffbf, 0xd503233f, SIM,  STEP, OPT_PAD,     sim_pac_lr, "paci[ab]sp"),
	/*
	 * AUTIAZ, AUTIASP, AUTIBZ, AUTIBSP: the slot runs with the same SP and
	 * x30, so a copy authenticates as the original does, and a failure
	 * faults (FEAT_FPAC) or poisons x30 as it would in place.
	 */
	ROW(0xffffff9f, 0xd503239f, STEP, STEP, OPT_COPY,    NULL, "auti[ab]z/sp"),
	/*
	 * BTI: a landing pad; nothing to do once landed. A B to a detour in
	 * place of a pad would take a Branch Target exception at the next
	 * indirect branch to it; a BRK is compatible with every branch type.
	 */
	ROW(0xffffff3f, 0xd503241f, SIM,  SIM,  OPT_PAD,     sim_nop, "bti"),
	/* CHKFEAT: registers only. */
	ROW(0xffffffff, 0xd503251f, STEP, STEP, OPT_COPY,    NULL, "chkfeat"),
	/* The other hints are unallocated: their future meaning is unknown. */
	ROW(0xfffff01f, 0xd503201f, NO,   NO,   OPT_KEEP,    NULL, "hint"),

	/* Barriers and CLREX (CRn = 0011): they act wherever they run. */
	ROW(0xfffff0ff, 0xd503305f, STEP, STEP, OPT_COPY,    NULL, "clrex"),
	ROW(0xfffff0ff, 0xd503309f, STEP, STEP, OPT_COPY,    NULL, "dsb"),
	ROW(0xfffff0ff, 0xd50330bf, STEP, STEP, OPT_COPY,    NULL, "dmb"),
	ROW(0xfffff0ff, 0xd50330df, STEP, STEP, OPT_COPY,    NULL, "isb"),
	ROW(0xffffffff, 0xd50330ff, STEP, STEP, OPT_COPY,    NULL, "sb"),
	ROW(0xfffff3ff, 0xd503323f, STEP, STEP, OPT_COPY,    NULL, "dsb-nxs"),
	/*
	 * MSR (immediate), SMSTART, SMSTOP and the rest of op0 = 00: they
	 * write PSTATE, which the step's own masking and restoring of DAIF
	 * would undo, or are TME and WFET/WFIT, not simulated.
	 */
	ROW(0xffd80000, 0xd5000000, NO,   NO,   OPT_KEEP,    NULL, "pstate/system"),
	/* SYS, SYSL: cache, TLB and address-translation operations on Xt. */
	ROW(0xfff80000, 0xd5080000, STEP, STEP, OPT_COPY,    NULL, "sys"),
	ROW(0xfff80000, 0xd5280000, STEP, STEP, OPT_COPY,    NULL, "sysl"),
	/* MSR (register): writes system state. */
	ROW(0xfff00000, 0xd5100000, NO,   NO,   OPT_KEEP,    NULL, "msr"),
	/*
	 * MRS DAIF: the slot runs with DAIF masked, so read the saved value.
	 * At EL0 the read traps, in the slot as in place. A detour runs with
	 * the probed code's mask: it reads the right value itself.
	 */
	ROW(0xffffffe0, 0xd53b4220, SIM,  STEP, OPT_COPY,    sim_mrs_daif, "mrs-daif"),
	/*
	 * MRS of ELR, SPSR, ESR and FAR at any level: the probe's own
	 * exception has overwritten them.
	 */
	ROW(0xfff8ffc0, 0xd5384000, NO,   NO,   OPT_KEEP,    NULL, "mrs-elr/spsr"),
	ROW(0xfff8ffe0, 0xd5385200, NO,   NO,   OPT_KEEP,    NULL, "mrs-esr"),
	ROW(0xfff8ffe0, 0xd5386000, NO,   NO,   OPT_KEEP,    NULL, "mrs-far"),
	/* Other MRS: the register reads the same from the slot. */
	ROW(0xfff00000, 0xd5300000, STEP, STEP, OPT_COPY,    NULL, "mrs"),
	/* SYSP, MSRR, MRRS and what is unallocated. */
	ROW(0x1c000000, 0x14000000, NO,   NO,   OPT_KEEP,    NULL, "branch/system"),

	/* --- Loads and stores (op1 = x1x0) -------------------------------- */
	/* LDR (literal): PC-relative. */
	ROW(0xbf000000, 0x18000000, SIM,  SIM,  OPT_LDR_LIT, sim_ldr_literal, "ldr-literal"),
	ROW(0xff000000, 0x98000000, SIM,  SIM,  OPT_LDR_LIT, sim_ldr_literal, "ldrsw-literal"),
	/*
	 * PRFM (literal): a hint, without effect on the architected state,
	 * which a detour may leave out as the simulation does.
	 */
	ROW(0xff000000, 0xd8000000, SIM,  SIM,  OPT_SKIP,    sim_nop, "prfm-literal"),
	/*
	 * LDR (literal, SIMD&FP): the kernel's FP registers are live in the
	 * handler; a user task's may be saved, and in SVE form. A detour
	 * would need a free general register to load it through: none is.
	 */
	ROW(0xff000000, 0xdc000000, NO,   NO,   OPT_KEEP,    NULL, "unallocated"),
	ROW(0x3f000000, 0x1c000000, SIM,  NO,   OPT_KEEP,    sim_ldr_fp_literal, "ldr-fp-literal"),
	/*
	 * CPY*, SET* (FEAT_MOPS): a prologue, main and epilogue that must run
	 * back to back from consecutive addresses, passing their progress in
	 * registers and PSTATE.NZCV. One run alone from a slot breaks the
	 * sequence, and the next takes a MOPS exception. The kernel's own
	 * memcpy(), memmove() and memset() hold such sequences, run where the
	 * CPU has MOPS: probes on their instructions are refused.
	 */
	ROW(0x3b200c00, 0x19000400, NO,   NO,   OPT_KEEP,    NULL, "mops"),
	/*
	 * Load/store exclusive (register and pair): the exception taken on
	 * the way out of the slot clears the exclusive monitor, so the
	 * store-exclusive of the sequence would fail for ever.
	 */
	ROW(0x3fa00000, 0x08000000, NO,   NO,   OPT_KEEP,    NULL, "exclusive"),
	ROW(0xbfa00000, 0x88200000, NO,   NO,   OPT_KEEP,    NULL, "exclusive-pair"),
	/*
	 * STP x29, x30, [SP, #-N]!, the push of the frame record that opens
	 * most functions: for a uprobe, a store through uaccess rather than
	 * a step, or the step when that store would fault.
	 */
	ROW(0xffc07fff, 0xa9807bfd, STEP, SIM,  OPT_COPY,    sim_push_frame, "push-frame"),
	/*
	 * CASP, LDAR, STLR, LDLAR, STLLR, CAS and every other load or store:
	 * they address memory through registers only.
	 */
	ROW(0x0a000000, 0x08000000, STEP, STEP, OPT_COPY,    NULL, "load/store"),

	/* --- Data processing, register and SIMD&FP (op1 = x101, x111) ----- */
	ROW(0x0e000000, 0x0a000000, STEP, STEP, OPT_COPY,    NULL, "dp-register"),
	ROW(0x0e000000, 0x0e000000, STEP, STEP, OPT_COPY,    NULL, "dp-simd-fp"),

	/* Anything else is not an instruction this table knows. */
	ROW(0x00000000, 0x00000000, NO,   NO,   OPT_KEEP,    NULL, "unknown"),
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
