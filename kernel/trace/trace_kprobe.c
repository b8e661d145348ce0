// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe events: "p" and "r" definitions in kprobe_events or
 * dynamic_events become kprobes and kretprobes whose handlers record
 * events, count hits for kprobe_profile, and feed perf and BPF.
 *
 * Locking: definitions are created and removed under dyn_event_ops_mutex
 * and event_mutex; the handlers run in any context and see the enabled
 * instance files through an RCU list (trace_probe.c).
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/ctype.h>
#include <linux/error-injection.h>
#include <linux/module.h>
#include <linux/security.h>
#include <asm/setup.h>

#include "trace_dynevent.h"
#include "trace_probe.h"
#ifdef CONFIG_HAVE_KPROBES_FREGS_HANDLER
/* A hit on an ftrace site may give ftrace_regs: see trace_probe_fetch.h. */
#define PROBE_FETCH_EITHER_REGS
#endif
/* A probe's one string has a path of its own: see trace_probe_record.h. */
#define PROBE_RECORD_ONE_STRING
#include "trace_probe_record.h"
#include "trace_kprobe_selftest.h"

/* The default group, and how many returns a kretprobe may wait for. */
#define KPROBE_EVENT_SYSTEM	"kprobes"
#define KRETPROBE_MAXACTIVE_MAX	4096

/**
 * struct trace_kprobe - a kprobe event definition
 * @devent: its entry in the dynamic event list
 * @nhit: hits per CPU, for kprobe_profile
 * @symbol: "[MOD:]SYM" as given, NULL for a probe at an address
 * @is_return: a kretprobe event
 * @perf_only: an event of one perf event (create_local_trace_kprobe())
 * @tp: the event side; must be last, its arguments follow it
 *
 * The core's probe is in the same allocation, just before: a struct
 * tk_on_entry or a struct tk_on_return, as @is_return says.
 */
struct trace_kprobe {
	struct dyn_event	devent;
	unsigned long __percpu	*nhit;
	const char		*symbol;
	bool			is_return;
	bool			perf_only;
	struct trace_probe	tp;
};

/*
 * An entry probe has no use for the rest of a struct kretprobe: without
 * it, a definition without arguments takes one kmalloc size class less
 * (kmalloc-192 rather than -256 on arm64).
 */
struct tk_on_entry {
	struct kprobe		kp;
	struct trace_kprobe	tk;
};

/**
 * struct tk_on_return - a kretprobe event definition and its kretprobe
 * @rp: the kretprobe
 * @tk: the definition
 */
struct tk_on_return {
	struct kretprobe	rp;
	struct trace_kprobe	tk;
};

static nokprobe_inline struct tk_on_entry *tk_entry(struct trace_kprobe *tk)
{
	return container_of(tk, struct tk_on_entry, tk);
}

static nokprobe_inline struct tk_on_return *tk_ret(struct trace_kprobe *tk)
{
	return container_of(tk, struct tk_on_return, tk);
}

static nokprobe_inline bool tk_is_return(struct trace_kprobe *tk)
{
	return tk->is_return;
}

static struct kprobe *tk_kprobe(struct trace_kprobe *tk)
{
	return tk_is_return(tk) ? &tk_ret(tk)->rp.kp : &tk_entry(tk)->kp;
}

/* Defined at the end: how dynamic_events creates, shows and frees ours. */
static struct dyn_event_operations trace_kprobe_ops;

static struct trace_kprobe *to_trace_kprobe(struct dyn_event *ev)
{
	return container_of(ev, struct trace_kprobe, devent);
}

/* The kprobe event of a dynamic event, or NULL for another kind. */
static struct trace_kprobe *dyn_to_tk(struct dyn_event *ev)
{
	return ev->ops == &trace_kprobe_ops ? to_trace_kprobe(ev) : NULL;
}

static bool tk_is_registered(struct trace_kprobe *tk)
{
	struct kprobe *kp = tk_kprobe(tk);

	return !(list_empty(&kp->list) && hlist_unhashed(&kp->hlist));
}

/*
 * Where the probe is or will be: 0 while its symbol is not loaded.
 *
 * A probe by name is registered by address, its name looked up once for
 * all the checks: until then kp.addr is the symbol's address (NULL if not
 * looked up yet), and registering adds kp.offset to it.
 */
static unsigned long tk_address(struct trace_kprobe *tk)
{
	struct kprobe *kp = tk_kprobe(tk);
	unsigned long sym;

	if (!tk->symbol || tk_is_registered(tk))
		return (unsigned long)kp->addr;
	sym = (unsigned long)kp->addr ?: kallsyms_lookup_name(tk->symbol);
	return sym ? sym + kp->offset : 0;
}

#ifdef CONFIG_MODULES
/* "MOD:SYM" probes a module; true if @mod is that module. */
static bool tk_in_module(struct trace_kprobe *tk, struct module *mod)
{
	const char *name = module_name(mod);
	size_t len = strlen(name);

	return tk->symbol && !strncmp(tk->symbol, name, len) &&
	       tk->symbol[len] == ':';
}

/*
 * The live module named @name, held so that it cannot go while its
 * symbols are looked up; NULL if none is loaded (or it is going away).
 */
static struct module *tk_get_module(const char *name)
{
	struct module *mod;

	rcu_read_lock_sched();
	mod = find_module(name);
	if (mod && !try_module_get(mod))
		mod = NULL;
	rcu_read_unlock_sched();
	return mod;
}
#else
/* Without modules, no "MOD:SYM" probe ever finds its module. */
static struct module *tk_get_module(const char *name)
{
	return NULL;
}
#endif

/* False only for a "MOD:SYM" probe whose module is not loaded. */
static bool tk_module_loaded(struct trace_kprobe *tk)
{
	char name[MODULE_NAME_LEN];
	struct module *mod;
	const char *colon;

	if (!tk->symbol)
		return false;
	colon = strchr(tk->symbol, ':');
	if (!colon)
		return true;
	if (colon - tk->symbol >= MODULE_NAME_LEN)
		return false;
	strscpy(name, tk->symbol, colon - tk->symbol + 1);
	mod = tk_get_module(name);
	module_put(mod);
	return !!mod;
}

static unsigned long tk_nhit(struct trace_kprobe *tk)
{
	unsigned long sum = 0;
	int cpu;

	/* Each CPU counts its own hits: a reader adds them up, unlocked. */
	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(tk->nhit, cpu));
	return sum;
}

static unsigned long tk_missed(struct trace_kprobe *tk)
{
	return tk_kprobe(tk)->nmissed +
	       (tk_is_return(tk) ? tk_ret(tk)->rp.nmissed : 0);
}

static struct trace_kprobe *tk_primary(struct trace_event_call *call)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);

	return tp ? container_of(tp, struct trace_kprobe, tp) : NULL;
}

/**
 * trace_kprobe_on_func_entry - is the event's probe at a function entry
 * @call: a kprobe event
 *
 * Return: true if so (BPF's override_return needs it).
 */
bool trace_kprobe_on_func_entry(struct trace_event_call *call)
{
	struct trace_kprobe *tk = tk_primary(call);
	unsigned long addr;

	if (!tk)
		return false;
	addr = tk_address(tk);
	return addr && !kprobe_on_func_entry((void *)addr, NULL, 0);
}

/**
 * trace_kprobe_error_injectable - may BPF override the probed function
 * @call: a kprobe event
 *
 * Return: true if the probed address is on the error injection list.
 */
bool trace_kprobe_error_injectable(struct trace_event_call *call)
{
	struct trace_kprobe *tk = tk_primary(call);

	return tk && within_error_injection_list(tk_address(tk));
}

static bool tk_dyn_busy(struct dyn_event *ev)
{
	return trace_probe_is_enabled(&to_trace_kprobe(ev)->tp);
}

/* The probe point as kprobe_events shows it. */
static void tk_place(struct trace_kprobe *tk, char *buf, size_t size)
{
	struct kprobe *kp = tk_kprobe(tk);

	if (!tk->symbol)
		snprintf(buf, size, "0x%lx", (unsigned long)kp->addr);
	else if (kp->offset)
		snprintf(buf, size, "%s+%u", tk->symbol, kp->offset);
	else
		snprintf(buf, size, "%s", tk->symbol);
}

