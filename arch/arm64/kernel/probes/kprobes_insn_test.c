// SPDX-License-Identifier: GPL-2.0-only
/*
 * The instruction matrix: every class a kprobe simulates, and instructions
 * of each class it steps out of line, run once without a probe and once
 * with a kprobe on the instruction itself. Both runs must leave the same
 * general registers, x30, NZCV, v0, memory and branch direction, and the
 * probe must have been hit once a run. Then: a probe on an instruction of
 * each refused class is refused.
 */

#include <kunit/test.h>
#include <linux/kprobes.h>
#include <linux/delay.h>
#include <linux/module.h>

#include <asm/insn.h>
#include <asm/simd.h>

#include "kprobes_insn_test.h"

/* The default state: every register and the memory distinct and non-zero. */
static void setup_default(struct insn_state *s, unsigned int variant)
{
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < 16; i++)
		s->x[i] = 0x0101010101010101ULL * (i + 1) ^ BIT_ULL(63);
	/* Small values where registers index or count. */
	s->x[1] = 3;
	s->x[2] = 0x1234;
	for (i = 0; i < 4; i++)
		s->mem[i] = 0x1111111111111111ULL * (i + 9);
}

/* All sixteen NZCV values. */
static void setup_flags(struct insn_state *s, unsigned int variant)
{
	setup_default(s, 0);
	s->nzcv = (u64)variant << 28;
}

/* x1 zero, zero in its low half only, and with bits 3 and 40 either way. */
static const u64 x1_values[] = {
	0, BIT_ULL(40), 5, BIT_ULL(40) | BIT_ULL(3), ~0ULL,
};

static void setup_x1(struct insn_state *s, unsigned int variant)
{
	setup_default(s, 0);
	s->x[1] = x1_values[variant];
}

/* Operand pairs that set each flag of an addition or subtraction. */
static const u64 x1_x2_values[][2] = {
	{ 1, 2 }, { ~0ULL, 1 }, { S64_MAX, 1 }, { 0, 0 }, { 0x80000000, 0x80000000 },
};

static void setup_arith(struct insn_state *s, unsigned int variant)
{
	setup_flags(s, variant % 16);
	s->x[1] = x1_x2_values[variant % ARRAY_SIZE(x1_x2_values)][0];
	s->x[2] = x1_x2_values[variant % ARRAY_SIZE(x1_x2_values)][1];
}

/* The state lives at one address for both runs: some cases store to it. */
static struct insn_state insn_state;

static void setup_mem(struct insn_state *s, unsigned int variant)
{
	setup_default(s, 0);
	s->x[2] = (u64)insn_state.mem;
}

/* How each kind of case varies its inputs, run by run. */
static const struct {
	void (*setup)(struct insn_state *state, unsigned int variant);
	unsigned int variants;
} inputs[] = {
	[IC_DEFAULT] = { setup_default, 1 },
	[IC_FLAGS] = { setup_flags, 16 },
	[IC_X1] = { setup_x1, ARRAY_SIZE(x1_values) },
	[IC_ARITH] = { setup_arith, 16 },
	[IC_MEM] = { setup_mem, 1 },
};

/* The cases are those the assembly lays out, in its order. */
static const void *insn_case_gen_params(struct kunit *test, const void *prev,
					char *desc)
{
	const struct insn_case *c = prev ? (const struct insn_case *)prev + 1 :
					   insn_cases;

	if (c >= insn_cases_end)
		return NULL;
	strscpy(desc, c->name + 3, KUNIT_PARAM_DESC_SIZE);
	return c;
}

static unsigned int pre_hits, post_hits;
static u64 post_btype;

static int count_pre(struct kprobe *p, struct pt_regs *regs)
{
	pre_hits++;
	return 0;
}

static void count_post(struct kprobe *p, struct pt_regs *regs,
		       unsigned long flags)
{
	post_hits++;
	post_btype = regs->pstate & PSR_BTYPE_MASK;
}

/*
 * The BTYPE the probed instruction leaves for the next one to check, as
 * the hardware sets it in guarded text: the case says so for a branch
 * through a register (IC_BTYPE_*); everything else, RET and the stepped
 * instructions included, leaves none. Without BTI in the kernel, none at
 * all.
 */
