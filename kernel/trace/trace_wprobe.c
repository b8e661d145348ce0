// SPDX-License-Identifier: GPL-2.0
/*
 * Watchpoint events: "w[:[GRP/][EVENT]] [r|w|rw]@ADDR|SYM[+|-OFFS][:LEN]
 * [ARGS]" records each read or write of LEN bytes of kernel data, with
 * the instruction that made it.
 *
 * An event holds a hardware watchpoint on every CPU while it is enabled,
 * through the hw_breakpoint layer, whose slots perf and ptrace take too:
 * the slots the CPU has are the limit, and an event is refused when the
 * watchpoint events already defined hold them all.  The layer calls the
 * event's handler from the watchpoint's exception, where the hit is
 * recorded as a kprobe's is, the watched address ($addr) in place of the
 * registers.  Architectures report the access at different points: arm64
 * before the instruction completes, at the instruction itself; x86 after,
 * at the one that follows.
 */
#include <linux/hw_breakpoint.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/uaccess.h>

#include "trace_dynevent.h"
#include "trace_probe.h"
#include "trace_probe_record.h"

#define WPROBE_EVENT_SYSTEM	"wprobes"

/**
 * struct trace_wprobe - a watchpoint event definition
 * @addr: the address watched
 * @symbol: the symbol it was given as, or NULL for an address
 * @offset: the offset from @symbol
 * @type: HW_BREAKPOINT_R, HW_BREAKPOINT_W or both
 * @len: the bytes watched, 1, 2, 4 or 8
 * @bp: the watchpoint on each CPU, while the event is enabled
 * @nhit: hits recorded, per CPU
 * @nmissed: hits not recorded: made while a kprobe's handler ran on the
 *	CPU (one reading the data watched), whose records would come from
 *	inside another event's
 * @devent: its entry in the dynamic event list
 * @tp: the event side; must be last, its arguments follow it
 */
struct trace_wprobe {
	unsigned long			addr;
	char				*symbol;
	long				offset;
	unsigned int			type;
	unsigned int			len;
	struct perf_event * __percpu	*bp;
	unsigned long __percpu		*nhit;
	atomic_long_t			nmissed;
	struct dyn_event		devent;
	struct trace_probe		tp;
};

/* Defined at the end: how dynamic_events creates, shows and frees ours. */
static struct dyn_event_operations trace_wprobe_ops;

static struct trace_wprobe *to_trace_wprobe(struct dyn_event *ev)
{
	return container_of(ev, struct trace_wprobe, devent);
}

static struct trace_wprobe *dyn_to_tw(struct dyn_event *ev)
{
	return ev->ops == &trace_wprobe_ops ? to_trace_wprobe(ev) : NULL;
}

/* The watch as it is listed: "w@jiffies:4", "rw@0xffff000012345678:8". */
static void tw_place(struct trace_wprobe *tw, char *buf, size_t size)
{
	const char *type = tw->type == HW_BREAKPOINT_R ? "r" :
			   tw->type == HW_BREAKPOINT_W ? "w" : "rw";

	if (!tw->symbol)
		snprintf(buf, size, "%s@0x%lx:%u", type, tw->addr, tw->len);
	else if (tw->offset)
		snprintf(buf, size, "%s@%s%+ld:%u", type, tw->symbol,
			 tw->offset, tw->len);
	else
		snprintf(buf, size, "%s@%s:%u", type, tw->symbol, tw->len);
}

static int tw_dyn_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_wprobe *tw = to_trace_wprobe(ev);
	char place[KSYM_NAME_LEN + 32];

	tw_place(tw, place, sizeof(place));
	seq_printf(m, "w:%s/%s %s", trace_probe_group_name(&tw->tp),
		   trace_probe_name(&tw->tp), place);
	trace_probe_show_args(m, &tw->tp);
	seq_putc(m, '\n');
	trace_probe_dump_args(m, &tw->tp);
	return 0;
}

static bool tw_dyn_busy(struct dyn_event *ev)
{
	return trace_probe_is_enabled(&to_trace_wprobe(ev)->tp);
}