static bool tk_dyn_match(const char *system, const char *event,
			 int argc, const char **argv, struct dyn_event *ev)
{
	struct trace_kprobe *tk = to_trace_kprobe(ev);
	char place[KSYM_NAME_LEN + 16];

	if (event[0] && strcmp(trace_probe_name(&tk->tp), event))
		return false;
	if (system && strcmp(trace_probe_group_name(&tk->tp), system))
		return false;
	if (!argc)
		return true;
	tk_place(tk, place, sizeof(place));
	if (strcmp(place, argv[0]))
		return false;
	return trace_probe_match_command_args(&tk->tp, argc - 1, argv + 1);
}

/* ---- Recording a hit ----------------------------------------------------- */

/*
 * A record starts with the probed address, or for a return the function
 * and the address it returned to: one word, or two, after the common head
 * (struct kprobe_trace_entry_head, struct kretprobe_trace_entry_head).
 */
static nokprobe_inline size_t tk_head_size(bool is_return)
{
	return sizeof(struct trace_entry) + (is_return ? 2 : 1) * sizeof(long);
}

/*
 * A record starts with the probed address, or for a return the function
 * and the address it returned to (struct kprobe_trace_entry_head, struct
 * kretprobe_trace_entry_head).
 */
static nokprobe_inline unsigned int tk_head(struct trace_kprobe *tk,
					    struct kretprobe_instance *ri,
					    bool ret, unsigned long *head)
{
	if (!ret) {
		head[0] = (unsigned long)tk_entry(tk)->kp.addr;
		return 1;
	}
	head[0] = (unsigned long)tk_ret(tk)->rp.kp.addr;
	head[1] = get_kretprobe_retaddr(ri);
	return 2;
}

/*
 * A hit's registers are @regs, or on an ftrace site that gave only those
 * ftrace saved, @fregs (the other NULL).
 */
static nokprobe_inline void tk_hit_init(struct probe_hit *hit,
					struct trace_kprobe *tk,
					struct kretprobe_instance *ri,
					struct pt_regs *regs,
					struct ftrace_regs *fregs)
{
	probe_hit_init(hit, &tk->tp, regs, fregs, ri ? ri->data : NULL, regs);
	hit->nhead = tk_head(tk, ri, ri, hit->head);
}

/* Every hit neither probe_record_fast() nor probe_record_string() takes. */
static noinline void tk_record(struct trace_kprobe *tk,
			       struct kretprobe_instance *ri,
			       struct pt_regs *regs,
			       struct ftrace_regs *fregs)
{
	struct probe_hit hit __uninitialized;

	tk_hit_init(&hit, tk, ri, regs, fregs);
	probe_hit_record(&hit);
}
NOKPROBE_SYMBOL(tk_record);

/*
 * A hit of a probe whose one dynamic argument is a string, for the
 * instances: at @tk's return (@ret, a constant) with @ri, else at its
 * entry, with @regs or @fregs as tk_hit_init() takes them.
 */
static nokprobe_inline void tk_string_record(struct trace_kprobe *tk,
					     struct kretprobe_instance *ri,
					     bool ret, struct pt_regs *regs,
					     struct ftrace_regs *fregs)
{
	struct probe_fetch_env env = {
		.regs = regs, .fregs = fregs, .edata = ret ? ri->data : NULL,
	};
	unsigned long head[2];
	unsigned int nhead = tk_head(tk, ri, ret, head);

	if (!probe_record_string(&tk->tp, &env, head, nhead, regs))
		tk_record(tk, ri, regs, fregs);
}

static noinline int tk_entry_string(struct trace_kprobe *tk,
				    struct pt_regs *regs,
				    struct ftrace_regs *fregs)
{
	tk_string_record(tk, NULL, false, regs, fregs);
	return 0;
}
NOKPROBE_SYMBOL(tk_entry_string);

static noinline int tk_return_string(struct trace_kprobe *tk,
				     struct kretprobe_instance *ri,
				     struct pt_regs *regs)
{
	tk_string_record(tk, ri, true, regs, NULL);
	return 0;
}
NOKPROBE_SYMBOL(tk_return_string);

#ifdef CONFIG_PERF_EVENTS
/*
 * perf's record of a hit, out of line: a hit only BPF takes then carries
 * neither its struct probe_hit nor the registers its building needs.
 */
static noinline void tk_perf_record(struct trace_kprobe *tk,
				    struct kretprobe_instance *ri,
				    struct pt_regs *regs)
{
	struct probe_hit hit __uninitialized;

	tk_hit_init(&hit, tk, ri, regs, NULL);
	probe_hit_perf(&hit);
}
NOKPROBE_SYMBOL(tk_perf_record);

/*
 * Give the hit to BPF, then to perf: at @tk's return (@ret, a constant)
 * with @ri, else at its entry.  Return 1 if a BPF program moved the PC of
 * an entry probe (bpf_override_return()): the probed instruction must
 * then not run.  A program that overrides returns 0 as often as not
 * (bpftrace's do), so the PC is looked at before what it returned.  Out
 * of line, as the recording paths are, so that the dispatchers build no
 * frame for either (tk_hit()), and one way for each end: a return keeps
 * no PC across the programs' run.
 */
static nokprobe_inline int tk_perf(struct trace_kprobe *tk,
				   struct kretprobe_instance *ri, bool ret,
				   struct pt_regs *regs)
{
	struct trace_event_call *call = trace_probe_event_call(&tk->tp);
	unsigned long pc = ret ? 0 : instruction_pointer(regs);

	if (bpf_prog_array_valid(call)) {
		unsigned int more = trace_call_bpf(call, regs);

		if (!ret && instruction_pointer(regs) != pc)
			return 1;
		if (!more)
			return 0;
	}
	tk_perf_record(tk, ri, regs);
	return 0;
}

static noinline int tk_entry_perf(struct trace_kprobe *tk,
				  struct pt_regs *regs)
{
	return tk_perf(tk, NULL, false, regs);
}

static noinline int tk_return_perf(struct trace_kprobe *tk,
				   struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
	return tk_perf(tk, ri, true, regs);
}

/*
 * A hit both instances and perf take: the arguments are fetched once for
 * both, unless a BPF program runs between them, which may change the
 * registers they are read from.  Return as tk_perf().
 */
static noinline int tk_record_perf(struct trace_kprobe *tk,
				   struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
	struct probe_hit hit __uninitialized;

	if (bpf_prog_array_valid(trace_probe_event_call(&tk->tp))) {
		if (!(tk->tp.arg_kinds & PROBE_ARGS_ONE_STRING))
			tk_record(tk, ri, regs, NULL);
		else if (ri)
			tk_return_string(tk, ri, regs);
		else
			tk_entry_string(tk, regs, NULL);
		return ri ? tk_return_perf(tk, ri, regs) :
			    tk_entry_perf(tk, regs);
	}
	tk_hit_init(&hit, tk, ri, regs, NULL);
	probe_hit_record_perf(&hit);
	return 0;
}
NOKPROBE_SYMBOL(tk_record_perf);
#else
static int tk_entry_perf(struct trace_kprobe *tk, struct pt_regs *regs)
{
	return 0;
}