static u64 expected_btype(const struct insn_case *c)
{
	if (!system_supports_bti_kernel())
		return PSR_BTYPE_NONE;
	switch (c->how & IC_BTYPE_JC) {
	case IC_BTYPE_C:
		return PSR_BTYPE_C;
	case IC_BTYPE_J:
		return PSR_BTYPE_J;
	case IC_BTYPE_JC:
		return PSR_BTYPE_JC;
	}
	return PSR_BTYPE_NONE;
}

static void run_case(const struct insn_case *c, unsigned int variant,
		     struct insn_state *out)
{
	inputs[c->inputs].setup(&insn_state, variant);
	/* Every case writes v0, and some read literals into it. */
	scoped_ksimd()
		insn_case_call(&insn_state, c->run);
	*out = insn_state;
}

static void expect_same_state(struct kunit *test, const struct insn_state *probed,
			      const struct insn_state *plain, const char *name,
			      unsigned int v)
{
	int i;

	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ_MSG(test, probed->x[i], plain->x[i],
				    "%s x%d, variant %u", name, i, v);
	KUNIT_EXPECT_EQ_MSG(test, probed->x30, plain->x30,
			    "%s x30, variant %u", name, v);
	KUNIT_EXPECT_EQ_MSG(test, probed->nzcv, plain->nzcv,
			    "%s nzcv, variant %u", name, v);
	KUNIT_EXPECT_EQ_MSG(test, probed->path, plain->path,
			    "%s branch, variant %u", name, v);
	KUNIT_EXPECT_MEMEQ_MSG(test, probed->q0, plain->q0, sizeof(plain->q0),
			       "%s v0, variant %u", name, v);
	KUNIT_EXPECT_MEMEQ_MSG(test, probed->mem, plain->mem, sizeof(plain->mem),
			       "%s memory, variant %u", name, v);
}