/*
 * "-:[GRP/]EVENT [PLACE [ARGS]]": the name must match; the place, if
 * given, as it is listed; the arguments, if given, exactly.
 */
static bool tw_dyn_match(const char *system, const char *event,
			 int argc, const char **argv, struct dyn_event *ev)
{
	struct trace_wprobe *tw = to_trace_wprobe(ev);
	char place[KSYM_NAME_LEN + 32];

	if (event[0] && strcmp(trace_probe_name(&tw->tp), event))
		return false;
	if (system && strcmp(trace_probe_group_name(&tw->tp), system))
		return false;
	if (!argc)
		return true;
	tw_place(tw, place, sizeof(place));
	if (strcmp(place, argv[0]))
		return false;
	return trace_probe_match_command_args(&tw->tp, argc - 1, argv + 1);
}

/* ---- Recording a hit ----------------------------------------------------- */

/*
 * The hw_breakpoint layer's overflow handler, in the watchpoint's
 * exception: with interrupts off, the CPU's debug exceptions masked (so
 * that reading the data watched here does not hit again) and, on arm64,
 * the access not yet made, which the layer then steps over.
 */
static void wprobe_hit(struct perf_event *bp, struct perf_sample_data *data,
		       struct pt_regs *regs)
{
	struct trace_wprobe *tw = bp->overflow_handler_context;
	struct probe_hit hit __uninitialized;

	if (unlikely(kprobe_running())) {
		atomic_long_inc(&tw->nmissed);
		return;
	}
	raw_cpu_inc(*tw->nhit);
	probe_hit_init(&hit, &tw->tp, regs, NULL, NULL, regs);
	hit.env.watch_addr = bp->attr.bp_addr;
	hit.head[0] = instruction_pointer(regs);
	hit.nhead = 1;
#ifdef CONFIG_PERF_EVENTS
	if (trace_probe_test_flag(&tw->tp, TP_FLAG_PROFILE)) {
		probe_hit_record_perf(&hit);
		return;
	}
#endif
	probe_hit_record(&hit);
}
NOKPROBE_SYMBOL(wprobe_hit);

/* ---- The event --------------------------------------------------------- */

static struct trace_wprobe *tw_primary(struct trace_event_call *call)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);

	return tp ? container_of(tp, struct trace_wprobe, tp) : NULL;
}

#define TW_HEAD_SIZE	(sizeof(struct trace_entry) + sizeof(long))

/* "NAME: (SYM+off/size) ARGS": where the access was made. */
static enum print_line_t print_tw_event(struct trace_iterator *iter, int flags,
					struct trace_event *event)
{
	struct trace_wprobe *tw = tw_primary(container_of(event,
					struct trace_event_call, event));
	unsigned long *word = (void *)iter->ent + sizeof(struct trace_entry);
	struct trace_seq *s = &iter->seq;

	if (WARN_ON_ONCE(!tw))
		return trace_handle_return(s);
	trace_seq_printf(s, "%s: (", trace_probe_name(&tw->tp));
	seq_print_ip_sym_offset(s, word[0], flags);
	trace_seq_putc(s, ')');
	if (!trace_probe_print_args(s, tw->tp.args, tw->tp.nr_args,
				    (u8 *)iter->ent + TW_HEAD_SIZE, iter->ent))
		trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static int tw_define_fields(struct trace_event_call *call)
{
	struct trace_wprobe *tw = tw_primary(call);
	int ret;

	if (WARN_ON_ONCE(!tw))
		return -ENOENT;
	ret = trace_define_field(call, "unsigned long", FIELD_STRING_IP,
				 sizeof(struct trace_entry), sizeof(long), 0,
				 FILTER_OTHER);
	if (ret)
		return ret;
	return traceprobe_define_arg_fields(call, TW_HEAD_SIZE, &tw->tp);
}

static struct trace_event_functions tw_event_funcs = {
	.trace = print_tw_event,
};

static struct trace_event_fields tw_fields[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = tw_define_fields },
	{}
};

/*
 * Unregistering takes the watchpoint off each CPU with an IPI that the
 * CPU runs with interrupts off: a handler running there, in the
 * watchpoint's exception, has returned by then.
 */
