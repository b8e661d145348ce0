// SPDX-License-Identifier: GPL-2.0
/*
 * Uprobe events: "p|r[:[GRP/]EVENT] PATH:OFFSET[%return][(REF)] [ARGS]"
 * in uprobe_events or dynamic_events puts a uprobe on an executable file;
 * its hits in any process record events, and feed perf and BPF.
 *
 * The handlers run in the probed task, in process context, where reading
 * the task's memory may fault pages in: arguments are fetched into a
 * per-CPU page first, then copied into the record.
 */
#define pr_fmt(fmt)	"trace_uprobe: " fmt

#include <linux/bpf-cgroup.h>
#include <linux/ctype.h>
#include <linux/filter.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/security.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include "trace_dynevent.h"
#include "trace_probe.h"
#include "trace_probe_record.h"

#define UPROBE_EVENT_SYSTEM	"uprobes"

/* The record head: the probed address, or the function and return address. */
struct uprobe_trace_entry_head {
	struct trace_entry	ent;
	unsigned long		vaddr[];
};

static size_t uprobe_head_size(bool is_return)
{
	return sizeof(struct uprobe_trace_entry_head) +
	       sizeof(unsigned long) * (is_return ? 2 : 1);
}

/**
 * struct trace_uprobe_filter - which processes perf wants hits from
 * @rwlock: protects the fields below
 * @nr_systemwide: perf events on every process
 * @perf_events: per-task perf events, by their target's mm
 */
struct trace_uprobe_filter {
	rwlock_t		rwlock;
	int			nr_systemwide;
	struct list_head	perf_events;
};

/**
 * struct trace_uprobe - a uprobe event definition
 * @offset: the file offset probed
 * @ref_ctr_offset: file offset of its SDT semaphore, or 0
 * @path: the probed file
 * @filename: its name as given
 * @consumer: what the uprobes core calls on a hit
 * @uprobe: the uprobe while the event is enabled
 * @nhits: hits per CPU, for uprobe_profile
 * @devent: its entry in the dynamic event list
 * @tp: the event side; must be last, its arguments follow it
 */
struct trace_uprobe {
	unsigned long			offset;
	unsigned long			ref_ctr_offset;
	struct path			path;
	char				*filename;
	struct uprobe_consumer		consumer;
	struct uprobe			*uprobe;
	unsigned long __percpu		*nhits;
	struct dyn_event		devent;
	struct trace_probe		tp;
};

/* Defined at the end: how dynamic_events creates, shows and frees ours. */
static struct dyn_event_operations trace_uprobe_ops;

static struct trace_uprobe *to_trace_uprobe(struct dyn_event *ev)
{
	return container_of(ev, struct trace_uprobe, devent);
}

/* The uprobe event of a dynamic event, or NULL for another kind. */
static struct trace_uprobe *dyn_to_tu(struct dyn_event *ev)
{
	return ev->ops == &trace_uprobe_ops ? to_trace_uprobe(ev) : NULL;
}

static bool tu_is_return(struct trace_uprobe *tu)
{
	return !!tu->consumer.ret_handler;
}

static struct trace_uprobe_filter *tu_filter(struct trace_uprobe *tu)
{
	return (struct trace_uprobe_filter *)tu->tp.event->data;
}

static struct trace_uprobe *tu_primary(struct trace_event_call *call)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);

	return tp ? container_of(tp, struct trace_uprobe, tp) : NULL;
}

static bool tu_dyn_busy(struct dyn_event *ev)
{
	return trace_probe_is_enabled(&to_trace_uprobe(ev)->tp);
}

/* The longest place: "0x" and a long's digits, twice, "()" and a NUL. */
#define TU_PLACE_LEN	(2 * (2 + 2 * sizeof(long)) + 3)

/* "PATH:0x%016lx[(0x%lx)]", as uprobe_events shows the place. */
static void tu_place(struct trace_uprobe *tu, char *buf, size_t size)
{
	int n = snprintf(buf, size, "0x%0*lx", (int)(sizeof(void *) * 2),
			 tu->offset);

	if (tu->ref_ctr_offset && n < size)
		snprintf(buf + n, size - n, "(0x%lx)", tu->ref_ctr_offset);
}

static bool tu_dyn_match(const char *system, const char *event,
			 int argc, const char **argv, struct dyn_event *ev)
{
	struct trace_uprobe *tu = to_trace_uprobe(ev);
	char place[TU_PLACE_LEN];
	size_t len;

	if (event[0] && strcmp(trace_probe_name(&tu->tp), event))
		return false;
	if (system && strcmp(trace_probe_group_name(&tu->tp), system))
		return false;
	if (!argc)
		return true;
	len = strlen(tu->filename);
	if (strncmp(tu->filename, argv[0], len) || argv[0][len] != ':')
		return false;
	tu_place(tu, place, sizeof(place));
	if (strcmp(place, argv[0] + len + 1))
		return false;
	return trace_probe_match_command_args(&tu->tp, argc - 1, argv + 1);
}