static void insn_matrix_test(struct kunit *test)
{
	const struct insn_case *c = test->param_value;
	unsigned int variants = inputs[c->inputs].variants;
	struct insn_state *plain, *probed;
	struct kprobe kp = {
		.addr = (kprobe_opcode_t *)c->probe,
		.pre_handler = count_pre,
		.post_handler = count_post,
	};
	unsigned int v;

	BUILD_BUG_ON(offsetof(struct insn_state, x30) != ISTATE_X30);
	BUILD_BUG_ON(offsetof(struct insn_state, nzcv) != ISTATE_NZCV);
	BUILD_BUG_ON(offsetof(struct insn_state, q0) != ISTATE_Q0);
	BUILD_BUG_ON(offsetof(struct insn_state, mem) != ISTATE_MEM);
	BUILD_BUG_ON(offsetof(struct insn_state, path) != ISTATE_PATH);
	BUILD_BUG_ON(sizeof(struct insn_state) != ISTATE_SIZE);
	BUILD_BUG_ON(sizeof(struct insn_case) != 32);

	plain = kunit_kcalloc(test, variants, sizeof(*plain), GFP_KERNEL);
	probed = kunit_kcalloc(test, variants, sizeof(*probed), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	KUNIT_ASSERT_NOT_NULL(test, probed);

	for (v = 0; v < variants; v++)
		run_case(c, v, &plain[v]);

	pre_hits = 0;
	post_hits = 0;
	KUNIT_ASSERT_EQ(test, register_kprobe(&kp), 0);
	KUNIT_EXPECT_EQ_MSG(test, !probe_slot(&kp.ainsn), !!(c->how & IC_SIM),
			    "decoded as %s",
			    probe_slot(&kp.ainsn) ? "stepped" : "simulated");
	KUNIT_EXPECT_EQ(test, !probe_simulate(&kp.ainsn), !(c->how & IC_SIM));
	for (v = 0; v < variants; v++)
		run_case(c, v, &probed[v]);
	unregister_kprobe(&kp);

	KUNIT_EXPECT_EQ(test, pre_hits, variants);
	KUNIT_EXPECT_EQ(test, post_hits, variants);
	KUNIT_EXPECT_EQ_MSG(test, post_btype, expected_btype(c),
			    "PSTATE.BTYPE after the probed instruction");
	for (v = 0; v < variants; v++)
		expect_same_state(test, &probed[v], &plain[v], "", v);
}

#ifdef CONFIG_OPTPROBES
/*
 * Whether the case says the detour of an optimized probe cannot carry its
 * instruction: BLR would return into it, LDR (literal) to XZR and LDR
 * (literal, SIMD&FP) need a free register. With BTI in the kernel,
 * neither may a landing pad (BTI, PACIASP, PACIBSP) be replaced by the
 * branch to a detour: an indirect branch to it would take a Branch Target
 * exception. Stated here case by case, not asked of decode.c, whose
 * table is what this checks.
 */
static bool detour_refuses(const struct insn_case *c)
{
	return (c->how & IC_KEEP_BRK) ||
	       ((c->how & IC_PAD) && system_supports_bti_kernel());
}

/* Wait until the optimizer has put a branch at @addr; false after 10 s. */
static bool wait_for_branch(kprobe_opcode_t *addr)
{
	int waited;

	for (waited = 0; waited < 100; waited++) {
		if (aarch64_insn_is_b(le32_to_cpu(*addr)))
			return true;
		msleep(100);
	}
	return false;
}

/* The first case whose instruction every detour carries. */
static const struct insn_case *optimizable_case(void)
{
	const struct insn_case *c = insn_cases;

	while (detour_refuses(c))
		c++;
	return c;
}

/*
 * The same matrix through optimized probes: every case's probe at once,
 * without a post-handler, so that the optimizer replaces their BRKs with
 * branches to detours; each case must then do what it does unprobed.
 */
static void insn_matrix_optimized_test(struct kunit *test)
{
	const int n = insn_cases_end - insn_cases;
	struct insn_state **plain, probed;
	struct kprobe *kps, **list;
	unsigned int v;
	int i;

	kps = kunit_kcalloc(test, n, sizeof(*kps), GFP_KERNEL);
	list = kunit_kcalloc(test, n, sizeof(*list), GFP_KERNEL);
	plain = kunit_kcalloc(test, n, sizeof(*plain), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kps);
	KUNIT_ASSERT_NOT_NULL(test, list);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	for (i = 0; i < n; i++) {
		const struct insn_case *c = &insn_cases[i];

		plain[i] = kunit_kcalloc(test, inputs[c->inputs].variants,
					 sizeof(**plain), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, plain[i]);
		for (v = 0; v < inputs[c->inputs].variants; v++)
			run_case(c, v, &plain[i][v]);
		kps[i].addr = (kprobe_opcode_t *)c->probe;
		kps[i].pre_handler = count_pre;
		list[i] = &kps[i];
	}
	KUNIT_ASSERT_EQ(test, register_kprobes(list, n), 0);

	/* The optimizer runs from a worker, after an RCU-tasks grace period. */
	for (i = 0; i < n; i++)
		if (!detour_refuses(&insn_cases[i]))
			wait_for_branch(kps[i].addr);

	for (i = 0; i < n; i++) {
		const struct insn_case *c = &insn_cases[i];
		bool optimized = aarch64_insn_is_b(le32_to_cpu(*kps[i].addr));

		KUNIT_EXPECT_EQ_MSG(test, optimized, !detour_refuses(c),
				    "%s: %s", c->name + 3,
				    optimized ? "optimized" : "not optimized");
		for (v = 0; v < inputs[c->inputs].variants; v++) {
			pre_hits = 0;
			run_case(c, v, &probed);
			KUNIT_EXPECT_EQ_MSG(test, pre_hits, 1U, "%s", c->name + 3);
			expect_same_state(test, &probed, &plain[i][v], c->name + 3, v);
		}
	}
	unregister_kprobes(list, n);
}

/*
 * Disabled and at once enabled again, an optimized probe is optimized
 * again. The core takes it off the unoptimizing list, so the branch
 * stays; but the optimizer's pass may come in between on a loaded host,
 * which puts the BRK back, and then the next pass writes the branch again.
 */
static void reenable_keeps_branch_test(struct kunit *test)
{
	const struct insn_case *c = optimizable_case();
	struct kprobe kp = { .pre_handler = count_pre };
	struct insn_state state;

	kp.addr = (kprobe_opcode_t *)c->probe;
	KUNIT_ASSERT_EQ(test, register_kprobe(&kp), 0);
	KUNIT_EXPECT_TRUE(test, wait_for_branch(kp.addr));
	KUNIT_EXPECT_EQ(test, disable_kprobe(&kp), 0);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&kp), 0);
	KUNIT_EXPECT_TRUE(test, wait_for_branch(kp.addr));
	pre_hits = 0;
	run_case(c, 0, &state);
	KUNIT_EXPECT_EQ(test, pre_hits, 1U);
	unregister_kprobe(&kp);
}

