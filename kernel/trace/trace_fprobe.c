// SPDX-License-Identifier: GPL-2.0
/*
 * Fprobe events: "f" and "t" definitions in dynamic_events.
 *
 * An "f" definition puts an fprobe (ftrace's hook at a function's entry,
 * or for "%return" function graph's at its entry and return) on the
 * functions of a name.
 * A "t" definition reads a tracepoint's raw arguments: it hangs the
 * tracepoint's own empty stub, __probestub_<name>(), on the tracepoint as
 * a probe, and puts an fprobe on the stub's entry; the tracepoint's
 * arguments are then the stub's, after its data pointer.  Either way a
 * hit is an fprobe handler, recorded the way trace_kprobe.c records a
 * kprobe's, by the same fetch engine (trace_probe_fetch.h), which reads
 * the registers ftrace saved (struct ftrace_regs) through ftrace's
 * accessors: on arm64 they are no pt_regs.
 *
 * A definition only checks that its functions exist: its fprobe (and a
 * "t" probe's stub on the tracepoint) goes into the kernel when its event
 * is first enabled, and out when the last user disables it, so that a
 * defined but idle event costs the functions nothing (it is not in
 * enabled_functions).
 *
 * Locking: definitions are created and removed under dyn_event_ops_mutex
 * and event_mutex, events enabled and disabled under event_mutex, and so
 * fprobes are registered and unregistered under it (a module's
 * tracepoints come and go under event_mutex too); the handlers run in any
 * context and see the enabled instance files through an RCU list
 * (trace_probe.c).
 */
#define pr_fmt(fmt)	"trace_fprobe: " fmt

#include <linux/ctype.h>
#include <linux/fprobe.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/security.h>
#include <linux/tracepoint.h>

#include "trace_dynevent.h"
#include "trace_probe.h"
/* Our hits give ftrace_regs, not a pt_regs: see trace_probe_fetch.h. */
#define PROBE_FETCH_FTRACE_REGS
/* A probe's one string has a path of its own: see trace_probe_record.h. */
#define PROBE_RECORD_ONE_STRING
#include "trace_probe_record.h"

/* The default groups. */
#define FPROBE_EVENT_SYSTEM	"fprobes"
#define TPROBE_EVENT_SYSTEM	"tracepoints"

/**
 * struct trace_fprobe - an fprobe event definition
 * @devent: its entry in the dynamic event list
 * @symbol: the function or the tracepoint, as named
 * @is_return: a "%return" probe
 * @is_tpoint: a "t" (tracepoint) probe
 * @tpoint: "t" only: the tracepoint, NULL while its module is not loaded
 * @mod: "t" only: the module @tpoint is in, NULL for the kernel's
 * @fp: the fprobe, registered only while the event is enabled; derived
 *	from the fields above, and rebuilt by tf_fprobe_prepare() each time
 *	it is registered
 * @tp: the event side; must be last, its arguments follow it
 */
struct trace_fprobe {
	struct dyn_event	devent;
	const char		*symbol;
	bool			is_return;
	bool			is_tpoint;
	struct tracepoint	*tpoint;
	struct module		*mod;
	struct fprobe		fp;
	struct trace_probe	tp;
};

/* Defined at the end: how dynamic_events creates, shows and frees ours. */
static struct dyn_event_operations trace_fprobe_ops;

static struct trace_fprobe *to_trace_fprobe(struct dyn_event *ev)
{
	return container_of(ev, struct trace_fprobe, devent);
}

/* The fprobe event of a dynamic event, or NULL for another kind. */
static struct trace_fprobe *dyn_to_tf(struct dyn_event *ev)
{
	return ev->ops == &trace_fprobe_ops ? to_trace_fprobe(ev) : NULL;
}

static struct trace_fprobe *tp_to_tf(struct trace_probe *tp)
{
	return container_of(tp, struct trace_fprobe, tp);
}

static struct trace_fprobe *tf_primary(struct trace_event_call *call)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);

	return tp ? tp_to_tf(tp) : NULL;
}

static bool tf_is_registered(struct trace_fprobe *tf)
{
	return fprobe_is_registered(&tf->fp);
}

static bool tf_dyn_busy(struct dyn_event *ev)
{
	return trace_probe_is_enabled(&to_trace_fprobe(ev)->tp);
}

/* The place is shown "SYM%return" for an exit probe; either form matches. */
static bool tf_place_is(struct trace_fprobe *tf, const char *place)
{
	size_t len = strlen(tf->symbol);

	if (strncmp(place, tf->symbol, len))
		return false;
	return !place[len] || (tf->is_return && !strcmp(place + len, "%return"));
}

