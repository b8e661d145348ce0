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
 *
 * An event defined at "@-1" watches no data of its own: its set_wprobe
 * and clear_wprobe triggers, on other events, move its watchpoints to an
 * address one of their fields holds and back (see the end of the file).
 */
#include <linux/ctype.h>
#include <linux/hw_breakpoint.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>

#include "trace_dynevent.h"
#include "trace_probe.h"
#include "trace_probe_record.h"

#define WPROBE_EVENT_SYSTEM	"wprobes"

struct tw_mover;

/**
 * struct trace_wprobe - a watchpoint event definition
 * @addr: the address watched
 * @symbol: the symbol it was given as, or NULL for an address
 * @offset: the offset from @symbol
 * @type: HW_BREAKPOINT_R, HW_BREAKPOINT_W or both
 * @len: the bytes watched, 1, 2, 4 or 8
 * @by_trigger: defined at "@-1": its triggers give it its address
 * @watching: for @by_trigger, the address its set_wprobe trigger gave,
 *	0 while it has none (changed only by cmpxchg())
 * @movers: for @by_trigger, the work that moves each CPU's watchpoint
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
	bool				by_trigger;
	unsigned long			watching;
	struct tw_mover __percpu	*movers;
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

/*
 * The watch as it is listed: "w@jiffies:4", "rw@0xffff000012345678:8",
 * "w@-1:8".
 */
static void tw_place(struct trace_wprobe *tw, char *buf, size_t size)
{
	const char *type = tw->type == HW_BREAKPOINT_R ? "r" :
			   tw->type == HW_BREAKPOINT_W ? "w" : "rw";

	if (tw->by_trigger)
		snprintf(buf, size, "%s@-1:%u", type, tw->len);
	else if (!tw->symbol)
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

/* ---- Moving an event's watchpoints ------------------------------------- */

/*
 * Where an event defined at "@-1" watches while no trigger has given it
 * an address: a word no code reads or writes, so that its watchpoints
 * hold their slots and never fire.
 */
static u64 tw_parking __aligned(8);

/**
 * struct tw_mover - what moves one CPU's watchpoint of an event
 * @move: moves this CPU's watchpoint to where the event now watches,
 *	queued here by another CPU
 * @spread: the same, then queues @move on every other CPU: what a
 *	trigger that finds interrupts masked raises on its own CPU
 * @tw: the event
 */
struct tw_mover {
	struct irq_work		move;
	struct irq_work		spread;
	struct trace_wprobe	*tw;
};

/*
 * With interrupts off: point this CPU's watchpoint where the event now
 * watches.  A CPU brought online after the event was enabled has none.
 * An address the architecture refuses leaves the CPU watching what it
 * watched, and counts a missed hit.
 */
static void tw_move_here(struct trace_wprobe *tw)
{
	struct perf_event *bp = *this_cpu_ptr(tw->bp);
	unsigned long addr = READ_ONCE(tw->watching);

	if (!addr)
		addr = (unsigned long)&tw_parking;
	if (bp && bp->attr.bp_addr != addr &&
	    move_wide_hw_breakpoint_local(bp, addr))
		atomic_long_inc(&tw->nmissed);
}

/*
 * Every other CPU moves its own.  A move already queued on a CPU, and not
 * yet begun, reads tw->watching when it runs, which is why it need not be
 * queued twice: each CPU ends at the last address a trigger gave.
 */
static void tw_move_others(struct trace_wprobe *tw)
{
	int cpu, this = smp_processor_id();

	for_each_online_cpu(cpu)
		if (cpu != this)
			irq_work_queue_on(&per_cpu_ptr(tw->movers, cpu)->move,
					  cpu);
}

static void tw_move_work(struct irq_work *work)
{
	tw_move_here(container_of(work, struct tw_mover, move)->tw);
}

static void tw_spread_work(struct irq_work *work)
{
	struct trace_wprobe *tw = container_of(work, struct tw_mover, spread)->tw;

	tw_move_here(tw);
	tw_move_others(tw);
}

/*
 * After a trigger changed tw->watching: this CPU first, then the others,
 * each as soon as it takes the interrupt.  With interrupts on (a
 * tracepoint's trigger), this CPU moves at once, so that the accesses
 * the code after the event makes here are seen.  With them masked
 * already, the trigger may be in an exception that restores the
 * registers on its way out (x86's #DB, an NMI), or in a kprobe's
 * handler, which masks them without telling lockdep: this CPU's move,
 * and the others', are left to an irq_work, taken here as soon as the
 * interrupted code unmasks interrupts, at the latest.
 */
static void tw_move_all(struct trace_wprobe *tw)
{
	unsigned long flags;

	if (irqs_disabled()) {
		irq_work_queue(&this_cpu_ptr(tw->movers)->spread);
		return;
	}
	local_irq_save(flags);
	tw_move_here(tw);
	tw_move_others(tw);
	local_irq_restore(flags);
}

static int tw_init_movers(struct trace_wprobe *tw)
{
	int cpu;

	tw->movers = alloc_percpu(struct tw_mover);
	if (!tw->movers)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct tw_mover *m = per_cpu_ptr(tw->movers, cpu);

		/* In hard interrupt context on PREEMPT_RT too: it is short. */
		m->move = IRQ_WORK_INIT_HARD(tw_move_work);
		m->spread = IRQ_WORK_INIT_HARD(tw_spread_work);
		m->tw = tw;
	}
	return 0;
}