/*
 * An aggregate's pre-handlers on an optimized probe run as the core runs
 * them on the breakpoint path: in the order of the aggregate's list, those
 * of disabled probes skipped; and a probe hit from a handler is
 * counted as missed, its handler not run. Each scenario runs on both
 * paths: the core keeps probes with post-handlers, which a detour cannot
 * run, on the breakpoint path.
 */
static int handler_order[4], handlers_run;
static unsigned int nested_hits;

static int note_first(struct kprobe *p, struct pt_regs *regs)
{
	handler_order[handlers_run++ % 4] = 1;
	return 0;
}

static int note_second(struct kprobe *p, struct pt_regs *regs)
{
	handler_order[handlers_run++ % 4] = 2;
	return 0;
}

static int note_third(struct kprobe *p, struct pt_regs *regs)
{
	handler_order[handlers_run++ % 4] = 3;
	return 0;
}

static int count_nested(struct kprobe *p, struct pt_regs *regs)
{
	nested_hits++;
	return 0;
}

static int call_nested(struct kprobe *p, struct pt_regs *regs)
{
	handlers_run++;
	ic_nested(1);
	return 0;
}

/*
 * Register @n probes at @addr, with post-handlers on the breakpoint path
 * only, and wait until the core has put them on the path asked for.
 */
static void register_on_path(struct kunit *test, struct kprobe *kp, int n,
			     bool optimized)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!optimized)
			kp[i].post_handler = count_post;
		KUNIT_ASSERT_EQ(test, register_kprobe(&kp[i]), 0);
	}
	if (optimized)
		KUNIT_EXPECT_TRUE(test, wait_for_branch(kp[0].addr));
	KUNIT_EXPECT_EQ(test, aarch64_insn_is_b(le32_to_cpu(*kp[0].addr)),
			optimized);
}

/*
 * Which of @kp, by index, the core's aggregate lists in what order: the
 * order that its pre-handlers run in, on either path. The list goes round
 * through the aggregate itself, the one node that is none of @kp.
 */
static int index_of(const struct list_head *node, struct kprobe *kp, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (node == &kp[i].list)
			return i;
	return -1;
}

static void aggregate_order(struct kprobe *kp, int n, int *order)
{
	struct list_head *head = &kp[0].list, *pos;
	int k = 0;

	while (index_of(head, kp, n) >= 0)
		head = head->next;
	list_for_each(pos, head)
		order[k++] = index_of(pos, kp, n);
}

static void aggregate_order_test(struct kunit *test)
{
	const struct insn_case *c = optimizable_case();
	const kprobe_pre_handler_t pre[] = {
		note_first, note_second, note_third,
	};
	struct insn_state state;
	struct kprobe kp[3];
	int order[3], path, i, k;

	for (path = 0; path < 2; path++) {
		memset(kp, 0, sizeof(kp));
		for (i = 0; i < 3; i++) {
			kp[i].addr = (kprobe_opcode_t *)c->probe;
			kp[i].pre_handler = pre[i];
		}
		register_on_path(test, kp, 3, !path);
		aggregate_order(kp, 3, order);

		KUNIT_EXPECT_EQ(test, disable_kprobe(&kp[1]), 0);
		handlers_run = 0;
		run_case(c, 0, &state);
		KUNIT_EXPECT_EQ(test, handlers_run, 2);
		for (i = 0, k = 0; i < 3; i++)
			if (order[i] != 1)
				KUNIT_EXPECT_EQ(test, handler_order[k++],
						order[i] + 1);

		KUNIT_EXPECT_EQ(test, enable_kprobe(&kp[1]), 0);
		handlers_run = 0;
		run_case(c, 0, &state);
		KUNIT_EXPECT_EQ(test, handlers_run, 3);
		for (i = 0; i < 3; i++)
			KUNIT_EXPECT_EQ(test, handler_order[i], order[i] + 1);

		for (i = 0; i < 3; i++)
			unregister_kprobe(&kp[i]);
	}
}

