// SPDX-License-Identifier: GPL-2.0
/*
 * Probe events: the fetch-argument language and the events probes record.
 *
 * The parser works on a private copy of one argument and reports an error
 * as a code and the byte offset of the bad token, measured from the start
 * of the word the argument was written in; the error log turns that into
 * a caret under the command.  Nothing it allocates outlives a failure:
 * everything a probe_arg owns is released by traceprobe_free_probe_arg(),
 * whichever step failed.
 */
#define pr_fmt(fmt)	"trace_probe: " fmt

#include <linux/bpf.h>
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/glob.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/kallsyms.h>
#include <linux/string.h>

#include <linux/security.h>
#include <asm/sections.h>

#include "trace_btf.h"
#include "trace_dynevent.h"
#include "trace_probe.h"

/* ---- Types ------------------------------------------------------------ */

/* A stored scalar of @size bytes, sign-extended if @is_signed. */
static u64 load_scalar(const void *data, size_t size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (s64)*(s8 *)data : *(u8 *)data;
	case 2:
		return is_signed ? (s64)*(s16 *)data : *(u16 *)data;
	case 4:
		return is_signed ? (s64)*(s32 *)data : *(u32 *)data;
	}
	return *(u64 *)data;
}

/* Print one stored value of type @t for the trace file. */
static bool print_value(const struct fetch_type *t, struct trace_seq *s,
			void *data, void *ent)
{
	u64 v;

	if (t->is_string) {
		if (!get_loc_len(*(u32 *)data))
			trace_seq_puts(s, FAULT_STRING);
		else
			trace_seq_printf(s, "\"%s\"", (char *)get_loc_data(data, ent));
		return !trace_seq_has_overflowed(s);
	}
	v = load_scalar(data, t->size, t->is_signed);
	switch (t->kind) {
	case FETCH_KIND_SIGNED:
		trace_seq_printf(s, "%lld", (s64)v);
		break;
	case FETCH_KIND_HEX:
		trace_seq_printf(s, "0x%llx", v);
		break;
	case FETCH_KIND_CHAR:
		trace_seq_printf(s, "'%c'", (char)v);
		break;
	case FETCH_KIND_SYMBOL:
		trace_seq_printf(s, "%pS", (void *)(unsigned long)v);
		break;
	default:
		trace_seq_printf(s, "%llu", v);
	}
	return !trace_seq_has_overflowed(s);
}

/*
 * Whether the program's first access reads memory that is there for sure,
 * aligned: a field of current's task_struct, or this CPU's copy of a
 * built-in per-CPU variable.  The fetch engine then reads it with a plain
 * load: copy_from_kernel_nofault()'s checks and fault handling would guard
 * against nothing.  Only a word read on the way to the value, or a scalar
 * stored whole, is such a load.
 */
static bool fetch_first_cannot_fault(const struct fetch_prog *p)
{
	unsigned long offs = p->offs[0];
	size_t size;

	if (!p->nderef || (p->user & BIT(0)))
		return false;
	if (p->nderef > 1 || p->store == FETCH_STORE_RAW)
		size = sizeof(long);
	else if (p->store == FETCH_STORE_MEM && p->count <= 1)
		size = p->size;
	else
		return false;

	if (p->base == FETCH_BASE_CURRENT)
		return !(p->percpu & BIT(0)) &&
		       offs <= sizeof(struct task_struct) - size &&
		       IS_ALIGNED(offs, size);
#ifdef CONFIG_SMP
	if (p->base == FETCH_BASE_SYMBOL && (p->percpu & BIT(0))) {
		unsigned long addr = p->param + offs;

		return addr >= (unsigned long)__per_cpu_start &&
		       addr <= (unsigned long)__per_cpu_end - size &&
		       IS_ALIGNED(addr, size);
	}
#endif
	return false;
}

/**
 * traceprobe_update_arg - make an argument's program ready to run: its
 *	symbol resolved to its address, its first access judged
 * @arg: the argument
 *
 * Return: 0, or -ENOENT if its symbol is not (yet) in the kernel.
 */
int traceprobe_update_arg(struct probe_arg *arg)
{
	struct fetch_prog *prog = &arg->prog;
	char name[KSYM_NAME_LEN];
	unsigned long addr;
	long offs;

	if (prog->base == FETCH_BASE_SYMBOL) {
		if (strscpy(name, prog->data, sizeof(name)) < 0 ||
		    traceprobe_split_symbol_offset(name, &offs))
			return -EINVAL;
		addr = kallsyms_lookup_name(name);
		if (!addr)
			return -ENOENT;
		prog->param = addr + offs;
	}
	prog->direct = fetch_first_cannot_fault(prog);
	return 0;
}

/* ---- The event's format, fields and trace output ---------------------- */

/* A print fmt is "HEAD ARG=FMT...", HEAD_ARGS, then the arguments. */
#define HEAD_NORMAL		"(%lx)"
#define HEAD_ARGS_NORMAL	", REC->" FIELD_STRING_IP
#define HEAD_RETURN		"(%lx <- %lx)"
#define HEAD_ARGS_RETURN	", REC->" FIELD_STRING_FUNC ", REC->" FIELD_STRING_RETIP

/* Those of probes without arguments, which need no copy of their own. */
static const char *const print_fmt_no_args[] = {
	[PROBE_PRINT_NORMAL] = "\"" HEAD_NORMAL "\"" HEAD_ARGS_NORMAL,
	[PROBE_PRINT_RETURN] = "\"" HEAD_RETURN "\"" HEAD_ARGS_RETURN,
	[PROBE_PRINT_EVENT] = "\"\"",
};