/* Wait for the moves queued: a spread may queue moves, so spreads first. */
static void tw_sync_movers(struct trace_wprobe *tw)
{
	int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(tw->movers, cpu)->spread);
	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(tw->movers, cpu)->move);
}

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
 * watchpoint's exception, has returned by then.  A move queued by a
 * trigger runs first: the triggers that queue them are gone by the time
 * an event defined at "@-1" is disabled (each holds it enabled).
 */
static void tw_disarm(struct trace_wprobe *tw)
{
	if (!tw->bp)
		return;
	if (tw->by_trigger)
		tw_sync_movers(tw);
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
	if (tw->by_trigger) {
		WRITE_ONCE(tw->watching, 0);
		attr.bp_addr = (unsigned long)&tw_parking;
	}
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
	free_percpu(tw->movers);
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

/*
 * The caret under the type, or under what follows the '@'.  An event
 * defined at "@-1" is tried at its parking place.
 */
static int tw_check(struct watch_spec *ws, const char *w1)
{
	unsigned int type = tw_bp_type(ws->type);
	int at = strchr(w1, '@') + 1 - w1;
	unsigned long addr = ws->addr;
	int ret;

	if (ws->by_trigger) {
		addr = (unsigned long)&tw_parking;
	} else if (!tw_watchable(addr, ws->len)) {
		trace_probe_log_err(at, BAD_ACCESS_ADDR);
		return -EINVAL;
	}
	ret = tw_try(addr, ws->len, type);
	if (!ret)
		return 0;
	if (ret == -ENOSPC) {
		trace_probe_log_err(0, NO_WATCH_SLOT);
	} else if (type != HW_BREAKPOINT_RW &&
		   !tw_try(addr, ws->len, HW_BREAKPOINT_RW)) {
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

	if (ws->by_trigger)
		strscpy(def->name, "w_trigger", sizeof(def->name));
	else if (ws->symbol)
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
	if (ws->by_trigger) {
		tw->by_trigger = true;
		ret = tw_init_movers(tw);
		if (ret)
			goto fail;
	}
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

/* ---- Triggers: set_wprobe and clear_wprobe ----------------------------- */

/*
 * "set_wprobe:WPROBE:FIELD[+|-ADJUST][:COUNT] [if FILTER]" on an event
 * moves the watchpoints of WPROBE, an event defined at "@-1", to the
 * address the event's FIELD holds, plus ADJUST, and enables its records;
 * "clear_wprobe:WPROBE[:FIELD[+|-ADJUST]][:COUNT] [if FILTER]" moves them
 * back to their parking place and disables the records again, if they
 * watch that address (or whatever they watch, without a FIELD).  FIELD
 * may be "(STRUCT)FIELD->MEMBER[.MEMBER...]": ADJUST then starts at the
 * member's offset in STRUCT, found in BTF.  So one pair follows an object
 * from the event that allocates it to the event that frees it.
 *
 * A watchpoint event watches one address at a time: a set_wprobe that
 * finds it watching one leaves it, until a clear_wprobe frees it.  Each
 * trigger holds its watchpoint event enabled in its instance (soft mode,
 * as enable_event does), with its watchpoints parked until a set_wprobe
 * fires.
 */
#define SET_WPROBE_STR		"set_wprobe"
#define CLEAR_WPROBE_STR	"clear_wprobe"

enum tw_trigger_error {
	TW_TRIG_ERR_NO_WPROBE,
	TW_TRIG_ERR_NOT_BY_TRIGGER,
	TW_TRIG_ERR_WPROBE_ENABLED,
	TW_TRIG_ERR_NEED_FIELD,
	TW_TRIG_ERR_NO_FIELD,
	TW_TRIG_ERR_BAD_FIELD,
	TW_TRIG_ERR_BAD_ADJUST,
	TW_TRIG_ERR_NO_BTF_STRUCT,
	TW_TRIG_ERR_NO_BTF_MEMBER,
	TW_TRIG_ERR_NO_BTF,
	TW_TRIG_ERR_BAD_COUNT,
};

/* What the instance's error_log says, under "wprobe_trigger". */
static const char * const tw_trigger_errs[] = {
	[TW_TRIG_ERR_NO_WPROBE]		= "No watchpoint event of this name",
	[TW_TRIG_ERR_NOT_BY_TRIGGER]	= "The watchpoint event is not defined at @-1",
	[TW_TRIG_ERR_WPROBE_ENABLED]	= "The watchpoint event is enabled outside its triggers",
	[TW_TRIG_ERR_NEED_FIELD]	= "set_wprobe needs a field of the event",
	[TW_TRIG_ERR_NO_FIELD]		= "This event field is not found.",
	[TW_TRIG_ERR_BAD_FIELD]		= "The field does not hold an address",
	[TW_TRIG_ERR_BAD_ADJUST]	= "Invalid adjustment",
	[TW_TRIG_ERR_NO_BTF_STRUCT]	= "No structure of this name in BTF",
	[TW_TRIG_ERR_NO_BTF_MEMBER]	= "No member of this name in the structure",
	[TW_TRIG_ERR_NO_BTF]		= "BTF is not available for a typecast",
	[TW_TRIG_ERR_BAD_COUNT]		= "Invalid count",
};

/**
 * struct tw_trigger - a set_wprobe or clear_wprobe trigger
 * @tw: the watchpoint event it moves
 * @file: @tw's event file in the trigger's instance
 * @set: set_wprobe, else clear_wprobe
 * @has_field: an address is read from the record at @offset
 * @offset: the field's offset in the triggering event's record
 * @adjust: what is added to the field's value
 * @spec: the field, as written after the watchpoint event's name
 */
struct tw_trigger {
	struct trace_wprobe	*tw;
	struct trace_event_file	*file;
	bool			set;
	bool			has_field;
	unsigned int		offset;
	long			adjust;
	char			*spec;
};

/*
 * An address a trigger may give a watchpoint: kernel data, aligned to the
 * length (what tw_watchable() asks of a definition, but whether it is
 * mapped, which the event cannot find out safely here).
 */
static bool tw_trigger_may_watch(unsigned long addr, unsigned int len)
{
	return addr >= TASK_SIZE_MAX && IS_ALIGNED(addr, len);
}

/* The address the trigger's field gives, in @rec; 0 without a field. */
static unsigned long tw_trigger_addr(struct tw_trigger *twt, void *rec)
{
	if (!twt->has_field)
		return 0;
	return *(unsigned long *)(rec + twt->offset) + twt->adjust;
}

/*
 * Whether the trigger has something to do, with the address its field
 * gives, @addr, and what the watchpoint event watches now, @watching.
 */
static bool tw_trigger_applies(struct tw_trigger *twt, unsigned long addr,
			       unsigned long watching)
{
	if (twt->set)
		return !watching && tw_trigger_may_watch(addr, twt->tw->len);
	return watching && (!twt->has_field || addr == watching);
}

/*
 * A count is of moves made: a trigger takes one before it moves the
 * watchpoint and gives it back if another CPU moved it first, so that
 * triggers firing together on several CPUs make no more moves than the
 * count, nor lose one.  A count of -1 is unlimited.
 */
static nokprobe_inline bool tw_trigger_claim(struct event_trigger_data *data)
{
	unsigned long c = READ_ONCE(data->count);

	do {
		if (!c)
			return false;
		if (c == -1UL)
			return true;
	} while (!try_cmpxchg(&data->count, &c, c - 1));
	return true;
}

static nokprobe_inline void tw_trigger_unclaim(struct event_trigger_data *data)
{
	unsigned long c = READ_ONCE(data->count);

	if (c == -1UL)
		return;
	while (!try_cmpxchg(&data->count, &c, c + 1))
		;
}

/*
 * In the triggering event's context, after its record is written.  A count
 * is of the moves the trigger makes, not of its event's hits: it goes down
 * here, once the move is this trigger's.
 */
static void tw_trigger_fire(struct event_trigger_data *data,
			    struct trace_buffer *buffer, void *rec,
			    struct ring_buffer_event *rbe)
{
	struct tw_trigger *twt = data->private_data;
	struct trace_wprobe *tw = twt->tw;
	unsigned long old = READ_ONCE(tw->watching), addr;

	if (!rec || !READ_ONCE(tw->bp))
		return;
	addr = tw_trigger_addr(twt, rec);
	if (!tw_trigger_applies(twt, addr, old))
		return;
	if (!tw_trigger_claim(data))
		return;
	/* Another CPU's trigger may have moved it meanwhile: then it wins. */
	if (cmpxchg(&tw->watching, old, twt->set ? addr : 0) != old) {
		tw_trigger_unclaim(data);
		return;
	}
	if (twt->set)
		clear_bit(EVENT_FILE_FL_SOFT_DISABLED_BIT, &twt->file->flags);
	else
		set_bit(EVENT_FILE_FL_SOFT_DISABLED_BIT, &twt->file->flags);
	tw_move_all(tw);
}
NOKPROBE_SYMBOL(tw_trigger_fire);

/* With a count, whether any moves are left: tw_trigger_fire() counts. */
static bool tw_trigger_count(struct event_trigger_data *data,
			     struct trace_buffer *buffer, void *rec,
			     struct ring_buffer_event *rbe)
{
	return data->count != 0;
}

static int tw_trigger_print(struct seq_file *m,
			    struct event_trigger_data *data)
{
	struct tw_trigger *twt = data->private_data;
	struct trace_probe *tp = &twt->tw->tp;

	seq_puts(m, twt->set ? SET_WPROBE_STR ":" : CLEAR_WPROBE_STR ":");
	if (strcmp(trace_probe_group_name(tp), WPROBE_EVENT_SYSTEM))
		seq_printf(m, "%s/", trace_probe_group_name(tp));
	seq_puts(m, trace_probe_name(tp));
	if (twt->spec)
		seq_printf(m, ":%s", twt->spec);
	if (data->count == -1)
		seq_puts(m, ":unlimited");
	else
		seq_printf(m, ":count=%ld", data->count);
	if (data->filter_str)
		seq_printf(m, " if %s", data->filter_str);
	seq_putc(m, '\n');
	return 0;
}

static void tw_trigger_data_free(struct event_trigger_data *data)
{
	struct tw_trigger *twt = data->private_data;

	kfree(twt->spec);
	kfree(twt);
}

/*
 * The last reference: the trigger is off its event's list, but may still
 * run on another CPU until the event's handlers have all returned; only
 * then may the watchpoint event be disabled, which frees its watchpoints,
 * and let go, so that it can be removed as soon as the write that removed
 * its last trigger returns.
 */
static void tw_trigger_free(struct event_trigger_data *data)
{
	struct tw_trigger *twt = data->private_data;

	if (WARN_ON_ONCE(data->ref <= 0) || --data->ref)
		return;
	tracepoint_synchronize_unregister();
	trace_event_enable_disable(twt->file, 0, 1);
	trace_event_put_ref(twt->file->event_call);
	data->private_data_free = tw_trigger_data_free;
	trigger_data_free(data);
}

/* This file's trigger of the same command on the same watchpoint event. */
static struct event_trigger_data *tw_trigger_find(struct event_trigger_data *test,
						  struct trace_event_file *file)
{
	struct tw_trigger *tt = test->private_data, *twt;
	struct event_trigger_data *data;

	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_WPROBE)
			continue;
		twt = data->private_data;
		if (twt->tw == tt->tw && twt->set == tt->set)
			return data;
	}
	return NULL;
}

static int tw_trigger_reg(char *glob, struct event_trigger_data *data,
			  struct trace_event_file *file)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	if (tw_trigger_find(data, file))
		return -EEXIST;
	ret = data->cmd_ops->init(data);
	if (ret)
		return ret;
	list_add_rcu(&data->list, &file->triggers);
	update_cond_flag(file);
	ret = trace_event_trigger_enable_disable(file, 1);
	if (ret < 0) {
		list_del_rcu(&data->list);
		update_cond_flag(file);
		data->cmd_ops->free(data);
	}
	return ret;
}