static bool tf_dyn_match(const char *system, const char *event,
			 int argc, const char **argv, struct dyn_event *ev)
{
	struct trace_fprobe *tf = to_trace_fprobe(ev);

	if (event[0] && strcmp(trace_probe_name(&tf->tp), event))
		return false;
	if (system && strcmp(trace_probe_group_name(&tf->tp), system))
		return false;
	if (!argc)
		return true;
	if (!tf_place_is(tf, argv[0]))
		return false;
	return trace_probe_match_command_args(&tf->tp, argc - 1, argv + 1);
}

/* ---- Recording a hit ----------------------------------------------------- */

/*
 * A record starts as a kprobe's does, and the format files say so: the
 * ftrace site for an entry, the function and the return address for an
 * exit (trace.h's struct fentry_trace_entry_head and its fexit twin).
 */
static nokprobe_inline size_t tf_head_size(bool is_return)
{
	return is_return ? sizeof(struct fexit_trace_entry_head) :
			   sizeof(struct fentry_trace_entry_head);
}

static nokprobe_inline void tf_hit_init(struct probe_hit *hit,
					struct trace_fprobe *tf,
					struct ftrace_regs *fregs, void *edata,
					unsigned long func, unsigned long ret_ip)
{
	/* A stack trace trigger's regs: none unless ftrace saved them all. */
	probe_hit_init(hit, &tf->tp, NULL, fregs, edata, ftrace_get_regs(fregs));
	hit->head[0] = func;
	hit->head[1] = ret_ip;
	hit->nhead = tf->is_return ? 2 : 1;
}

/* Every hit probe_record_fast() does not take. */
static noinline void tf_record(struct trace_fprobe *tf,
			       struct ftrace_regs *fregs, void *edata,
			       unsigned long func, unsigned long ret_ip)
{
	struct probe_hit hit __uninitialized;

	if (tf->tp.arg_kinds & PROBE_ARGS_ONE_STRING) {
		struct probe_fetch_env env = { .fregs = fregs, .edata = edata };
		unsigned long head[2] = { func, ret_ip };

		if (probe_record_string(&tf->tp, &env, head,
					tf->is_return ? 2 : 1,
					ftrace_get_regs(fregs)))
			return;
	}
	tf_hit_init(&hit, tf, fregs, edata, func, ret_ip);
	probe_hit_record(&hit);
}
NOKPROBE_SYMBOL(tf_record);

#ifdef CONFIG_PERF_EVENTS
/*
 * Give the hit to perf.  BPF has no way in: perf attaches programs to
 * kprobe, uprobe and tracepoint events only.
 */
static void tf_perf(struct trace_fprobe *tf, struct ftrace_regs *fregs,
		    void *edata, unsigned long func, unsigned long ret_ip)
{
	struct probe_hit hit __uninitialized;

	tf_hit_init(&hit, tf, fregs, edata, func, ret_ip);
	probe_hit_perf(&hit);
}
NOKPROBE_SYMBOL(tf_perf);

/* A hit both instances and perf take: the arguments are fetched once. */
static void tf_record_perf(struct trace_fprobe *tf, struct ftrace_regs *fregs,
			   void *edata, unsigned long func,
			   unsigned long ret_ip)
{
	struct probe_hit hit __uninitialized;

	tf_hit_init(&hit, tf, fregs, edata, func, ret_ip);
	probe_hit_record_perf(&hit);
}
NOKPROBE_SYMBOL(tf_record_perf);
#else
static void tf_perf(struct trace_fprobe *tf, struct ftrace_regs *fregs,
		    void *edata, unsigned long func, unsigned long ret_ip)
{
}

static void tf_record_perf(struct trace_fprobe *tf, struct ftrace_regs *fregs,
			   void *edata, unsigned long func,
			   unsigned long ret_ip)
{
}
#endif

/*
 * A hit goes to each enabled instance's buffer, and to perf.  @nhead, the
 * words after the record's common head, is a constant in each dispatcher:
 * 1 at an entry, 2 at an exit.
 */
static nokprobe_inline void tf_hit(struct trace_fprobe *tf,
				   struct ftrace_regs *fregs, void *edata,
				   unsigned long func, unsigned long ret_ip,
				   unsigned int nhead)
{
	unsigned int flags = trace_probe_load_flags(&tf->tp);

	if (flags & TP_FLAG_TRACE) {
		unsigned long head[2] = { func, ret_ip };

		/* Instances and perf: one fetch for both. */
		if (unlikely(flags & TP_FLAG_PROFILE)) {
			tf_record_perf(tf, fregs, edata, func, ret_ip);
			return;
		}
		if (!probe_record_fast(&tf->tp, NULL, fregs, edata, head, nhead,
				       ftrace_get_regs(fregs)))
			tf_record(tf, fregs, edata, func, ret_ip);
	}
	if (flags & TP_FLAG_PROFILE)
		tf_perf(tf, fregs, edata, func, ret_ip);
}

