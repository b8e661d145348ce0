// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel watchpoint with a handler of its own, as in-kernel users of
 * register_wide_hw_breakpoint() have them: the writes to the module's
 * parameter "value" are watched on every CPU, and each one the handler
 * sees is counted in "hits" (tests/guest/hw-breakpoint.sh).
 */
#include <linux/atomic.h>
#include <linux/hw_breakpoint.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

static unsigned long watched;
static atomic_t hits = ATOMIC_INIT(0);
static struct perf_event * __percpu *watchpoint;

static int value_set(const char *val, const struct kernel_param *kp)
{
	unsigned long v;
	int ret = kstrtoul(val, 0, &v);

	if (ret)
		return ret;
	WRITE_ONCE(watched, v);
	return 0;
}

static int value_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(watched));
}

static const struct kernel_param_ops value_ops = {
	.set = value_set,
	.get = value_get,
};
module_param_cb(value, &value_ops, NULL, 0644);
MODULE_PARM_DESC(value, "the watched word: each write is counted");

static int hits_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&hits));
}

static const struct kernel_param_ops hits_ops = {
	.get = hits_get,
};
module_param_cb(hits, &hits_ops, NULL, 0444);
MODULE_PARM_DESC(hits, "the writes the watchpoint's handler saw");

static void hwbp_watch_hit(struct perf_event *bp,
			   struct perf_sample_data *data,
			   struct pt_regs *regs)
{
	atomic_inc(&hits);
}

static int __init hwbp_watch_init(void)
{
	struct perf_event_attr attr;

	hw_breakpoint_init(&attr);
	attr.bp_addr = (unsigned long)&watched;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.bp_type = HW_BREAKPOINT_W;
	watchpoint = register_wide_hw_breakpoint(&attr, hwbp_watch_hit, NULL);
	if (IS_ERR_PCPU(watchpoint))
		return PTR_ERR_PCPU(watchpoint);
	return 0;
}

static void __exit hwbp_watch_exit(void)
{
	unregister_wide_hw_breakpoint(watchpoint);
}

module_init(hwbp_watch_init);
module_exit(hwbp_watch_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A kernel watchpoint with its own handler, for the probes harness");