static void tw_disarm(struct trace_wprobe *tw)
{
	if (!tw->bp)
		return;
	unregister_wide_hw_breakpoint(tw->bp);
	tw->bp = NULL;
}

static int tw_arm(struct trace_wprobe *tw)
{
	struct perf_event * __percpu *bp;
	struct perf_event_attr attr;
	int i, ret;

	for (i = 0; i < tw->tp.nr_args; i++) {
		ret = traceprobe_update_arg(&tw->tp.args[i]);
		if (ret)
			return ret;
	}
	hw_breakpoint_init(&attr);
	attr.bp_addr = tw->addr;
	attr.bp_len = tw->len;
	attr.bp_type = tw->type;
	bp = register_wide_hw_breakpoint(&attr, wprobe_hit, tw);
	if (IS_ERR_PCPU(bp))
		return PTR_ERR_PCPU(bp);
	tw->bp = bp;
	return 0;
}

static void tw_disarm_all(struct trace_probe *tp)
{
	struct trace_probe *pos;

	trace_probe_for_each_sibling(pos, tp)
		tw_disarm(container_of(pos, struct trace_wprobe, tp));
}

static int tw_arm_all(struct trace_probe *tp)
{
	struct trace_probe *pos;
	int ret;

	trace_probe_for_each_sibling(pos, tp) {
		ret = tw_arm(container_of(pos, struct trace_wprobe, tp));
		if (ret) {
			tw_disarm_all(tp);
			return ret;
		}
	}
	return 0;
}

static const struct probe_arming tw_arming = {
	.arm_all	= tw_arm_all,
	.disarm_all	= tw_disarm_all,
};

/* What the watchpoint events share. */
static const struct probe_kind tw_kind = {
	.fields_array	= tw_fields,
	.arming		= &tw_arming,
	.funcs		= &tw_event_funcs,
};

/* ---- Definitions ------------------------------------------------------- */

static void free_trace_wprobe(struct trace_wprobe *tw)
{
	if (!tw)
		return;
	trace_probe_cleanup(&tw->tp);
	free_percpu(tw->nhit);
	kfree(tw->symbol);
	kfree(tw);
}

static int unregister_trace_wprobe(struct trace_wprobe *tw)
{
	if (!trace_probe_has_sibling(&tw->tp)) {
		if (trace_probe_is_enabled(&tw->tp))
			return -EBUSY;
		if (trace_event_dyn_busy(trace_probe_event_call(&tw->tp)))
			return -EBUSY;
		if (trace_probe_unregister_event_call(&tw->tp))
			return -EBUSY;
	}
	dyn_event_remove(&tw->devent);
	trace_probe_unlink(&tw->tp);
	return 0;
}

static int tw_dyn_free(struct dyn_event *ev)
{
	struct trace_wprobe *tw = to_trace_wprobe(ev);
	int ret = unregister_trace_wprobe(tw);

	if (!ret)
		free_trace_wprobe(tw);
	return ret;
}

/* The watchpoint events defined, each of which takes a slot enabled. */
static unsigned int nr_trace_wprobes(void)
{
	struct dyn_event *ev;
	unsigned int n = 0;

	for_each_dyn_event(ev)
		n += ev->ops == &trace_wprobe_ops;
	return n;
}

/**
 * struct tw_definition - a watchpoint event definition, as it is parsed
 * @def: the definition
 * @ws: the place, as written
 */
struct tw_definition {
	struct probe_definition	def;
	struct watch_spec	ws;
};

#define to_tw_definition(d)	container_of(d, struct tw_definition, def)

static int tw_claim(struct probe_definition *def)
{
	const char *w0 = def->argv[0];

	if (w0[0] != 'w' || (w0[1] && w0[1] != ':') || def->argc < 2)
		return -ECANCELED;
	def->group = WPROBE_EVENT_SYSTEM;
	def->event = w0[1] ? w0 + 2 : NULL;
	return 0;
}

/*
 * Kernel data the CPU can watch: above the user range, aligned to the
 * length (the watchpoint registers match naturally aligned ranges), and
 * mapped now.
 */