static int print_fmt_into(struct trace_probe *tp, char *buf, int size,
			  enum probe_print_type ptype)
{
	static const char *const head[] = {
		[PROBE_PRINT_NORMAL] = HEAD_NORMAL,
		[PROBE_PRINT_RETURN] = HEAD_RETURN,
		[PROBE_PRINT_EVENT] = "",
	};
	static const char *const head_args[] = {
		[PROBE_PRINT_NORMAL] = HEAD_ARGS_NORMAL,
		[PROBE_PRINT_RETURN] = HEAD_ARGS_RETURN,
		[PROBE_PRINT_EVENT] = "",
	};
	struct seq_buf sb;
	unsigned int i, j;

	seq_buf_init(&sb, buf, size);
	seq_buf_printf(&sb, "\"%s", head[ptype]);
	for (i = 0; i < tp->nr_args; i++) {
		struct probe_arg *a = &tp->args[i];

		seq_buf_printf(&sb, " %s=", a->name);
		if (!a->count) {
			seq_buf_puts(&sb, a->type->fmt);
			continue;
		}
		for (j = 0; j < a->count; j++)
			seq_buf_printf(&sb, "%c%s", j ? ',' : '{', a->type->fmt);
		seq_buf_putc(&sb, '}');
	}
	seq_buf_printf(&sb, "\"%s", head_args[ptype]);
	for (i = 0; i < tp->nr_args; i++) {
		struct probe_arg *a = &tp->args[i];
		bool str = a->type->is_string;

		if (!a->count) {
			seq_buf_printf(&sb, str ? ", __get_str(%s)" : ", REC->%s",
				       a->name);
		} else {
			for (j = 0; j < a->count; j++)
				seq_buf_printf(&sb, str ? ", __get_str(%s[%u])" :
					       ", REC->%s[%u]", a->name, j);
		}
	}
	return seq_buf_used(&sb) + (seq_buf_has_overflowed(&sb) ? 1 : 0);
}

/**
 * traceprobe_set_print_fmt - build the event's print fmt from its probe
 * @tp: the probe
 * @ptype: which fixed fields come first
 *
 * Return: 0 or -ENOMEM.
 */