static int fentry_dispatcher(struct fprobe *fp, unsigned long entry_ip,
			     unsigned long ret_ip, struct ftrace_regs *fregs,
			     void *entry_data)
{
	tf_hit(container_of(fp, struct trace_fprobe, fp), fregs, NULL,
	       entry_ip, 0, 1);
	return 0;
}

static void fexit_dispatcher(struct fprobe *fp, unsigned long entry_ip,
			     unsigned long ret_ip, struct ftrace_regs *fregs,
			     void *entry_data)
{
	tf_hit(container_of(fp, struct trace_fprobe, fp), fregs, entry_data,
	       entry_ip, ret_ip, 2);
}

NOKPROBE_SYMBOL(fentry_dispatcher);
NOKPROBE_SYMBOL(fexit_dispatcher);

/*
 * An exit probe whose arguments read entry arguments saves them here, in
 * the per-call data function graph keeps on its shadow stack until the
 * return (at most MAX_FPROBE_DATA_SIZE bytes); returning 0 keeps the exit
 * armed.
 */
static int fexit_save_args(struct fprobe *fp, unsigned long entry_ip,
			   unsigned long ret_ip, struct ftrace_regs *fregs,
			   void *entry_data)
{
	struct trace_fprobe *tf = container_of(fp, struct trace_fprobe, fp);
	struct probe_fetch_env env = { .fregs = fregs };

	probe_entry_data_store(entry_data, &tf->tp, &env);
	return 0;
}

NOKPROBE_SYMBOL(fexit_save_args);

/* ---- The event --------------------------------------------------------- */

/* "NAME: (SYM+off/size) ARGS", or "NAME: (CALLER+off/size <- SYM) ARGS". */
static enum print_line_t print_tf_event(struct trace_iterator *iter, int flags,
					struct trace_event *event)
{
	struct trace_fprobe *tf = tf_primary(container_of(event,
					struct trace_event_call, event));
	struct fexit_trace_entry_head *exit = (void *)iter->ent;
	struct fentry_trace_entry_head *entry = (void *)iter->ent;
	struct trace_seq *s = &iter->seq;

	if (WARN_ON_ONCE(!tf))
		return trace_handle_return(s);
	trace_seq_printf(s, "%s: (", trace_probe_name(&tf->tp));
	if (tf->is_return) {
		seq_print_ip_sym_offset(s, exit->ret_ip, flags);
		trace_seq_puts(s, " <- ");
		seq_print_ip_sym_no_offset(s, exit->func, flags);
	} else {
		seq_print_ip_sym_offset(s, entry->ip, flags);
	}
	trace_seq_putc(s, ')');
	if (!trace_probe_print_args(s, tf->tp.args, tf->tp.nr_args,
				    (u8 *)iter->ent + tf_head_size(tf->is_return),
				    iter->ent))
		trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static int tf_define_fields(struct trace_event_call *call)
{
	struct trace_fprobe *tf = tf_primary(call);
	int ret;

	if (WARN_ON_ONCE(!tf))
		return -ENOENT;
	if (tf->is_return) {
		ret = trace_define_field(call, "unsigned long", FIELD_STRING_FUNC,
					 offsetof(struct fexit_trace_entry_head, func),
					 sizeof(long), 0, FILTER_OTHER);
		if (!ret)
			ret = trace_define_field(call, "unsigned long",
						 FIELD_STRING_RETIP,
						 offsetof(struct fexit_trace_entry_head,
							  ret_ip),
						 sizeof(long), 0, FILTER_OTHER);
	} else {
		ret = trace_define_field(call, "unsigned long", FIELD_STRING_IP,
					 offsetof(struct fentry_trace_entry_head, ip),
					 sizeof(long), 0, FILTER_OTHER);
	}
	if (ret)
		return ret;
	return traceprobe_define_arg_fields(call, tf_head_size(tf->is_return),
					    &tf->tp);
}

static struct trace_event_functions tf_event_funcs = {
	.trace = print_tf_event,
};

static struct trace_event_fields tf_fields[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = tf_define_fields },
	{}
};

static int tf_register(struct trace_fprobe *tf);
static void tf_unregister(struct trace_fprobe *tf);

/* Take all the probes of an event out of the kernel. */
static void tf_unregister_all(struct trace_probe *tp)
{
	struct trace_probe *pos;

	trace_probe_for_each_sibling(pos, tp)
		tf_unregister(tp_to_tf(pos));
}

/* Put them all in, or none: the event is either live or not at all. */
static int tf_register_all(struct trace_probe *tp)
{
	struct trace_probe *pos;
	int ret;

	trace_probe_for_each_sibling(pos, tp) {
		ret = tf_register(tp_to_tf(pos));
		if (ret) {
			tf_unregister_all(tp);
			return ret;
		}
	}
	return 0;
}

static const struct probe_arming tf_arming = {
	.arm_all	= tf_register_all,
	.disarm_all	= tf_unregister_all,
};

