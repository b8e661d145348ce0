// SPDX-License-Identifier: GPL-2.0-only
/*
 * Simulation of the instructions a probe does not execute out of line.
 *
 * Each routine is entered with regs->pc at the probed instruction and leaves
 * it at the next one to execute. Register number 31 reads as zero and
 * ignores writes here, as XZR does: pt_regs_read_reg() and
 * pt_regs_write_reg() see to it.
 */

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/cpufeature.h>
#include <linux/kprobes.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/uaccess.h>

#include <asm/daifflags.h>
#include <asm/gcs.h>
#include <asm/insn.h>
#include <asm/ptrace.h>

#include "simulate.h"

#define RT(insn)	aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RT, insn)
#define RN(insn)	aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RN, insn)

/*
 * The simulations read their fields through these, on a breakpoint's
 * path: a probe on either would be hit from its own handling.
 */
NOKPROBE_SYMBOL(aarch64_insn_decode_immediate);
NOKPROBE_SYMBOL(aarch64_insn_decode_register);

static void __kprobes next(struct pt_regs *regs)
{
	regs->pc += AARCH64_INSN_SIZE;
}

static void __kprobes branch_if(struct pt_regs *regs, bool taken, s64 offset)
{
	regs->pc += taken ? offset : AARCH64_INSN_SIZE;
}

bool __kprobes sim_nop(u32 insn, struct pt_regs *regs)
{
	next(regs);
	return true;
}

/*
 * A user task with its guarded control stack (GCS) enabled has BL and BLR
 * push the return address there, and RET pop it and compare it with its
 * target. Simulated for a uprobe, they must do the same, or the task's
 * next real RET finds the stack one entry off and takes a control
 * protection fault far from the probe. Kernel code has no GCS.
 *
 * What the hardware would fault on gets the signal its fault would give,
 * with nothing changed and the PC left at the instruction: an access to the
 * GCS that fails, SIGSEGV for the GCS address; a RET whose target is not
 * the address on the GCS, SIGSEGV with SEGV_CPERR, as traps.c gives for a
 * GCS exception. Either way the simulation has handled the instruction:
 * stepping a PC-relative branch out of line is not an option.
 */
static bool __kprobes user_gcs(struct pt_regs *regs)
{
	return user_mode(regs) && task_gcs_el0_enabled(current);
}

static bool __kprobes gcs_push(u64 lr)
{
	u64 gcspr = read_sysreg_s(SYS_GCSPR_EL0);
	int err = 0;

	push_user_gcs(lr, &err);
	if (err)
		force_sig_fault(SIGSEGV, SEGV_ACCERR,
				(void __user *)(gcspr - sizeof(u64)));
	return !err;
}

/*
 * Not pop_user_gcs(): it moves GCSPR before the compare, and a refused RET
 * must leave the GCS as it was, as the hardware's does.
 */
static bool __kprobes gcs_pop(struct pt_regs *regs, u64 target)
{
	u64 gcspr = read_sysreg_s(SYS_GCSPR_EL0);
	int err = 0;
	u64 lr;

	lr = get_user_gcs((unsigned long __user *)gcspr, &err);
	if (err) {
		force_sig_fault(SIGSEGV, SEGV_ACCERR, (void __user *)gcspr);
		return false;
	}
	if (lr != target) {
		force_sig_fault(SIGSEGV, SEGV_CPERR,
				(void __user *)instruction_pointer(regs));
		return false;
	}
	write_sysreg_s(gcspr + sizeof(u64), SYS_GCSPR_EL0);
	return true;
}

/* B, BL */
bool __kprobes sim_b(u32 insn, struct pt_regs *regs)
{
	u64 lr = regs->pc + AARCH64_INSN_SIZE;

	if (aarch64_insn_is_bl(insn)) {
		if (user_gcs(regs) && !gcs_push(lr))
			return true;
		regs->regs[30] = lr;
	}
	regs->pc += probe_imm26_offset(insn);
	return true;
}

/*
 * B.cond, BC.cond: the condition checks of traps.c, written for AArch32
 * instructions, read the same NZCV bits of PSTATE.
 */
