// SPDX-License-Identifier: GPL-2.0-only
/*
 * Optimized kprobes on arm64: a B to a detour in place of the BRK.
 *
 * Once the generic core decides a probe can be optimized (it has no
 * post-handler, optimization is on), the probe's BRK is replaced by a B to
 * the probe's detour, a slot within the B's +/-128 MB reach:
 *
 *	stp	x0, x1, [sp, #-PT_REGS_SIZE]!	// a struct pt_regs on the stack
 *	str	x30, [sp, #S_LR]
 *	ldr	x0, =&op->kp			// literal: the core's aggregate probe
 *	bl	optprobe_common			// saves the rest, calls the handlers
 *	ldp	x0, x1, [sp], #PT_REGS_SIZE
 *	<the probed instruction, or what does its work from here>
 *	b	probe + 4			// (or to where it branches)
 *
 * No exception is taken: the handlers run in the probed code's own context,
 * with IRQ and FIQ masked as the breakpoint's exception masks them, and
 * cost a call rather than a trap.
 *
 * Both the BRK and the B are instructions the architecture allows to be
 * swapped while other CPUs execute them, so one write switches a probe in
 * either direction. A CPU that still sees the BRK takes the breakpoint
 * path, which stays valid throughout. Before it writes the Bs of a batch,
 * arch_optimize_kprobes() makes every CPU synchronise its context, so
 * that none can still hold what was in a detour before; one instruction
 * being replaced, no task can be preempted inside the jump, and the core
 * need not wait for RCU tasks (arch_optprobe_replaces_one_insn()). It
 * still waits before it frees a detour, in which a task may be preempted.
 *
 * As kprobes.rst says of optimized probes, a pre-handler cannot divert the
 * probed code by changing the PC: the detour goes on, unless the new PC is
 * x30 (a function made to return, as error injection does), which
 * optprobe_common honours.
 */

#include <linux/cpufeature.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/smp.h>

#include <asm/debug-monitors.h>
#include <asm/insn.h>
#include <asm/ptrace.h>

#include "decode.h"
#include "opt.h"
#include "patch.h"
#include "simulate.h"

/*
 * The detour's layout, in instructions (MAX_OPTINSN_SIZE in all). Then
 * come, from DETOUR_CALL: BL optprobe_common, or if that is out of a BL's
 * reach LDR X1, DETOUR_LIT_COMMON and BLR X1; LDP x0, x1, [sp], #PT_REGS_SIZE;
 * and up to 4 instructions of tail, the probed instruction's work.
 */
enum {
	DETOUR_SAVE,			/* stp x0, x1, [sp, #-PT_REGS_SIZE]! */
	DETOUR_SAVE_LR,			/* str x30, [sp, #S_LR] */
	DETOUR_LOAD_OP,			/* ldr x0, DETOUR_LIT_OP */
	DETOUR_CALL,
	DETOUR_LIT_OP = 10,		/* 64-bit literals, 8-byte aligned */
	DETOUR_LIT_COMMON = 12,
	DETOUR_LIT_TAIL = 14,		/* a value the tail loads */
	DETOUR_END = 16,
};

static_assert(DETOUR_END == MAX_OPTINSN_SIZE);
/* The core allocates one for every probe: keep it in kmalloc-128. */
static_assert(sizeof(struct optimized_kprobe) <= 128);

/*
 * What the tail of the detour does in place of the probed instruction is
 * decode.c's: its table's opt column. What the breakpoint path refuses, the
 * detour does not run either; a landing pad keeps its breakpoint where the
 * kernel runs with BTI.
 */
static enum probe_opt_action opt_action(u32 insn)
{
	const struct probe_insn_class *class = probe_decode(insn);

	if (class->kernel == PROBE_REJECT)
		return OPT_KEEP;
	if (class->opt == OPT_PAD && system_supports_bti_kernel())
		return OPT_KEEP;
	return class->opt;
}

/* LDR Xt from detour word @lit, at detour word @i. */
static u32 detour_ldr_literal(kprobe_opcode_t *detour, int i, unsigned int rt,
			      int lit)
{
	return aarch64_insn_gen_load_literal((unsigned long)&detour[i],
					     (unsigned long)&detour[lit], rt,
					     true);
}

/* LDR Wt|Xt, [Xt] or LDRSW Xt, [Xt]: the load of LDR (literal) @lit. */
static u32 ldr_from_reg(u32 lit, unsigned int rt)
{
	return aarch64_insn_gen_load_store_imm(rt, rt, 0,
			probe_ldr_literal_size(lit) == 8 ? AARCH64_INSN_SIZE_64 :
							   AARCH64_INSN_SIZE_32,
			aarch64_insn_is_ldrsw_lit(lit) ?
				AARCH64_INSN_LDST_SIGNED_LOAD_IMM_OFFSET :
				AARCH64_INSN_LDST_LOAD_IMM_OFFSET);
}