static int tk_return_perf(struct trace_kprobe *tk,
			  struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

static int tk_record_perf(struct trace_kprobe *tk,
			  struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}
#endif

/*
 * A hit an instance records (@flags has TP_FLAG_TRACE): at @tk's return
 * (@ret) with @ri, else at its entry.  @ret is a constant where this is
 * inlined: the compiler cannot tell that @ri is not NULL there.
 */
static nokprobe_inline int tk_hit_record(struct trace_kprobe *tk,
					 struct kretprobe_instance *ri, bool ret,
					 struct pt_regs *regs, unsigned int flags)
{
	unsigned long head[2];
	unsigned int nhead;

	/* Instances and perf: one fetch for both. */
	if (unlikely(flags & TP_FLAG_PROFILE))
		return tk_record_perf(tk, ri, regs);
	nhead = tk_head(tk, ri, ret, head);
	if (!probe_record_fast(&tk->tp, regs, NULL, ret ? ri->data : NULL,
			       head, nhead, regs))
		tk_record(tk, ri, regs, NULL);
	return 0;
}

static noinline int tk_entry_record(struct trace_kprobe *tk,
				    struct pt_regs *regs, unsigned int flags)
{
	return tk_hit_record(tk, NULL, false, regs, flags);
}
NOKPROBE_SYMBOL(tk_entry_record);

static noinline int tk_return_record(struct trace_kprobe *tk,
				     struct kretprobe_instance *ri,
				     struct pt_regs *regs, unsigned int flags)
{
	return tk_hit_record(tk, ri, true, regs, flags);
}
NOKPROBE_SYMBOL(tk_return_record);

/*
 * A hit of @tk: at its return (@ret) with @ri, else at its entry.  Each
 * way on is the dispatcher's last call, a jump where the kernel is built
 * without frame pointers: a hit that only BPF or perf takes does not pay
 * for the stack frame the record's fast path needs, nor does a probe's
 * one string, which that path never takes, unless perf takes it too.
 */
static nokprobe_inline int tk_hit(struct trace_kprobe *tk,
				  struct kretprobe_instance *ri, bool ret,
				  struct pt_regs *regs)
{
	unsigned int flags = trace_probe_load_flags(&tk->tp);

	raw_cpu_inc(*tk->nhit);
	if (flags & TP_FLAG_TRACE) {
		if (unlikely(tk->tp.arg_kinds & PROBE_ARGS_ONE_STRING) &&
		    !(flags & TP_FLAG_PROFILE))
			return ret ? tk_return_string(tk, ri, regs) :
				     tk_entry_string(tk, regs, NULL);
		return ret ? tk_return_record(tk, ri, regs, flags) :
			     tk_entry_record(tk, regs, flags);
	}
	if (!(flags & TP_FLAG_PROFILE))
		return 0;
	return ret ? tk_return_perf(tk, ri, regs) : tk_entry_perf(tk, regs);
}

static int kprobe_dispatcher(struct kprobe *kp, struct pt_regs *regs)
{
	return tk_hit(&container_of(kp, struct tk_on_entry, kp)->tk, NULL,
		      false, regs);
}

static int kretprobe_dispatcher(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);

	/*
	 * NULL: the probe is going away, and this instance outlived it.  What
	 * tk_hit() returns is 0 at a return: only an entry's BPF program can
	 * move the PC.
	 */
	if (!rp)
		return 0;
	return tk_hit(&container_of(rp, struct tk_on_return, rp)->tk, ri, true,
		      regs);
}

#ifdef CONFIG_HAVE_KPROBES_FREGS_HANDLER
/*
 * An entry probe's hit on its ftrace site, with the registers ftrace saved,
 * for a probe whose arguments read no register ftrace did not save: the
 * architecture then builds no pt_regs.  perf and BPF sample or are given
 * a pt_regs, so while either listens the hit goes to kprobe_dispatcher()
 * instead.
 */
static int kprobe_fregs_dispatcher(struct kprobe *kp, struct ftrace_regs *fregs)
{
	struct trace_kprobe *tk = &container_of(kp, struct tk_on_entry, kp)->tk;
	unsigned int flags = trace_probe_load_flags(&tk->tp);
	unsigned long head[1];

	if (unlikely(flags & TP_FLAG_PROFILE))
		return 1;
	raw_cpu_inc(*tk->nhit);
	if (flags & TP_FLAG_TRACE) {
		if (tk->tp.arg_kinds & PROBE_ARGS_ONE_STRING)
			return tk_entry_string(tk, NULL, fregs);
		head[0] = (unsigned long)kp->addr;
		if (!probe_record_fast(&tk->tp, NULL, fregs, NULL, head, 1, NULL))
			tk_record(tk, NULL, NULL, fregs);
	}
	return 0;
}
NOKPROBE_SYMBOL(kprobe_fregs_dispatcher);

/*
 * An entry probe whose arguments ftrace_regs hold takes them as they are;
 * not one that only perf ever listens to, which would always go on to
 * kprobe_dispatcher().
 */
static void tk_set_fregs_handler(struct trace_kprobe *tk)
{
	if (!tk_is_return(tk) && !tk->perf_only)
		tk_entry(tk)->kp.fregs_handler =
			tk->tp.arg_kinds & PROBE_ARGS_REGS ?
			NULL : kprobe_fregs_dispatcher;
}
#else
static void tk_set_fregs_handler(struct trace_kprobe *tk)
{
}
#endif

/* Save the entry arguments a return probe's arguments read. */
static int kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct probe_fetch_env env = { .regs = regs };

	if (rp)
		probe_entry_data_store(ri->data,
				       &container_of(rp, struct tk_on_return, rp)->tk.tp,
				       &env);
	return 0;
}

NOKPROBE_SYMBOL(tk_entry_perf);
NOKPROBE_SYMBOL(tk_return_perf);
NOKPROBE_SYMBOL(kprobe_dispatcher);
NOKPROBE_SYMBOL(kretprobe_dispatcher);
NOKPROBE_SYMBOL(kretprobe_entry);

/* ---- The event --------------------------------------------------------- */

/* "NAME: (SYM+off/size) ARGS", or "NAME: (CALLER+off/size <- SYM) ARGS". */
static enum print_line_t print_tk_event(struct trace_iterator *iter, int flags,
					struct trace_event *event)
{
	struct trace_kprobe *tk = tk_primary(container_of(event,
					struct trace_event_call, event));
	unsigned long *word = (void *)iter->ent + sizeof(struct trace_entry);
	struct trace_seq *s = &iter->seq;
	bool ret;

	if (WARN_ON_ONCE(!tk))
		return trace_handle_return(s);
	ret = tk_is_return(tk);
	trace_seq_printf(s, "%s: (", trace_probe_name(&tk->tp));
	seq_print_ip_sym_offset(s, word[ret], flags);
	if (ret) {
		trace_seq_puts(s, " <- ");
		seq_print_ip_sym_no_offset(s, word[0], flags);
	}
	trace_seq_putc(s, ')');
	if (!trace_probe_print_args(s, tk->tp.args, tk->tp.nr_args,
				    (u8 *)iter->ent + tk_head_size(ret), iter->ent))
		trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static int tk_define_fields(struct trace_event_call *call)
{
	static const char *const head[2][2] = {
		{ FIELD_STRING_IP },
		{ FIELD_STRING_FUNC, FIELD_STRING_RETIP },
	};
	struct trace_kprobe *tk = tk_primary(call);
	int i, ret;
	bool rp;

	if (WARN_ON_ONCE(!tk))
		return -ENOENT;
	rp = tk_is_return(tk);
	for (i = 0; i <= rp; i++) {
		ret = trace_define_field(call, "unsigned long", head[rp][i],
					 sizeof(struct trace_entry) + i * sizeof(long),
					 sizeof(long), 0, FILTER_OTHER);
		if (ret)
			return ret;
	}
	return traceprobe_define_arg_fields(call, tk_head_size(rp), &tk->tp);
}

static struct trace_event_functions tk_event_funcs = {
	.trace = print_tk_event,
};

static struct trace_event_fields tk_fields[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = tk_define_fields },
	{}
};

static void tk_disarm_all(struct trace_probe *tp)
{
	struct trace_probe *pos;

	trace_probe_for_each_sibling(pos, tp) {
		struct trace_kprobe *tk = container_of(pos, struct trace_kprobe, tp);

		if (tk_is_registered(tk))
			disable_kprobe(tk_kprobe(tk));
	}
}

/* Arm them all, or none: the event is either live or not at all. */
static int tk_arm_all(struct trace_probe *tp)
{
	struct trace_probe *pos;
	int ret = 0;

	trace_probe_for_each_sibling(pos, tp) {
		struct trace_kprobe *tk = container_of(pos, struct trace_kprobe, tp);

		if (!tk_is_registered(tk) || kprobe_gone(tk_kprobe(tk)))
			continue;
		ret = enable_kprobe(tk_kprobe(tk));
		if (ret) {
			tk_disarm_all(tp);
			break;
		}
	}
	return ret;
}

static const struct probe_arming tk_arming = {
	.arm_all	= tk_arm_all,
	.disarm_all	= tk_disarm_all,
};

/* What the kprobe events share. */
static const struct probe_kind tk_kind = {
	.fields_array	= tk_fields,
	.arming		= &tk_arming,
	.funcs		= &tk_event_funcs,
	.flags		= TRACE_EVENT_FL_KPROBE,
};

/* ---- Definitions ----------------------------------------------------- */

static void free_trace_kprobe(struct trace_kprobe *tk)
{
	if (!tk)
		return;
	trace_probe_cleanup(&tk->tp);
	kfree(tk->symbol);
	free_percpu(tk->nhit);
	if (tk_is_return(tk))
		kfree(tk_ret(tk));
	else
		kfree(tk_entry(tk));
}