static void tw_trigger_unreg(char *glob, struct event_trigger_data *test,
			     struct trace_event_file *file)
{
	struct event_trigger_data *data;

	lockdep_assert_held(&event_mutex);
	data = tw_trigger_find(test, file);
	if (!data)
		return;
	list_del_rcu(&data->list);
	trace_event_trigger_enable_disable(file, 0);
	update_cond_flag(file);
	data->cmd_ops->free(data);
}

/* The watchpoint event "[GROUP/]EVENT" names, or NULL. */
static struct trace_wprobe *tw_find(char *name)
{
	char *slash = strchr(name, '/');
	const char *group = WPROBE_EVENT_SYSTEM;
	struct trace_probe *tp;

	if (slash) {
		*slash = '\0';
		group = name;
		name = slash + 1;
	}
	tp = trace_probe_find_event(group, name);
	if (slash)
		*slash = '/';
	if (!tp || trace_probe_event_call(tp)->event.funcs != &tw_event_funcs)
		return NULL;
	return container_of(tp, struct trace_wprobe, tp);
}

/*
 * "[(STRUCT)]FIELD[->MEMBER[.MEMBER...]][+|-ADJUST]", in place: the field
 * of @file's event whose value is an address.  On an error, *@bad points
 * at the word it is about and *@err says what it is.
 */
