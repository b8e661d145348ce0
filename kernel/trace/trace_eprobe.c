// SPDX-License-Identifier: GPL-2.0
/*
 * Event probes: "e[:[GRP/][EVENT]] SYSTEM.EVENT [ARGS] [if FILTER]" makes
 * an event whose records are computed from another event's records.
 *
 * An event probe hooks its target through the trigger list of the target
 * event's file, with a private trigger that the trigger file never shows:
 * the trigger hands it each record the target writes, already filtered by
 * FILTER, and it writes a record of its own.
 */
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include "trace_dynevent.h"
#include "trace_probe.h"
#include "trace_probe_record.h"

#define EPROBE_EVENT_SYSTEM	"eprobes"

/**
 * struct trace_eprobe - an event probe definition
 * @target: the event it reads, whose reference it holds
 * @target_group: the target's group
 * @target_name: the target's name
 * @filter_text: the "if" filter on the target's fields, or NULL
 * @devent: its entry in the dynamic event list
 * @tp: the event side; must be last, its arguments follow it
 */
struct trace_eprobe {
	struct trace_event_call	*target;
	const char		*target_group;
	const char		*target_name;
	char			*filter_text;
	struct dyn_event	devent;
	struct trace_probe	tp;
};

/**
 * struct eprobe_data - what the private trigger knows
 * @file: the event probe's file the records go to
 * @ep: the event probe
 */
struct eprobe_data {
	struct trace_event_file	*file;
	struct trace_eprobe	*ep;
};

/* Defined at the end: how dynamic_events creates, shows and frees ours. */
static struct dyn_event_operations eprobe_dyn_event_ops;

static struct trace_eprobe *to_trace_eprobe(struct dyn_event *ev)
{
	return container_of(ev, struct trace_eprobe, devent);
}

static void free_trace_eprobe(struct trace_eprobe *ep)
{
	if (!ep)
		return;
	/* The target event may go once nothing holds it. */
	if (ep->target)
		trace_event_put_ref(ep->target);
	kfree(ep->filter_text);
	kfree(ep->target_group);
	kfree(ep->target_name);
	trace_probe_cleanup(&ep->tp);
	kfree(ep);
}

static int ep_dyn_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_eprobe *ep = to_trace_eprobe(ev);

	seq_printf(m, "e:%s/%s %s.%s", trace_probe_group_name(&ep->tp),
		   trace_probe_name(&ep->tp), ep->target_group, ep->target_name);
	trace_probe_show_args(m, &ep->tp);
	seq_putc(m, '\n');
	trace_probe_dump_args(m, &ep->tp);
	return 0;
}

static int ep_dyn_free(struct dyn_event *ev)
{
	struct trace_eprobe *ep = to_trace_eprobe(ev);

	if (!trace_probe_has_sibling(&ep->tp)) {
		if (trace_probe_is_enabled(&ep->tp))
			return -EBUSY;
		if (trace_probe_unregister_event_call(&ep->tp))
			return -EBUSY;
	}
	dyn_event_remove(&ep->devent);
	trace_probe_unlink(&ep->tp);
	free_trace_eprobe(ep);
	return 0;
}

static bool ep_dyn_busy(struct dyn_event *ev)
{
	return trace_probe_is_enabled(&to_trace_eprobe(ev)->tp);
}

/*
 * "-:[GRP/]EVENT [SYSTEM.EVENT [ARGS]]": the name must match; the target,
 * if given, too; the arguments, if given, exactly.
 */
static bool ep_dyn_match(const char *system, const char *event,
			 int argc, const char **argv, struct dyn_event *ev)
{
	struct trace_eprobe *ep = to_trace_eprobe(ev);
	const char *sep;
	size_t len;

	if (system && strcmp(trace_probe_group_name(&ep->tp), system))
		return false;
	if (event[0] && strcmp(trace_probe_name(&ep->tp), event))
		return false;
	if (argc < 1)
		return true;
	sep = strpbrk(argv[0], "/.");
	if (!sep)
		return false;
	len = sep - argv[0];
	if (strncmp(ep->target_group, argv[0], len) || ep->target_group[len] ||
	    strcmp(ep->target_name, sep + 1))
		return false;
	return trace_probe_match_command_args(&ep->tp, argc - 1, argv + 1);
}