int traceprobe_set_print_fmt(struct trace_probe *tp, enum probe_print_type ptype)
{
	int size = 256;
	char *buf, *fmt;

	if (!tp->nr_args) {
		fmt = (char *)print_fmt_no_args[ptype];
		goto set;
	}
	/* Built in a scratch buffer, kept in one of its own length. */
	for (;;) {
		buf = kmalloc(size, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
		if (print_fmt_into(tp, buf, size, ptype) < size)
			break;
		kfree(buf);
		size *= 2;
	}
	fmt = kstrdup(buf, GFP_KERNEL);
	kfree(buf);
	if (!fmt)
		return -ENOMEM;
set:
	/* The shared ones are in .rodata, which kfree_const() leaves be. */
	kfree_const(tp->event->call.print_fmt);
	tp->event->call.print_fmt = fmt;
	return 0;
}

/**
 * traceprobe_define_arg_fields - define the event's argument fields
 * @event_call: the event
 * @offset: where the arguments start in its records
 * @tp: the probe whose arguments they are
 *
 * The event core keeps pointers to the names and types; the copies made
 * here belong to the event, which outlives any one of its probes.
 *
 * Return: 0 or a negative errno.
 */
int traceprobe_define_arg_fields(struct trace_event_call *event_call,
				 size_t offset, struct trace_probe *tp)
{
	struct probe_event *ev = trace_probe_event_from_call(event_call);
	unsigned int i;
	int ret;

	for (i = 0; i < ev->nr_field_names; i++)
		kfree(ev->field_names[i]);
	kfree(ev->field_names);
	ev->nr_field_names = 0;
	ev->field_names = NULL;
	if (!tp->nr_args)
		return 0;
	ev->field_names = kcalloc(2 * tp->nr_args, sizeof(char *), GFP_KERNEL);
	if (!ev->field_names)
		return -ENOMEM;

	for (i = 0; i < tp->nr_args; i++) {
		struct probe_arg *a = &tp->args[i];
		char *name = kstrdup(a->name, GFP_KERNEL);
		char *type = kstrdup(a->fmt ?: a->type->fmttype, GFP_KERNEL);

		if (name)
			ev->field_names[ev->nr_field_names++] = name;
		if (type)
			ev->field_names[ev->nr_field_names++] = type;
		if (!name || !type)
			return -ENOMEM;
		ret = trace_define_field(event_call, type, name, offset + a->offset,
					 a->type->size * (a->count ?: 1),
					 a->type->is_signed, FILTER_OTHER);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * trace_probe_print_args - print a record's arguments for the trace file
 * @s: where
 * @args: the probe's arguments
 * @nr_args: how many
 * @data: the argument area of the record
 * @field: the record
 *
 * Return: 0, or -ENOMEM if @s overflowed.
 */
int trace_probe_print_args(struct trace_seq *s, struct probe_arg *args,
			   int nr_args, u8 *data, void *field)
{
	int i, j;

	for (i = 0; i < nr_args; i++) {
		struct probe_arg *a = &args[i];
		u8 *p = data + a->offset;

		trace_seq_printf(s, " %s=", a->name);
		if (!a->count) {
			if (!print_value(a->type, s, p, field))
				return -ENOMEM;
			continue;
		}
		for (j = 0; j < a->count; j++, p += a->type->size) {
			trace_seq_putc(s, j ? ',' : '{');
			if (!print_value(a->type, s, p, field))
				return -ENOMEM;
		}
		trace_seq_putc(s, '}');
	}
	return 0;
}

/**
 * trace_probe_show_args - print the arguments as kprobe_events shows them
 * @m: the seq file
 * @tp: the probe
 */
void trace_probe_show_args(struct seq_file *m, struct trace_probe *tp)
{
	unsigned int i;

	for (i = 0; i < tp->nr_args; i++)
		seq_printf(m, " %s=%s", tp->args[i].name, tp->args[i].comm);
}

#ifdef CONFIG_PROBE_EVENTS_DUMP_FETCHARG
/*
 * The dump names the steps of an argument's program with the operation
 * names of the fetch-argument dump's format (REG, DEREF, ST_MEM, ...), a
 * step for each instruction a program of the instruction-list form has,
 * so that tools and people reading dumps find what they know.
 */
static void dump_base(struct seq_file *m, const struct fetch_prog *p)
{
	switch (p->base) {
	case FETCH_BASE_REG:
		seq_printf(m, "REG(%lu)", p->param);
		break;
	case FETCH_BASE_STACK:
		seq_printf(m, "STACK(%lu)", p->param);
		break;
	case FETCH_BASE_STACKP:
		seq_puts(m, "STACKP");
		break;
	case FETCH_BASE_RETVAL:
		seq_puts(m, "RETVAL");
		break;
	case FETCH_BASE_ARG:
		seq_printf(m, "ARG(%lu)", p->param);
		break;
	case FETCH_BASE_EDATA:
		seq_printf(m, "EDATA(offset=%d)", (int)p->param);
		break;
	case FETCH_BASE_COMM:
		seq_puts(m, "COMM");
		break;
	case FETCH_BASE_SYMBOL:
		/* The name, kept to be looked up again, then its address. */
		seq_printf(m, "NOP_SYMBOL(%s) -> ", (const char *)p->data);
		fallthrough;
	case FETCH_BASE_IMM:
		seq_printf(m, "IMM(0x%lx)", p->param);
		break;
	case FETCH_BASE_DATA:
		seq_printf(m, "IMMSTR(%s)", (const char *)p->data);
		break;
	case FETCH_BASE_FOFFS:
		seq_printf(m, "FOFFS(0x%lx)", p->param);
		break;
	case FETCH_BASE_EFIELD:
		seq_printf(m, "TP_ARG(%s)",
			   ((struct ftrace_event_field *)p->data)->name);
		break;
	case FETCH_BASE_CURRENT:
		seq_puts(m, "CURRENT");
		break;
	case FETCH_BASE_WADDR:
		seq_puts(m, "BADDR");
		break;
	default:
		seq_printf(m, "unknown(%u)", p->base);
	}
}

/* Access @i, its per-CPU step first; @op NULL: a DEREF or a UDEREF. */
static void dump_access(struct seq_file *m, const struct fetch_prog *p,
			unsigned int i, const char *op, unsigned int size)
{
	if (p->percpu & BIT(i))
		seq_puts(m, " -> CPU_PTR");
	if (!op)
		seq_printf(m, " -> %s(offset=%ld)",
			   p->user & BIT(i) ? "UDEREF" : "DEREF", p->offs[i]);
	else
		seq_printf(m, " -> %s(offset=%ld,size=%u)", op, p->offs[i],
			   size);
}

static void dump_arg(struct seq_file *m, const struct probe_arg *a)
{
	const struct fetch_prog *p = &a->prog;
	unsigned int i, n = p->nderef, size = a->type->size;
	const char *store = NULL;

	/*
	 * A store that reads memory takes the last access's place; one of a
	 * value, a symbol's name, or an array of strings comes after it.
	 */
	if (p->store == FETCH_STORE_MEM)
		store = p->user_store ? "ST_UMEM" : "ST_MEM";
	else if (p->store == FETCH_STORE_STRING && n && !p->count)
		store = p->user_store ? "ST_USTRING" : "ST_STRING";
	if (store)
		n--;

	seq_printf(m, "#  %s: ", a->name);
	dump_base(m, p);
	for (i = 0; i < n; i++)
		dump_access(m, p, i, NULL, 0);
	if (store) {
		dump_access(m, p, n, store, size);
	} else {
		if (p->percpu & BIT(n))
			seq_puts(m, " -> CPU_PTR");
		if (p->store == FETCH_STORE_RAW)
			seq_printf(m, " -> ST_RAW(size=%u)", size);
		else
			seq_printf(m, " -> %s(offset=0,size=%u)",
				   p->store == FETCH_STORE_SYMSTR ? "ST_SYMSTR" :
				   !strcmp(a->type->name, "ustring") ?
				   "ST_USTRING" : "ST_STRING", size);
	}
	if (p->bf_rshift)
		seq_printf(m, " -> MOD_BF(basesize=%u,lshift=%u,rshift=%u)",
			   p->bf_size, p->bf_lshift, p->bf_rshift);
	if (a->count)
		seq_printf(m, " -> LP_ARRAY(%u)", a->count);
	seq_puts(m, " -> END\n");
}

/**
 * trace_probe_dump_args - show each argument's fetch program, for debugging
 * @m: the seq file of the probe listing
 * @tp: the probe
 *
 * Each argument gives a comment line after the probe's definition:
 * "#  NAME: STEP -> STEP -> ... -> END".
 */
void trace_probe_dump_args(struct seq_file *m, struct trace_probe *tp)
{
	unsigned int i;

	for (i = 0; i < tp->nr_args; i++)
		dump_arg(m, &tp->args[i]);
}
#endif /* CONFIG_PROBE_EVENTS_DUMP_FETCHARG */

/* ---- Events and their probes ------------------------------------------- */

/**
 * trace_probe_alloc - allocate a probe with room for its arguments
 * @size: bytes of the front end's structure, which ends in a trace_probe
 * @nargs: arguments
 *
 * Return: the zeroed structure, or NULL.
 */
struct trace_probe *trace_probe_alloc(size_t size, int nargs)
{
	return kzalloc(size + nargs * sizeof(struct probe_arg), GFP_KERNEL);
}

/*
 * The event class of a front end's events in one group.  The event core
 * keeps an event's fields in its class unless the class says where else
 * they are (&trace_event_class.get_fields); these classes send each event
 * to its own list, and so can be shared: a class and the group's name
 * once per group rather than once per probe.
 */
struct probe_class {
	struct trace_event_class	class;
	const struct probe_kind		*kind;
	struct list_head		list;
	unsigned int			users;
	char				system[];
};

static LIST_HEAD(probe_classes);
static DEFINE_MUTEX(probe_classes_lock);

static struct list_head *probe_event_fields(struct trace_event_call *call)
{
	return &trace_probe_event_from_call(call)->fields;
}

static int probe_class_reg(struct trace_event_call *call, enum trace_reg type,
			   void *data);

static struct trace_event_class *
probe_class_get(const struct probe_kind *kind, const char *system)
{
	size_t len = strlen(system) + 1;
	struct probe_class *pc;

	guard(mutex)(&probe_classes_lock);
	list_for_each_entry(pc, &probe_classes, list) {
		if (pc->kind == kind && !strcmp(pc->system, system)) {
			pc->users++;
			return &pc->class;
		}
	}
	pc = kzalloc(struct_size(pc, system, len), GFP_KERNEL);
	if (!pc)
		return NULL;
	strscpy(pc->system, system, len);
	pc->class.system = pc->system;
	pc->class.reg = kind->reg ?: probe_class_reg;
	pc->class.fields_array = kind->fields_array;
	pc->class.get_fields = probe_event_fields;
	INIT_LIST_HEAD(&pc->class.fields);
	pc->kind = kind;
	pc->users = 1;
	list_add(&pc->list, &probe_classes);
	return &pc->class;
}

/* The event core keeps no pointer into a class once its event is gone. */
static void probe_class_put(struct trace_event_class *class)
{
	struct probe_class *pc = container_of(class, struct probe_class, class);

	guard(mutex)(&probe_classes_lock);
	if (--pc->users)
		return;
	list_del(&pc->list);
	kfree(pc);
}

static void probe_event_free(struct probe_event *ev)
{
	unsigned int i;

	for (i = 0; i < ev->nr_field_names; i++)
		kfree(ev->field_names[i]);
	kfree(ev->field_names);
	if (ev->call.class)
		probe_class_put(ev->call.class);
	kfree(ev->call.name);
	kfree_const(ev->call.print_fmt);
	kfree(ev);
}

/**
 * trace_probe_init - give a new probe its own event
 * @tp: the probe, its arguments not yet parsed
 * @event: the event name
 * @group: the group name
 * @kind: what the front end's events share
 *
 * Return: 0 or a negative errno.
 */
int trace_probe_init(struct trace_probe *tp, const char *event,
		     const char *group, const struct probe_kind *kind)
{
	struct probe_event *ev;

	if (!event || !group)
		return -EINVAL;
	ev = kzalloc(sizeof(*ev) + kind->data_size, GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	INIT_LIST_HEAD(&ev->files);
	INIT_LIST_HEAD(&ev->fields);
	ev->call.class = probe_class_get(kind, group);
	ev->call.name = kstrdup(event, GFP_KERNEL);
	ev->call.event.funcs = kind->funcs;
	ev->call.flags = kind->flags;
	tp->event = ev;
	hlist_add_head(&tp->list, &ev->probes);
	if (!ev->call.name || !ev->call.class) {
		trace_probe_unlink(tp);
		return -ENOMEM;
	}
	return 0;
}

/**
 * trace_probe_unlink - detach a probe from its event, freeing the event
 *	with its last probe
 * @tp: the probe
 */
void trace_probe_unlink(struct trace_probe *tp)
{
	struct probe_event *ev = tp->event;

	hlist_del_init(&tp->list);
	tp->event = NULL;
	if (ev && hlist_empty(&ev->probes))
		probe_event_free(ev);
}

/**
 * trace_probe_cleanup - release what a probe owns, and its event if last
 * @tp: the probe
 */
void trace_probe_cleanup(struct trace_probe *tp)
{
	unsigned int i;

	for (i = 0; i < tp->nr_args; i++)
		traceprobe_free_probe_arg(&tp->args[i]);
	kfree(tp->entry_arg);
	tp->entry_arg = NULL;
	if (tp->event)
		trace_probe_unlink(tp);
}

/**
 * trace_probe_append - move a new probe onto an existing event
 * @tp: the new probe, alone on the event trace_probe_init() gave it
 * @to: a probe of the existing event
 *
 * @tp goes last: the event's first probe stays its primary.
 *
 * Return: 0, or -EBUSY if @tp's event has other probes.
 */
int trace_probe_append(struct trace_probe *tp, struct trace_probe *to)
{
	struct hlist_node *last = &to->list;

	if (trace_probe_has_sibling(tp))
		return -EBUSY;
	trace_probe_unlink(tp);
	tp->event = to->event;
	while (last->next)
		last = last->next;
	hlist_add_behind(&tp->list, last);
	return 0;
}

/*
 * Registered probe events by group and name, under event_mutex: defining
 * a probe looks its event up, and must not cost a walk of all the events
 * already defined.
 */
static DEFINE_HASHTABLE(probe_events_by_name, 10);

/* The events of the probe front ends, all of them in the index. */
#define PROBE_EVENT_FLAGS	(TRACE_EVENT_FL_KPROBE | TRACE_EVENT_FL_UPROBE | \
				 TRACE_EVENT_FL_EPROBE | TRACE_EVENT_FL_FPROBE)

/* The event of a kprobe (no front-end data) fits kmalloc-192. */
static_assert(sizeof(struct probe_event) <= 192);

static u32 probe_event_hash(const char *group, const char *event)
{
	return jhash(event, strlen(event), jhash(group, strlen(group), 0));
}

static struct probe_event *probe_event_lookup(const char *group,
					      const char *event)
{
	struct probe_event *ev;

	hash_for_each_possible(probe_events_by_name, ev, by_name,
			       probe_event_hash(group, event))
		if (!strcmp(ev->call.name, event) &&
		    !strcmp(ev->call.class->system, group))
			return ev;
	return NULL;
}

/**
 * trace_probe_find_event - find a registered probe event
 * @group: its group
 * @event: its name
 *
 * Call with event_mutex held.
 *
 * Return: the event's first probe, or NULL. The caller checks the kind of
 * event (&trace_event_call.flags).
 */
struct trace_probe *trace_probe_find_event(const char *group,
					   const char *event)
{
	struct probe_event *ev = probe_event_lookup(group, event);

	lockdep_assert_held(&event_mutex);
	return ev ? trace_probe_primary_from_call(&ev->call) : NULL;
}

/* Is @group/@event taken by an event not a probe's (a tracepoint, say)? */
static bool other_event_exists(const char *group, const char *event)
{
	struct trace_event_call *call;
	const char *system, *name;

	list_for_each_entry(call, &ftrace_events, list) {
		if (call->flags & PROBE_EVENT_FLAGS)
			continue;
		system = call->class->system;
		/* Most differ at once: no call for those, of some 2,000. */
		if (!system || system[0] != group[0] || strcmp(system, group))
			continue;
		name = trace_event_name(call);
		if (name && !strcmp(name, event))
			return true;
	}
	return false;
}

/**
 * trace_probe_register_event_call - make a probe's event visible
 * @tp: the probe
 *
 * Return: 0, -EEXIST if the name is taken, or a negative errno.
 */
int trace_probe_register_event_call(struct trace_probe *tp)
{
	struct probe_event *ev = tp->event;
	const char *group = trace_probe_group_name(tp);
	const char *event = trace_probe_name(tp);
	int ret;

	lockdep_assert_held(&event_mutex);
	if (probe_event_lookup(group, event) || other_event_exists(group, event))
		return -EEXIST;
	if (!register_trace_event(&ev->call.event))
		return -ENODEV;
	ret = trace_add_event_call(&ev->call);
	if (ret) {
		unregister_trace_event(&ev->call.event);
		return ret;
	}
	hash_add(probe_events_by_name, &ev->by_name,
		 probe_event_hash(group, event));
	return 0;
}

/**
 * trace_probe_unregister_event_call - remove a probe's event
 * @tp: the probe
 *
 * Return: 0, or -EBUSY if the event is in use.
 */
int trace_probe_unregister_event_call(struct trace_probe *tp)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	ret = trace_remove_event_call(&tp->event->call);
	if (!ret)
		hash_del(&tp->event->by_name);
	return ret;
}

/**
 * trace_probe_get_file_link - find the link of an enabled file
 * @tp: a probe of the event
 * @file: the file
 *
 * Return: the link, or NULL.
 */
struct event_file_link *trace_probe_get_file_link(struct trace_probe *tp,
						  struct trace_event_file *file)
{
	struct event_file_link *link;

	trace_probe_for_each_link(link, tp)
		if (link->file == file)
			return link;
	return NULL;
}

/**
 * trace_probe_add_file - record into an instance's file
 * @tp: a probe of the event
 * @file: the file being enabled
 *
 * Return: 0 or -ENOMEM.
 */
int trace_probe_add_file(struct trace_probe *tp, struct trace_event_file *file)
{
	struct event_file_link *link = kmalloc(sizeof(*link), GFP_KERNEL);

	if (!link)
		return -ENOMEM;
	link->file = file;
	/*
	 * The link is complete before a handler can find it, and the flag
	 * is set after it, so a handler that sees the flag finds a file.
	 */
	list_add_tail_rcu(&link->list, &tp->event->files);
	trace_probe_set_flag(tp, TP_FLAG_TRACE);
	return 0;
}

/**
 * trace_probe_remove_file - stop recording into an instance's file
 * @tp: a probe of the event
 * @file: the file being disabled
 *
 * Handlers may still be walking the list: the link is freed after a
 * grace period.
 *
 * Return: 0 or -ENOENT.
 */
int trace_probe_remove_file(struct trace_probe *tp,
			    struct trace_event_file *file)
{
	struct event_file_link *link = trace_probe_get_file_link(tp, file);

	if (!link)
		return -ENOENT;
	list_del_rcu(&link->list);
	/* No instance left: the handler need not walk the list at all. */
	if (list_empty(&tp->event->files))
		trace_probe_clear_flag(tp, TP_FLAG_TRACE);
	kvfree_rcu_mightsleep(link);
	return 0;
}

/**
 * trace_probe_compare_arg_type - can two probes share an event
 * @a: one probe
 * @b: the other
 *
 * Return: 0 if their arguments agree in name, type and count, else the
 * 1-based index of the first that does not.
 */
int trace_probe_compare_arg_type(struct trace_probe *a, struct trace_probe *b)
{
	unsigned int i, n = min(a->nr_args, b->nr_args);

	for (i = 0; i < n; i++)
		if (a->args[i].type != b->args[i].type ||
		    a->args[i].count != b->args[i].count ||
		    strcmp(a->args[i].name, b->args[i].name))
			return i + 1;
	return a->nr_args == b->nr_args ? 0 : n + 1;
}

/**
 * trace_probe_match_command_args - do "NAME=FETCHARG" words match a probe
 * @tp: the probe
 * @argc: words
 * @argv: the words
 *
 * Return: true if each word is the corresponding argument as shown.
 */
bool trace_probe_match_command_args(struct trace_probe *tp,
				    int argc, const char **argv)
{
	int i;

	if (argc > tp->nr_args)
		return false;
	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if (!eq || strncmp(argv[i], tp->args[i].name, eq - argv[i]) ||
		    tp->args[i].name[eq - argv[i]] ||
		    strcmp(eq + 1, tp->args[i].comm))
			return false;
	}
	return true;
}

/**
 * trace_probe_update_args - resolve the symbols a probe's arguments name
 * @tp: the probe
 *
 * Return: 0, or -ENOENT if a symbol is not (yet) in the kernel.
 */
int trace_probe_update_args(struct trace_probe *tp)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < tp->nr_args && !ret; i++)
		ret = traceprobe_update_arg(&tp->args[i]);
	return ret;
}