static bool tw_watchable(unsigned long addr, unsigned int len)
{
	u8 byte;

	if (addr < TASK_SIZE_MAX || !IS_ALIGNED(addr, len))
		return false;
	return !copy_from_kernel_nofault(&byte, (void *)addr, 1);
}

/*
 * Ask the architecture, with a watchpoint made disabled on this CPU: what
 * it refuses of the type, length and address, and whether a slot is
 * left, it refuses now as it would when the event is enabled.  Nothing is
 * armed.
 */
static int tw_try(unsigned long addr, unsigned int len, unsigned int type)
{
	struct perf_event_attr attr;
	struct perf_event *bp;

	hw_breakpoint_init(&attr);
	attr.bp_addr = addr;
	attr.bp_len = len;
	attr.bp_type = type;
	attr.disabled = 1;
	bp = perf_event_create_kernel_counter(&attr, raw_smp_processor_id(),
					      NULL, NULL, NULL);
	if (IS_ERR(bp))
		return PTR_ERR(bp);
	perf_event_release_kernel(bp);
	return 0;
}

/* The parser's WATCH_* as the hw_breakpoint layer's types. */
static unsigned int tw_bp_type(unsigned int watch)
{
	return (watch & WATCH_READ ? HW_BREAKPOINT_R : 0) |
	       (watch & WATCH_WRITE ? HW_BREAKPOINT_W : 0);
}

/* The caret under the type, or under what follows the '@'. */
static int tw_check(struct watch_spec *ws, const char *w1)
{
	unsigned int type = tw_bp_type(ws->type);
	int at = strchr(w1, '@') + 1 - w1;
	int ret;

	if (!tw_watchable(ws->addr, ws->len)) {
		trace_probe_log_err(at, BAD_ACCESS_ADDR);
		return -EINVAL;
	}
	ret = tw_try(ws->addr, ws->len, type);
	if (!ret)
		return 0;
	if (ret == -ENOSPC) {
		trace_probe_log_err(0, NO_WATCH_SLOT);
	} else if (type != HW_BREAKPOINT_RW &&
		   !tw_try(ws->addr, ws->len, HW_BREAKPOINT_RW)) {
		trace_probe_log_err(0, BAD_ACCESS_TYPE);
		ret = -EINVAL;
	} else {
		trace_probe_log_err(at, BAD_ACCESS_ADDR);
	}
	return ret;
}

/* "[r|w|rw]@ADDR|SYM[+|-OFFS][:LEN]" */
static int tw_parse_place(struct probe_definition *def)
{
	struct watch_spec *ws = &to_tw_definition(def)->ws;
	const char *w1 = def->argv[1];
	unsigned long addr;
	int ret;

	ret = traceprobe_parse_watch_spec(w1, ws);
	if (ret)
		return ret;
	if (ws->symbol) {
		addr = kallsyms_lookup_name(ws->symbol);
		if (!addr) {
			trace_probe_log_err(strchr(w1, '@') + 1 - w1,
					    BAD_ACCESS_ADDR);
			return -ENOENT;
		}
		ws->addr = addr + ws->offset;
	}
	ret = tw_check(ws, w1);
	if (ret)
		return ret;
	def->ctx.flags = TPARG_FL_KERNEL | TPARG_FL_WPROBE;
	def->print = PROBE_PRINT_NORMAL;
	return 0;
}

static void tw_default_name(struct probe_definition *def)
{
	struct watch_spec *ws = &to_tw_definition(def)->ws;

	if (ws->symbol)
		strscpy(def->name, ws->symbol, sizeof(def->name));
	else
		snprintf(def->name, sizeof(def->name), "w_0x%lx", ws->addr);
	sanitize_event_name(def->name);
}

static struct trace_probe *tw_alloc(struct probe_definition *def)
{
	struct watch_spec *ws = &to_tw_definition(def)->ws;
	struct trace_wprobe *tw;
	int ret;