/* ---- The event --------------------------------------------------------- */

static int eprobe_define_fields(struct trace_event_call *call)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);

	if (WARN_ON_ONCE(!tp))
		return -ENOENT;
	return traceprobe_define_arg_fields(call,
			sizeof(struct eprobe_trace_entry_head), tp);
}

static struct trace_event_fields eprobe_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = eprobe_define_fields },
	{}
};

static enum print_line_t print_eprobe_event(struct trace_iterator *iter,
					    int flags, struct trace_event *event)
{
	struct eprobe_trace_entry_head *field = (void *)iter->ent;
	struct trace_seq *s = &iter->seq;
	struct trace_event *target;
	struct trace_eprobe *ep;
	struct trace_probe *tp;

	tp = trace_probe_primary_from_call(container_of(event,
							struct trace_event_call,
							event));
	if (WARN_ON_ONCE(!tp))
		goto out;
	ep = container_of(tp, struct trace_eprobe, tp);
	trace_seq_printf(s, "%s: (", trace_probe_name(tp));
	target = ftrace_find_event(ep->target->event.type);
	if (target) {
		struct trace_event_call *call =
			container_of(target, struct trace_event_call, event);

		trace_seq_printf(s, "%s.%s", call->class->system,
				 trace_event_name(call));
	} else {
		trace_seq_printf(s, "%u", ep->target->event.type);
	}
	trace_seq_putc(s, ')');
	if (trace_probe_print_args(s, tp->args, tp->nr_args, (u8 *)&field[1],
				   field))
		goto out;
	trace_seq_putc(s, '\n');
out:
	return trace_handle_return(s);
}

static struct trace_event_functions eprobe_funcs = {
	.trace = print_eprobe_event,
};

/* A record of the target arrived: write ours, from its fields. */
static void eprobe_record(struct eprobe_data *edata, void *rec)
{
	struct trace_eprobe *ep = edata->ep;
	struct probe_hit hit = { .tp = &ep->tp, .env = { .rec = rec } };

	if (WARN_ON_ONCE(trace_probe_event_call(&ep->tp) !=
			 edata->file->event_call))
		return;
	probe_hit_record_file(&hit, edata->file);
}

/* ---- The private trigger ----------------------------------------------- */

static void eprobe_trigger_func(struct event_trigger_data *data,
				struct trace_buffer *buffer, void *rec,
				struct ring_buffer_event *rbe)
{
	if (likely(rec))
		eprobe_record(data->private_data, rec);
}

/*
 * A user's trigger on the same event lists this one with it; it prints
 * nothing there.
 */
static int eprobe_trigger_print(struct seq_file *m,
				struct event_trigger_data *data)
{
	return 0;
}

/*
 * The command is never registered: it cannot be written to a trigger file,
 * so it needs no parse, reg or unreg, and it is attached and freed by this
 * file alone, so it needs no init or free.
 */
static struct event_command eprobe_trigger_cmd = {
	.name = "eprobe",
	.trigger_type = ETT_EVENT_EPROBE,
	.flags = EVENT_CMD_FL_NEEDS_REC,
	.trigger = eprobe_trigger_func,
	.print = eprobe_trigger_print,
};

/* Hook @ep to its target's file in @file's instance. */
static int eprobe_attach(struct trace_eprobe *ep, struct trace_event_file *file)
{
	struct event_trigger_data *trigger;
	struct trace_event_file *target;
	struct event_filter *filter = NULL;
	struct eprobe_data *edata;
	int ret = -ENOMEM;

	target = find_event_file(file->tr, ep->target_group, ep->target_name);
	if (!target)
		return -ENOENT;
	edata = kzalloc_obj(*edata);
	trigger = kzalloc_obj(*trigger);
	if (!edata || !trigger)
		goto fail;
	if (ep->filter_text) {
		ret = create_event_filter(file->tr, ep->target, ep->filter_text,
					  false, &filter);
		if (ret)
			goto fail;
	}
	edata->file = file;
	edata->ep = ep;
	trigger->flags = EVENT_TRIGGER_FL_PROBE;
	trigger->count = -1;
	trigger->cmd_ops = &eprobe_trigger_cmd;
	trigger->private_data = edata;
	INIT_LIST_HEAD(&trigger->list);
	RCU_INIT_POINTER(trigger->filter, filter);

	list_add_tail_rcu(&trigger->list, &target->triggers);
	trace_event_trigger_enable_disable(target, 1);
	update_cond_flag(target);
	return 0;
fail:
	free_event_filter(filter);
	kfree(edata);
	kfree(trigger);
	return ret;
}