/* ---- Recording a hit ---------------------------------------------------- */

/*
 * A hit's arguments are fetched before anything is reserved, in the probed
 * task's own context: reading its memory may fault pages in, and sleep,
 * which the ring buffer cannot be held across.  They go to one page per
 * CPU, taken under its mutex (a task that migrates keeps the one it took),
 * laid out as in the record, then copied into the record.  The pages exist
 * while some uprobe event is enabled.  Arguments that are all registers
 * (or none, the commonest uprobe event) cannot fault: they are copied from
 * the registers straight into each record, without the page.
 */
struct uprobe_args_buf {
	struct mutex	lock;	/* one hit fills and copies @page at a time */
	void		*page;
};

static struct uprobe_args_buf __percpu *uprobe_bufs;
static int uprobe_bufs_users;	/* under event_mutex */

static void uprobe_bufs_put(void)
{
	int cpu;

	if (--uprobe_bufs_users || !uprobe_bufs)
		return;
	for_each_possible_cpu(cpu)
		kfree(per_cpu_ptr(uprobe_bufs, cpu)->page);
	free_percpu(uprobe_bufs);
	uprobe_bufs = NULL;
}

static int uprobe_bufs_get(void)
{
	int cpu;

	if (uprobe_bufs_users++)
		return 0;
	uprobe_bufs = alloc_percpu(struct uprobe_args_buf);
	if (!uprobe_bufs)
		goto fail;
	for_each_possible_cpu(cpu) {
		struct uprobe_args_buf *b = per_cpu_ptr(uprobe_bufs, cpu);

		mutex_init(&b->lock);
		b->page = kmalloc_node(PAGE_SIZE, GFP_KERNEL, cpu_to_node(cpu));
		if (!b->page)
			goto fail;
	}
	return 0;
fail:
	uprobe_bufs_put();
	return -ENOMEM;
}

#ifdef CONFIG_PERF_EVENTS
static bool tu_filter_has_mm(struct trace_uprobe_filter *filter,
			     struct mm_struct *mm)
{
	struct perf_event *event;

	list_for_each_entry(event, &filter->perf_events, hw.tp_list)
		if (event->hw.target->mm == mm)
			return true;
	return false;
}

/* Does perf want hits in @mm? */
static bool uprobe_perf_filter(struct uprobe_consumer *uc, struct mm_struct *mm)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe, consumer);
	struct trace_uprobe_filter *filter = tu_filter(tu);
	bool ret;

	if (READ_ONCE(filter->nr_systemwide))
		return true;
	read_lock(&filter->rwlock);
	ret = tu_filter_has_mm(filter, mm);
	read_unlock(&filter->rwlock);
	return ret;
}

static void uprobe_perf(struct probe_hit *hit)
{
	struct trace_event_call *call = trace_probe_event_call(hit->tp);

#ifdef CONFIG_BPF_EVENTS
	if (bpf_prog_array_valid(call)) {
		const struct bpf_prog_array *array;
		u32 run;

		/*
		 * Uprobe programs may sleep: bpf_prog_run_array_uprobe() wants
		 * the array read under tasks-trace RCU, which BPF frees it by.
		 */
		scoped_guard(rcu_tasks_trace) {
			array = rcu_dereference_check(call->prog_array,
						      bpf_rcu_lock_held());
			run = bpf_prog_run_array_uprobe(array, hit->regs,
							bpf_prog_run);
		}
		if (!run)
			return;
	}
#endif
	/* perf's buffers and listeners are per CPU. */
	guard(preempt)();
	probe_hit_perf(hit);
}
#endif

/* One hit of the entry (@func 0) or of the return of @func. */
static int uprobe_hit(struct trace_uprobe *tu, unsigned long func,
		      struct pt_regs *regs)
{
	unsigned long ip = instruction_pointer(regs);
	struct uprobe_dispatch_data udd = { .tu = tu, .bp_addr = func ?: ip };
	unsigned int flags = trace_probe_load_flags(&tu->tp);
	struct probe_hit hit = {
		.tp = &tu->tp,
		.env = {
			.regs = regs,
			.user = true,
			.may_fault = true,
			.foffs_base = udd.bp_addr - tu->offset,
		},
		.regs = regs,
		.head = { udd.bp_addr, ip },
		.nhead = func ? 2 : 1,
		/* Registers only are copied by each consumer; no string. */
		.sized = true,
	};
	struct uprobe_args_buf *buf = NULL;