	tw = (struct trace_wprobe *)trace_probe_alloc(sizeof(*tw),
						      def->args.argc);
	if (!tw)
		return ERR_PTR(-ENOMEM);
	tw->tp.nr_args = def->args.argc;
	tw->addr = ws->addr;
	tw->offset = ws->offset;
	tw->len = ws->len;
	tw->type = tw_bp_type(ws->type);
	tw->symbol = ws->symbol;
	ws->symbol = NULL;
	atomic_long_set(&tw->nmissed, 0);
	tw->nhit = alloc_percpu(unsigned long);
	ret = -ENOMEM;
	if (!tw->nhit)
		goto fail;
	ret = trace_probe_init(&tw->tp, def->event, def->group, &tw_kind);
	if (ret)
		goto fail;
	dyn_event_init(&tw->devent, &trace_wprobe_ops);
	return &tw->tp;
fail:
	free_trace_wprobe(tw);
	return ERR_PTR(ret);
}

/*
 * The event is listed, or refused: no slot is left for it, its name is
 * taken.  A watchpoint event shares its event with no other probe.
 */
static int tw_add(struct probe_definition *def)
{
	struct trace_wprobe *tw = container_of(def->tp, struct trace_wprobe, tp);
	unsigned int slots = hw_breakpoint_slots(TYPE_DATA);
	int ret;

	mutex_lock(&event_mutex);
	if (nr_trace_wprobes() >= slots) {
		trace_probe_log_set_index(1);
		trace_probe_log_err(0, NO_WATCH_SLOT);
		ret = slots ? -ENOSPC : -ENODEV;
		goto out;
	}
	ret = trace_probe_join_event(&tw->tp, NULL, false, NULL);
	if (ret)
		goto out;
	ret = dyn_event_add(&tw->devent, trace_probe_event_call(&tw->tp));
	if (ret)
		trace_probe_leave_event(&tw->tp);
out:
	mutex_unlock(&event_mutex);
	return ret;
}

static void tw_free(struct trace_probe *tp)
{
	free_trace_wprobe(container_of(tp, struct trace_wprobe, tp));
}

static void tw_release(struct probe_definition *def)
{
	kfree(to_tw_definition(def)->ws.symbol);
}

static const struct probe_definer tw_definer = {
	.log_name	= "wprobe",
	.claim		= tw_claim,
	.parse_place	= tw_parse_place,
	.default_name	= tw_default_name,
	.alloc		= tw_alloc,
	.add		= tw_add,
	.free		= tw_free,
	.release	= tw_release,
};

static int tw_dyn_create(const char *raw_command)
{
	struct tw_definition td = {};

	return trace_probe_define(raw_command, &tw_definer, &td.def);
}

static struct dyn_event_operations trace_wprobe_ops = {
	.create = tw_dyn_create,
	.show = tw_dyn_show,
	.is_busy = tw_dyn_busy,
	.free = tw_dyn_free,
	.match = tw_dyn_match,
};

/* ---- tracefs: wprobe_events and wprobe_profile ------------------------ */

static int create_or_delete_trace_wprobe(const char *raw_command)
{
	return trace_probe_run_command(raw_command, &trace_wprobe_ops);
}

/* "  EVENT  HITS  MISSES", the columns aligned as kprobe_profile's. */
static int tw_profile_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_wprobe *tw = dyn_to_tw(ev);
	unsigned long nhit = 0;
	int cpu;

	if (!tw)
		return 0;
	for_each_possible_cpu(cpu)
		nhit += *per_cpu_ptr(tw->nhit, cpu);
	seq_printf(m, "  %-44s %15lu %15lu\n", trace_probe_name(&tw->tp),
		   nhit, atomic_long_read(&tw->nmissed));
	return 0;
}

static const struct probe_tracefs tw_tracefs = {
	.ops		= &trace_wprobe_ops,
	.run		= create_or_delete_trace_wprobe,
	.profile_show	= tw_profile_show,
};

/* Register early, so that boot code can define events before tracefs. */
static __init int init_wprobe_trace_early(void)
{
	return dyn_event_register(&trace_wprobe_ops);
}
core_initcall(init_wprobe_trace_early);

static __init int init_wprobe_trace(void)
{
	if (tracing_init_dentry())
		return 0;
	trace_probe_create_files("wprobe_events", "wprobe_profile",
				 &tw_tracefs);
	return 0;
}
fs_initcall(init_wprobe_trace);