static struct trace_kprobe *alloc_trace_kprobe(const char *group,
					       const char *event,
					       void *addr, const char *symbol,
					       unsigned long offs, int maxactive,
					       int nargs, bool is_return)
{
	struct tk_on_return *ret = NULL;
	struct tk_on_entry *entry = NULL;
	struct trace_kprobe *tk;
	struct kprobe *kp;

	if (is_return)
		ret = (void *)trace_probe_alloc(sizeof(*ret), nargs);
	else
		entry = (void *)trace_probe_alloc(sizeof(*entry), nargs);
	if (!ret && !entry)
		return ERR_PTR(-ENOMEM);
	tk = ret ? &ret->tk : &entry->tk;
	tk->is_return = is_return;
	kp = tk_kprobe(tk);
	INIT_HLIST_NODE(&kp->hlist);
	INIT_LIST_HEAD(&kp->list);
	tk->tp.nr_args = nargs;
	tk->symbol = symbol ? kstrdup(symbol, GFP_KERNEL) : NULL;
	/*
	 * The hit counters come with the definition, not its first enabling:
	 * a per-CPU allocation costs a few thousand instructions, which a
	 * user enabling a thousand probes in one write would wait for.
	 */
	tk->nhit = alloc_percpu(unsigned long);
	if ((symbol && !tk->symbol) || !tk->nhit ||
	    trace_probe_init(&tk->tp, event, group, &tk_kind)) {
		free_trace_kprobe(tk);
		return ERR_PTR(-ENOMEM);
	}

	/* @addr is the symbol's, if known, for a probe by name. */
	kp->offset = symbol ? offs : 0;
	kp->addr = addr;
	if (ret) {
		ret->rp.maxactive = maxactive;
		ret->rp.handler = kretprobe_dispatcher;
	} else {
		kp->pre_handler = kprobe_dispatcher;
	}
	dyn_event_init(&tk->devent, &trace_kprobe_ops);
	return tk;
}

static struct trace_kprobe *find_trace_kprobe(const char *event,
					      const char *group)
{
	struct trace_probe *tp = trace_probe_find_event(group, event);

	if (!tp || !(trace_probe_event_call(tp)->flags & TRACE_EVENT_FL_KPROBE))
		return NULL;
	return container_of(tp, struct trace_kprobe, tp);
}

#if defined(CONFIG_DYNAMIC_FTRACE) && !defined(CONFIG_KPROBE_EVENTS_ON_NOTRACE)
/*
 * A function ftrace may not trace ("notrace") may not be probed either.
 * Such a function has no ftrace site anywhere in it.
 */
static bool addr_in_notrace_func(unsigned long addr)
{
	unsigned long size, offs;

	if (addr && kallsyms_lookup_size_offset(addr, &size, &offs))
		return !ftrace_location_range(addr - offs, addr - offs + size - 1);
	return false;
}

static bool tk_in_notrace_func(struct trace_kprobe *tk)
{
	unsigned long addr = tk_address(tk);
	char name[KSYM_NAME_LEN], *dot;

	if (!addr_in_notrace_func(addr))
		return false;
	/* "func.isra.0" and friends: judge by the function they came from. */
	if (lookup_symbol_name(addr, name))
		return true;
	dot = strchr(name, '.');
	if (!dot)
		return true;
	*dot = '\0';
	addr = (unsigned long)kprobe_lookup_name(name, 0);
	return addr ? addr_in_notrace_func(addr) : true;
}
#else
static bool tk_in_notrace_func(struct trace_kprobe *tk)
{
	return false;
}
#endif

/* Put the kprobe into the kernel, armed if the event is enabled. */
static int tk_register(struct trace_kprobe *tk)
{
	struct kprobe *kp = tk_kprobe(tk);
	int ret = security_locked_down(LOCKDOWN_KPROBES);

	if (!ret && tk_is_registered(tk))
		ret = -EINVAL;
	if (!ret && tk->symbol && !kp->addr) {
		kp->addr = (void *)kallsyms_lookup_name(tk->symbol);
		if (!kp->addr)
			ret = -ENOENT;
	}
	if (!ret && tk_in_notrace_func(tk)) {
		pr_warn("Could not probe notrace function %ps\n",
			(void *)tk_address(tk));
		ret = -EINVAL;
	}
	if (!ret)
		ret = trace_probe_update_args(&tk->tp);
	if (ret)
		return ret;
	tk_set_fregs_handler(tk);

	/*
	 * Armed at once only when its event is on (a module came back, or
	 * a probe joins an enabled event).
	 */
	kp->flags &= ~KPROBE_FLAG_DISABLED;
	if (!trace_probe_is_enabled(&tk->tp))
		kp->flags |= KPROBE_FLAG_DISABLED;
	ret = tk_is_return(tk) ? register_kretprobe(&tk_ret(tk)->rp) :
				 register_kprobe(kp);
	if (ret && tk->symbol)
		kp->addr = NULL;	/* the core may have moved it */
	return ret;
}

/* Its kprobe is unregistered: make it ready to be registered again. */
static void tk_unregistered(struct trace_kprobe *tk)
{
	struct kprobe *kp = tk_kprobe(tk);

	INIT_HLIST_NODE(&kp->hlist);
	INIT_LIST_HEAD(&kp->list);
	/* A module's symbol may be elsewhere next time. */
	if (tk->symbol)
		kp->addr = NULL;
}

static void tk_unregister(struct trace_kprobe *tk)
{
	if (!tk_is_registered(tk))
		return;
	if (tk_is_return(tk))
		unregister_kretprobe(&tk_ret(tk)->rp);
	else
		unregister_kprobe(tk_kprobe(tk));
	tk_unregistered(tk);
}

/* Register; a probe on a module not loaded yet waits for it. */
static int tk_register_or_wait(struct trace_kprobe *tk)
{
	int ret = tk_register(tk);

	if (ret == -ENOENT && !tk_module_loaded(tk)) {
		pr_warn("This probe might be able to register after target module is loaded. Continue.\n");
		ret = 0;
	}
	return ret;
}

static int unregister_trace_kprobe(struct trace_kprobe *tk)
{
	if (!trace_probe_has_sibling(&tk->tp)) {
		if (trace_probe_is_enabled(&tk->tp))
			return -EBUSY;
		if (trace_event_dyn_busy(trace_probe_event_call(&tk->tp)))
			return -EBUSY;
		if (trace_probe_unregister_event_call(&tk->tp))
			return -EBUSY;
	}
	tk_unregister(tk);
	dyn_event_remove(&tk->devent);
	trace_probe_unlink(&tk->tp);
	return 0;
}

/*
 * The kprobes of many events, unregistered together. unregister_kprobe()
 * waits for an RCU grace period before it returns, so that N events'
 * kprobes unregistered one at a time wait N grace periods; in one
 * unregister_kprobes() (and one unregister_kretprobes()) call they wait
 * once, after which no handler can be running, or run, on any of them.
 */
struct tk_batch {
	struct kprobe		**kps;
	struct kretprobe	**rps;
	int			nk;
	int			nr;
};

/* Room for the kprobes of @n events; false when it cannot be had. */
static bool tk_batch_init(struct tk_batch *batch, int n)
{
	batch->nk = 0;
	batch->nr = 0;
	batch->kps = kvmalloc_array(n, sizeof(*batch->kps), GFP_KERNEL);
	batch->rps = kvmalloc_array(n, sizeof(*batch->rps), GFP_KERNEL);
	if (batch->kps && batch->rps)
		return true;
	kvfree(batch->kps);
	kvfree(batch->rps);
	return false;
}

static void tk_batch_add(struct tk_batch *batch, struct trace_kprobe *tk)
{
	if (!tk_is_registered(tk))
		return;
	if (tk_is_return(tk))
		batch->rps[batch->nr++] = &tk_ret(tk)->rp;
	else
		batch->kps[batch->nk++] = tk_kprobe(tk);
}

/* Unregister them all; each event's tk_unregistered() is the caller's. */
static void tk_batch_unregister(struct tk_batch *batch)
{
	if (batch->nk)
		unregister_kprobes(batch->kps, batch->nk);
	if (batch->nr)
		unregister_kretprobes(batch->rps, batch->nr);
	kvfree(batch->kps);
	kvfree(batch->rps);
}