	/* BPF's bpf_get_func_ip() finds the probed address here. */
	current->utask->vaddr = (unsigned long)&udd;

#ifdef CONFIG_PERF_EVENTS
	if ((flags & TP_FLAG_PROFILE) && !func &&
	    !uprobe_perf_filter(&tu->consumer, current->mm))
		return UPROBE_HANDLER_REMOVE;
#endif
	/*
	 * Programs that read memory run here, once, where a user page may
	 * still be faulted in, into this CPU's page; the consumers, which
	 * cannot fault, copy it.
	 */
	if (tu->tp.arg_kinds) {
		size_t head = uprobe_head_size(tu_is_return(tu));

		if (WARN_ON_ONCE(!uprobe_bufs))
			return 0;
		buf = per_cpu_ptr(uprobe_bufs, raw_smp_processor_id());
		mutex_lock(&buf->lock);
		/* Strings longer than the page has room for are cut. */
		hit.dsize = min_t(int, probe_args_dynsize(&tu->tp, &hit.env),
				  PAGE_SIZE - head - tu->tp.size);
		probe_args_store(buf->page, &tu->tp, &hit.env, head, hit.dsize);
		hit.args = buf->page;
	}

	if (flags & TP_FLAG_TRACE) {
		guard(rcu)();
		probe_hit_record(&hit);
	}
#ifdef CONFIG_PERF_EVENTS
	if (flags & TP_FLAG_PROFILE)
		uprobe_perf(&hit);
#endif
	if (buf)
		mutex_unlock(&buf->lock);
	return 0;
}

/*
 * @data is the cookie a session consumer (a handler and a ret_handler both)
 * carries from entry to return: none of ours needs one.
 */
static int uprobe_dispatcher(struct uprobe_consumer *con, struct pt_regs *regs,
			     __u64 *data)
{
	struct trace_uprobe *tu = container_of(con, struct trace_uprobe, consumer);

	this_cpu_inc(*tu->nhits);
	if (!tu_is_return(tu))
		return uprobe_hit(tu, 0, regs);
#ifdef CONFIG_PERF_EVENTS
	/* A return probe records at the return; perf still filters here. */
	if ((trace_probe_load_flags(&tu->tp) & TP_FLAG_PROFILE) &&
	    !uprobe_perf_filter(con, current->mm))
		return UPROBE_HANDLER_REMOVE;
#endif
	return 0;
}

static int uretprobe_dispatcher(struct uprobe_consumer *con,
				unsigned long func, struct pt_regs *regs,
				__u64 *data)
{
	uprobe_hit(container_of(con, struct trace_uprobe, consumer), func, regs);
	return 0;
}

/* ---- The event ------------------------------------------------------- */

static enum print_line_t print_uprobe_event(struct trace_iterator *iter,
					    int flags, struct trace_event *event)
{
	struct uprobe_trace_entry_head *entry = (void *)iter->ent;
	struct trace_seq *s = &iter->seq;
	struct trace_uprobe *tu;
	bool ret;

	tu = tu_primary(container_of(event, struct trace_event_call, event));
	if (WARN_ON_ONCE(!tu))
		goto out;
	ret = tu_is_return(tu);
	if (ret)
		trace_seq_printf(s, "%s: (0x%lx <- 0x%lx)", trace_probe_name(&tu->tp),
				 entry->vaddr[1], entry->vaddr[0]);
	else
		trace_seq_printf(s, "%s: (0x%lx)", trace_probe_name(&tu->tp),
				 entry->vaddr[0]);
	if (trace_probe_print_args(s, tu->tp.args, tu->tp.nr_args,
				   (u8 *)entry + uprobe_head_size(ret), entry))
		goto out;
	trace_seq_putc(s, '\n');
out:
	return trace_handle_return(s);
}

static int uprobe_define_fields(struct trace_event_call *call)
{
	struct trace_uprobe *tu = tu_primary(call);
	size_t off = offsetof(struct uprobe_trace_entry_head, vaddr);
	int ret;

	if (WARN_ON_ONCE(!tu))
		return -ENODEV;
	if (tu_is_return(tu)) {
		ret = trace_define_field(call, "unsigned long", FIELD_STRING_FUNC,
					 off, sizeof(long), 0, FILTER_OTHER);
		if (!ret)
			ret = trace_define_field(call, "unsigned long",
						 FIELD_STRING_RETIP,
						 off + sizeof(long), sizeof(long),
						 0, FILTER_OTHER);
	} else {
		ret = trace_define_field(call, "unsigned long", FIELD_STRING_IP,
					 off, sizeof(long), 0, FILTER_OTHER);
	}
	if (ret)
		return ret;
	return traceprobe_define_arg_fields(call, uprobe_head_size(tu_is_return(tu)),
					    &tu->tp);
}

