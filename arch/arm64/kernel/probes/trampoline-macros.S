/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the optimized probes' detours (opt-trampoline.S) and the kretprobe
 * trampoline (kretprobe-trampoline.S) share, macros that both include:
 * building a struct pt_regs at SP without an exception, turning
 * preemption off and on around the handlers, and telling the core which
 * probe this CPU is busy with. The includer provides probes-asm-offsets.h.
 */

#include <asm/asm-offsets.h>
#include <asm/ptrace.h>

	.macro	save_x2_to_x29
	stp	x2, x3, [sp, #S_X2]
	stp	x4, x5, [sp, #S_X4]
	stp	x6, x7, [sp, #S_X6]
	stp	x8, x9, [sp, #S_X8]
	stp	x10, x11, [sp, #S_X10]
	stp	x12, x13, [sp, #S_X12]
	stp	x14, x15, [sp, #S_X14]
	stp	x16, x17, [sp, #S_X16]
	stp	x18, x19, [sp, #S_X18]
	stp	x20, x21, [sp, #S_X20]
	stp	x22, x23, [sp, #S_X22]
	stp	x24, x25, [sp, #S_X24]
	stp	x26, x27, [sp, #S_X26]
	stp	x28, x29, [sp, #S_X28]
	.endm

	.macro	load_x2_to_x29
	ldp	x2, x3, [sp, #S_X2]
	ldp	x4, x5, [sp, #S_X4]
	ldp	x6, x7, [sp, #S_X6]
	ldp	x8, x9, [sp, #S_X8]
	ldp	x10, x11, [sp, #S_X10]
	ldp	x12, x13, [sp, #S_X12]
	ldp	x14, x15, [sp, #S_X14]
	ldp	x16, x17, [sp, #S_X16]
	ldp	x18, x19, [sp, #S_X18]
	ldp	x20, x21, [sp, #S_X20]
	ldp	x22, x23, [sp, #S_X22]
	ldp	x24, x25, [sp, #S_X24]
	ldp	x26, x27, [sp, #S_X26]
	ldp	x28, x29, [sp, #S_X28]
	.endm

	/*
	 * The PSTATE an exception taken here would have saved, as far as
	 * the handlers look at it: the flags, the interrupt mask, EL1h.
	 */
	.macro	save_pstate, tmp1, tmp2
	mrs	\tmp1, nzcv
	mrs	\tmp2, daif
	orr	\tmp1, \tmp1, \tmp2
	/* The mode bits are clear in both: an ADD sets them. */
	add	\tmp1, \tmp1, #PSR_MODE_EL1h
	str	\tmp1, [sp, #S_PSTATE]
	.endm

	/* The flags the handlers left in the pt_regs, the rest kept 0. */
	.macro	restore_nzcv, tmp
	ldr	\tmp, [sp, #S_PSTATE]
	and	\tmp, \tmp, #(PSR_N_BIT | PSR_Z_BIT | PSR_C_BIT | PSR_V_BIT)
	msr	nzcv, \tmp
	.endm

	/*
	 * With pseudo-NMIs, interrupts are masked through the GIC's priority
	 * mask rather than PSTATE.I, and regs_irqs_disabled() reads the
	 * saved mask as an exception entry leaves it: save it too.
	 */
	.macro	save_pmr, xtmp, wtmp
alternative_if ARM64_HAS_GIC_PRIO_MASKING
	mrs_s	\xtmp, SYS_ICC_PMR_EL1
	str	\wtmp, [sp, #S_PMR]
alternative_else_nop_endif
	.endm

	/*
	 * preempt_disable_notrace() in task @tsk, current, through @wtmp.
	 */
	.macro	probe_preempt_disable, tsk, wtmp
#ifdef CONFIG_PREEMPT_COUNT
	ldr	\wtmp, [\tsk, #TSK_TI_PREEMPT]
	add	\wtmp, \wtmp, #1
	str	\wtmp, [\tsk, #TSK_TI_PREEMPT]
#endif
	.endm

	/*
	 * preempt_enable_notrace() in task @tsk, current, through @xtmp and
	 * @wtmp, one register. The count is the low half of a 64-bit word
	 * whose high half is zero when a reschedule is due (asm/preempt.h):
	 * the word is zero when one is due and may be taken. An interrupt
	 * between the load and the store may have asked for one, hence the
	 * second look. Rescheduling clobbers what a call does, x30 included.
	 */
	.macro	probe_preempt_enable, tsk, xtmp, wtmp
#ifdef CONFIG_PREEMPT_COUNT
	ldr	\xtmp, [\tsk, #TSK_TI_PREEMPT]
	sub	\xtmp, \xtmp, #1
	str	\wtmp, [\tsk, #TSK_TI_PREEMPT]
#ifdef CONFIG_PREEMPTION
	cbz	\xtmp, 8f
	ldr	\xtmp, [\tsk, #TSK_TI_PREEMPT]
	cbnz	\xtmp, 9f
8:
#ifdef CONFIG_PREEMPT_DYNAMIC
	bl	dynamic_preempt_schedule_notrace
#else
	bl	preempt_schedule_notrace
#endif
9:
#endif
#endif
	.endm

	/*
	 * @slot: this CPU's current_kprobe, @off: this CPU's per-CPU offset.
	 * Preemption is off.
	 */
	.macro	probe_current_slot, slot, off
	get_this_cpu_offset \off
	adr_l	\slot, current_kprobe
	add	\slot, \slot, \off
	.endm

	/*
	 * This CPU's kprobe_ctlblk.kprobe_status = KPROBE_HIT_ACTIVE, with
	 * @off as probe_current_slot left it.
	 */
	.macro	probe_status_active, off, xtmp, wtmp
	adr_l	\xtmp, kprobe_ctlblk + KCB_STATUS
	mov	\wtmp, #KCB_HIT_ACTIVE
	str	\wtmp, [\xtmp, \off]
	.endm