/* What the fprobe events share, "f" and "t" alike. */
static const struct probe_kind tf_kind = {
	.fields_array	= tf_fields,
	.arming		= &tf_arming,
	.funcs		= &tf_event_funcs,
	.flags		= TRACE_EVENT_FL_FPROBE,
};

/* ---- Definitions ----------------------------------------------------- */

static void free_trace_fprobe(struct trace_fprobe *tf)
{
	if (!tf)
		return;
	trace_probe_cleanup(&tf->tp);
	kfree(tf->symbol);
	kfree(tf);
}

static struct trace_fprobe *alloc_trace_fprobe(const char *group,
					       const char *event,
					       const char *symbol, int nargs,
					       bool is_return, bool is_tpoint)
{
	struct trace_fprobe *tf;

	tf = (void *)trace_probe_alloc(sizeof(*tf), nargs);
	if (!tf)
		return ERR_PTR(-ENOMEM);
	tf->tp.nr_args = nargs;
	tf->is_return = is_return;
	tf->is_tpoint = is_tpoint;
	tf->symbol = kstrdup(symbol, GFP_KERNEL);
	if (!tf->symbol ||
	    trace_probe_init(&tf->tp, event, group, &tf_kind)) {
		free_trace_fprobe(tf);
		return ERR_PTR(-ENOMEM);
	}
	dyn_event_init(&tf->devent, &trace_fprobe_ops);
	return tf;
}

static struct trace_fprobe *find_trace_fprobe(const char *event,
					      const char *group)
{
	struct trace_probe *tp = trace_probe_find_event(group, event);

	if (!tp || !(trace_probe_event_call(tp)->flags & TRACE_EVENT_FL_FPROBE))
		return NULL;
	return tp_to_tf(tp);
}

/*
 * The fprobe is state derived from the definition, built afresh each time
 * it is registered.  Which handlers it has decides how fprobe hooks the
 * functions (ftrace alone for an entry handler, function graph for an
 * exit one), and how it unhooks them: they stay as they are until it is
 * unregistered.  fprobe_is_registered() says whether it is in by its hash
 * list array, which registering sets, and unregistering or a failed
 * registering clears.
 */
static void tf_fprobe_prepare(struct trace_fprobe *tf)
{
	struct fprobe *fp = &tf->fp;

	memset(fp, 0, sizeof(*fp));
	if (!tf->is_return) {
		fp->entry_handler = fentry_dispatcher;
	} else {
		fp->exit_handler = fexit_dispatcher;
		if (tf->tp.entry_arg) {
			fp->entry_handler = fexit_save_args;
			fp->entry_data_size =
				traceprobe_get_entry_data_size(&tf->tp);
		}
	}
}

/**
 * struct func_sites - the ftrace sites of the functions of one name
 * @name: the name
 * @ip: where they go, NULL while counting
 * @n: sites found
 * @room: entries of @ip
 *
 * A name may be several functions (statics of different files, modules'):
 * the probe is on them all, as ftrace's filter by name would put it.
 */
struct func_sites {
	const char	*name;
	unsigned long	*ip;
	unsigned int	n;
	unsigned int	room;
};

static int func_site_add(void *data, unsigned long addr)
{
	struct func_sites *fs = data;
	unsigned long ip = ftrace_location(addr);
	unsigned int i;

	/* Not a function ftrace can hook: a notrace one, or data. */
	if (!ip)
		return 0;
	for (i = 0; fs->ip && i < min(fs->n, fs->room); i++)
		if (fs->ip[i] == ip)
			return 0;
	if (fs->ip && fs->n < fs->room)
		fs->ip[fs->n] = ip;
	fs->n++;
	return 0;
}

static int func_site_add_mod(void *data, const char *name, unsigned long addr)
{
	struct func_sites *fs = data;

	return strcmp(name, fs->name) ? 0 : func_site_add(data, addr);
}

static void func_sites_scan(struct func_sites *fs)
{
	fs->n = 0;
	kallsyms_on_each_match_symbol(func_site_add, fs->name, fs);
	module_kallsyms_on_each_symbol(NULL, func_site_add_mod, fs);
}

/*
 * The fprobe of an "f" probe, on every function named @tf->symbol, or
 * matching it when it is a glob ("vfs_rea*"), which ftrace's filter
 * matches as it matches set_ftrace_filter's.
 */
static int tf_register_func(struct trace_fprobe *tf)
{
	struct func_sites fs = { .name = tf->symbol };
	int ret;

	if (strpbrk(tf->symbol, "*?["))
		return register_fprobe(&tf->fp, tf->symbol, NULL);
	/* Count, then collect: a module loaded in between is left out. */
	func_sites_scan(&fs);
	if (!fs.n)
		return -ENOENT;
	fs.room = fs.n;
	fs.ip = kcalloc(fs.room, sizeof(*fs.ip), GFP_KERNEL);
	if (!fs.ip)
		return -ENOMEM;
	func_sites_scan(&fs);
	if (fs.n)
		ret = register_fprobe_ips(&tf->fp, fs.ip, min(fs.n, fs.room));
	else
		ret = -ENOENT;
	kfree(fs.ip);
	return ret;
}