static struct trace_event_functions uprobe_funcs = {
	.trace = print_uprobe_event,
};

static struct trace_event_fields uprobe_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = uprobe_define_fields },
	{}
};

static void tu_unregister_all(struct trace_probe *tp)
{
	struct trace_probe *pos;
	bool sync = false;

	trace_probe_for_each_sibling(pos, tp) {
		struct trace_uprobe *tu = container_of(pos, struct trace_uprobe, tp);

		if (!tu->uprobe)
			continue;
		uprobe_unregister_nosync(tu->uprobe, &tu->consumer);
		tu->uprobe = NULL;
		sync = true;
	}
	if (sync)
		uprobe_unregister_sync();
}

typedef bool (*uprobe_filter_t)(struct uprobe_consumer *uc, struct mm_struct *mm);

/*
 * Trace into @file, or for perf if NULL.  An event serves trace or perf,
 * not both at once: the perf filter decides where the breakpoints go.
 */
static int probe_event_enable(struct trace_event_call *call,
			      struct trace_event_file *file,
			      uprobe_filter_t filter)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);
	struct trace_probe *pos;
	bool was_enabled;
	int ret;

	if (WARN_ON_ONCE(!tp))
		return -ENODEV;
	was_enabled = trace_probe_is_enabled(tp);
	if (file) {
		if (trace_probe_test_flag(tp, TP_FLAG_PROFILE))
			return -EINTR;
		ret = trace_probe_add_file(tp, file);
		if (ret)
			return ret;
	} else {
		if (trace_probe_test_flag(tp, TP_FLAG_TRACE))
			return -EINTR;
		trace_probe_set_flag(tp, TP_FLAG_PROFILE);
	}
	if (was_enabled)
		return 0;

	ret = uprobe_bufs_get();
	if (ret)
		goto fail;
	trace_probe_for_each_sibling(pos, tp) {
		struct trace_uprobe *tu = container_of(pos, struct trace_uprobe, tp);
		struct uprobe *up;

		tu->consumer.filter = filter;
		up = uprobe_register(d_real_inode(tu->path.dentry), tu->offset,
				     tu->ref_ctr_offset, &tu->consumer);
		if (IS_ERR(up)) {
			ret = PTR_ERR(up);
			tu_unregister_all(tp);
			uprobe_bufs_put();
			goto fail;
		}
		tu->uprobe = up;
	}
	return 0;
fail:
	if (!file)
		trace_probe_clear_flag(tp, TP_FLAG_PROFILE);
	else
		trace_probe_remove_file(tp, file);
	return ret;
}

static void probe_event_disable(struct trace_event_call *call,
				struct trace_event_file *file)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);

	if (WARN_ON_ONCE(!tp) || !trace_probe_is_enabled(tp))
		return;
	if (file) {
		if (trace_probe_remove_file(tp, file) || trace_probe_is_enabled(tp))
			return;
	} else {
		trace_probe_clear_flag(tp, TP_FLAG_PROFILE);
	}
	/* Waits for the handlers: none uses the argument pages after it. */
	tu_unregister_all(tp);
	uprobe_bufs_put();
}

#ifdef CONFIG_PERF_EVENTS
/* Return true if the breakpoints already cover @event's process. */
static bool tu_filter_add(struct trace_uprobe_filter *filter,
			  struct perf_event *event)
{
	struct task_struct *task = event->hw.target;
	bool covered = true;

	write_lock(&filter->rwlock);
	if (!task) {
		/* The first system-wide event is the one that needs them all. */
		covered = filter->nr_systemwide++ != 0;
		goto out;
	}
	/*
	 * A child inherits its parent's breakpoints, and an enable_on_exec
	 * event gets them at exec.
	 */
	if (!filter->nr_systemwide && !event->parent &&
	    !event->attr.enable_on_exec)
		covered = tu_filter_has_mm(filter, task->mm);
	list_add(&event->hw.tp_list, &filter->perf_events);
out:
	write_unlock(&filter->rwlock);
	return covered;
}

/* Return true if the breakpoints must stay as they are. */
static bool tu_filter_remove(struct trace_uprobe_filter *filter,
			     struct perf_event *event)
{
	struct task_struct *task = event->hw.target;
	bool keep = true;

	write_lock(&filter->rwlock);
	if (!task) {
		/* The last system-wide event takes the breakpoints with it. */
		keep = --filter->nr_systemwide != 0;
		goto out;
	}
	list_del(&event->hw.tp_list);
	/* An exiting task's breakpoints go with its mm. */
	if (!filter->nr_systemwide && !(task->flags & PF_EXITING))
		keep = tu_filter_has_mm(filter, task->mm);
out:
	write_unlock(&filter->rwlock);
	return keep;
}