static void nested_missed_test(struct kunit *test)
{
	const struct insn_case *c = optimizable_case();
	struct insn_state state;
	struct kprobe outer, inner;
	int path;

	for (path = 0; path < 2; path++) {
		outer = (struct kprobe){
			.addr = (kprobe_opcode_t *)c->probe,
			.pre_handler = call_nested,
		};
		inner = (struct kprobe){
			.addr = (kprobe_opcode_t *)ic_nested_probe,
			.pre_handler = count_nested,
		};
		register_on_path(test, &inner, 1, !path);
		register_on_path(test, &outer, 1, !path);

		handlers_run = 0;
		nested_hits = 0;
		run_case(c, 0, &state);
		KUNIT_EXPECT_EQ(test, handlers_run, 1);
		KUNIT_EXPECT_EQ(test, nested_hits, 0U);
		KUNIT_EXPECT_EQ(test, inner.nmissed, 1UL);
		KUNIT_EXPECT_EQ(test, outer.nmissed, 0UL);

		/* Outside a handler, the inner probe is hit as any other. */
		KUNIT_EXPECT_EQ(test, ic_nested(1), 2);
		KUNIT_EXPECT_EQ(test, nested_hits, 1U);
		KUNIT_EXPECT_EQ(test, inner.nmissed, 1UL);

		unregister_kprobe(&outer);
		unregister_kprobe(&inner);
	}
}
#endif

static noinline int ic_traced(int x)
{
	return x + 1;
}

/*
 * ic_traced(x), called through a pointer the compiler cannot see, as code
 * written elsewhere calls it, with interrupts masked or not.
 */
static int call_traced(int x, bool masked)
{
	int (*call)(int) = ic_traced;
	unsigned long flags;
	int ret;

	OPTIMIZER_HIDE_VAR(call);
	if (!masked)
		return call(x);
	local_irq_save(flags);
	ret = call(x);
	local_irq_restore(flags);
	return ret;
}

/*
 * Return handlers run as probe handlers do on the breakpoint path, with
 * interrupts masked, so that an interrupt cannot find this CPU busy with
 * them and have its probes missed. Their pt_regs still say whether the
 * function returned with interrupts masked.
 */
static unsigned int ret_hits;
static bool ret_ran_masked, ret_regs_masked;

static int note_ret_irq_state(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	ret_hits++;
	ret_ran_masked = read_sysreg(daif) & PSR_I_BIT;
	ret_regs_masked = regs_irqs_disabled(regs);
	return 0;
}

static void kretprobe_irq_state_test(struct kunit *test)
{
	struct kretprobe rp = {
		.kp.addr = (kprobe_opcode_t *)ic_traced,
		.handler = note_ret_irq_state,
	};

	KUNIT_ASSERT_EQ(test, register_kretprobe(&rp), 0);

	ret_hits = 0;
	KUNIT_EXPECT_EQ(test, call_traced(1, false), 2);
	KUNIT_EXPECT_EQ(test, ret_hits, 1U);
	KUNIT_EXPECT_TRUE(test, ret_ran_masked);
	KUNIT_EXPECT_FALSE(test, ret_regs_masked);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());

	KUNIT_EXPECT_EQ(test, call_traced(2, true), 3);
	KUNIT_EXPECT_EQ(test, ret_hits, 2U);
	KUNIT_EXPECT_TRUE(test, ret_regs_masked);

	unregister_kretprobe(&rp);
	KUNIT_EXPECT_EQ(test, rp.nmissed, 0);
}