/*
 * Remove every kprobe event, for an O_TRUNC open of kprobe_events: their
 * kprobes go first, together (struct tk_batch), then the events one by
 * one. Falls back to one at a time when the batch cannot be had.
 */
static int tk_release_all(void)
{
	struct dyn_event *ev, *tmp;
	struct trace_kprobe *tk;
	struct tk_batch batch;
	int n = 0, ret = 0, err;

	mutex_lock(&event_mutex);
	/* Nothing goes unless everything can. */
	for_each_dyn_event(ev) {
		if (ev->ops != &trace_kprobe_ops)
			continue;
		tk = to_trace_kprobe(ev);
		if (tk_dyn_busy(ev) ||
		    trace_event_dyn_busy(trace_probe_event_call(&tk->tp))) {
			ret = -EBUSY;
			goto out;
		}
		n++;
	}
	if (!n)
		goto out;
	if (!tk_batch_init(&batch, n)) {
		mutex_unlock(&event_mutex);
		return dyn_events_release_all(&trace_kprobe_ops);
	}
	for_each_dyn_event(ev)
		if (ev->ops == &trace_kprobe_ops)
			tk_batch_add(&batch, to_trace_kprobe(ev));
	tk_batch_unregister(&batch);

	for_each_dyn_event_safe(ev, tmp) {
		if (ev->ops != &trace_kprobe_ops)
			continue;
		tk = to_trace_kprobe(ev);
		tk_unregistered(tk);
		err = unregister_trace_kprobe(tk);
		if (!err) {
			free_trace_kprobe(tk);
			continue;
		}
		/* Its event stays: so does its probe. */
		tk_register_or_wait(tk);
		ret = err;
	}
out:
	tracing_reset_all_online_cpus();
	mutex_unlock(&event_mutex);
	return ret;
}

/* Do two probes of an event probe the same place? */
static bool tk_same_place(struct trace_probe *a, struct trace_probe *b)
{
	struct trace_kprobe *x = container_of(a, struct trace_kprobe, tp);
	struct trace_kprobe *y = container_of(b, struct trace_kprobe, tp);

	if (x->symbol && y->symbol)
		return !strcmp(x->symbol, y->symbol) &&
		       tk_kprobe(x)->offset == tk_kprobe(y)->offset;
	return !x->symbol && !y->symbol &&
	       tk_kprobe(x)->addr == tk_kprobe(y)->addr;
}

static int register_trace_kprobe(struct trace_kprobe *tk)
{
	struct trace_kprobe *old;
	int ret;

	mutex_lock(&event_mutex);
	old = find_trace_kprobe(trace_probe_name(&tk->tp),
				trace_probe_group_name(&tk->tp));
	ret = trace_probe_join_event(&tk->tp, old ? &old->tp : NULL,
				     old && tk_is_return(old) != tk_is_return(tk),
				     tk_same_place);
	if (!ret) {
		ret = tk_register_or_wait(tk);
		if (ret)
			trace_probe_leave_event(&tk->tp);
		else
			dyn_event_add(&tk->devent, trace_probe_event_call(&tk->tp));
	}
	mutex_unlock(&event_mutex);
	return ret;
}

/* ---- Symbols and modules --------------------------------------------- */

struct sym_count {
	const char	*name;
	unsigned int	n;
	unsigned long	addr;
};

static int count_one(void *data, unsigned long addr)
{
	struct sym_count *c = data;

	c->n++;
	c->addr = addr;
	return 0;
}

static int count_mod_one(void *data, const char *name, unsigned long addr)
{
	struct sym_count *c = data;

	if (!strcmp(name, c->name))
		count_one(c, addr);
	return 0;
}

/*
 * A probe by name must name exactly one function: -ENOENT if none,
 * -EADDRNOTAVAIL if several (the user must give an address then).
 * Its address goes to @addr.  A name without a module that vmlinux has
 * is vmlinux's: a module loaded later with a function of the same name
 * does not make the kernel's own ambiguous.
 */
static int check_symbol_count(const char *mod, const char *name,
			      unsigned long *addr)
{
	struct sym_count c = { .name = name };

	if (!mod)
		kallsyms_on_each_match_symbol(count_one, name, &c);
	if (mod || !c.n)
		module_kallsyms_on_each_symbol(mod, count_mod_one, &c);
	*addr = c.n == 1 ? c.addr : 0;
	if (c.n > 1)
		return -EADDRNOTAVAIL;
	return c.n ? 0 : -ENOENT;
}

/*
 * Check "[MOD:]SYM" and find its address (@addr); a symbol of a module not
 * loaded is checked later, and its address is 0 until then.
 */
static int validate_probe_symbol(const char *symbol, unsigned long *addr)
{
	char mod[MODULE_NAME_LEN];
	const char *colon = strchr(symbol, ':');
	struct module *m;
	int ret;

	*addr = 0;
	if (!colon)
		return check_symbol_count(NULL, symbol, addr);
	/*
	 * No module has a name this long: like any module not loaded, the
	 * probe waits for it (tracefs), or registering fails with -ENOENT
	 * (the perf PMU), as for any other symbol that cannot be found.
	 */
	if (colon - symbol >= MODULE_NAME_LEN)
		return 0;
	strscpy(mod, symbol, colon - symbol + 1);
	m = tk_get_module(mod);
	if (!m)
		return 0;
	ret = check_symbol_count(mod, colon + 1, addr);
	module_put(m);
	return ret;
}