/* @ep's trigger on @target, or NULL. */
static struct event_trigger_data *
eprobe_trigger_of(struct trace_eprobe *ep, struct trace_event_file *target)
{
	struct event_trigger_data *trigger;
	struct eprobe_data *edata;

	list_for_each_entry(trigger, &target->triggers, list) {
		edata = trigger->private_data;
		if (trigger->cmd_ops == &eprobe_trigger_cmd && edata->ep == ep)
			return trigger;
	}
	return NULL;
}

static int eprobe_detach(struct trace_eprobe *ep, struct trace_array *tr)
{
	struct event_trigger_data *trigger;
	struct trace_event_file *target;
	struct eprobe_data *edata;

	target = find_event_file(tr, ep->target_group, ep->target_name);
	if (!target)
		return -ENOENT;
	trigger = eprobe_trigger_of(ep, target);
	if (!trigger)
		return -ENODEV;
	edata = trigger->private_data;
	list_del_rcu(&trigger->list);
	trace_event_trigger_enable_disable(target, 0);
	update_cond_flag(target);
	/* The target's handlers may still run the trigger: wait for them. */
	tracepoint_synchronize_unregister();
	free_event_filter(rcu_access_pointer(trigger->filter));
	kfree(edata);
	kfree(trigger);
	return 0;
}

static int enable_trace_eprobe(struct trace_event_call *call,
			       struct trace_event_file *file)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);
	struct trace_probe *pos, *undo;
	bool was_enabled;
	int ret;

	if (WARN_ON_ONCE(!tp))
		return -ENODEV;
	/* Event probes have no perf side. */
	if (!file)
		return 0;
	was_enabled = trace_probe_is_enabled(tp);
	ret = trace_probe_add_file(tp, file);
	if (ret || was_enabled)
		return ret;

	trace_probe_for_each_sibling(pos, tp) {
		ret = eprobe_attach(container_of(pos, struct trace_eprobe, tp), file);
		if (!ret)
			continue;
		trace_probe_for_each_sibling(undo, tp) {
			if (undo == pos)
				break;
			eprobe_detach(container_of(undo, struct trace_eprobe, tp),
				      file->tr);
		}
		trace_probe_remove_file(tp, file);
		return ret;
	}
	return 0;
}

static int disable_trace_eprobe(struct trace_event_call *call,
				struct trace_event_file *file)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);
	struct trace_probe *pos;

	if (WARN_ON_ONCE(!tp))
		return -ENODEV;
	if (!file)
		return 0;
	if (!trace_probe_get_file_link(tp, file))
		return -ENOENT;
	if (list_is_singular(&tp->event->files))
		trace_probe_for_each_sibling(pos, tp)
			eprobe_detach(container_of(pos, struct trace_eprobe, tp),
				      file->tr);
	trace_probe_remove_file(tp, file);
	return 0;
}

static int eprobe_register(struct trace_event_call *event,
			   enum trace_reg type, void *data)
{
	switch (type) {
	case TRACE_REG_REGISTER:
		return enable_trace_eprobe(event, data);
	case TRACE_REG_UNREGISTER:
		return disable_trace_eprobe(event, data);
	default:
		return 0;
	}
}

/* What the event probes share. */
static const struct probe_kind ep_kind = {
	.reg		= eprobe_register,
	.fields_array	= eprobe_fields_array,
	.funcs		= &eprobe_funcs,
	.flags		= TRACE_EVENT_FL_EPROBE,
};

