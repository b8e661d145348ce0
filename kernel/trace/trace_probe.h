/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probe events: the definition language shared by kprobe, kretprobe,
 * uprobe and event-probe events, the compiled form of a fetch argument,
 * and the event each probe records into.
 *
 * A definition is parsed once, when it is written to a tracefs file, into
 * a struct trace_probe: one struct probe_arg per argument, each holding a
 * struct fetch_prog, a fixed program that trace_probe_fetch.h runs on every
 * hit without allocating or locking.  Several probes may share one event
 * (a "multiprobe"): they then share its struct probe_event, and must agree
 * on the arguments' names and types.
 */
#ifndef _TRACE_PROBE_H
#define _TRACE_PROBE_H

#include <linux/bitops.h>
#include <linux/btf.h>
#include <linux/kprobes.h>
#include <linux/limits.h>
#include <linux/perf_event.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "trace.h"
#include "trace_output.h"
#include "trace_probe_prog.h"

/* Per event flags: who consumes the event's records. */
#define TP_FLAG_TRACE		1
#define TP_FLAG_PROFILE		2

/*
 * A dynamic field is stored as a u32 "data location" in the fixed part of
 * the record: its length in the upper half, its offset from the start of
 * the record in the lower half.  The same layout the event core's
 * __get_str() reads.
 */
static nokprobe_inline u32 make_data_loc(u32 len, u32 offs)
{
	return len << 16 | (u16)offs;
}

static nokprobe_inline u32 get_loc_len(u32 loc)
{
	return loc >> 16;
}

static nokprobe_inline void *get_loc_data(u32 *loc, void *rec)
{
	return rec + (u16)*loc;
}

/**
 * struct event_file_link - an instance's file of an event, while enabled
 * @file: the trace_event_file
 * @list: in &probe_event.files, read under RCU by the probe handlers
 */
struct event_file_link {
	struct trace_event_file		*file;
	struct list_head		list;
};

/**
 * struct probe_event - the event one or more probes record into
 * @flags: TP_FLAG_TRACE, TP_FLAG_PROFILE
 * @nr_field_names: entries of @field_names
 * @call: the event; its class is shared with the front end's other
 *	events of the group (trace_probe.c), its fields are @fields
 * @files: enabled instance files, an &struct event_file_link list
 * @fields: its &struct ftrace_event_field list, which the event core
 *	fills from the probe's arguments and frees with the event
 * @probes: the probes recording into it, the first one primary
 * @field_names: copies of the field names and types the event core
 *	points to; they outlive the first probe that defined them
 * @by_name: in the index of registered probe events by group and name
 * @data: front end's per-event data (the uprobe filter)
 */
struct probe_event {
	unsigned int			flags;
	unsigned int			nr_field_names;
	struct trace_event_call		call;
	struct list_head		files;
	struct list_head		fields;
	struct hlist_head		probes;
	char				**field_names;
	struct hlist_node		by_name;
	unsigned long			data[];
};

/* From an event to the probes that record into it, and back. */
static inline struct probe_event *
trace_probe_event_from_call(struct trace_event_call *call)
{
	return container_of(call, struct probe_event, call);
}

static inline struct trace_probe *
trace_probe_primary_from_call(struct trace_event_call *call)
{
	struct hlist_node *first = trace_probe_event_from_call(call)->probes.first;

	return first ? hlist_entry(first, struct trace_probe, list) : NULL;
}

static inline struct trace_event_call *
trace_probe_event_call(struct trace_probe *tp)
{
	return &tp->event->call;
}

/* Walk the probes of @tp's event, @tp among them. */
#define trace_probe_for_each_sibling(pos, tp)	\
	hlist_for_each_entry(pos, &(tp)->event->probes, list)

static inline bool trace_probe_has_sibling(struct trace_probe *tp)
{
	return !hlist_is_singular_node(&tp->list, &tp->event->probes);
}

/*
 * The flags are set after what they enable (a file link, the perf side) is
 * in place, and a handler that sees a flag must see that too: release on
 * set, acquire on test.
 */