#ifdef CONFIG_MODULES
/* A module coming in: (re)register the probes waiting for it. */
static int trace_kprobe_module_callback(struct notifier_block *nb,
					unsigned long val, void *data)
{
	struct module *mod = data;
	const char *colon;
	unsigned long addr;
	struct dyn_event *pos;
	struct trace_kprobe *tk;
	int ret;

	if (val != MODULE_STATE_COMING)
		return NOTIFY_DONE;

	mutex_lock(&event_mutex);
	for_each_dyn_event(pos) {
		tk = dyn_to_tk(pos);
		if (!tk || !tk_in_module(tk, mod))
			continue;
		tk_unregister(tk);
		colon = strchr(tk->symbol, ':');
		ret = check_symbol_count(module_name(mod), colon + 1, &addr);
		tk_kprobe(tk)->addr = (void *)addr;
		if (!ret)
			ret = tk_register(tk);
		if (ret)
			pr_warn("Failed to re-register probe %s on %s: %d\n",
				trace_probe_name(&tk->tp), module_name(mod), ret);
	}
	mutex_unlock(&event_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block trace_kprobe_module_nb = {
	.notifier_call = trace_kprobe_module_callback,
	.priority = 2,	/* after the kprobes core has seen the module */
};

static int trace_kprobe_register_module_notifier(void)
{
	return register_module_notifier(&trace_kprobe_module_nb);
}
#else
static int trace_kprobe_register_module_notifier(void)
{
	return 0;
}
#endif

/* ---- Parsing a definition ----------------------------------------------- */

/* "r[MAXACTIVE]": the number, from word 0 at offset 1. */
static int parse_maxactive(const char *w0, const char *event, int *maxactive)
{
	char num[MAX_EVENT_NAME_LEN];
	size_t len = event ? (size_t)(event - w0 - 2) : strlen(w0 + 1);
	unsigned int n;

	if (len >= sizeof(num)) {
		trace_probe_log_err(1, BAD_MAXACT);
		return -EINVAL;
	}
	memcpy(num, w0 + 1, len);
	num[len] = '\0';
	if (kstrtouint(num, 0, &n) || !n) {
		trace_probe_log_err(1, BAD_MAXACT);
		return -EINVAL;
	}
	if (n > KRETPROBE_MAXACTIVE_MAX) {
		trace_probe_log_err(1, MAXACT_TOO_BIG);
		return -EINVAL;
	}
	*maxactive = n;
	return 0;
}

/*
 * "SYM[+OFFS][%return]" of word 1, @symbol cut to "SYM": check it names one
 * function, and say in @ctx where arguments are read.  A retprobe must be
 * at an entry; one on a module not loaded yet is checked when it loads.
 */
static int tk_parse_symbol(char *symbol, long *offset, bool *is_return,
			   unsigned long *addr,
			   struct traceprobe_parse_context *ctx)
{
	char *pct = strchr(symbol, '%');
	int where;

	if (pct && strcmp(pct, "%return")) {
		trace_probe_log_err(pct - symbol, BAD_ADDR_SUFFIX);
		return -EINVAL;
	}
	if (pct) {
		*pct = '\0';
		*is_return = true;
	}
	where = traceprobe_split_symbol_offset(symbol, offset);
	if (where || *offset < 0 || *offset > UINT_MAX) {
		trace_probe_log_err(0, BAD_PROBE_ADDR);
		return -EINVAL;
	}
	where = validate_probe_symbol(symbol, addr);
	if (where) {
		__trace_probe_log_err(0, where == -EADDRNOTAVAIL ?
				      TP_ERR_NON_UNIQ_SYMBOL : TP_ERR_BAD_PROBE_ADDR);
		return -EINVAL;
	}
	where = *addr ? kprobe_on_func_entry((void *)*addr, NULL, *offset) :
			kprobe_on_func_entry(NULL, symbol, *offset);
	if (*is_return && where == -EINVAL) {
		trace_probe_log_err(0, BAD_RETPROBE);
		return -EINVAL;
	}
	if (*is_return)
		ctx->flags |= TPARG_FL_RETURN;
	else if (!where)
		ctx->flags |= TPARG_FL_FENTRY;
	return 0;
}

/**
 * struct tk_definition - a kprobe definition, as its place is parsed
 * @def: the definition
 * @symbol: the symbol of word 1, cut before "+OFFS", or NULL for an address
 * @addr: the probe's address, or the symbol's if known
 * @offset: the offset from @symbol
 * @maxactive: r[MAXACTIVE]'s, 0 if not given
 * @is_return: a kretprobe
 */
struct tk_definition {
	struct probe_definition	def;
	char			*symbol;
	unsigned long		addr;
	long			offset;
	int			maxactive;
	bool			is_return;
};

#define to_tk_definition(d)	container_of(d, struct tk_definition, def)

static int tk_claim(struct probe_definition *def)
{
	struct tk_definition *td = to_tk_definition(def);
	const char *w0 = def->argv[0];

	if ((w0[0] != 'p' && w0[0] != 'r') || def->argc < 2)
		return -ECANCELED;
	td->is_return = w0[0] == 'r';
	def->group = KPROBE_EVENT_SYSTEM;
	def->event = strchr(w0 + 1, ':');
	if (def->event)
		def->event++;
	return 0;
}

/*
 * "p[:[GRP/][EVENT]] [MOD:]SYM[+OFFS][%return]|ADDR [ARGS]"
 * "r[MAXACTIVE][:[GRP/][EVENT]] [MOD:]SYM[+0]|ADDR [ARGS]"
 */
static int tk_parse_place(struct probe_definition *def)
{
	struct tk_definition *td = to_tk_definition(def);
	const char *w0 = def->argv[0], *w1 = def->argv[1];
	int ret;

	if (isdigit(w0[1])) {
		trace_probe_log_set_index(0);
		if (!td->is_return) {
			trace_probe_log_err(1, BAD_MAXACT_TYPE);
			return -EINVAL;
		}
		if (parse_maxactive(w0, def->event, &td->maxactive))
			return -EINVAL;
		trace_probe_log_set_index(1);
	}

	def->ctx.flags = TPARG_FL_KERNEL;
	if (kstrtoul(w1, 0, &td->addr)) {
		td->addr = 0;
		/* "PATH:OFFS" is a uprobe: not ours. */
		if (strchr(w1, '/') && strchr(w1, ':'))
			return -ECANCELED;
		td->symbol = kstrdup(w1, GFP_KERNEL);
		if (!td->symbol)
			return -ENOMEM;
		ret = tk_parse_symbol(td->symbol, &td->offset, &td->is_return,
				      &td->addr, &def->ctx);
		if (ret)
			return ret;
	} else if (td->is_return) {
		/* At an address: a function's entry, or registering fails. */
		def->ctx.flags |= TPARG_FL_RETURN;
	}
	def->ctx.funcname = td->symbol;
	def->print = td->is_return ? PROBE_PRINT_RETURN : PROBE_PRINT_NORMAL;
	return 0;
}

static void tk_default_name(struct probe_definition *def)
{
	struct tk_definition *td = to_tk_definition(def);
	char kind = td->is_return ? 'r' : 'p';

	if (td->symbol)
		snprintf(def->name, sizeof(def->name), "%c_%s_%ld", kind,
			 td->symbol, td->offset);
	else
		snprintf(def->name, sizeof(def->name), "%c_0x%lx", kind,
			 td->addr);
	sanitize_event_name(def->name);
}

static struct trace_probe *tk_alloc(struct probe_definition *def)
{
	struct tk_definition *td = to_tk_definition(def);
	struct trace_kprobe *tk;

	tk = alloc_trace_kprobe(def->group, def->event, (void *)td->addr,
				td->symbol, td->offset, td->maxactive,
				def->args.argc, td->is_return);
	return IS_ERR(tk) ? ERR_CAST(tk) : &tk->tp;
}

/* A kretprobe with entry arguments saves them in its instance. */
static int tk_check_args(struct probe_definition *def)
{
	struct trace_kprobe *tk = container_of(def->tp, struct trace_kprobe, tp);

	if (tk_is_return(tk) && tk->tp.entry_arg) {
		tk_ret(tk)->rp.entry_handler = kretprobe_entry;
		tk_ret(tk)->rp.data_size =
			traceprobe_get_entry_data_size(&tk->tp);
	}
	return 0;
}

static void tk_log_reg_error(int err)
{
	static const struct {
		int errno, code;
	} why[] = {
		{ -EILSEQ, TP_ERR_BAD_INSN_BNDRY },	/* mid-instruction */
		{ -ENOENT, TP_ERR_BAD_PROBE_ADDR },	/* no such symbol */
	};
	int i, code = TP_ERR_FAIL_REG_PROBE;

	/* Out of memory says it itself; a name clash was logged already. */
	if (err == -ENOMEM || err == -EEXIST)
		return;
	for (i = 0; i < ARRAY_SIZE(why); i++)
		if (why[i].errno == err)
			code = why[i].code;
	trace_probe_log_set_index(1);
	__trace_probe_log_err(0, code);
}

static int tk_add(struct probe_definition *def)
{
	int ret = register_trace_kprobe(container_of(def->tp,
						     struct trace_kprobe, tp));

	/* Refused by the kprobes core: say why, under the place. */
	if (ret)
		tk_log_reg_error(ret);
	return ret;
}

static void tk_free(struct trace_probe *tp)
{
	free_trace_kprobe(container_of(tp, struct trace_kprobe, tp));
}

static void tk_release(struct probe_definition *def)
{
	kfree(to_tk_definition(def)->symbol);
}

static const struct probe_definer tk_definer = {
	.log_name	= "trace_kprobe",
	.expand_args	= true,
	.claim		= tk_claim,
	.parse_place	= tk_parse_place,
	.default_name	= tk_default_name,
	.alloc		= tk_alloc,
	.check_args	= tk_check_args,
	.add		= tk_add,
	.free		= tk_free,
	.release	= tk_release,
};

static int tk_dyn_create(const char *raw_command)
{
	struct tk_definition td = {};

	return trace_probe_define(raw_command, &tk_definer, &td.def);
}

static int create_or_delete_trace_kprobe(const char *raw_command)
{
	return trace_probe_run_command(raw_command, &trace_kprobe_ops);
}

static int tk_dyn_free(struct dyn_event *ev)
{
	struct trace_kprobe *tk = to_trace_kprobe(ev);
	int ret;

	/* An enabled event stays, whole. */
	ret = unregister_trace_kprobe(tk);
	if (ret)
		return ret;
	free_trace_kprobe(tk);
	return 0;
}

/*
 * "p:GRP/EVENT PLACE ARGS" or "r[MAXACTIVE]:GRP/EVENT PLACE ARGS".  The
 * MAXACTIVE shown is the kretprobe's, which registration sets to the
 * core's default when none was given: a listing written back defines the
 * same probe with the instance count it has now.
 */
static int tk_dyn_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_kprobe *tk = to_trace_kprobe(ev);
	char kind[16], place[KSYM_NAME_LEN + 16];

	if (!tk_is_return(tk))
		strscpy(kind, "p");
	else if (tk_ret(tk)->rp.maxactive)
		snprintf(kind, sizeof(kind), "r%d", tk_ret(tk)->rp.maxactive);
	else
		strscpy(kind, "r");
	tk_place(tk, place, sizeof(place));
	seq_printf(m, "%s:%s/%s %s", kind, trace_probe_group_name(&tk->tp),
		   trace_probe_name(&tk->tp), place);
	trace_probe_show_args(m, &tk->tp);
	seq_putc(m, '\n');
	trace_probe_dump_args(m, &tk->tp);
	return 0;
}

/* ---- The in-kernel API: kprobe_event_gen_cmd_start() and friends ------ */

static int trace_kprobe_run_command(struct dynevent_cmd *cmd)
{
	return create_or_delete_trace_kprobe(cmd->seq.buffer);
}

/**
 * kprobe_event_cmd_init - start building a kprobe event command
 * @cmd: the command
 * @buf: its text buffer
 * @maxlen: bytes of @buf
 */
void kprobe_event_cmd_init(struct dynevent_cmd *cmd, char *buf, int maxlen)
{
	dynevent_cmd_init(cmd, buf, maxlen, DYNEVENT_TYPE_KPROBE,
			  trace_kprobe_run_command);
}
EXPORT_SYMBOL_GPL(kprobe_event_cmd_init);

static int add_field_list(struct dynevent_cmd *cmd, va_list args)
{
	struct dynevent_arg arg;
	const char *field;
	int ret = 0;

	dynevent_arg_init(&arg, 0);
	while ((field = va_arg(args, const char *))) {
		if (++cmd->n_fields > MAX_TRACE_ARGS)
			return -EINVAL;
		arg.str = field;
		ret = dynevent_arg_add(cmd, &arg, NULL);
		if (ret)
			break;
	}
	return ret;
}

/**
 * __kprobe_event_gen_cmd_start - begin a kprobe event definition
 * @cmd: a command from kprobe_event_cmd_init()
 * @kretprobe: define a return probe
 * @name: the event name, in group "kprobes"
 * @loc: the probe point
 * @...: argument definitions, ending with NULL
 *
 * Return: 0 or a negative errno.
 */
int __kprobe_event_gen_cmd_start(struct dynevent_cmd *cmd, bool kretprobe,
				 const char *name, const char *loc, ...)
{
	struct dynevent_arg word = { .separator = ' ' };
	char head[MAX_EVENT_NAME_LEN];
	va_list args;
	int ret;

	if (cmd->type != DYNEVENT_TYPE_KPROBE || !loc)
		return -EINVAL;
	/* "p:kprobes/NAME LOC": the head, then the place as a word. */
	snprintf(head, sizeof(head), "%s:%s/%s", kretprobe ? "r" : "p",
		 KPROBE_EVENT_SYSTEM, name);
	word.str = loc;
	ret = dynevent_str_add(cmd, head) ?: dynevent_arg_add(cmd, &word, NULL);
	if (ret)
		return ret;
	va_start(args, loc);
	ret = add_field_list(cmd, args);
	va_end(args);
	return ret;
}
EXPORT_SYMBOL_GPL(__kprobe_event_gen_cmd_start);

/**
 * __kprobe_event_add_fields - add argument definitions to a command
 * @cmd: a started kprobe event command
 * @...: argument definitions, ending with NULL
 *
 * Return: 0 or a negative errno.
 */
int __kprobe_event_add_fields(struct dynevent_cmd *cmd, ...)
{
	va_list args;
	int ret;

	if (cmd->type != DYNEVENT_TYPE_KPROBE)
		return -EINVAL;
	va_start(args, cmd);
	ret = add_field_list(cmd, args);
	va_end(args);
	return ret;
}
EXPORT_SYMBOL_GPL(__kprobe_event_add_fields);

/**
 * kprobe_event_delete - delete a kprobe event
 * @name: its name
 *
 * Return: 0 or a negative errno.
 */
int kprobe_event_delete(const char *name)
{
	char cmd[MAX_EVENT_NAME_LEN + 2];

	snprintf(cmd, sizeof(cmd), "-:%s", name);
	return create_or_delete_trace_kprobe(cmd);
}
EXPORT_SYMBOL_GPL(kprobe_event_delete);

/* ---- tracefs: kprobe_events and kprobe_profile ------------------------ */

/* "  EVENT  HITS  MISSES", the columns aligned. */
static int tk_profile_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_kprobe *tk = dyn_to_tk(ev);

	if (tk)
		seq_printf(m, "  %-44s %15lu %15lu\n", trace_probe_name(&tk->tp),
			   tk_nhit(tk), tk_missed(tk));
	return 0;
}