static int tw_trigger_parse_field(struct tw_trigger *twt, char *spec,
				  struct trace_event_file *file,
				  char **bad, int *err)
{
	struct ftrace_event_field *field;
	char *sname = NULL, *members = NULL, *sign, *p;
	int offs;

	*bad = spec;
	twt->spec = kstrdup(spec, GFP_KERNEL);
	if (!twt->spec)
		return -ENOMEM;
	if (spec[0] == '(') {
		sname = spec + 1;
		p = strchr(sname, ')');
		if (!p) {
			*err = TW_TRIG_ERR_NO_BTF_STRUCT;
			return -EINVAL;
		}
		*p = '\0';
		spec = p + 1;
		p = strstr(spec, "->");
		if (!p) {
			*bad = spec;
			*err = TW_TRIG_ERR_NO_BTF_MEMBER;
			return -EINVAL;
		}
		*p = '\0';
		members = p + 2;
	}
	sign = strpbrk(members ?: spec, "+-");
	if (sign) {
		if (kstrtol(sign, 0, &twt->adjust)) {
			*bad = sign;
			*err = TW_TRIG_ERR_BAD_ADJUST;
			return -EINVAL;
		}
		*sign = '\0';
	}
	field = trace_find_event_field(file->event_call, spec);
	if (!field) {
		*bad = spec;
		*err = TW_TRIG_ERR_NO_FIELD;
		return -ENOENT;
	}
	if (field->size != sizeof(unsigned long) ||
	    field->filter_type != FILTER_OTHER) {
		*bad = spec;
		*err = TW_TRIG_ERR_BAD_FIELD;
		return -EINVAL;
	}
	twt->has_field = true;
	twt->offset = field->offset;
	if (sname) {
		offs = traceprobe_btf_member_offset(sname, members, bad);
		if (offs < 0) {
			if (offs == -EOPNOTSUPP)
				*err = TW_TRIG_ERR_NO_BTF;
			else if (*bad == sname)
				*err = TW_TRIG_ERR_NO_BTF_STRUCT;
			else
				*err = TW_TRIG_ERR_NO_BTF_MEMBER;
			return offs;
		}
		twt->adjust += offs;
	}
	return 0;
}