static inline unsigned int trace_probe_load_flags(struct trace_probe *tp)
{
	/* Pairs with the release in trace_probe_set_flag(). */
	return smp_load_acquire(&tp->event->flags);
}

static inline void trace_probe_set_flag(struct trace_probe *tp,
					unsigned int flag)
{
	unsigned int flags = tp->event->flags | flag;

	/* Pairs with the acquire in trace_probe_load_flags(). */
	smp_store_release(&tp->event->flags, flags);
}

/*
 * A handler may still see a cleared flag set: what the flag enabled is
 * freed only after a grace period.
 */
static inline void trace_probe_clear_flag(struct trace_probe *tp,
					  unsigned int flag)
{
	WRITE_ONCE(tp->event->flags, tp->event->flags & ~flag);
}

static inline bool trace_probe_test_flag(struct trace_probe *tp,
					 unsigned int flag)
{
	return (trace_probe_load_flags(tp) & flag) != 0;
}

/* An instance's file or perf has the event. */
static inline bool trace_probe_is_enabled(struct trace_probe *tp)
{
	unsigned int users = TP_FLAG_TRACE | TP_FLAG_PROFILE;

	return (trace_probe_load_flags(tp) & users) != 0;
}

static inline const char *trace_probe_group_name(struct trace_probe *tp)
{
	return trace_probe_event_call(tp)->class->system;
}

static inline const char *trace_probe_name(struct trace_probe *tp)
{
	return trace_event_name(trace_probe_event_call(tp));
}

int traceprobe_update_arg(struct probe_arg *arg);

/* How the fixed fields before the arguments are printed. */
enum probe_print_type {
	PROBE_PRINT_NORMAL,
	PROBE_PRINT_RETURN,
	PROBE_PRINT_EVENT,
};

int traceprobe_set_print_fmt(struct trace_probe *tp, enum probe_print_type ptype);
int traceprobe_define_arg_fields(struct trace_event_call *event_call,
				 size_t offset, struct trace_probe *tp);
int trace_probe_print_args(struct trace_seq *s, struct probe_arg *args,
			   int nr_args, u8 *data, void *field);

/* A probe's life: allocated, given its event, registered, freed. */
struct probe_kind;
struct trace_probe *trace_probe_alloc(size_t size, int nargs);
int trace_probe_init(struct trace_probe *tp, const char *event,
		     const char *group, const struct probe_kind *kind);
int trace_probe_register_event_call(struct trace_probe *tp);
void trace_probe_cleanup(struct trace_probe *tp);

/* Several probes on one event. */
int trace_probe_join_event(struct trace_probe *tp, struct trace_probe *old,
			   bool other_kind,
			   bool (*same_place)(struct trace_probe *,
					      struct trace_probe *));
void trace_probe_leave_event(struct trace_probe *tp);
int trace_probe_append(struct trace_probe *tp, struct trace_probe *to);
void trace_probe_unlink(struct trace_probe *tp);
int trace_probe_compare_arg_type(struct trace_probe *a, struct trace_probe *b);
int trace_probe_update_args(struct trace_probe *tp);
bool trace_probe_match_command_args(struct trace_probe *tp,
				    int argc, const char **argv);

/* The instances' files an event records into. */
struct event_file_link *trace_probe_get_file_link(struct trace_probe *tp,
						  struct trace_event_file *file);
int trace_probe_add_file(struct trace_probe *tp, struct trace_event_file *file);
int trace_probe_remove_file(struct trace_probe *tp,
			    struct trace_event_file *file);
struct dyn_event;
struct dyn_event_operations;
int trace_probe_run_command(const char *raw_command,
			    struct dyn_event_operations *ops);

/**
 * struct probe_arming - how a front end puts an event's probes to work
 * @arm_all: arms every probe of the event, or, failing, none
 * @disarm_all: disarms them
 */
struct probe_arming {
	int	(*arm_all)(struct trace_probe *tp);
	void	(*disarm_all)(struct trace_probe *tp);
};