static const struct probe_tracefs tk_tracefs = {
	.ops		= &trace_kprobe_ops,
	.run		= create_or_delete_trace_kprobe,
	.release_all	= tk_release_all,
	.profile_show	= tk_profile_show,
};

/* ---- perf's kprobe PMU ------------------------------------------------- */

#ifdef CONFIG_PERF_EVENTS
/**
 * create_local_trace_kprobe - a kprobe event for one perf event only
 * @func: the function, or NULL to probe @addr
 * @addr: the address when @func is NULL
 * @offs: the offset from @func
 * @is_return: a return probe
 *
 * The event is not listed anywhere and is never visible in tracefs.
 *
 * Return: its event call, or an ERR_PTR.
 */
struct trace_event_call *
create_local_trace_kprobe(char *func, void *addr, unsigned long offs,
			  bool is_return)
{
	struct trace_kprobe *tk;
	unsigned long sym;
	char *event;
	int ret;

	if (func) {
		ret = validate_probe_symbol(func, &sym);
		if (ret)
			return ERR_PTR(ret);
		addr = (void *)sym;
	}
	event = func ?: "DUMMY_EVENT";
	tk = alloc_trace_kprobe(KPROBE_EVENT_SYSTEM, event, addr, func, offs,
				0, 0, is_return);
	if (IS_ERR(tk)) {
		pr_info("Failed to allocate trace_probe.(%d)\n", (int)PTR_ERR(tk));
		return ERR_CAST(tk);
	}
	ret = traceprobe_set_print_fmt(&tk->tp, is_return ? PROBE_PRINT_RETURN :
							    PROBE_PRINT_NORMAL);
	if (ret)
		goto fail;
	tk->perf_only = true;
	ret = tk_register(tk);
	if (ret)
		goto fail;
	return trace_probe_event_call(&tk->tp);
fail:
	free_trace_kprobe(tk);
	return ERR_PTR(ret);
}

/**
 * destroy_local_trace_kprobe - free an event of create_local_trace_kprobe()
 * @event_call: the event
 */
void destroy_local_trace_kprobe(struct trace_event_call *event_call)
{
	struct trace_kprobe *tk = tk_primary(event_call);

	if (!tk)
		return;
	if (trace_probe_is_enabled(&tk->tp)) {
		WARN_ON(1);
		return;
	}
	tk_unregister(tk);
	free_trace_kprobe(tk);
}

/*
 * perf's kprobe PMU lets go of its event at each close, and a tool that
 * attached to many functions closes as many events one after another.
 * Each unregister_kprobe() waits for an RCU grace period, the wait that
 * lets the handlers which found the probe finish: closed one by one, the
 * events would wait for as many grace periods in a row. Instead a closed
 * event, disarmed by its close, goes on tk_closed, and a worker takes all
 * those closed before it runs, unregisters their kprobes with one wait
 * for all (struct tk_batch), then frees them. A perf-only event is on no
 * dyn_event list: its devent.list links it on tk_closed.
 */
static LIST_HEAD(tk_closed);
static DEFINE_SPINLOCK(tk_closed_lock);

static void tk_reap_closed(struct work_struct *work)
{
	struct trace_kprobe *tk, *tmp;
	struct tk_batch batch;
	LIST_HEAD(closed);
	bool batched;
	int n = 0;

	spin_lock(&tk_closed_lock);
	list_splice_init(&tk_closed, &closed);
	spin_unlock(&tk_closed_lock);

	list_for_each_entry(tk, &closed, devent.list)
		n++;
	if (!n)
		return;
	batched = tk_batch_init(&batch, n);
	if (batched) {
		list_for_each_entry(tk, &closed, devent.list)
			tk_batch_add(&batch, tk);
		tk_batch_unregister(&batch);
	}
	list_for_each_entry_safe(tk, tmp, &closed, devent.list) {
		/* Without the batch, one at a time. */
		if (batched)
			tk_unregistered(tk);
		else
			tk_unregister(tk);
		perf_kprobe_release(trace_probe_event_call(&tk->tp));
		list_del(&tk->devent.list);
		free_trace_kprobe(tk);
	}
}