static bool same_arg_texts(struct trace_probe *a, struct trace_probe *b)
{
	unsigned int i;

	for (i = 0; i < a->nr_args; i++)
		if (strcmp(a->args[i].comm, b->args[i].comm))
			return false;
	return true;
}

/**
 * trace_probe_join_event - give a new probe its event
 * @tp: the new probe, its event from trace_probe_init() set up
 * @old: a probe of the event already named like @tp's, or NULL
 * @other_kind: @old is not of @tp's kind (entry or return)
 * @same_place: tells whether two probes probe the same place
 *
 * Without @old, @tp's event is registered.  With it, @tp joins @old's
 * event if its arguments have the same names and types, and no probe of
 * that event already probes @tp's place with @tp's arguments.  Call with
 * event_mutex held, during a command: refusals are logged.
 *
 * Return: 0, or -EEXIST or another negative errno.
 */
int trace_probe_join_event(struct trace_probe *tp, struct trace_probe *old,
			   bool other_kind,
			   bool (*same_place)(struct trace_probe *,
					      struct trace_probe *))
{
	struct trace_probe *pos;
	int which;

	if (!old) {
		which = trace_probe_register_event_call(tp);
		if (which == -EEXIST) {
			trace_probe_log_set_index(0);
			trace_probe_log_err(0, EVENT_EXIST);
		} else if (which) {
			pr_warn("Failed to register probe event(%d)\n", which);
		}
		return which;
	}
	if (other_kind) {
		trace_probe_log_set_index(0);
		trace_probe_log_err(0, DIFF_PROBE_TYPE);
		return -EEXIST;
	}
	which = trace_probe_compare_arg_type(tp, old);
	if (which) {
		/* Argument i (from 1) is word i + 1 of the command. */
		trace_probe_log_set_index(which + 1);
		trace_probe_log_err(0, DIFF_ARG_TYPE);
		return -EEXIST;
	}
	trace_probe_for_each_sibling(pos, old) {
		if (same_place(pos, tp) && same_arg_texts(pos, tp)) {
			trace_probe_log_set_index(0);
			trace_probe_log_err(0, SAME_PROBE);
			return -EEXIST;
		}
	}
	return trace_probe_append(tp, old);
}