/*
 * Is the stub on @tf's tracepoint needed by another of our probes?  The
 * tracepoint takes the stub once however many probes are on it, so the
 * last probe to leave takes it off.
 */
static bool tf_stub_shared(struct trace_fprobe *tf)
{
	struct trace_fprobe *other;
	struct dyn_event *pos;

	for_each_dyn_event(pos) {
		other = dyn_to_tf(pos);
		if (other && other != tf && other->is_tpoint &&
		    other->tpoint == tf->tpoint && tf_is_registered(other))
			return true;
	}
	return false;
}

static void tf_put_stub(struct trace_fprobe *tf)
{
	if (!tf_stub_shared(tf))
		tracepoint_probe_unregister(tf->tpoint, tf->tpoint->probestub,
					    NULL);
}

/*
 * The fprobe of a "t" probe: the stub goes on the tracepoint, then the
 * fprobe on the stub.  The stub is last of the tracepoint's probes
 * (priority 0), after the tracepoint's own event, if enabled, records.
 */
static int tf_register_tpoint(struct trace_fprobe *tf)
{
	unsigned long stub = (unsigned long)tf->tpoint->probestub;
	int ret;

	ret = tracepoint_probe_register_prio_may_exist(tf->tpoint,
						       tf->tpoint->probestub,
						       NULL, 0);
	/* Already there: another of our probes on this tracepoint put it. */
	if (ret && ret != -EEXIST)
		return ret;
	ret = register_fprobe_ips(&tf->fp, &stub, 1);
	if (ret)
		tf_put_stub(tf);
	return ret;
}

/*
 * Put the fprobe into the kernel, for an enabled event.  A "t" probe on a
 * tracepoint whose module is not loaded, or is on its way out, waits for
 * it to load.
 */
static int tf_register(struct trace_fprobe *tf)
{
	/* fprobes read what kprobes do: the same lockdown reason. */
	int ret = security_locked_down(LOCKDOWN_KPROBES);

	if (!ret && tf_is_registered(tf))
		ret = -EINVAL;
	if (!ret)
		ret = trace_probe_update_args(&tf->tp);
	if (ret)
		return ret;

	tf_fprobe_prepare(tf);
	if (!tf->is_tpoint)
		return tf_register_func(tf);
	if (!tf->tpoint)
		return 0;
	/*
	 * A going module's tracepoint is cleared by our notifier, which
	 * waits for event_mutex we hold: keep the module until the stub is
	 * on, and leave a going one to the notifier.
	 */
	if (tf->mod && !try_module_get(tf->mod))
		return 0;
	ret = tf_register_tpoint(tf);
	module_put(tf->mod);
	return ret;
}

/*
 * Does an "f" probe's place name functions fprobe can hook?  Checked when
 * it is defined, though it is registered later: a module may go in
 * between, and then enabling fails.
 */
static int tf_check_target(struct trace_fprobe *tf)
{
	struct func_sites fs = { .name = tf->symbol };
	int ret = security_locked_down(LOCKDOWN_KPROBES);

	if (ret || tf->is_tpoint)
		return ret;
	if (strpbrk(tf->symbol, "*?["))
		return min(fprobe_count_ips_from_filter(tf->symbol, NULL), 0);
	func_sites_scan(&fs);
	return fs.n ? 0 : -ENOENT;
}

static void tf_unregister(struct trace_fprobe *tf)
{
	if (!tf_is_registered(tf))
		return;
	/* Waits for the handlers: @tf may be freed next. */
	unregister_fprobe(&tf->fp);
	/* Now not registered: the stub stays only for another probe. */
	if (tf->is_tpoint)
		tf_put_stub(tf);
}

/*
 * Remove a definition, and free it.  The event goes with its last probe,
 * unless something still uses it: then nothing goes.
 */
static int tf_remove(struct trace_fprobe *tf)
{
	struct trace_event_call *call = trace_probe_event_call(&tf->tp);
	bool last = !trace_probe_has_sibling(&tf->tp);

	if (last && (trace_probe_is_enabled(&tf->tp) ||
		     trace_event_dyn_busy(call) ||
		     trace_probe_unregister_event_call(&tf->tp)))
		return -EBUSY;
	tf_unregister(tf);
	dyn_event_remove(&tf->devent);
	trace_probe_unlink(&tf->tp);
	free_trace_fprobe(tf);
	return 0;
}

/* Do two probes of an event, of the same kind, probe the same place? */
static bool tf_same_place(struct trace_probe *a, struct trace_probe *b)
{
	return !strcmp(tp_to_tf(a)->symbol, tp_to_tf(b)->symbol);
}

