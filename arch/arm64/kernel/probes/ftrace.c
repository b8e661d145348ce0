// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel probes on arm64 that ride the function tracer's call-out.
 *
 * A traceable function starts with two instructions the compiler left for
 * ftrace: MOV X9, X30, written once at boot, then a NOP that ftrace turns
 * into BL ftrace_caller while any of its users wants the function. A probe
 * at a function's entry is placed on that second instruction, the ftrace
 * site, and the generic core arms it as one more ftrace user: no BRK is
 * written, no exception is taken, nothing is stepped or simulated, and the
 * function tracer, fprobe, BPF trampolines and other probes keep sharing
 * the site. ftrace_caller saves the calling convention's live state in a
 * struct ftrace_regs and calls kprobe_ftrace_handler().
 *
 * The handlers expect the pt_regs of a BRK at the site. That is built
 * here, from what arm64's ftrace saves: x0-x8 (the arguments and the
 * indirect result register), the frame pointer, the link register, SP and
 * the PC. x9 is the link register too, since MOV X9, X30 has run. At a
 * call x10-x17 hold nothing the function is given, and x19-x28 are its
 * caller's, saved for it by whichever C code runs between the site and
 * here (the ftrace list function, when the function has several ftrace
 * users), so that their values now are not the ones the call was made
 * with: they read as zero rather than as a plausible wrong value.
 *
 * A probe with a fregs_handler is spared all of that: the handler reads
 * the ftrace_regs through ftrace's accessors, and asks for the pt_regs
 * only when it must give them on (to perf or BPF). The core's aggregate
 * of the probes at a site has one too, which builds the pt_regs, with the
 * two functions below, only for those of its probes that need it.
 *
 * What the handlers change goes back into the ftrace_regs, which
 * ftrace_caller reloads: the arguments (BPF's error injection sets x0),
 * the link register (a kretprobe's entry swaps it for its trampoline) and,
 * when a pre-handler has moved the PC (error injection's early return),
 * the PC.
 */

#include <linux/ftrace.h>
#include <linux/irqflags.h>
#include <linux/kprobes.h>
#include <linux/preempt.h>
#include <linux/unroll.h>

#include <asm/daifflags.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>

/**
 * arch_adjust_kprobe_addr() - where a probe at @addr + @offset goes
 * @addr: the start of a function
 * @offset: the offset within it asked for
 * @on_func_entry: set when the probe is at the function's entry
 *
 * A probe on the function's symbol is moved onto its ftrace site, where
 * the core arms it through ftrace. A probe asked for at the site's own
 * offset is at the entry too: the instructions before it (a BTI and the
 * MOV X9, X30) change nothing a handler reads but x9. A function without
 * an ftrace site (notrace, or built without the patchable entry) keeps
 * its probe at @addr + @offset.
 *
 * Return: the address to probe.
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry)
{
	unsigned long site = ftrace_location(addr);

	if (site && (!offset || addr + offset == site)) {
		*on_func_entry = true;
		return (kprobe_opcode_t *)site;
	}
	*on_func_entry = !offset;
	return (kprobe_opcode_t *)(addr + offset);
}

/**
 * arch_prepare_kprobe_ftrace() - prepare a probe on an ftrace site
 * @p: the probe, whose address the core found to be an ftrace site
 *
 * ftrace owns the site's instruction, a NOP or its BL, and there is
 * nothing to copy, decode or simulate: once the handlers have run, the
 * function goes on after the site as if the NOP had been stepped.
 *
 * Return: 0.
 */
int arch_prepare_kprobe_ftrace(struct kprobe *p)
{
	p->ainsn.run = 0;
	return 0;
}

/*
 * The pt_regs of a BRK at the site: what ftrace_partial_regs() takes from
 * ftrace_regs, the site as the PC, and the rest field by field, the loop
 * unrolled: a memset(), which is what the compiler makes of a loop of
 * zeroes, is an out-of-line call in a kernel built without SIMD and cost
 * more than the rest of the hit between ftrace_caller and the handler.
 *
 * Whether the probed code had interrupts masked is in @irqflags, what
 * masking them for the handlers saved: the DAIF bits, or under pseudo-NMI
 * the priority mask, which is then what was changed, DAIF being left as
 * the probed code had it. Read after masking, either would say masked.
 */
static __always_inline void regs_from_fregs(struct pt_regs *regs,
					    const struct ftrace_regs *fregs,
					    unsigned long ip,
					    unsigned long irqflags)
{
	int i;

	ftrace_partial_regs(fregs, regs);
	regs->regs[9] = regs->regs[30];
	unrolled_full
	for (i = 10; i < 29; i++)
		regs->regs[i] = 0;
	regs->pc = ip;
	if (system_uses_irq_prio_masking()) {
		regs->pstate = read_sysreg(daif) | PSR_MODE_EL1h;
		regs->pmr = irqflags;
	} else {
		regs->pstate = irqflags | PSR_MODE_EL1h;
		regs->pmr = 0;
	}
	regs->orig_x0 = regs->regs[0];
	regs->syscallno = NO_SYSCALL;
	regs->sdei_ttbr1 = 0;
	regs->stackframe = (struct frame_record_meta){};
}

/*
 * What the handlers may have changed, for ftrace_caller to reload. The PC
 * is not among them: it goes back only when a pre-handler says it moved it.
 */
static __always_inline void regs_to_fregs(struct ftrace_regs *fregs,
					  const struct pt_regs *regs)
{
	struct __arch_ftrace_regs *af = arch_ftrace_regs(fregs);

	memcpy(af->regs, regs->regs, sizeof(af->regs));
	af->lr = regs->regs[30];
}

/**
 * arch_kprobe_fregs_to_regs() - the pt_regs of a BRK at the site
 * @fregs: what ftrace_caller saved
 * @p: the probe hit, at the site
 *
 * For the core's aggregate of probes, within kprobe_ftrace_handler(),
 * which left the probed code's interrupt flags in the kprobe_ctlblk.
 *
 * Return: this CPU's pt_regs for the hit, filled in.
 */
struct pt_regs *arch_kprobe_fregs_to_regs(const struct ftrace_regs *fregs,
					  struct kprobe *p)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();

	regs_from_fregs(&kcb->ftrace_regs, fregs, (unsigned long)p->addr,
			kcb->saved_irqflags);
	return &kcb->ftrace_regs;
}
NOKPROBE_SYMBOL(arch_kprobe_fregs_to_regs);

/**
 * arch_kprobe_regs_to_fregs() - what the handlers changed, for ftrace_caller
 * @fregs: what ftrace_caller reloads
 * @regs: the pt_regs arch_kprobe_fregs_to_regs() made, as the handlers
 *	left them
 */
void __kprobes arch_kprobe_regs_to_fregs(struct ftrace_regs *fregs,
					 const struct pt_regs *regs)
{
	regs_to_fregs(fregs, regs);
}

/**
 * kprobe_ftrace_handler() - a probe's hit through ftrace
 * @ip: the ftrace site, the probe's address
 * @parent_ip: the function's return address
 * @ops: the core's ftrace_ops
 * @fregs: the state ftrace_caller saved
 *
 * The handlers run as on the BRK's and the detour's paths: preemption off,
 * interrupts masked without the irqflags tracing of local_irq_save(), which
 * walks the stack for its caller's caller on every hit, and whose functions
 * may themselves be probed. A probe hit while another's handlers run on this
 * CPU is counted as missed, as a BRK would count it.
 *
 * That check is the recursion guard, as it is on those paths, and ftrace's
 * recursion lock is not taken: everything before it is notrace or cannot
 * be probed (get_kprobe() is on the blacklist), so a hit from this CPU can
 * come back here only from inside the handlers, where it is missed, or
 * from an NMI, which either finds the handlers running or runs its own
 * whole before this hit sets anything. Masking interrupts first keeps a
 * hit in an interrupt handler from finding this CPU busy.
 */
void __kprobes kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_ops *ops,
				     struct ftrace_regs *fregs)
{
	struct kprobe_ctlblk *kcb;
	/*
	 * The pt_regs of a probe that takes one: on the stack, where it costs
	 * the fewest instructions to fill (the aggregate's, which would make
	 * the stack the deeper by one more, is in the kprobe_ctlblk). Not
	 * zeroed first by INIT_STACK_ALL_ZERO: every field is set.
	 */
	struct pt_regs regs __uninitialized;
	unsigned long flags;
	struct kprobe *p;

	/*
	 * Counted, as the other paths count it, for the records' preempt
	 * count: the trace event code takes one off for its own.
	 */
	preempt_disable_notrace();
	raw_local_irq_save(flags);

	/* A probe disarmed but still in ftrace's filter is skipped here. */
	p = get_kprobe((kprobe_opcode_t *)ip);
	if (unlikely(!p || kprobe_disabled(p)))
		goto out;
	if (unlikely(kprobe_running())) {
		kprobes_inc_nmissed_count(p);
		goto out;
	}

	kcb = get_kprobe_ctlblk();
	__this_cpu_write(current_kprobe, p);
	kcb->kprobe_status = KPROBE_HIT_ACTIVE;
	kcb->saved_irqflags = flags;
	/*
	 * A probe that reads only what ftrace saved (a trace event whose
	 * arguments read no other register, or the core's aggregate of
	 * probes, which decides probe by probe) takes the ftrace_regs as
	 * they are: no pt_regs is built, and nothing is written back.
	 */
	if (p->fregs_handler && !p->post_handler && !p->fregs_handler(p, fregs))
		goto done;
	regs_from_fregs(&regs, fregs, ip, flags);
	if (p->pre_handler && p->pre_handler(p, &regs)) {
		/* The pre-handler chose where the function goes on. */
		ftrace_regs_set_instruction_pointer(fregs, regs.pc);
	} else if (p->post_handler) {
		/* As if the site's NOP had been stepped. */
		regs.pc = ip + AARCH64_INSN_SIZE;
		kcb->kprobe_status = KPROBE_HIT_SSDONE;
		p->post_handler(p, &regs, 0);
	}
	regs_to_fregs(fregs, &regs);
done:
	__this_cpu_write(current_kprobe, NULL);
out:
	raw_local_irq_restore(flags);
	preempt_enable_notrace();
}