/*
 * The command is logged as written: @glob ("set_wprobe", "!clear_wprobe")
 * and @pf, what followed it, joined by the ':' the parse cut them at; the
 * caret goes under @bad, a place in what @pf was cut into.
 */
static void tw_trigger_log(struct trace_array *tr, const char *cmd,
			   const char *glob, const char *pf, const char *bad,
			   int err)
{
	tracing_log_err(tr, "wprobe_trigger", cmd,
			(const char **)tw_trigger_errs, err,
			bad ? strlen(glob) + 1 + (bad - pf) : 0);
}

/*
 * @glob is the command's name, with its '!' to remove it, and
 * @param_and_filter the rest of the command.
 */
static int tw_trigger_parse(struct event_command *cmd_ops,
			    struct trace_event_file *file, char *glob,
			    char *cmd, char *param_and_filter)
{
	bool remove = event_trigger_check_remove(glob);
	struct event_trigger_data *data = NULL;
	struct trace_array *tr = file->tr;
	char *param, *filter, *name, *spec, *buf, *bad = NULL;
	struct trace_event_file *wfile;
	struct tw_trigger *twt;
	struct trace_wprobe *tw;
	int ret, err = 0;

	if (!param_and_filter)
		return -EINVAL;
	/* A copy to log: the parse below cuts param_and_filter up. */
	buf = kasprintf(GFP_KERNEL, "%s:%s", glob, param_and_filter);
	twt = kzalloc_obj(*twt);
	ret = -ENOMEM;
	if (!buf || !twt)
		goto out;
	twt->set = !strcmp(cmd, SET_WPROBE_STR);

	ret = event_trigger_separate_filter(param_and_filter, &param, &filter,
					    true);
	if (ret)
		goto out;
	name = strsep(&param, ":");
	tw = tw_find(name);
	ret = -ENOENT;
	if (!tw) {
		bad = name;
		err = TW_TRIG_ERR_NO_WPROBE;
		goto log;
	}
	ret = -EINVAL;
	if (!tw->by_trigger) {
		bad = name;
		err = TW_TRIG_ERR_NOT_BY_TRIGGER;
		goto log;
	}
	wfile = find_event_file(tr, trace_probe_group_name(&tw->tp),
				trace_probe_name(&tw->tp));
	if (!wfile) {
		bad = name;
		err = TW_TRIG_ERR_NO_WPROBE;
		goto log;
	}
	twt->tw = tw;
	twt->file = wfile;

	/*
	 * What follows the name: a field, then a count.  A field is a C
	 * name or a typecast; a count, a number.
	 */
	spec = param && *param && !isdigit(*param) ? strsep(&param, ":") : NULL;
	if (spec) {
		ret = tw_trigger_parse_field(twt, spec, file, &bad, &err);
		if (ret)
			goto log;
	} else if (twt->set && !remove) {
		bad = param ?: name + strlen(name);
		err = TW_TRIG_ERR_NEED_FIELD;
		ret = -EINVAL;
		goto log;
	}

	data = trigger_data_alloc(cmd_ops, cmd, param, twt);
	ret = -ENOMEM;
	if (!data)
		goto out;
	if (remove) {
		event_trigger_unregister(cmd_ops, file, glob + 1, data);
		ret = 0;
		goto out;
	}

	ret = event_trigger_parse_num(param, data);
	if (ret) {
		bad = param;
		err = TW_TRIG_ERR_BAD_COUNT;
		goto log;
	}
	ret = event_trigger_set_filter(cmd_ops, file, filter, data);
	if (ret < 0)
		goto out;
	/*
	 * Enabled by a trace instance or perf outside of soft mode, the
	 * event records what it watches, where a clear_wprobe would stop it.
	 */
	ret = -EBUSY;
	if (trace_probe_is_enabled(&tw->tp) &&
	    !atomic_read(&wfile->sm_ref)) {
		bad = name;
		err = TW_TRIG_ERR_WPROBE_ENABLED;
		goto log_reset;
	}
	if (!trace_event_try_get_ref(wfile->event_call))
		goto reset;
	ret = trace_event_enable_disable(wfile, 1, 1);
	if (ret < 0)
		goto put;
	/* From here the trigger's free drops the enabling and the reference. */
	event_trigger_init(data);
	ret = event_trigger_register(cmd_ops, file, glob, data);
	data->cmd_ops->free(data);
	kfree(buf);
	return ret;

put:
	trace_event_put_ref(wfile->event_call);
	goto reset;
log_reset:
	tw_trigger_log(tr, buf, glob, param_and_filter, bad, err);
reset:
	event_trigger_reset_filter(cmd_ops, data);
	goto out;
log:
	tw_trigger_log(tr, buf, glob, param_and_filter, bad, err);
out:
	kfree(data);
	if (twt)
		kfree(twt->spec);
	kfree(twt);
	kfree(buf);
	return ret;
}