/* B from detour word @i to @to, or 0 when @to is out of reach. */
static u32 detour_b(kprobe_opcode_t *detour, int i, unsigned long to)
{
	unsigned long from = (unsigned long)&detour[i];
	u32 b;

	if (!opt_b_reaches(from, to))
		return 0;
	b = aarch64_insn_gen_branch_imm(from, to, AARCH64_INSN_BRANCH_NOLINK);
	return b == AARCH64_BREAK_FAULT ? 0 : b;
}

static void put_literal(u32 *buf, int i, u64 value)
{
	buf[i] = lower_32_bits(value);
	buf[i + 1] = upper_32_bits(value);
}

/*
 * Write into @buf, from word @i on, the tail that does the work of @insn,
 * probed at @addr, for a detour at @detour. Return: false when the
 * instruction has no tail.
 */
static bool build_tail(u32 *buf, kprobe_opcode_t *detour, int i, u32 insn,
		       unsigned long addr)
{
	unsigned long back = addr + AARCH64_INSN_SIZE;
	enum probe_opt_action action = opt_action(insn);
	unsigned int rt = aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RT,
						       insn);

	switch (action) {
	case OPT_COPY:
	case OPT_PAD:
		buf[i++] = insn;
		break;
	case OPT_SKIP:
		break;
	case OPT_B:
		buf[i] = detour_b(detour, i, addr + aarch64_get_branch_offset(insn));
		return buf[i];
	case OPT_BL:
		buf[i] = detour_ldr_literal(detour, i, AARCH64_INSN_REG_LR,
					    DETOUR_LIT_TAIL);
		put_literal(buf, DETOUR_LIT_TAIL, back);
		i++;
		buf[i] = detour_b(detour, i, addr + aarch64_get_branch_offset(insn));
		return buf[i];
	case OPT_COND19:
	case OPT_COND14:
		/* Taken: to the B two words on. Not taken: on to B back. */
		buf[i] = aarch64_set_branch_offset(insn, 2 * AARCH64_INSN_SIZE);
		buf[i + 2] = detour_b(detour, i + 2,
				      addr + aarch64_get_branch_offset(insn));
		if (!buf[i + 2])
			return false;
		i++;
		break;
	case OPT_ADR:
		if (rt != AARCH64_INSN_REG_ZR) {
			buf[i] = detour_ldr_literal(detour, i, rt, DETOUR_LIT_TAIL);
			put_literal(buf, DETOUR_LIT_TAIL,
				    probe_adr_value(insn, addr));
			i++;
		}
		break;
	case OPT_LDR_LIT:
		/* Rt 31 is XZR here: the load would need a base register. */
		if (rt == AARCH64_INSN_REG_ZR)
			return false;
		buf[i] = detour_ldr_literal(detour, i, rt, DETOUR_LIT_TAIL);
		put_literal(buf, DETOUR_LIT_TAIL,
			    addr + probe_imm19_offset(insn));
		buf[i + 1] = ldr_from_reg(insn, rt);
		i += 2;
		break;
	default:
		return false;
	}
	buf[i] = detour_b(detour, i, back);
	return buf[i];
}

/* STP/LDP x0, x1 with SP as the base, written back. */
static u32 x0_x1_pair(int offset, enum aarch64_insn_ldst_type type)
{
	return aarch64_insn_gen_load_store_pair(AARCH64_INSN_REG_0,
						AARCH64_INSN_REG_1,
						AARCH64_INSN_REG_SP, offset,
						AARCH64_INSN_VARIANT_64BIT, type);
}