/**
 * struct probe_kind - what the events of one front end share
 * @reg: the event class's &trace_event_class.reg, or NULL for the one
 *	that arms the probes for the first consumer (an instance's file or
 *	perf) and disarms them after the last, with @arming
 * @fields_array: the class's fields before the arguments
 * @arming: with @reg NULL, how the event's probes are armed and disarmed
 * @funcs: how a record is printed
 * @flags: the event's TRACE_EVENT_FL_* flags
 * @data_size: bytes of front-end data at the end of each event
 *	(&probe_event.data)
 */
struct probe_kind {
	int				(*reg)(struct trace_event_call *call,
					       enum trace_reg type, void *data);
	struct trace_event_fields	*fields_array;
	const struct probe_arming	*arming;
	struct trace_event_functions	*funcs;
	int				flags;
	size_t				data_size;
};

/**
 * struct probe_tracefs - what a front end's tracefs files act on
 * @ops: the kind of dynamic event they list and define
 * @run: runs one line written to the events file
 * @release_all: removes every event of the kind at once, or NULL to remove
 *	them one at a time
 * @profile_show: prints an event's line of the profile file, if the event
 *	is of the kind
 */
struct probe_tracefs {
	struct dyn_event_operations	*ops;
	int				(*run)(const char *raw_command);
	int				(*release_all)(void);
	int				(*profile_show)(struct seq_file *m,
							struct dyn_event *ev);
};

/**
 * struct probe_definition - a definition on its way to becoming a probe
 * @argc: the command's words
 * @argv: word 0 is the kind and the event's name, word 1 the place, the
 *	rest the arguments
 * @nr_words: the argument words, from word 2 on (fewer when the command
 *	ends with something else, an event probe's filter)
 * @event: the event's name in word 0, or NULL; then, once parsed, the
 *	name, written or made from the place
 * @group: the default group; then the group, once the name is parsed
 * @args: the argument words, expanded when the front end asks it
 * @ctx: the parser's context for the arguments: where they are read
 * @tp: the probe, from the front end's @alloc until it is added
 * @print: how the record's fixed fields are printed
 * @name: room for an event name made from the place
 * @gbuf: room for the group's name
 *
 * The front end embeds it in a structure of its own, which holds what it
 * parsed from the place until the probe takes it.
 */
struct probe_definition {
	int				argc;
	const char			**argv;
	int				nr_words;
	const char			*event;
	const char			*group;
	struct probe_words		args;
	struct traceprobe_parse_context	ctx;
	struct trace_probe		*tp;
	enum probe_print_type		print;
	char				name[MAX_EVENT_NAME_LEN];
	char				gbuf[MAX_EVENT_NAME_LEN];
};

/**
 * struct probe_definer - how a front end turns a definition into a probe
 * @log_name: the front end's name in the error log
 * @name_first: the event's name is checked before the place (word 1)
 * @count_first: the argument words are counted before the place is
 *	parsed (a uprobe's file is not looked up for a definition with too
 *	many), else once they are expanded
 * @expand_args: "$arg*", "$argN", ":%pd" and ":%pD" are expanded for the
 *	place (trace_probe_expand_words())
 * @claim: -ECANCELED if the command is not the front end's, from word 0
 *	and the shape of word 1; sets @event, @group and the front end's
 *	first state.  Nothing is logged yet.
 * @parse_place: reads word 1 (and what else of word 0 the place needs);
 *	sets @ctx's flags and @print.  Logs what it refuses, or returns
 *	-ECANCELED after all.
 * @prepare: with the names known, what must be found before the
 *	arguments are read (a tracepoint), or NULL
 * @default_name: writes an event name made from the place to @name
 * @alloc: makes the probe for @args.argc arguments and returns it, or an
 *	ERR_PTR with what it refuses logged
 * @check_args: what the front end checks or sets once the arguments are
 *	parsed, or NULL
 * @add: registers the probe and lists its event; logs what it refuses
 * @free: frees a probe that was not added
 * @release: frees what @claim and @parse_place took and the probe did not,
 *	whatever came of the definition, or NULL
 *
 * trace_probe_define() calls them in this order, so that the errors of a
 * definition with more than one are logged in the order they stand in
 * the command, as they always were.
 */