/* Have each uprobe of @tp's event look again at whose breakpoints it wants. */
static int tu_apply_all(struct trace_probe *tp, bool add)
{
	struct trace_probe *pos;
	int ret;

	trace_probe_for_each_sibling(pos, tp) {
		struct trace_uprobe *tu = container_of(pos, struct trace_uprobe, tp);

		ret = uprobe_apply(tu->uprobe, &tu->consumer, add);
		if (ret)
			return ret;
	}
	return 0;
}

static int uprobe_perf_close(struct trace_event_call *call,
			     struct perf_event *event)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);

	if (WARN_ON_ONCE(!tp))
		return -ENODEV;
	if (tu_filter_remove(tu_filter(container_of(tp, struct trace_uprobe, tp)),
			     event))
		return 0;
	return tu_apply_all(tp, false);
}

static int uprobe_perf_open(struct trace_event_call *call,
			    struct perf_event *event)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);
	int ret;

	if (WARN_ON_ONCE(!tp))
		return -ENODEV;
	if (tu_filter_add(tu_filter(container_of(tp, struct trace_uprobe, tp)),
			  event))
		return 0;
	ret = tu_apply_all(tp, true);
	if (ret)
		uprobe_perf_close(call, event);
	return ret;
}
#endif

/*
 * The event core's requests.  Tracing and perf each need the uprobes in;
 * perf also tells which processes it watches, and the breakpoints follow.
 */
static int trace_uprobe_register(struct trace_event_call *event,
				 enum trace_reg type, void *data)
{
	if (type == TRACE_REG_REGISTER)
		return probe_event_enable(event, data, NULL);
	if (type == TRACE_REG_UNREGISTER) {
		probe_event_disable(event, data);
		return 0;
	}
#ifdef CONFIG_PERF_EVENTS
	if (type == TRACE_REG_PERF_REGISTER)
		return probe_event_enable(event, NULL, uprobe_perf_filter);
	if (type == TRACE_REG_PERF_UNREGISTER) {
		probe_event_disable(event, NULL);
		return 0;
	}
	if (type == TRACE_REG_PERF_OPEN)
		return uprobe_perf_open(event, data);
	if (type == TRACE_REG_PERF_CLOSE)
		return uprobe_perf_close(event, data);
#endif
	return 0;
}

/* What the uprobe events share; each has its perf filter. */
static const struct probe_kind tu_kind = {
	.reg		= trace_uprobe_register,
	.fields_array	= uprobe_fields_array,
	.funcs		= &uprobe_funcs,
	.flags		= TRACE_EVENT_FL_UPROBE | TRACE_EVENT_FL_CAP_ANY,
	.data_size	= sizeof(struct trace_uprobe_filter),
};

/* ---- Definitions ------------------------------------------------------ */

static void free_trace_uprobe(struct trace_uprobe *tu)
{
	if (!tu)
		return;
	trace_probe_cleanup(&tu->tp);
	free_percpu(tu->nhits);
	/* An allocated probe not given a place yet has a zeroed path. */
	path_put(&tu->path);
	kfree(tu->filename);
	kfree(tu);
}

/* The regular file @name names: 0, its lookup's error, or -EINVAL. */
/*
 * @path is set only when the file is found and regular: the definition's
 * release puts whatever it holds, so a path put here must not stay in it.
 */
static int tu_find_file(const char *name, struct path *path)
{
	struct path found;
	int ret = kern_path(name, LOOKUP_FOLLOW, &found);

	if (ret)
		return ret;
	if (!d_is_reg(found.dentry)) {
		path_put(&found);
		return -EINVAL;
	}
	*path = found;
	return 0;
}

static struct trace_uprobe *alloc_trace_uprobe(const char *group,
					       const char *event, int nargs,
					       bool is_return)
{
	struct trace_uprobe_filter *filter;
	struct trace_uprobe *tu;
	int ret = -ENOMEM;

	tu = (struct trace_uprobe *)trace_probe_alloc(sizeof(*tu), nargs);
	if (!tu)
		return ERR_PTR(-ENOMEM);
	tu->nhits = alloc_percpu(unsigned long);
	if (!tu->nhits)
		goto fail;
	tu->tp.nr_args = nargs;
	ret = trace_probe_init(&tu->tp, event, group, &tu_kind);
	if (ret)
		goto fail;
	filter = tu_filter(tu);
	rwlock_init(&filter->rwlock);
	INIT_LIST_HEAD(&filter->perf_events);
	tu->consumer.handler = uprobe_dispatcher;
	if (is_return)
		tu->consumer.ret_handler = uretprobe_dispatcher;
	dyn_event_init(&tu->devent, &trace_uprobe_ops);
	return tu;
fail:
	free_percpu(tu->nhits);
	kfree(tu);
	return ERR_PTR(ret);
}