#ifdef CONFIG_KPROBES_ON_FTRACE
/*
 * A probe at a function's entry is hit through ftrace, whose callback runs
 * the handlers with interrupts masked. The pt_regs they are given must
 * still say whether the probed code had interrupts masked (pstate's I bit,
 * or under pseudo-NMI the priority mask), as a BRK's would: perf's samples
 * and BPF read it there. Checked for a lone probe, whose pt_regs the
 * callback builds, and for two, whose aggregate builds them.
 */
static unsigned int irq_state_hits;
static bool irq_state_masked;

static int note_irq_state(struct kprobe *p, struct pt_regs *regs)
{
	irq_state_hits++;
	irq_state_masked = regs_irqs_disabled(regs);
	return 0;
}

static void ftrace_irq_state_test(struct kunit *test)
{
	struct kprobe kp[2] = {};
	unsigned int n, i;

	for (n = 1; n <= 2; n++) {
		for (i = 0; i < n; i++) {
			kp[i] = (struct kprobe){
				.addr = (kprobe_opcode_t *)ic_traced,
				.pre_handler = note_irq_state,
			};
			KUNIT_ASSERT_EQ(test, register_kprobe(&kp[i]), 0);
			KUNIT_EXPECT_TRUE(test, kprobe_ftrace(&kp[i]));
		}

		irq_state_hits = 0;
		KUNIT_EXPECT_EQ(test, call_traced(1, false), 2);
		KUNIT_EXPECT_EQ(test, irq_state_hits, n);
		KUNIT_EXPECT_FALSE(test, irq_state_masked);

		KUNIT_EXPECT_EQ(test, call_traced(2, true), 3);
		KUNIT_EXPECT_EQ(test, irq_state_hits, 2 * n);
		KUNIT_EXPECT_TRUE(test, irq_state_masked);

		for (i = 0; i < n; i++)
			unregister_kprobe(&kp[i]);
	}
}
#endif

static void refused_test(struct kunit *test)
{
	u32 *insn;

	for (insn = (u32 *)ic_refused_first; insn < (u32 *)ic_refused_end; insn++) {
		struct kprobe kp = { .addr = insn };

		KUNIT_EXPECT_EQ_MSG(test, register_kprobe(&kp), -EINVAL,
				    "instruction %08x", le32_to_cpu(*insn));
	}
}

static void exclusive_test(struct kunit *test)
{
	u32 *ldxr = (u32 *)ic_exclusive;
	struct kprobe inside = {}, after = {};

	/* The function may open with a BTI. */
	while (!aarch64_insn_is_load_ex(le32_to_cpu(*ldxr)))
		ldxr++;
	inside.addr = ldxr + 1;
	after.addr = ldxr + 3;
	KUNIT_EXPECT_EQ(test, register_kprobe(&inside), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_kprobe(&after), 0);
	unregister_kprobe(&after);
}

static struct kunit_case arm64_kprobes_insn_cases[] = {
	KUNIT_CASE_PARAM(insn_matrix_test, insn_case_gen_params),
#ifdef CONFIG_OPTPROBES
	KUNIT_CASE_SLOW(insn_matrix_optimized_test),
	KUNIT_CASE_SLOW(reenable_keeps_branch_test),
	KUNIT_CASE_SLOW(aggregate_order_test),
	KUNIT_CASE_SLOW(nested_missed_test),
#endif
#ifdef CONFIG_KPROBES_ON_FTRACE
	KUNIT_CASE(ftrace_irq_state_test),
#endif
	KUNIT_CASE(refused_test),
	KUNIT_CASE(exclusive_test),
	KUNIT_CASE(kretprobe_irq_state_test),
	{}
};

static struct kunit_suite arm64_kprobes_insn_suite = {
	.name = "arm64_kprobes_insn",
	.test_cases = arm64_kprobes_insn_cases,
};

kunit_test_suite(arm64_kprobes_insn_suite);

MODULE_DESCRIPTION("arm64 kprobes instruction matrix");
MODULE_LICENSE("GPL");