/**
 * trace_probe_leave_event - undo trace_probe_join_event()
 * @tp: the probe
 */
void trace_probe_leave_event(struct trace_probe *tp)
{
	if (trace_probe_has_sibling(tp))
		trace_probe_unlink(tp);
	else
		trace_probe_unregister_event_call(tp);
}

/**
 * trace_probe_run_command - run a line of kprobe_events or uprobe_events
 * @raw_command: the line
 * @ops: the kind of dynamic event the file defines
 *
 * Return: 0 or a negative errno; -EINVAL for a line that is not of @ops'
 * kind at all.
 */
int trace_probe_run_command(const char *raw_command,
			    struct dyn_event_operations *ops)
{
	int ret;

	if (raw_command[0] == '-')
		return dyn_event_release(raw_command, ops);
	ret = dyn_event_create(raw_command, ops);
	return ret == -ECANCELED ? -EINVAL : ret;
}

/* Undo what a consumer's enabling added: @file's link, or perf's flag. */
static void probe_drop_consumer(struct trace_probe *tp,
				struct trace_event_file *file)
{
	if (file)
		trace_probe_remove_file(tp, file);
	else
		trace_probe_clear_flag(tp, TP_FLAG_PROFILE);
}

/*
 * Record into @file, or for perf if NULL.  The first consumer arms the
 * probes, after its file or flag is in place, so that no hit finds
 * nowhere to go.
 */