/* ---- Definitions ------------------------------------------------------- */

/* The target event, with a reference; probe events cannot be targets. */
static struct trace_event_call *get_target_event(const char *system,
						 const char *name)
{
	struct trace_event_call *call;
	const char *cname;

	list_for_each_entry(call, &ftrace_events, list) {
		if (call->flags & (TRACE_EVENT_FL_IGNORE_ENABLE |
				   TRACE_EVENT_FL_KPROBE |
				   TRACE_EVENT_FL_UPROBE |
				   TRACE_EVENT_FL_EPROBE))
			continue;
		if (!call->class->system || strcmp(system, call->class->system))
			continue;
		cname = trace_event_name(call);
		if (!cname || strcmp(name, cname))
			continue;
		return trace_event_try_get_ref(call) ? call : NULL;
	}
	return NULL;
}

static struct trace_eprobe *alloc_trace_eprobe(const char *group,
					       const char *event,
					       struct trace_event_call *target,
					       int nargs)
{
	struct trace_eprobe *ep;
	int ret;

	if (!target)
		return ERR_PTR(-ENODEV);
	ep = (struct trace_eprobe *)trace_probe_alloc(sizeof(*ep), nargs);
	if (!ep) {
		trace_event_put_ref(target);
		return ERR_PTR(-ENOMEM);
	}
	ep->target = target;
	ep->target_name = kstrdup(trace_event_name(target), GFP_KERNEL);
	ep->target_group = kstrdup(target->class->system, GFP_KERNEL);
	ep->tp.nr_args = nargs;
	ret = -ENOMEM;
	if (!ep->target_name || !ep->target_group)
		goto fail;
	ret = trace_probe_init(&ep->tp, event, group, &ep_kind);
	if (ret)
		goto fail;
	dyn_event_init(&ep->devent, &eprobe_dyn_event_ops);
	return ep;
fail:
	free_trace_eprobe(ep);
	return ERR_PTR(ret);
}

/* "if FILTER": rebuild it from its words and check it against the target. */
static int parse_eprobe_filter(struct trace_eprobe *ep, int argc,
			       const char *argv[])
{
	struct event_filter *check = NULL;
	int ret;

	if (!argc) {
		trace_probe_log_err(0, NO_EP_FILTER);
		return -EINVAL;
	}
	ep->filter_text = trace_probe_join_words(argc, argv);
	if (!ep->filter_text)
		return -ENOMEM;
	/* Parse it once now, on the target's fields, to refuse it early. */
	ret = create_event_filter(top_trace_array(), ep->target, ep->filter_text,
				  true, &check);
	free_event_filter(check);
	if (ret) {
		kfree(ep->filter_text);
		ep->filter_text = NULL;
	}
	return ret;
}

/* Make @ep's event and list it; refusals are logged. */
static int eprobe_add_event(struct trace_eprobe *ep)
{
	struct trace_event_call *call = trace_probe_event_call(&ep->tp);
	int ret;

	mutex_lock(&event_mutex);
	ret = trace_probe_join_event(&ep->tp, NULL, false, NULL);
	if (!ret) {
		ret = dyn_event_add(&ep->devent, call);
		if (ret)
			trace_probe_leave_event(&ep->tp);
	}
	mutex_unlock(&event_mutex);
	return ret;
}

/**
 * struct ep_definition - an event probe definition, as its place is parsed
 * @def: the definition
 * @target_event: the target's name, in word 1 or in @tgbuf
 * @target_group: the target's group, in @tgbuf
 * @filter_idx: the first word of the filter after "if", 0 if none
 * @tgbuf: room for the target's group name
 */
struct ep_definition {
	struct probe_definition	def;
	const char		*target_event;
	const char		*target_group;
	int			filter_idx;
	char			tgbuf[MAX_EVENT_NAME_LEN];
};

#define to_ep_definition(d)	container_of(d, struct ep_definition, def)

static int ep_claim(struct probe_definition *def)
{
	if (def->argc < 2 || def->argv[0][0] != 'e')
		return -ECANCELED;
	def->group = EPROBE_EVENT_SYSTEM;
	def->event = strchr(def->argv[0] + 1, ':');
	if (def->event)
		def->event++;
	return 0;
}