static DECLARE_WORK(tk_reap_work, tk_reap_closed);

/**
 * release_local_trace_kprobe - free a closed event of
 *	create_local_trace_kprobe() once its handlers are done
 * @event_call: the event, disabled
 *
 * The event takes no hit after its close disarmed it, but handlers that
 * found it before may still be running. Its kprobe is unregistered, with
 * those of the events closed meanwhile, by a worker that waits for one
 * grace period for them all; perf_kprobe_release() then has perf free
 * what it kept for the event, and the event is freed.
 */
void release_local_trace_kprobe(struct trace_event_call *event_call)
{
	struct trace_kprobe *tk = tk_primary(event_call);

	if (!tk || WARN_ON(trace_probe_is_enabled(&tk->tp)))
		return;
	spin_lock(&tk_closed_lock);
	list_add_tail(&tk->devent.list, &tk_closed);
	spin_unlock(&tk_closed_lock);
	schedule_work(&tk_reap_work);
}

/**
 * bpf_get_kprobe_info - what a perf kprobe event probes, for BPF
 * @event: the perf event
 * @fd_type: out: BPF_FD_TYPE_K(RET)PROBE
 * @symbol: out: the symbol, or NULL for an address probe
 * @probe_offset: out: the offset from it
 * @probe_addr: out: the address
 * @missed: out: missed hits
 * @perf_type_tracepoint: the event is a tracefs event
 *
 * Return: 0 or -EINVAL.
 */
int bpf_get_kprobe_info(const struct perf_event *event, u32 *fd_type,
			const char **symbol, u64 *probe_offset,
			u64 *probe_addr, unsigned long *missed,
			bool perf_type_tracepoint)
{
	struct trace_event_call *call = event->tp_event;
	struct trace_kprobe *tk;

	/* A tracefs event or perf's own: its first probe, either way. */
	if (!(call->flags & TRACE_EVENT_FL_KPROBE))
		return -EINVAL;
	tk = tk_primary(call);
	if (!tk)
		return -EINVAL;
	*symbol = tk->symbol;
	*probe_offset = tk_kprobe(tk)->offset;
	/* The address is as secret as the kallsyms of the reader. */
	*probe_addr = 0;
	if (kallsyms_show_value(current_cred()))
		*probe_addr = (unsigned long)tk_kprobe(tk)->addr;
	*fd_type = BPF_FD_TYPE_KPROBE;
	if (tk_is_return(tk))
		*fd_type = BPF_FD_TYPE_KRETPROBE;
	if (missed)
		*missed = tk_missed(tk);
	return 0;
}
#endif

static struct dyn_event_operations trace_kprobe_ops = {
	.create = tk_dyn_create,
	.show = tk_dyn_show,
	.is_busy = tk_dyn_busy,
	.free = tk_dyn_free,
	.match = tk_dyn_match,
};

/* ---- Start-up ---------------------------------------------------------- */

/*
 * kprobe_event=DEF[;DEF...]: created once tracefs is up, and enabled.
 * Given more than once, the lists add up, as ftrace's options do.
 */
static char kprobe_boot_events_buf[COMMAND_LINE_SIZE] __initdata;

static int __init set_kprobe_boot_events(char *str)
{
	/* The startup selftests would meet these events' records. */
	disable_tracing_selftest("running kprobe events");
	/*
	 * The events record from the initcall that enables them: the ring
	 * buffer must have its full size by then, not the page per CPU it
	 * has until it is first used, which the boot's hits would overwrite.
	 */
	trace_set_ring_buffer_expanded(NULL);
	trace_append_boot_param(kprobe_boot_events_buf, str, ';',
				sizeof(kprobe_boot_events_buf));
	return 1;
}
__setup("kprobe_event=", set_kprobe_boot_events);

static __init void create_boot_kprobe_events(void)
{
	struct trace_array *tr = top_trace_array();
	char *cmd = kprobe_boot_events_buf, *next;
	struct trace_event_file *file;
	struct dyn_event *pos;
	struct trace_kprobe *tk;
	int ret;

	if (!cmd[0])
		return;
	strreplace(cmd, ',', ' ');
	for (; cmd && *cmd; cmd = next) {
		next = strchr(cmd, ';');
		if (next)
			*next++ = '\0';
		ret = create_or_delete_trace_kprobe(cmd);
		if (ret)
			pr_warn("Failed to add event(%d): %s\n", ret, cmd);
	}

	mutex_lock(&event_mutex);
	for_each_dyn_event(pos) {
		tk = dyn_to_tk(pos);
		if (!tk)
			continue;
		file = find_event_file(tr, trace_probe_group_name(&tk->tp),
				       trace_probe_name(&tk->tp));
		if (file)
			trace_event_enable_disable(file, 1, 0);
	}
	mutex_unlock(&event_mutex);
}

/* Register early, so that boot code can define events before tracefs. */
static __init int init_kprobe_trace_early(void)
{
	int ret = dyn_event_register(&trace_kprobe_ops);

	if (ret)
		return ret;
	return trace_kprobe_register_module_notifier() ? -EINVAL : 0;
}
core_initcall(init_kprobe_trace_early);

static __init int init_kprobe_trace(void)
{
	if (tracing_init_dentry())
		return 0;
	trace_probe_create_files("kprobe_events", "kprobe_profile",
				 &tk_tracefs);
	create_boot_kprobe_events();
	return 0;
}
fs_initcall(init_kprobe_trace);

#ifdef CONFIG_FTRACE_STARTUP_TEST
/*
 * Define an entry and a return probe with arguments on a function the
 * kernel keeps for this, enable both, call it, and check both counted the
 * hit; then remove them.  Nothing else can touch these events yet.  The
 * boot log's line, after the warnings of what failed, is the one test
 * farms read: "Testing kprobe tracing: OK", or "... NG: ...".
 */
static __init int kprobe_trace_self_tests_init(void)
{
	static const char *const defs[] = {
		"p:testprobe kprobe_trace_selftest_target $stack $stack0 +0($stack)",
		"r:testprobe2 kprobe_trace_selftest_target $retval",
	};
	static const char *const names[] = { "testprobe", "testprobe2" };
	struct trace_array *tr = top_trace_array();
	struct trace_kprobe *tk[2];
	struct trace_event_file *file;
	int i, warn = 0;

	if (tracing_disabled || tracing_selftest_disabled)
		return -ENODEV;

	for (i = 0; i < 2; i++) {
		tk[i] = NULL;
		if (WARN_ON_ONCE(create_or_delete_trace_kprobe(defs[i]))) {
			warn++;
			continue;
		}
		mutex_lock(&event_mutex);
		tk[i] = find_trace_kprobe(names[i], KPROBE_EVENT_SYSTEM);
		file = find_event_file(tr, KPROBE_EVENT_SYSTEM, names[i]);
		if (WARN_ON_ONCE(!tk[i] || !file) ||
		    WARN_ON_ONCE(trace_event_enable_disable(file, 1, 0))) {
			tk[i] = NULL;
			warn++;
		}
		mutex_unlock(&event_mutex);
	}

	if (kprobe_trace_selftest_target(1, 2, 3, 4, 5, 6) != 21)
		warn++;

	mutex_lock(&event_mutex);
	for (i = 0; i < 2; i++) {
		if (!tk[i])
			continue;
		if (WARN_ON_ONCE(tk_nhit(tk[i]) != 1))
			warn++;
		file = find_event_file(tr, KPROBE_EVENT_SYSTEM, names[i]);
		if (!file || trace_event_enable_disable(file, 0, 0))
			warn++;
	}
	mutex_unlock(&event_mutex);

	if (WARN_ON_ONCE(create_or_delete_trace_kprobe("-:testprobe")) ||
	    WARN_ON_ONCE(create_or_delete_trace_kprobe("-:testprobe2")))
		warn++;

	/*
	 * The optimizer may still have work queued for the probes just
	 * removed; init memory is freed next, and its text with it.
	 */
	wait_for_kprobe_optimizer();
	if (warn)
		pr_warn("Testing kprobe tracing: NG: Some tests are failed. Please check them.\n");
	else
		pr_info("Testing kprobe tracing: OK\n");
	return 0;
}
late_initcall(kprobe_trace_self_tests_init);
#endif
