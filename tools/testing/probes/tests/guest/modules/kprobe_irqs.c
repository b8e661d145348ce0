// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a kprobe's handlers run with interrupts disabled, whichever
 * way the probe is hit: at a function's entry (through ftrace, where the
 * kernel arms entry probes so), inside it (optimized, where the kernel
 * optimizes probes) and at its return (a kretprobe). While a handler
 * runs, the CPU is busy with its probe: an interrupt taken then that hits
 * another probe has it counted as missed, though nothing recursed.
 *
 * Writing N to "calls" calls the probed function N times with interrupts
 * enabled; "report" gives, for each probe, its hits and how many of them
 * found interrupts enabled in the handler (tests/guest/kprobe-irqs.sh).
 */
#include <linux/atomic.h>
#include <linux/irqflags.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>

#ifdef CONFIG_X86
#include <asm/text-patching.h>
#endif
#ifdef CONFIG_ARM64
#include <asm/insn.h>
#endif

static u64 mix[4] = { 3, 5, 7, 11 };

/*
 * No branch, so that a probe inside it may be optimized anywhere past
 * the entry: an optimized probe replaces several instructions, none of
 * which a jump may land in. Called through a pointer the compiler cannot
 * see through, so that no specialized copy runs instead of the one the
 * probes are on.
 */
static noinline u64 probed_function(u64 x)
{
	u64 a = READ_ONCE(mix[0]) ^ x;

	a = a * 31 + READ_ONCE(mix[1]);
	a = (a >> 3) ^ READ_ONCE(mix[2]);
	a = a * 17 + READ_ONCE(mix[3]);
	a ^= a >> 7;
	return a + x;
}

struct hit_count {
	atomic_t hits;
	atomic_t irqs_on;
};

static struct hit_count entry_count, inside_count, return_count;

static void count_hit(struct hit_count *c)
{
	atomic_inc(&c->hits);
	if (!irqs_disabled())
		atomic_inc(&c->irqs_on);
}

static int entry_hit(struct kprobe *p, struct pt_regs *regs)
{
	count_hit(&entry_count);
	return 0;
}

static int inside_hit(struct kprobe *p, struct pt_regs *regs)
{
	count_hit(&inside_count);
	return 0;
}

static int return_hit(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	count_hit(&return_count);
	return 0;
}

static struct kprobe entry_probe = { .pre_handler = entry_hit };
static struct kprobe inside_probe = { .pre_handler = inside_hit };
static struct kretprobe return_probe = { .handler = return_hit };

/*
 * Not every offset starts an instruction, and not every instruction may
 * be replaced by the jump to a detour: the test tries offsets until one
 * is accepted, and optimized where the kernel optimizes probes.
 */
static unsigned int inside_offset = 1;
module_param_named(offset, inside_offset, uint, 0444);
MODULE_PARM_DESC(offset, "the offset of the probe inside the function, from its entry");

static int calls_set(const char *val, const struct kernel_param *kp)
{
	u64 (*call)(u64) = probed_function;
	unsigned int n, i;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	/*
	 * Called with interrupts enabled, so that a handler that finds them
	 * disabled had them disabled by the way its probe was hit.
	 */
	if (irqs_disabled())
		return -EBUSY;
	OPTIMIZER_HIDE_VAR(call);
	for (i = 0; i < n; i++)
		call(i);
	return 0;
}

static const struct kernel_param_ops calls_ops = {
	.set = calls_set,
};
module_param_cb(calls, &calls_ops, NULL, 0200);
MODULE_PARM_DESC(calls, "call the probed function this many times");

static int report_get(char *buf, const struct kernel_param *kp)
{
	int len;

	len = sysfs_emit(buf, "entry hits=%d irqs_on=%d\n",
			 atomic_read(&entry_count.hits),
			 atomic_read(&entry_count.irqs_on));
	len += sysfs_emit_at(buf, len, "inside hits=%d irqs_on=%d offset=%u\n",
			     atomic_read(&inside_count.hits),
			     atomic_read(&inside_count.irqs_on), inside_offset);
	len += sysfs_emit_at(buf, len, "return hits=%d irqs_on=%d\n",
			     atomic_read(&return_count.hits),
			     atomic_read(&return_count.irqs_on));
	return len;
}

/*
 * Whether the probe inside is hit through its jump to a detour: the core
 * flags a probe optimized once it is queued for the optimizer, which
 * writes the jump later, after a grace period; until then the probe is
 * hit through its breakpoint.
 */
static bool inside_jump_written(void)
{
#if defined(CONFIG_X86)
	u8 op;

	return !copy_from_kernel_nofault(&op, inside_probe.addr, sizeof(op)) &&
	       op == JMP32_INSN_OPCODE;
#elif defined(CONFIG_ARM64)
	__le32 insn;

	return !copy_from_kernel_nofault(&insn, inside_probe.addr, sizeof(insn)) &&
	       aarch64_insn_is_b(le32_to_cpu(insn));
#else
	return false;
#endif
}

static int jump_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", inside_jump_written());
}

static const struct kernel_param_ops jump_ops = {
	.get = jump_get,
};
module_param_cb(jump, &jump_ops, NULL, 0444);
MODULE_PARM_DESC(jump, "1 while the probe inside is a jump to its detour");

static const struct kernel_param_ops report_ops = {
	.get = report_get,
};
module_param_cb(report, &report_ops, NULL, 0444);
MODULE_PARM_DESC(report, "each probe's hits, and those that found interrupts enabled");

static int __init kprobe_irqs_init(void)
{
	int ret;

	entry_probe.addr = (kprobe_opcode_t *)probed_function;
	ret = register_kprobe(&entry_probe);
	if (ret)
		return ret;
	return_probe.kp.addr = (kprobe_opcode_t *)probed_function;
	ret = register_kretprobe(&return_probe);
	if (ret)
		goto out_entry;
	inside_probe.addr = (kprobe_opcode_t *)((unsigned long)probed_function +
						inside_offset);
	ret = register_kprobe(&inside_probe);
	if (ret)
		goto out_return;
	return 0;

out_return:
	unregister_kretprobe(&return_probe);
out_entry:
	unregister_kprobe(&entry_probe);
	return ret;
}

static void __exit kprobe_irqs_exit(void)
{
	unregister_kprobe(&inside_probe);
	unregister_kretprobe(&return_probe);
	unregister_kprobe(&entry_probe);
}

module_init(kprobe_irqs_init);
module_exit(kprobe_irqs_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Whether kprobe handlers run with interrupts disabled, for the probes harness");