static struct trace_uprobe *find_probe_event(const char *event,
					     const char *group)
{
	struct trace_probe *tp = trace_probe_find_event(group, event);

	if (!tp || !(trace_probe_event_call(tp)->flags & TRACE_EVENT_FL_UPROBE))
		return NULL;
	return container_of(tp, struct trace_uprobe, tp);
}

static int unregister_trace_uprobe(struct trace_uprobe *tu)
{
	if (!trace_probe_has_sibling(&tu->tp)) {
		if (trace_event_dyn_busy(trace_probe_event_call(&tu->tp)))
			return -EBUSY;
		if (trace_probe_unregister_event_call(&tu->tp))
			return -EBUSY;
	}
	dyn_event_remove(&tu->devent);
	trace_probe_unlink(&tu->tp);
	free_trace_uprobe(tu);
	return 0;
}

/* Do two probes of an event probe the same place? */
static bool tu_same_place(struct trace_probe *a, struct trace_probe *b)
{
	struct trace_uprobe *x = container_of(a, struct trace_uprobe, tp);
	struct trace_uprobe *y = container_of(b, struct trace_uprobe, tp);

	return x->offset == y->offset &&
	       d_real_inode(x->path.dentry) == d_real_inode(y->path.dentry);
}

/* One place in a file has one SDT semaphore: all its probes must agree. */
static int check_ref_ctr_offset(struct trace_uprobe *tu)
{
	struct dyn_event *pos;
	struct trace_uprobe *o;

	for_each_dyn_event(pos) {
		o = dyn_to_tu(pos);
		if (!o || o->ref_ctr_offset == tu->ref_ctr_offset ||
		    !tu_same_place(&o->tp, &tu->tp))
			continue;
		pr_warn("Reference counter offset mismatch.");
		return -EINVAL;
	}
	return 0;
}

static int register_trace_uprobe(struct trace_uprobe *tu)
{
	struct trace_uprobe *old;
	int ret;

	mutex_lock(&event_mutex);
	ret = check_ref_ctr_offset(tu);
	if (!ret) {
		old = find_probe_event(trace_probe_name(&tu->tp),
				       trace_probe_group_name(&tu->tp));
		ret = trace_probe_join_event(&tu->tp, old ? &old->tp : NULL,
					     old && tu_is_return(old) != tu_is_return(tu),
					     tu_same_place);
	}
	/* The uprobe itself is put in when the event is enabled. */
	if (!ret)
		dyn_event_add(&tu->devent, trace_probe_event_call(&tu->tp));
	mutex_unlock(&event_mutex);
	return ret;
}

/*
 * Split "OFFSET[%return][(REF)]" (@spec, in word 1 at @spec - @word).
 * Return 0 or -EINVAL with the error logged.
 */
static int parse_uprobe_place(char *word, char *spec, unsigned long *offset,
			      unsigned long *ref, bool *is_return)
{
	char *open, *close, *pct;

	open = strchr(spec, '(');
	if (open) {
		close = strchr(open, ')');
		if (!close) {
			trace_probe_log_err(open + strlen(open) - word,
					    REFCNT_OPEN_BRACE);
			return -EINVAL;
		}
		if (close[1]) {
			trace_probe_log_err(close + 1 - word, BAD_REFCNT_SUFFIX);
			return -EINVAL;
		}
		*open++ = '\0';
		*close = '\0';
		if (kstrtoul(open, 0, ref)) {
			trace_probe_log_err(open - word, BAD_REFCNT);
			return -EINVAL;
		}
	}
	pct = strchr(spec, '%');
	if (pct) {
		if (strcmp(pct, "%return")) {
			trace_probe_log_err(pct - word, BAD_ADDR_SUFFIX);
			return -EINVAL;
		}
		*pct = '\0';
		*is_return = true;
	}
	if (kstrtoul(spec, 0, offset)) {
		trace_probe_log_err(spec - word, BAD_UPROBE_OFFS);
		return -EINVAL;
	}
	return 0;
}

/**
 * struct tu_definition - a uprobe definition, as its place is parsed
 * @def: the definition
 * @filename: the path of word 1, cut at its last ':'
 * @spec: what follows that ':', "OFFSET[%return][(REF)]"
 * @path: the file, once found
 * @offset: the probe's offset in the file
 * @ref: the offset of its SDT semaphore, 0 if none
 * @is_return: a uretprobe
 *
 * The probe takes @filename and @path when it is made.
 */
struct tu_definition {
	struct probe_definition	def;
	char			*filename;
	char			*spec;
	struct path		path;
	unsigned long		offset;
	unsigned long		ref;
	bool			is_return;
};