static int probe_enable(struct trace_probe *tp, struct trace_event_file *file,
			const struct probe_arming *arming)
{
	bool was_enabled = trace_probe_is_enabled(tp);
	int ret;

	if (file) {
		ret = trace_probe_add_file(tp, file);
		if (ret)
			return ret;
	} else {
		trace_probe_set_flag(tp, TP_FLAG_PROFILE);
	}
	if (was_enabled)
		return 0;
	ret = arming->arm_all(tp);
	if (ret)
		probe_drop_consumer(tp, file);
	return ret;
}

static int probe_disable(struct trace_probe *tp, struct trace_event_file *file,
			 const struct probe_arming *arming)
{
	unsigned int flags;
	bool last;

	if (file && !trace_probe_get_file_link(tp, file))
		return -ENOENT;
	flags = trace_probe_load_flags(tp);
	last = file ? !(flags & TP_FLAG_PROFILE) &&
		      list_is_singular(&tp->event->files) :
		      !(flags & TP_FLAG_TRACE);
	/*
	 * The last consumer going: disarm first.  A hit counts itself (the
	 * profile file) before it looks for where to record; disarmed after,
	 * the probes would count hits with nowhere to record them for as long
	 * as disarming all of the event's probes takes.  Disarming waits for
	 * running handlers where the mechanism can (unregistering an fprobe);
	 * the others read the file list under RCU, which outlives the link.
	 */
	if (last)
		arming->disarm_all(tp);
	probe_drop_consumer(tp, file);
	return 0;
}