bool __kprobes sim_b_cond(u32 insn, struct pt_regs *regs)
{
	branch_if(regs, aarch32_opcode_cond_checks[insn & 0xf](regs->pstate),
		  probe_imm19_offset(insn));
	return true;
}

/* CBZ, CBNZ: sf, bit 31, selects Xt over Wt. */
bool __kprobes sim_cbz(u32 insn, struct pt_regs *regs)
{
	u64 val = pt_regs_read_reg(regs, RT(insn));

	if (!(insn & BIT(31)))
		val = lower_32_bits(val);
	branch_if(regs, !val == !aarch64_insn_is_cbnz(insn),
		  probe_imm19_offset(insn));
	return true;
}

/* TBZ, TBNZ: the bit number is b5:b40, bits 31 and 23:19. */
bool __kprobes sim_tbz(u32 insn, struct pt_regs *regs)
{
	unsigned int bit = FIELD_GET(BIT(31), insn) << 5 |
			   FIELD_GET(GENMASK(23, 19), insn);
	bool set = pt_regs_read_reg(regs, RT(insn)) & BIT_ULL(bit);

	branch_if(regs, set == aarch64_insn_is_tbnz(insn),
		  probe_imm14_offset(insn));
	return true;
}

/*
 * BR and BLR in guarded kernel text set PSTATE.BTYPE, and the instruction
 * they reach must be a landing pad that accepts it. Simulated, they set it
 * in the saved PSTATE, which ERET restores: the target is checked as the
 * branch would have had it checked, and a probe does not switch BTI off
 * for the branch it replaces. BR through x16 or x17, which PLT-like veneers
 * use, sets J; through any other register, J or C. RET sets none. User
 * code is left as it was: whether its page is guarded is the VMA's.
 */
static void __kprobes sim_branch_btype(u32 insn, struct pt_regs *regs)
{
	u64 btype;

	if (user_mode(regs) || !system_supports_bti_kernel())
		return;
	if (aarch64_insn_is_br(insn))
		btype = RN(insn) == 16 || RN(insn) == 17 ? PSR_BTYPE_J :
							   PSR_BTYPE_JC;
	else if (aarch64_insn_is_blr(insn))
		btype = PSR_BTYPE_C;
	else
		return;
	regs->pstate = (regs->pstate & ~PSR_BTYPE_MASK) | btype;
}

/* BR, BLR, RET: the target is read before BLR x30 overwrites it. */
bool __kprobes sim_br(u32 insn, struct pt_regs *regs)
{
	u64 target = pt_regs_read_reg(regs, RN(insn));
	u64 lr = regs->pc + AARCH64_INSN_SIZE;

	if (aarch64_insn_is_blr(insn)) {
		if (user_gcs(regs) && !gcs_push(lr))
			return true;
		regs->regs[30] = lr;
	} else if (aarch64_insn_is_ret(insn)) {
		if (user_gcs(regs) && !gcs_pop(regs, target))
			return true;
	}
	regs->pc = target;
	sim_branch_btype(insn, regs);
	return true;
}

/* ADR, ADRP */
bool __kprobes sim_adr(u32 insn, struct pt_regs *regs)
{
	pt_regs_write_reg(regs, RT(insn), probe_adr_value(insn, regs->pc));
	next(regs);
	return true;
}

/*
 * Read a literal. A kernel literal is read as the instruction would read
 * it, so that a bad address faults the same way. A user one may fault: the
 * task gets the SIGSEGV the load would have given it, at the load.
 */
static bool __kprobes read_literal(struct pt_regs *regs, u64 addr, void *val,
				   size_t size)
{
	if (!user_mode(regs)) {
		memcpy(val, (void *)addr, size);
		return true;
	}
	if (!copy_from_user(val, (void __user *)addr, size))
		return true;
	force_sig_fault(SIGSEGV, SEGV_MAPERR, (void __user *)addr);
	return false;
}

/*
 * LDR Wt, LDR Xt, LDRSW Xt (literal). A faulting user load has its signal
 * queued and counts as carried out: a copy stepped out of line would read
 * from the wrong address.
 */