#define to_tu_definition(d)	container_of(d, struct tu_definition, def)

/* "p|r[:[GRP/]EVENT] PATH:OFFSET[%return][(REF)] [ARGS]" */
static int tu_claim(struct probe_definition *def)
{
	struct tu_definition *ud = to_tu_definition(def);
	const char *w0 = def->argv[0];

	if ((w0[0] != 'p' && w0[0] != 'r') || def->argc < 2)
		return -ECANCELED;
	if (!strchr(def->argv[1], '/'))
		return -ECANCELED;
	ud->filename = kstrdup(def->argv[1], GFP_KERNEL);
	if (!ud->filename)
		return -ENOMEM;
	/* The last ':' ends the path, which may have ':'s of its own. */
	ud->spec = strrchr(ud->filename, ':');
	if (!ud->spec || !isdigit(ud->spec[1]))
		return -ECANCELED;
	*ud->spec++ = '\0';
	ud->is_return = w0[0] == 'r';
	def->group = UPROBE_EVENT_SYSTEM;
	if (w0[1] == ':')
		def->event = w0 + 2;
	return 0;
}

static int tu_parse_place(struct probe_definition *def)
{
	struct tu_definition *ud = to_tu_definition(def);
	int ret;

	ret = tu_find_file(ud->filename, &ud->path);
	if (ret) {
		__trace_probe_log_err(0, ret == -EINVAL ? TP_ERR_NO_REGULAR_FILE :
							  TP_ERR_FILE_NOT_FOUND);
		return ret;
	}
	ret = parse_uprobe_place(ud->filename, ud->spec, &ud->offset, &ud->ref,
				 &ud->is_return);
	if (ret)
		return ret;
	def->ctx.flags = TPARG_FL_USER;
	def->print = PROBE_PRINT_NORMAL;
	if (ud->is_return) {
		def->ctx.flags |= TPARG_FL_RETURN;
		def->print = PROBE_PRINT_RETURN;
	}
	return 0;
}

/* "p_" and the file's name up to its first '.', '-' or '_', at the offset. */
static void tu_default_name(struct probe_definition *def)
{
	struct tu_definition *ud = to_tu_definition(def);
	const char *base = kbasename(ud->filename);
	size_t len = strcspn(base, ".-_");

	snprintf(def->name, sizeof(def->name), "p_%.*s_0x%lx", (int)len, base,
		 ud->offset);
}

static struct trace_probe *tu_alloc(struct probe_definition *def)
{
	struct tu_definition *ud = to_tu_definition(def);
	struct trace_uprobe *tu;

	tu = alloc_trace_uprobe(def->group, def->event, def->args.argc,
				ud->is_return);
	if (IS_ERR(tu))
		return ERR_CAST(tu);
	/* The probe owns the path and the name from here. */
	tu->path = ud->path;
	tu->filename = ud->filename;
	ud->path = (struct path){};
	ud->filename = NULL;
	tu->offset = ud->offset;
	tu->ref_ctr_offset = ud->ref;
	return &tu->tp;
}

static int tu_add(struct probe_definition *def)
{
	return register_trace_uprobe(container_of(def->tp, struct trace_uprobe,
						  tp));
}

static void tu_free(struct trace_probe *tp)
{
	free_trace_uprobe(container_of(tp, struct trace_uprobe, tp));
}

static void tu_release(struct probe_definition *def)
{
	struct tu_definition *ud = to_tu_definition(def);

	path_put(&ud->path);
	kfree(ud->filename);
}

static const struct probe_definer tu_definer = {
	.log_name	= "trace_uprobe",
	.count_first	= true,
	.claim		= tu_claim,
	.parse_place	= tu_parse_place,
	.default_name	= tu_default_name,
	.alloc		= tu_alloc,
	.add		= tu_add,
	.free		= tu_free,
	.release	= tu_release,
};

static int tu_dyn_create(const char *raw_command)
{
	struct tu_definition ud = {};

	return trace_probe_define(raw_command, &tu_definer, &ud.def);
}

static int create_or_delete_trace_uprobe(const char *raw_command)
{
	return trace_probe_run_command(raw_command, &trace_uprobe_ops);
}

static int tu_dyn_free(struct dyn_event *ev)
{
	return unregister_trace_uprobe(to_trace_uprobe(ev));
}

static int tu_dyn_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_uprobe *tu = to_trace_uprobe(ev);
	char place[TU_PLACE_LEN];

	tu_place(tu, place, sizeof(place));
	seq_printf(m, "%c:%s/%s %s:%s", tu_is_return(tu) ? 'r' : 'p',
		   trace_probe_group_name(&tu->tp), trace_probe_name(&tu->tp),
		   tu->filename, place);
	trace_probe_show_args(m, &tu->tp);
	seq_putc(m, '\n');
	trace_probe_dump_args(m, &tu->tp);
	return 0;
}