/* "e[:[GRP/][EVENT]] SYSTEM.EVENT [ARGS] [if FILTER]" */
static int ep_parse_place(struct probe_definition *def)
{
	struct ep_definition *ed = to_ep_definition(def);
	int i, ret;

	ed->target_event = def->argv[1];
	ret = traceprobe_parse_event_name(&ed->target_event, &ed->target_group,
					  ed->tgbuf, 0);
	if (ret || !ed->target_event || !ed->target_group) {
		trace_probe_log_err(0, NO_EVENT_INFO);
		return -EINVAL;
	}
	/* "... ARGS if FILTER": the arguments end at "if". */
	for (i = def->argc - 1; i >= 2; i--)
		if (!strcmp(def->argv[i], "if"))
			ed->filter_idx = i + 1;
	if (ed->filter_idx)
		def->nr_words = ed->filter_idx - 3;
	def->ctx.flags = TPARG_FL_KERNEL | TPARG_FL_TEVENT;
	def->print = PROBE_PRINT_EVENT;
	return 0;
}

static void ep_default_name(struct probe_definition *def)
{
	strscpy(def->name, to_ep_definition(def)->target_event,
		sizeof(def->name));
}

/* The target's reference goes to the probe, then its filter is checked. */
static struct trace_probe *ep_alloc(struct probe_definition *def)
{
	struct ep_definition *ed = to_ep_definition(def);
	struct trace_event_call *target;
	struct trace_eprobe *ep;
	int ret;

	mutex_lock(&event_mutex);
	target = get_target_event(ed->target_group, ed->target_event);
	ep = alloc_trace_eprobe(def->group, def->event, target, def->args.argc);
	mutex_unlock(&event_mutex);
	if (IS_ERR(ep)) {
		if (PTR_ERR(ep) == -ENODEV) {
			trace_probe_log_set_index(1);
			trace_probe_log_err(0, BAD_ATTACH_EVENT);
		}
		return ERR_CAST(ep);
	}
	def->ctx.event = target;

	if (ed->filter_idx) {
		trace_probe_log_set_index(ed->filter_idx);
		ret = parse_eprobe_filter(ep, def->argc - ed->filter_idx,
					  def->argv + ed->filter_idx);
		if (ret) {
			free_trace_eprobe(ep);
			return ERR_PTR(-EINVAL);
		}
	}
	return &ep->tp;
}

/* The arguments' symbols resolved now: the target's hits run them. */
static int ep_check_args(struct probe_definition *def)
{
	int i, ret;

	for (i = 0; i < def->tp->nr_args; i++) {
		ret = traceprobe_update_arg(&def->tp->args[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int ep_add(struct probe_definition *def)
{
	return eprobe_add_event(container_of(def->tp, struct trace_eprobe, tp));
}

static void ep_free(struct trace_probe *tp)
{
	free_trace_eprobe(container_of(tp, struct trace_eprobe, tp));
}

static const struct probe_definer ep_definer = {
	.log_name	= "event_probe",
	.name_first	= true,
	.claim		= ep_claim,
	.parse_place	= ep_parse_place,
	.default_name	= ep_default_name,
	.alloc		= ep_alloc,
	.check_args	= ep_check_args,
	.add		= ep_add,
	.free		= ep_free,
};

static int ep_dyn_create(const char *raw_command)
{
	struct ep_definition ed = {};

	return trace_probe_define(raw_command, &ep_definer, &ed.def);
}

static struct dyn_event_operations eprobe_dyn_event_ops = {
	.create = ep_dyn_create,
	.show = ep_dyn_show,
	.is_busy = ep_dyn_busy,
	.free = ep_dyn_free,
	.match = ep_dyn_match,
};

/* Register early, so that boot code can define event probes. */
static __init int trace_events_eprobe_init_early(void)
{
	int ret = dyn_event_register(&eprobe_dyn_event_ops);

	if (ret)
		pr_warn("Could not register eprobe_dyn_event_ops\n");
	return ret;
}
core_initcall(trace_events_eprobe_init_early);