/*
 * The event core's requests, for a front end whose consumers are the
 * instances' files and perf: the first to come arms the probes of the
 * event, the last to go disarms them.  Perf's open, close, add and del
 * need nothing of a probe.
 */
static int probe_class_reg(struct trace_event_call *call, enum trace_reg type,
			   void *data)
{
	struct probe_class *pc = container_of(call->class, struct probe_class,
					      class);
	const struct probe_arming *arming = pc->kind->arming;
	struct trace_probe *tp = trace_probe_primary_from_call(call);

	if (WARN_ON_ONCE(!tp))
		return -ENODEV;
	switch (type) {
	case TRACE_REG_REGISTER:
		return probe_enable(tp, data, arming);
	case TRACE_REG_UNREGISTER:
		return probe_disable(tp, data, arming);
#ifdef CONFIG_PERF_EVENTS
	case TRACE_REG_PERF_REGISTER:
		return probe_enable(tp, NULL, arming);
	case TRACE_REG_PERF_UNREGISTER:
		return probe_disable(tp, NULL, arming);
#endif
	default:
		return 0;
	}
}

/*
 * kprobe_events and uprobe_events list the dynamic events of one kind,
 * kprobe_profile and uprobe_profile count their hits.  The files' inode
 * holds the front end's struct probe_tracefs, and the seq_file that.
 */
static const struct probe_tracefs *probe_tracefs_of(struct seq_file *m)
{
	return m->private;
}

static int probe_events_show(struct seq_file *m, void *v)
{
	struct dyn_event *ev = v;

	return ev->ops == probe_tracefs_of(m)->ops ? ev->ops->show(m, ev) : 0;
}

static int probe_profile_show(struct seq_file *m, void *v)
{
	return probe_tracefs_of(m)->profile_show(m, v);
}

static const struct seq_operations probe_events_seq_ops = {
	.start = dyn_event_seq_start,
	.next = dyn_event_seq_next,
	.stop = dyn_event_seq_stop,
	.show = probe_events_show,
};

static const struct seq_operations probe_profile_seq_ops = {
	.start = dyn_event_seq_start,
	.next = dyn_event_seq_next,
	.stop = dyn_event_seq_stop,
	.show = probe_profile_show,
};

static int probe_seq_open(struct inode *inode, struct file *file,
			  const struct seq_operations *seq_ops)
{
	int ret = seq_open(file, seq_ops);

	if (!ret)
		((struct seq_file *)file->private_data)->private = inode->i_private;
	return ret;
}

/* Opening the events file to write with O_TRUNC removes all its events. */
static int probe_events_open(struct inode *inode, struct file *file)
{
	const struct probe_tracefs *fs = inode->i_private;
	int ret = security_locked_down(LOCKDOWN_TRACEFS);

	if (!ret && (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC))
		ret = fs->release_all ? fs->release_all() :
					dyn_events_release_all(fs->ops);
	if (ret < 0)
		return ret;
	return probe_seq_open(inode, file, &probe_events_seq_ops);
}

static ssize_t probe_events_write(struct file *file, const char __user *buffer,
				  size_t count, loff_t *ppos)
{
	const struct probe_tracefs *fs = file_inode(file)->i_private;

	return trace_parse_run_command(file, buffer, count, ppos, fs->run);
}