/* ---- tracefs: uprobe_events and uprobe_profile ------------------------ */

/* "  FILE EVENT  HITS". */
static int tu_profile_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_uprobe *tu = dyn_to_tu(ev);
	unsigned long hits = 0;
	int cpu;

	if (!tu)
		return 0;
	for_each_possible_cpu(cpu)
		hits += *per_cpu_ptr(tu->nhits, cpu);
	seq_printf(m, "  %s %-44s %15lu\n", tu->filename,
		   trace_probe_name(&tu->tp), hits);
	return 0;
}

static const struct probe_tracefs tu_tracefs = {
	.ops		= &trace_uprobe_ops,
	.run		= create_or_delete_trace_uprobe,
	.profile_show	= tu_profile_show,
};

/* ---- perf's uprobe PMU and BPF ----------------------------------------- */

#ifdef CONFIG_PERF_EVENTS
/**
 * create_local_trace_uprobe - a uprobe event for one perf event only
 * @name: the file
 * @offs: the offset in it
 * @ref_ctr_offset: its SDT semaphore's offset, or 0
 * @is_return: a return probe
 *
 * Return: its event call, never visible in tracefs, or an ERR_PTR.
 */
struct trace_event_call *
create_local_trace_uprobe(char *name, unsigned long offs,
			  unsigned long ref_ctr_offset, bool is_return)
{
	struct trace_uprobe *tu;
	struct path path;
	int ret = tu_find_file(name, &path);

	if (ret)
		return ERR_PTR(ret);
	/* Never listed anywhere: the name need not be unique. */
	tu = alloc_trace_uprobe(UPROBE_EVENT_SYSTEM, "DUMMY_EVENT", 0, is_return);
	if (IS_ERR(tu)) {
		path_put(&path);
		return ERR_CAST(tu);
	}
	tu->path = path;
	tu->offset = offs;
	tu->ref_ctr_offset = ref_ctr_offset;
	tu->filename = kstrdup(name, GFP_KERNEL);
	ret = tu->filename ? traceprobe_set_print_fmt(&tu->tp,
			is_return ? PROBE_PRINT_RETURN : PROBE_PRINT_NORMAL) :
			-ENOMEM;
	if (!ret)
		return trace_probe_event_call(&tu->tp);
	free_trace_uprobe(tu);
	return ERR_PTR(ret);
}

/**
 * destroy_local_trace_uprobe - free an event of create_local_trace_uprobe()
 * @event_call: the event
 */
void destroy_local_trace_uprobe(struct trace_event_call *event_call)
{
	free_trace_uprobe(tu_primary(event_call));
}

/**
 * bpf_get_uprobe_info - what a perf uprobe event probes, for BPF
 * @event: the perf event
 * @fd_type: out: BPF_FD_TYPE_URETPROBE or BPF_FD_TYPE_UPROBE
 * @filename: out: the file
 * @probe_offset: out: the offset in it
 * @probe_addr: out: the offset of its SDT semaphore, 0 if none
 * @perf_type_tracepoint: the event is a tracefs event
 *
 * Return: 0 or -EINVAL.
 */
int bpf_get_uprobe_info(const struct perf_event *event, u32 *fd_type,
			const char **filename, u64 *probe_offset,
			u64 *probe_addr, bool perf_type_tracepoint)
{
	struct trace_uprobe *tu;

	/* A tracefs event or perf's own: its first probe, either way. */
	if (!(event->tp_event->flags & TRACE_EVENT_FL_UPROBE))
		return -EINVAL;
	tu = tu_primary(event->tp_event);
	if (!tu)
		return -EINVAL;
	*fd_type = tu_is_return(tu) ? BPF_FD_TYPE_URETPROBE : BPF_FD_TYPE_UPROBE;
	*filename = tu->filename;
	*probe_offset = tu->offset;
	*probe_addr = tu->ref_ctr_offset;
	return 0;
}
#endif

static struct dyn_event_operations trace_uprobe_ops = {
	.create = tu_dyn_create,
	.show = tu_dyn_show,
	.is_busy = tu_dyn_busy,
	.free = tu_dyn_free,
	.match = tu_dyn_match,
};

static __init int init_uprobe_trace(void)
{
	int ret = dyn_event_register(&trace_uprobe_ops);

	if (ret)
		return ret;
	if (tracing_init_dentry())
		return 0;
	trace_probe_create_files("uprobe_events", "uprobe_profile",
				 &tu_tracefs);
	return 0;
}
fs_initcall(init_uprobe_trace);