bool __kprobes sim_ldr_literal(u32 insn, struct pt_regs *regs)
{
	u64 addr = regs->pc + probe_imm19_offset(insn);
	unsigned int size = probe_ldr_literal_size(insn);
	union {
		u32 w;
		u64 x;
	} val = {};

	if (!read_literal(regs, addr, &val, size))
		return true;
	if (size == 8)
		pt_regs_write_reg(regs, RT(insn), val.x);
	else if (aarch64_insn_is_ldrsw_lit(insn))
		pt_regs_write_reg(regs, RT(insn), (s64)(s32)val.w);
	else
		pt_regs_write_reg(regs, RT(insn), val.w);
	next(regs);
	return true;
}

/*
 * LDR St, Dt, Qt (literal), kernel only: the kernel uses FP registers only
 * between kernel_neon_begin() and kernel_neon_end(), where they are live in
 * the CPU and the handlers, built with -mgeneral-regs-only, leave them be.
 * A scalar load clears the rest of the vector register, hence the zeroes.
 */
bool __kprobes sim_ldr_fp_literal(u32 insn, struct pt_regs *regs)
{
	u64 addr = regs->pc + probe_imm19_offset(insn);
	u8 q[16] __aligned(16) = {};

	memcpy(q, (void *)addr, probe_ldr_literal_size(insn));
	probe_load_vreg(RT(insn), q);
	next(regs);
	return true;
}

/*
 * PACIAZ, PACIASP, PACIBZ, PACIBSP, kernel only: sign x30 with SP (or
 * zero) as the modifier, through PACIA1716 or PACIB1716, which use the
 * same keys. Without pointer authentication both are NOPs, as the
 * originals are.
 */
bool __kprobes sim_pac_lr(u32 insn, struct pt_regs *regs)
{
	u32 op = insn ^ aarch64_insn_get_hint_value();
	bool sp = op == AARCH64_INSN_HINT_PACIASP ||
		  op == AARCH64_INSN_HINT_PACIBSP;
	bool b_key = op == AARCH64_INSN_HINT_PACIBZ ||
		     op == AARCH64_INSN_HINT_PACIBSP;
	register u64 x17 asm("x17") = regs->regs[30];
	register u64 x16 asm("x16") = sp ? regs->sp : 0;

	if (b_key)
		asm volatile("hint #10" : "+r" (x17) : "r" (x16));
	else
		asm volatile("hint #8" : "+r" (x17) : "r" (x16));
	regs->regs[30] = x17;
	next(regs);
	return true;
}

/*
 * MOV x29, SP (ADD x29, SP, #0), user only: the frame pointer that follows
 * most functions' push of the frame record.
 */
bool __kprobes sim_frame_pointer(u32 insn, struct pt_regs *regs)
{
	regs->regs[29] = regs->sp;
	next(regs);
	return true;
}

/*
 * STP x29, x30, [SP, #imm]! (64-bit, pre-index), user only: the push of
 * the frame record that opens most functions, where uprobes sit most.
 * The task's SP must be 16-byte aligned, or the instruction takes an SP
 * alignment fault; the store may fault too. In either case nothing is
 * changed and false returned, and the instruction is stepped: its own
 * fault, signal and registers then follow, exactly. A fault on a stack
 * that may grow is handled by the uaccess as by the instruction, growing
 * the stack.
 */
bool __kprobes sim_push_frame(u32 insn, struct pt_regs *regs)
{
	s64 offset = sign_extend64(aarch64_insn_decode_immediate(AARCH64_INSN_IMM_7,
								 insn), 6) * 8;
	u64 record[2] = { regs->regs[29], regs->regs[30] };
	unsigned long sp = regs->sp + offset;

	if (!IS_ALIGNED(regs->sp, 16) ||
	    copy_to_user((void __user *)sp, record, sizeof(record)))
		return false;
	regs->sp = sp;
	next(regs);
	return true;
}

/* MRS Xt, DAIF, kernel only: the value the probed code had. */
bool __kprobes sim_mrs_daif(u32 insn, struct pt_regs *regs)
{
	pt_regs_write_reg(regs, RT(insn), regs->pstate & DAIF_MASK);
	next(regs);
	return true;
}