struct probe_definer {
	const char		*log_name;
	bool			name_first;
	bool			count_first;
	bool			expand_args;
	int			(*claim)(struct probe_definition *def);
	int			(*parse_place)(struct probe_definition *def);
	int			(*prepare)(struct probe_definition *def);
	void			(*default_name)(struct probe_definition *def);
	struct trace_probe	*(*alloc)(struct probe_definition *def);
	int			(*check_args)(struct probe_definition *def);
	int			(*add)(struct probe_definition *def);
	void			(*free)(struct trace_probe *tp);
	void			(*release)(struct probe_definition *def);
};

int trace_probe_define(const char *raw_command, const struct probe_definer *d,
		       struct probe_definition *def);

void trace_probe_create_files(const char *events, const char *profile,
			      const struct probe_tracefs *fs);
void trace_probe_show_args(struct seq_file *m, struct trace_probe *tp);
#ifdef CONFIG_PROBE_EVENTS_DUMP_FETCHARG
void trace_probe_dump_args(struct seq_file *m, struct trace_probe *tp);
#else
static inline void trace_probe_dump_args(struct seq_file *m,
					 struct trace_probe *tp)
{
}
#endif
struct trace_probe *trace_probe_find_event(const char *group,
					   const char *event);
int trace_probe_unregister_event_call(struct trace_probe *tp);

#define trace_probe_for_each_link(pos, tp)	\
	list_for_each_entry(pos, &(tp)->event->files, list)
#define trace_probe_for_each_link_rcu(pos, tp)	\
	list_for_each_entry_rcu(pos, &(tp)->event->files, list)

#ifdef CONFIG_KPROBE_EVENTS
bool trace_kprobe_on_func_entry(struct trace_event_call *call);
bool trace_kprobe_error_injectable(struct trace_event_call *call);
#else
static inline bool trace_kprobe_on_func_entry(struct trace_event_call *call)
{
	return false;
}

static inline bool trace_kprobe_error_injectable(struct trace_event_call *call)
{
	return false;
}
#endif

#ifdef CONFIG_PERF_EVENTS
struct trace_event_call *
create_local_trace_kprobe(char *func, void *addr, unsigned long offs,
			  bool is_return);
void destroy_local_trace_kprobe(struct trace_event_call *event_call);
void release_local_trace_kprobe(struct trace_event_call *event_call);
void perf_kprobe_release(struct trace_event_call *tp_event);
struct trace_event_call *
create_local_trace_uprobe(char *name, unsigned long offs,
			  unsigned long ref_ctr_offset, bool is_return);
void destroy_local_trace_uprobe(struct trace_event_call *event_call);
#endif

/* Serializes the writers of probe definitions (trace_dynevent.c). */
extern struct mutex dyn_event_ops_mutex;

void trace_probe_log_init(const char *subsystem, int argc, const char **argv);
void trace_probe_log_clear(void);
char *trace_probe_join_words(int argc, const char **argv);

#if IS_ENABLED(CONFIG_PROBE_EVENTS_KUNIT_TEST)
/**
 * struct trace_probe_error - an error as the error log placed it
 * @err: its TP_ERR_* code
 * @pos: where its caret is, in the command's words joined by spaces
 */
struct trace_probe_error {
	int	err;
	int	pos;
};

/* The last error logged, which the parser's tests compare. */
extern struct trace_probe_error trace_probe_last_error;
const char *trace_probe_error_text(int err);
#endif

/**
 * struct uprobe_dispatch_data - what a uprobe hit passes to the fetch engine
 * @tu: the probe hit
 * @bp_addr: the breakpoint's user address
 */
struct uprobe_dispatch_data {
	struct trace_uprobe	*tu;
	unsigned long		bp_addr;
};

#endif /* _TRACE_PROBE_H */