static bool build_detour(u32 *buf, kprobe_opcode_t *detour,
			 struct optimized_kprobe *op, u32 insn,
			 unsigned long addr)
{
	const int frame = sizeof(struct pt_regs);
	const int lr = offsetof(struct pt_regs, regs[30]);
	int i, tail;

	for (i = 0; i < DETOUR_END; i++)
		buf[i] = aarch64_insn_gen_nop();
	buf[DETOUR_SAVE] = x0_x1_pair(-frame,
				      AARCH64_INSN_LDST_STORE_PAIR_PRE_INDEX);
	buf[DETOUR_SAVE_LR] =
		aarch64_insn_gen_load_store_imm(AARCH64_INSN_REG_LR,
						AARCH64_INSN_REG_SP, lr,
						AARCH64_INSN_SIZE_64,
						AARCH64_INSN_LDST_STORE_IMM_OFFSET);
	buf[DETOUR_LOAD_OP] = detour_ldr_literal(detour, DETOUR_LOAD_OP,
						 AARCH64_INSN_REG_0, DETOUR_LIT_OP);
	put_literal(buf, DETOUR_LIT_OP, (unsigned long)&op->kp);
	i = DETOUR_CALL;
	if (opt_b_reaches((unsigned long)&detour[i],
			  (unsigned long)optprobe_common)) {
		buf[i] = aarch64_insn_gen_branch_imm((unsigned long)&detour[i],
						     (unsigned long)optprobe_common,
						     AARCH64_INSN_BRANCH_LINK);
	} else {
		buf[i] = detour_ldr_literal(detour, i, AARCH64_INSN_REG_1,
					    DETOUR_LIT_COMMON);
		put_literal(buf, DETOUR_LIT_COMMON,
			    (unsigned long)optprobe_common);
		buf[++i] = aarch64_insn_gen_branch_reg(AARCH64_INSN_REG_1,
						       AARCH64_INSN_BRANCH_LINK);
	}
	buf[++i] = x0_x1_pair(frame, AARCH64_INSN_LDST_LOAD_PAIR_POST_INDEX);
	tail = ++i;
	while (i--)
		if (buf[i] == AARCH64_BREAK_FAULT)
			return false;
	return build_tail(buf, detour, tail, insn, addr);
}

int arch_prepared_optinsn(struct arch_optimized_insn *optinsn)
{
	return !!optinsn->detour;
}

/* The region is the probed instruction alone: no other probe can be in it. */
int arch_check_optimized_kprobe(struct optimized_kprobe *op)
{
	return 0;
}

int arch_within_optimized_kprobe(struct optimized_kprobe *op,
				 kprobe_opcode_t *addr)
{
	return op->kp.addr == addr;
}

int arch_prepare_optimized_kprobe(struct optimized_kprobe *op,
				  struct kprobe *orig)
{
	unsigned long addr = (unsigned long)orig->addr;
	u32 buf[DETOUR_END];
	kprobe_opcode_t *detour;

	if (opt_action(orig->opcode) == OPT_KEEP)
		return -EINVAL;
	detour = get_detour_slot(addr);
	if (!detour)
		return -ENOMEM;
	if (!opt_b_reaches(addr, (unsigned long)detour) ||
	    !build_detour(buf, detour, op, orig->opcode, addr)) {
		free_detour_slot(detour);
		return -ERANGE;
	}
	/* Written when the probe is optimized: most are never enabled. */
	op->optinsn.detour = detour;
	return 0;
}

/*
 * No CPU can be in a detour the core frees: it was never branched to; or
 * its branch was taken out by kprobe_optimizer(), which waits for RCU
 * tasks before freeing it and holds kprobe_mutex until then; or by a
 * forced unoptimization, after which unregistering waits for RCU; or it
 * served a module's text that is gone. So the slot is not "dirty": that
 * would only make a later definition wait for RCU to collect it.
 */
void arch_remove_optimized_kprobe(struct optimized_kprobe *op)
{
	if (op->optinsn.detour) {
		free_detour_slot(op->optinsn.detour);
		op->optinsn.detour = NULL;
	}
}

static void write_branch_to_detour(struct optimized_kprobe *op)
{
	probe_patch_site_nosync(&op->kp, probe_armed_insn(&op->kp));
}

/*
 * None of these probes has its branch in place, so no CPU is in their
 * detours. A detour written again is written the same: its probe, place,
 * instruction and slot are what they were.
 */
void arch_optimize_kprobes(struct list_head *oplist)
{
	struct optimized_kprobe *op, *tmp;
	u32 buf[DETOUR_END];

	if (list_empty(oplist))
		return;
	list_for_each_entry(op, oplist, list) {
		/* It was built when the probe was prepared: it builds. */
		build_detour(buf, op->optinsn.detour, op, op->kp.opcode,
			     (unsigned long)op->kp.addr);
		/* The words as they are in @buf: little-endian only. */
		WARN_ON(probe_write_code(op->optinsn.detour, buf, sizeof(buf)));
	}
	/*
	 * Written without an IPI: no CPU may still hold what was in a
	 * detour before, once for all the probes.
	 */
	kick_all_cpus_sync();
	list_for_each_entry_safe(op, tmp, oplist, list) {
		write_branch_to_detour(op);
		list_del_init(&op->list);
	}
}

void arch_unoptimize_kprobe(struct optimized_kprobe *op)
{
	probe_patch_site_nosync(&op->kp, BRK64_OPCODE_KPROBES);
}

/* What comes back on @done_list, the core disarms or frees. */
void arch_unoptimize_kprobes(struct list_head *oplist,
			     struct list_head *done_list)
{
	while (!list_empty(oplist)) {
		struct optimized_kprobe *op =
			list_first_entry(oplist, struct optimized_kprobe, list);

		arch_unoptimize_kprobe(op);
		list_move_tail(&op->list, done_list);
	}
}