static int probe_profile_open(struct inode *inode, struct file *file)
{
	int ret = security_locked_down(LOCKDOWN_TRACEFS);

	return ret ?: probe_seq_open(inode, file, &probe_profile_seq_ops);
}

static const struct file_operations probe_events_fops = {
	.owner = THIS_MODULE,
	.open = probe_events_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
	.write = probe_events_write,
};

static const struct file_operations probe_profile_fops = {
	.owner = THIS_MODULE,
	.open = probe_profile_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

/**
 * trace_probe_create_files - make a front end's files in tracefs' top
 * @events: the name of the file that lists and defines its events
 * @profile: the name of the file that counts their hits
 * @fs: what the files act on; it must outlive them
 */
void __init trace_probe_create_files(const char *events, const char *profile,
				     const struct probe_tracefs *fs)
{
	trace_create_file(events, TRACE_MODE_WRITE, NULL, (void *)fs,
			  &probe_events_fops);
	trace_create_file(profile, TRACE_MODE_READ, NULL, (void *)fs,
			  &probe_profile_fops);
}

/* Word 0's event name, if it has one: a bad one is refused. */
static int define_event_name(struct probe_definition *def)
{
	trace_probe_log_set_index(0);
	if (!def->event)
		return 0;
	return traceprobe_parse_event_name(&def->event, &def->group, def->gbuf,
					   def->event - def->argv[0]);
}

/* More argument words than a probe holds are refused, at the first. */
static int define_arg_count(unsigned int nr_words)
{
	if (nr_words <= MAX_TRACE_ARGS)
		return 0;
	trace_probe_log_set_index(2);
	trace_probe_log_err(0, TOO_MANY_ARGS);
	return -E2BIG;
}

/* The argument words, expanded for the place if the front end asks it. */
static int define_arg_words(struct probe_definition *def,
			    const struct probe_definer *d)
{
	const char **words = def->argv + 2;

	if (d->expand_args)
		return trace_probe_expand_words(&def->args, def->nr_words,
						words, &def->ctx);
	def->args.argc = def->nr_words;
	def->args.argv = words;
	return define_arg_count(def->nr_words);
}

/* Each argument word into the probe's argument of the same rank. */
static int define_args(struct probe_definition *def)
{
	int i, ret;

	for (i = 0; i < def->args.argc; i++) {
		/* Word i + 2 of the command, for the error log. */
		trace_probe_log_set_index(i + 2);
		def->ctx.offset = 0;
		ret = traceprobe_parse_probe_arg(def->tp, i, def->args.argv[i],
						 &def->ctx);
		if (ret)
			return ret;
	}
	return 0;
}

/* From word 0 to the probe, all but registering it. */
static int define_probe(struct probe_definition *def,
			const struct probe_definer *d)
{
	struct trace_probe *tp;
	int ret = 0;

	if (d->count_first)
		ret = define_arg_count(def->nr_words);
	if (!ret && d->name_first)
		ret = define_event_name(def);
	if (!ret) {
		trace_probe_log_set_index(1);
		ret = d->parse_place(def);
	}
	if (!ret && !d->name_first)
		ret = define_event_name(def);
	if (ret)
		return ret;
	if (!def->event) {
		d->default_name(def);
		def->event = def->name;
	}
	if (d->prepare) {
		ret = d->prepare(def);
		if (ret)
			return ret;
	}
	ret = define_arg_words(def, d);
	if (ret)
		return ret;
	tp = d->alloc(def);
	if (IS_ERR(tp))
		return PTR_ERR(tp);
	def->tp = tp;
	ret = define_args(def);
	if (!ret && d->check_args)
		ret = d->check_args(def);
	if (!ret)
		ret = traceprobe_set_print_fmt(tp, def->print);
	return ret;
}

/**
 * trace_probe_define - run a definition written to a probe events file
 * @raw_command: the definition
 * @d: the front end's part
 * @def: the state of the definition, zeroed, inside the front end's own
 *
 * Every front end's definitions go the same way: the front end claims the
 * command, its place is parsed, then the event's name, the argument words
 * are expanded, the probe is made, its arguments parsed into programs, its
 * print fmt written, and it is added.  What a front end does differently
 * is in @d's callbacks.
 *
 * Return: 0 once the probe is added, -ECANCELED if the command is not the
 * front end's, or a negative errno, the cause in the error log.
 */
int trace_probe_define(const char *raw_command, const struct probe_definer *d,
		       struct probe_definition *def)
{
	char **argv;
	int ret;

	argv = argv_split(GFP_KERNEL, raw_command, &def->argc);
	if (!argv)
		return -ENOMEM;
	if (!def->argc) {
		argv_free(argv);
		return 0;
	}
	def->argv = (const char **)argv;
	def->nr_words = def->argc - 2;
	ret = d->claim(def);
	if (!ret) {
		trace_probe_log_init(d->log_name, def->argc, def->argv);
		ret = define_probe(def, d);
		if (!ret) {
			ret = d->add(def);
			if (!ret)
				def->tp = NULL;	/* the event's now */
		}
		if (def->tp)
			d->free(def->tp);
		traceprobe_finish_parse(&def->ctx);
		trace_probe_log_clear();
		trace_probe_free_words(&def->args);
	}
	if (d->release)
		d->release(def);
	argv_free(argv);
	return ret;
}