/* The two commands differ in their names alone. */
#define TW_TRIGGER_COMMAND(cmd_name) {				\
	.name		= cmd_name,					\
	.trigger_type	= ETT_WPROBE,					\
	.flags		= EVENT_CMD_FL_NEEDS_REC,			\
	.parse		= tw_trigger_parse,				\
	.reg		= tw_trigger_reg,				\
	.unreg		= tw_trigger_unreg,				\
	.set_filter	= set_trigger_filter,				\
	.trigger	= tw_trigger_fire,				\
	.count_func	= tw_trigger_count,				\
	.print		= tw_trigger_print,				\
	.init		= event_trigger_init,				\
	.free		= tw_trigger_free,				\
}

static struct event_command tw_set_cmd = TW_TRIGGER_COMMAND(SET_WPROBE_STR);
static struct event_command tw_clear_cmd = TW_TRIGGER_COMMAND(CLEAR_WPROBE_STR);

static __init int init_wprobe_triggers(void)
{
	int ret;

	ret = register_event_command(&tw_set_cmd);
	if (WARN_ON(ret))
		return ret;
	ret = register_event_command(&tw_clear_cmd);
	if (WARN_ON(ret))
		unregister_event_command(&tw_set_cmd);
	return ret;
}
fs_initcall(init_wprobe_triggers);