/*
 * Give a new definition its event (its own, or the one of its name it
 * joins), and its fprobe if that event is enabled already; on success it
 * is listed in dynamic_events.
 */
static int tf_add(struct trace_fprobe *tf)
{
	struct trace_fprobe *old;
	bool other_kind;
	int ret;

	guard(mutex)(&event_mutex);
	old = find_trace_fprobe(trace_probe_name(&tf->tp),
				trace_probe_group_name(&tf->tp));
	/* Entry, exit and tracepoint probes each have their own records. */
	other_kind = old && (old->is_return != tf->is_return ||
			     old->is_tpoint != tf->is_tpoint);
	ret = trace_probe_join_event(&tf->tp, old ? &old->tp : NULL,
				     other_kind, tf_same_place);
	if (ret)
		return ret;
	ret = tf_check_target(tf);
	if (!ret && trace_probe_is_enabled(&tf->tp))
		ret = tf_register(tf);
	if (ret) {
		trace_probe_leave_event(&tf->tp);
		return ret;
	}
	dyn_event_add(&tf->devent, trace_probe_event_call(&tf->tp));
	return 0;
}

/* ---- Tracepoints and modules ----------------------------------------- */

/**
 * struct tpoint_search - looking for a tracepoint by name
 * @name: its name
 * @hold: take a reference on @mod, to keep it until the probe is on it
 * @mod: the module it is in, NULL for the kernel's
 * @tpoint: the tracepoint found, or NULL
 */
struct tpoint_search {
	const char		*name;
	bool			hold;
	struct module		*mod;
	struct tracepoint	*tpoint;
};

static void tpoint_search_mod(struct tracepoint *tpoint, struct module *mod,
			      void *data)
{
	struct tpoint_search *ts = data;

	if (ts->tpoint || strcmp(tpoint->name, ts->name))
		return;
	/* A module on its way out is as good as not loaded. */
	if (mod && ts->hold && !try_module_get(mod))
		return;
	ts->tpoint = tpoint;
	ts->mod = mod;
}

static void tpoint_search_kernel(struct tracepoint *tpoint, void *data)
{
	tpoint_search_mod(tpoint, NULL, data);
}

/* The kernel's tracepoints first, then the loaded modules'. */
static void tpoint_search(struct tpoint_search *ts)
{
	for_each_kernel_tracepoint(tpoint_search_kernel, ts);
	if (!ts->tpoint)
		for_each_module_tracepoint(tpoint_search_mod, ts);
}

#ifdef CONFIG_MODULES
/*
 * A module coming with a probed tracepoint, or going with one.  The probe
 * goes on the tracepoint now only if its event is enabled.
 */
static void tf_module_coming(struct trace_fprobe *tf, struct module *mod)
{
	struct tpoint_search ts = { .name = tf->symbol };
	int ret;

	for_each_tracepoint_in_module(mod, tpoint_search_mod, &ts);
	if (!ts.tpoint)
		return;
	tf->tpoint = ts.tpoint;
	tf->mod = mod;
	if (!trace_probe_is_enabled(&tf->tp))
		return;
	ret = tf_register(tf);
	if (ret) {
		pr_warn("Failed to register probe %s on tracepoint %s: %d\n",
			trace_probe_name(&tf->tp), tf->symbol, ret);
		tf->tpoint = NULL;
		tf->mod = NULL;
	}
}

static void tf_module_going(struct trace_fprobe *tf)
{
	tf_unregister(tf);
	tf->tpoint = NULL;
	tf->mod = NULL;
}

static int tf_tpoint_module_callback(struct notifier_block *nb,
				     unsigned long val, void *data)
{
	struct module *mod = ((struct tp_module *)data)->mod;
	struct trace_fprobe *tf;
	struct dyn_event *pos;

	if (val != MODULE_STATE_COMING && val != MODULE_STATE_GOING)
		return NOTIFY_DONE;

	mutex_lock(&event_mutex);
	for_each_dyn_event(pos) {
		tf = dyn_to_tf(pos);
		if (!tf || !tf->is_tpoint)
			continue;
		if (val == MODULE_STATE_COMING && !tf->tpoint)
			tf_module_coming(tf, mod);
		else if (val == MODULE_STATE_GOING && tf->tpoint && tf->mod == mod)
			tf_module_going(tf);
	}
	mutex_unlock(&event_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block tf_tpoint_module_nb = {
	.notifier_call = tf_tpoint_module_callback,
};

static int tf_register_module_notifier(void)
{
	return register_tracepoint_module_notifier(&tf_tpoint_module_nb);
}
#else
static int tf_register_module_notifier(void)
{
	return 0;
}
#endif

/* ---- Parsing a definition ----------------------------------------------- */

/**
 * struct tf_definition - an fprobe or tprobe definition, as its place is
 *	parsed
 * @def: the definition
 * @symbol: the function's or tracepoint's name
 * @ts: the tracepoint found, and its module, held until the probe is
 *	listed
 * @stub: the name of the tracepoint's stub function
 * @is_tpoint: a "t" probe, on a tracepoint
 * @is_return: a probe at the function's exit
 */
struct tf_definition {
	struct probe_definition	def;
	char			*symbol;
	struct tpoint_search	ts;
	char			stub[KSYM_NAME_LEN];
	bool			is_tpoint;
	bool			is_return;
};

#define to_tf_definition(d)	container_of(d, struct tf_definition, def)

/*
 * Word 1, "SYM[%return]" or "TRACEPOINT": the name goes to @fd->symbol.
 * A "$retval" among the arguments makes an "f" probe an exit probe, and
 * is refused on a tracepoint.
 */
static int tf_parse_word1(struct tf_definition *fd)
{
	const char **argv = fd->def.argv;
	const char *word = argv[1], *pct = strchr(word, '%'), *rv, *p;
	size_t len = pct ? pct - word : strlen(word);
	int i;

	if (pct && (fd->is_tpoint || strcmp(pct, "%return"))) {
		trace_probe_log_err(len, BAD_ADDR_SUFFIX);
		return -EINVAL;
	}
	fd->is_return = !!pct;
	fd->symbol = kmemdup_nul(word, len, GFP_KERNEL);
	if (!fd->symbol)
		return -ENOMEM;
	if (fd->is_return)
		return 0;

	if (fd->is_tpoint) {
		for (p = fd->symbol; isalnum(*p) || *p == '_'; p++)
			;
		if (*p) {
			trace_probe_log_err(p - fd->symbol, BAD_TP_NAME);
			return -EINVAL;
		}
	}
	for (i = 2; i < fd->def.argc; i++) {
		rv = strstr(argv[i], "$retval");
		if (!rv || isalnum(rv[7]) || rv[7] == '_')
			continue;
		if (fd->is_tpoint) {
			trace_probe_log_set_index(i);
			trace_probe_log_err(rv - argv[i], RETVAL_ON_PROBE);
			return -EINVAL;
		}
		fd->is_return = true;
		break;
	}
	return 0;
}

static int tf_claim(struct probe_definition *def)
{
	struct tf_definition *fd = to_tf_definition(def);
	const char *w0 = def->argv[0];

	if ((w0[0] != 'f' && w0[0] != 't') || def->argc < 2)
		return -ECANCELED;
	fd->is_tpoint = w0[0] == 't';
	def->group = fd->is_tpoint ? TPROBE_EVENT_SYSTEM : FPROBE_EVENT_SYSTEM;
	/* A MAXACTIVE is refused below; the name is after the ':'. */
	def->event = w0[1] ? w0 + 2 : NULL;
	return 0;
}

/*
 * "f[:[GRP/][EVENT]] SYM[%return] [ARGS]"
 * "t[:[GRP/][EVENT]] TRACEPOINT [ARGS]"
 */
static int tf_parse_place(struct probe_definition *def)
{
	struct tf_definition *fd = to_tf_definition(def);
	int ret;

	/*
	 * No MAXACTIVE: function graph follows every call to its return,
	 * with no per-probe pool of return instances to size.
	 */
	if (def->argv[0][1] && def->argv[0][1] != ':') {
		trace_probe_log_set_index(0);
		trace_probe_log_err(1, BAD_MAXACT);
		return -EINVAL;
	}
	ret = tf_parse_word1(fd);
	if (ret)
		return ret;
	def->ctx.flags = TPARG_FL_KERNEL | TPARG_FL_FPROBE |
			 (fd->is_return ? TPARG_FL_RETURN : TPARG_FL_FENTRY);
	def->ctx.funcname = fd->symbol;
	def->print = fd->is_return ? PROBE_PRINT_RETURN : PROBE_PRINT_NORMAL;
	return 0;
}

/*
 * "SYM__entry", "SYM__exit", or the tracepoint's own name, which must
 * not start with a digit to be an event's.
 */
static void tf_default_name(struct probe_definition *def)
{
	struct tf_definition *fd = to_tf_definition(def);
	const char *before = "", *after = "";

	if (!fd->is_tpoint)
		after = fd->is_return ? "__exit" : "__entry";
	else if (isdigit(fd->symbol[0]))
		before = "_";
	snprintf(def->name, sizeof(def->name), "%s%s%s", before, fd->symbol,
		 after);
	sanitize_event_name(def->name);
}

/* A tracepoint's, held; its arguments are those of its stub. */
static int tf_prepare(struct probe_definition *def)
{
	struct tf_definition *fd = to_tf_definition(def);

	if (!fd->is_tpoint)
		return 0;
	fd->ts.name = fd->symbol;
	fd->ts.hold = true;
	tpoint_search(&fd->ts);
	/* Unknown, it may still come with a module: it waits then. */
	if (!fd->ts.tpoint && !IS_ENABLED(CONFIG_MODULES)) {
		trace_probe_log_set_index(1);
		trace_probe_log_err(0, NO_TRACEPOINT);
		return -EINVAL;
	}
	/* The stub's BTF names the tracepoint's arguments. */
	def->ctx.flags |= TPARG_FL_TPOINT;
	snprintf(fd->stub, sizeof(fd->stub), "__probestub_%s", fd->symbol);
	def->ctx.funcname = fd->stub;
	return 0;
}

static struct trace_probe *tf_alloc(struct probe_definition *def)
{
	struct tf_definition *fd = to_tf_definition(def);
	struct trace_fprobe *tf;

	tf = alloc_trace_fprobe(def->group, def->event, fd->symbol,
				def->args.argc, fd->is_return, fd->is_tpoint);
	if (IS_ERR(tf))
		return ERR_CAST(tf);
	tf->tpoint = fd->ts.tpoint;
	tf->mod = fd->ts.mod;
	return &tf->tp;
}

/*
 * Function graph keeps at most MAX_FPROBE_DATA_SIZE bytes of a call's
 * entry data: more entry arguments could never register.
 */
static int tf_check_args(struct probe_definition *def)
{
	if (traceprobe_get_entry_data_size(def->tp) > MAX_FPROBE_DATA_SIZE) {
		trace_probe_log_set_index(2);
		trace_probe_log_err(0, TOO_MANY_EARGS);
		return -E2BIG;
	}
	return 0;
}

/* Registering failed: say why, under the place (word 1). */
static void tf_log_reg_error(int err)
{
	/* Out of memory says it itself; a refused join was logged already. */
	if (err == -ENOMEM || err == -EEXIST)
		return;
	trace_probe_log_set_index(1);
	if (err == -ENOENT)		/* no such function, or not traceable */
		trace_probe_log_err(0, BAD_PROBE_ADDR);
	else if (err == -EILSEQ)
		trace_probe_log_err(0, BAD_INSN_BNDRY);
	else
		trace_probe_log_err(0, FAIL_REG_PROBE);
}

static int tf_add_definition(struct probe_definition *def)
{
	int ret = tf_add(tp_to_tf(def->tp));

	if (!ret)
		return 0;
	tf_log_reg_error(ret);
	/* Logged as a bad symbol: the write fails as a bad one does. */
	return ret == -ENOENT ? -EINVAL : ret;
}

static void tf_free(struct trace_probe *tp)
{
	free_trace_fprobe(tp_to_tf(tp));
}

/*
 * Defined or not, the module need not be held: once the probe is listed,
 * our notifier clears its tracepoint if the module goes.
 */
static void tf_release(struct probe_definition *def)
{
	struct tf_definition *fd = to_tf_definition(def);

	if (fd->ts.mod)
		module_put(fd->ts.mod);
	kfree(fd->symbol);
}

static const struct probe_definer tf_definer = {
	.log_name	= "trace_fprobe",
	.expand_args	= true,
	.claim		= tf_claim,
	.parse_place	= tf_parse_place,
	.prepare	= tf_prepare,
	.default_name	= tf_default_name,
	.alloc		= tf_alloc,
	.check_args	= tf_check_args,
	.add		= tf_add_definition,
	.free		= tf_free,
	.release	= tf_release,
};

/* "f:GRP/EVENT SYM[%return] ARGS" or "t:GRP/EVENT TP ARGS". */
static int tf_dyn_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_fprobe *tf = to_trace_fprobe(ev);

	seq_putc(m, tf->is_tpoint ? 't' : 'f');
	seq_printf(m, ":%s/%s %s%s", trace_probe_group_name(&tf->tp),
		   trace_probe_name(&tf->tp), tf->symbol,
		   tf->is_return ? "%return" : "");
	trace_probe_show_args(m, &tf->tp);
	seq_putc(m, '\n');
	trace_probe_dump_args(m, &tf->tp);
	return 0;
}

static int tf_dyn_create(const char *raw_command)
{
	struct tf_definition fd = {};

	return trace_probe_define(raw_command, &tf_definer, &fd.def);
}

static int tf_dyn_free(struct dyn_event *ev)
{
	return tf_remove(to_trace_fprobe(ev));
}

static struct dyn_event_operations trace_fprobe_ops = {
	.create = tf_dyn_create,
	.show = tf_dyn_show,
	.is_busy = tf_dyn_busy,
	.free = tf_dyn_free,
	.match = tf_dyn_match,
};

/* ---- Start-up ---------------------------------------------------------- */

/* Register early, so that boot code can define events before tracefs. */
static __init int init_fprobe_trace_early(void)
{
	int ret = dyn_event_register(&trace_fprobe_ops);

	if (ret)
		return ret;
	return tf_register_module_notifier();
}
core_initcall(init_fprobe_trace_early);
