/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing a probe hit's record: into each instance's ring buffer the event
 * is enabled in, and for perf.  Included by the front ends, after
 * trace_probe_fetch.h's engine, which this inlines into their handlers.
 *
 * A record is the common head every event has, the words that say where
 * the probe hit (one or two, or none for an event probe), then the
 * arguments: each at the offset the format file gives it, a string as a
 * __data_loc word pointing into the dynamic area after them.
 *
 *   +--------------+--------------+--------+--------+---------+-----------+
 *   | trace_entry  | word 0       | word 1 | arg 0  | arg 1   | "str\0"   |
 *   | type, flags, | ip, or func  | ret_ip | u64    | len<<16 |           |
 *   | preempt, pid | (or vaddr[]) |        |        | | offs -+-->        |
 *   +--------------+--------------+--------+--------+---------+-----------+
 *   |<----------- head_size ---------------->|<- tp->size ->|<- dsize ->|
 *
 * A __data_loc offset counts from the start of the record, so a record's
 * arguments are the same bytes in every buffer that records the hit: they
 * are fetched once, into the first buffer, and copied into the others.
 * The copy is made while the first record is still reserved: a committed
 * record belongs to the buffer's readers, who may take its page away.
 * When perf takes the hit too, the first buffer is perf's, which is the
 * hit's own until it is submitted (probe_hit_record_perf()).
 */
#ifndef _TRACE_PROBE_RECORD_H
#define _TRACE_PROBE_RECORD_H

#include <linux/perf_event.h>
#include <linux/trace_events.h>

#include "trace_probe_fetch.h"

/**
 * struct probe_hit - one hit, as it is recorded
 * @tp: the probe hit
 * @env: what its argument programs read
 * @regs: the registers at the hit, if the hit has a pt_regs: what perf
 *	samples, and what a stack trace trigger starts from (a kernel hit's)
 * @head: the words after the common head
 * @nhead: how many of @head the record has
 * @args: the arguments, already fetched (uprobes fetch them where they
 *	may fault pages in), or NULL to run the programs
 * @sized: @dsize is known: given with @args, or measured for the first
 *	consumer and kept for the others
 * @dsize: the bytes of strings after the fixed arguments
 */
struct probe_hit {
	struct trace_probe	*tp;
	struct probe_fetch_env	env;
	struct pt_regs		*regs;
	unsigned long		head[2];
	unsigned int		nhead;
	const void		*args;
	bool			sized;
	int			dsize;
};

/*
 * A kernel hit's struct probe_hit, but for its head words: field by field,
 * where an initializer would clear the whole of it first, on every hit.
 */
static nokprobe_inline void probe_hit_init(struct probe_hit *hit,
					   struct trace_probe *tp,
					   struct pt_regs *regs,
					   struct ftrace_regs *fregs,
					   void *edata,
					   struct pt_regs *trigger_regs)
{
	hit->tp = tp;
	hit->env.regs = regs;
	hit->env.fregs = fregs;
	hit->env.edata = edata;
	hit->env.rec = NULL;
	hit->env.foffs_base = 0;
	hit->env.user = false;
	hit->env.may_fault = false;
	hit->regs = trigger_regs;
	hit->args = NULL;
	hit->sized = false;
}

static nokprobe_inline unsigned int probe_hit_head_size(struct probe_hit *hit)
{
	return sizeof(struct trace_entry) + hit->nhead * sizeof(long);
}

/* Bytes of the hit's strings: measured once, for every consumer. */
static nokprobe_inline int probe_hit_dsize(struct probe_hit *hit)
{
	if (!hit->sized) {
		hit->dsize = probe_args_dynsize(hit->tp, &hit->env);
		hit->sized = true;
	}
	return hit->dsize;
}

/*
 * The words after the common head, then the arguments: copied from @src,
 * or from the hit's, or fetched.
 */
static nokprobe_inline void probe_hit_fill(struct probe_hit *hit, void *rec,
					   const void *src)
{
	unsigned int head = probe_hit_head_size(hit);
	unsigned long *word = rec + sizeof(struct trace_entry);
	unsigned int i;

	for (i = 0; i < hit->nhead; i++)
		word[i] = hit->head[i];
	src = src ?: hit->args;
	if (src)
		memcpy(rec + head, src, hit->tp->size + hit->dsize);
	else
		probe_args_store(rec + head, hit->tp, &hit->env, head,
				 hit->dsize);
}

/*
 * The event file flags under which trace_event_buffer_reserve() does more
 * than reserve room in the instance's buffer: PID filtering, the per-CPU
 * buffer that filtered and soft-disabled events are written to first, the
 * scratch buffer conditional triggers read when tracing is off.
 */
#define PROBE_RESERVE_SLOW_FLAGS					\
	(EVENT_FILE_FL_PID_FILTER | EVENT_FILE_FL_SOFT_DISABLED |	\
	 EVENT_FILE_FL_FILTERED | EVENT_FILE_FL_TRIGGER_COND)

/*
 * Without any of PROBE_RESERVE_SLOW_FLAGS, which is how events are
 * recorded most of the time, trace_event_buffer_reserve() comes down to a
 * reservation in the instance's buffer, made here without its four calls.
 * A flag set after the check is seen by probe_event_commit(), which then
 * goes through trace_event_buffer_commit(): it discards a record it
 * filters out, as it does for a record that trace_event_buffer_reserve()
 * reserved before the flag was set.  probe_record_fast() leaves such a
 * flag to the next hit (probe_event_commit_direct()).
 */
static nokprobe_inline void *
probe_event_reserve_direct(struct trace_event_buffer *fbuffer,
			   struct trace_event_file *file, unsigned long len)
{
	/* The context trace_event_buffer_reserve() would record. */
	unsigned int trace_ctx = tracing_gen_ctx_dec();
	struct trace_entry *entry;

	fbuffer->trace_ctx = trace_ctx;
	fbuffer->trace_file = file;
	fbuffer->buffer = file->tr->array_buffer.buffer;
	fbuffer->event = ring_buffer_lock_reserve(fbuffer->buffer, len);
	if (!fbuffer->event)
		return NULL;
	/*
	 * The common head, as trace_buffer_lock_reserve() writes it, which
	 * would look up the entry a second time, out of line.
	 */
	entry = ring_buffer_event_data(fbuffer->event);
	fbuffer->entry = entry;
	tracing_generic_entry_update(entry, file->event_call->event.type,
				     trace_ctx);
	return entry;
}

/* Reserve a record in @file's buffer, as trace_event_buffer_reserve(). */
static nokprobe_inline void *probe_event_reserve(struct trace_event_buffer *fbuffer,
						 struct trace_event_file *file,
						 unsigned long len)
{
	if (unlikely(READ_ONCE(file->flags) & PROBE_RESERVE_SLOW_FLAGS))
		return trace_event_buffer_reserve(fbuffer, file, len);
	return probe_event_reserve_direct(fbuffer, file, len);
}

/*
 * Commit a record reserved by probe_event_reserve().  Most of the time the
 * commit is the ring buffer's alone, made here as the function tracer
 * makes its own: trace_event_buffer_commit() would find that out after a
 * call and six tests.  __buffer_unlock_commit() also takes a record
 * trace_event_buffer_reserve() put in the per-CPU scratch buffer.
 */
static nokprobe_inline void probe_event_commit(struct trace_event_buffer *fbuffer)
{
	if (likely(trace_event_commit_plain(fbuffer->trace_file)))
		__buffer_unlock_commit(fbuffer->buffer, fbuffer->event);
	else
		trace_event_buffer_commit(fbuffer);
}

/*
 * Commit the record probe_record_fast() reserved, for a file it found
 * without any of PROBE_RECORD_SLOW_FLAGS: a flag set since then is for
 * the next hit, as it would be had it been set just after this one.  The
 * record is never in the scratch buffer, so a plain commit is what
 * __buffer_unlock_commit() does after its test for that buffer.  The test
 * reads a per-CPU pointer with this_cpu_read(), which disables and
 * enables preemption around the read, already disabled while a record is
 * reserved: 14 instructions on arm64.
 */
static nokprobe_inline void
probe_event_commit_direct(struct trace_event_buffer *fbuffer,
			  struct pt_regs *trigger_regs)
{
	if (likely(trace_commit_plain(fbuffer->trace_file->tr))) {
		__this_cpu_write(trace_taskinfo_save, true);
		ring_buffer_unlock_commit(fbuffer->buffer);
	} else {
		/*
		 * A copy goes out of line, so that the caller's stays in
		 * registers.  The regs are for a stack trace trigger.
		 */
		struct trace_event_buffer out = *fbuffer;

		out.regs = trigger_regs;
		trace_event_buffer_commit(&out);
	}
}

/*
 * Reserve and fill the hit's record in @file, its arguments copied from
 * @src if not NULL; the caller commits @fbuffer.  Return the record's
 * arguments, or NULL if the file takes no record of the hit.
 */
static nokprobe_inline void *probe_hit_write(struct probe_hit *hit,
					     struct trace_event_file *file,
					     struct trace_event_buffer *fbuffer,
					     const void *src)
{
	unsigned int head = probe_hit_head_size(hit);
	void *rec;

	if (trace_trigger_soft_disabled(file))
		return NULL;
	rec = probe_event_reserve(fbuffer, file,
				  head + hit->tp->size + probe_hit_dsize(hit));
	if (!rec)
		return NULL;
	/* A user hit's stack trace trigger shows the kernel's stack. */
	fbuffer->regs = hit->env.user ? NULL : hit->regs;
	probe_hit_fill(hit, rec, src);
	return rec + head;
}

/*
 * The event file flags under which a hit is not recorded by
 * probe_record_fast(): triggers, soft-disable and PID filtering
 * (trace_trigger_soft_disabled()), and what makes
 * trace_event_buffer_reserve() do more than reserve.
 */
#define PROBE_RECORD_SLOW_FLAGS						\
	(EVENT_FILE_FL_TRIGGER_MODE | EVENT_FILE_FL_SOFT_DISABLED |	\
	 EVENT_FILE_FL_PID_FILTER | PROBE_RESERVE_SLOW_FLAGS)

/*
 * The file a hit of an event is written into by probe_record_fast() and
 * probe_record_string(), @first being the first entry of its non-empty
 * list @files: the only one, and without any of PROBE_RECORD_SLOW_FLAGS;
 * else NULL.
 */
static nokprobe_inline struct trace_event_file *
probe_record_sole_file(struct list_head *files, struct list_head *first)
{
	struct event_file_link *link;

	link = list_entry(first, struct event_file_link, list);
	if (unlikely(READ_ONCE(first->next) != files ||
		     (READ_ONCE(link->file->flags) & PROBE_RECORD_SLOW_FLAGS)))
		return NULL;
	return link->file;
}

/**
 * probe_record_fast - record the commonest hits, inline
 * @tp: the probe hit
 * @regs: the registers at the hit, or NULL for an fprobe
 * @fregs: ftrace's registers, for an fprobe
 * @edata: the words a return probe's entry saved
 * @head: the words after the common head
 * @nhead: how many (a constant where this is inlined)
 * @trigger_regs: what fbuffer.regs is set to
 *
 * A record of fixed size (no string among the arguments) into the one
 * file the event is enabled in, which has none of PROBE_RECORD_SLOW_FLAGS:
 * how events are recorded most of the time.  Nothing here builds a struct
 * probe_hit, and arguments that are words of the hit are copied with no
 * program run: the front end does the rest out of line, for every other
 * hit (a probe's one string through probe_record_string()).
 *
 * Return: false, having done nothing, if the hit is not of this kind.
 */
static nokprobe_inline bool probe_record_fast(struct trace_probe *tp,
					      struct pt_regs *regs,
					      struct ftrace_regs *fregs,
					      void *edata,
					      const unsigned long *head,
					      unsigned int nhead,
					      struct pt_regs *trigger_regs)
{
	/* Every field is set before it is read: not worth zeroing on a hit. */
	struct trace_event_buffer fbuffer __uninitialized;
	unsigned int hsize = sizeof(struct trace_entry) + nhead * sizeof(long);
	struct list_head *files = &tp->event->files;
	struct trace_event_file *file;
	struct list_head *first;
	unsigned long *word;
	unsigned int i;
	void *rec;

	if (unlikely(tp->arg_kinds & PROBE_ARGS_DYNAMIC))
		return false;
	/*
	 * The list's first entry, read as list_first_or_null_rcu() reads it,
	 * but tested against the head once: the NULL that macro would make
	 * of an empty list would be tested again.
	 */
	first = READ_ONCE(files->next);
	if (unlikely(first == files))
		return true;
	file = probe_record_sole_file(files, first);
	if (unlikely(!file))
		return false;
	rec = probe_event_reserve_direct(&fbuffer, file, hsize + tp->size);
	if (!rec)
		return true;
	word = rec + sizeof(struct trace_entry);
	for (i = 0; i < nhead; i++)
		word[i] = head[i];
	/*
	 * One environment a branch: the words' stays in registers, where
	 * one shared with the out-of-line call would be built in memory on
	 * every hit.
	 */
	if (unlikely(tp->arg_kinds & PROBE_ARGS_GENERAL)) {
		struct probe_fetch_env env = {
			.regs = regs, .fregs = fregs, .edata = edata,
		};

		probe_args_store_fixed(rec + hsize, tp, &env);
	} else {
		struct probe_fetch_env env = {
			.regs = regs, .fregs = fregs, .edata = edata,
		};

		probe_args_store_words(rec + hsize, tp, &env);
	}
	probe_event_commit_direct(&fbuffer, trigger_regs);
	return true;
}

#ifdef PROBE_RECORD_ONE_STRING
/*
 * A front end that records a probe's one string on its own path defines
 * PROBE_RECORD_ONE_STRING before it includes this file, and inlines
 * probe_record_string() there; the others carry none of its code.
 */

/**
 * probe_args_store_others - fill the fixed arguments but one
 * @data: the argument area of the record
 * @tp: the probe
 * @env: the hit
 * @skip: the argument the caller stores
 *
 * For the path of a probe's one string (probe_record_string()), which the
 * front ends inline: out of line, it carries none of the other arguments'
 * programs, nor the registers they need, into that path's stack frame.
 */
static noinline void probe_args_store_others(void *data,
					     struct trace_probe *tp,
					     struct probe_fetch_env *env,
					     const struct probe_arg *skip)
{
	const struct probe_arg *a;
	unsigned int i;

	for (i = 0, a = tp->args; i < tp->nr_args; i++, a++)
		if (a != skip)
			fetch_arg_store_fixed(a, env, data + a->offset);
}
NOKPROBE_SYMBOL(probe_args_store_others);

/*
 * The bytes of a string, NUL included, probe_record_string() reads onto
 * the stack: a file's name, a command, a device's name fit.
 */
#define PROBE_SHORT_STRING	64

/**
 * probe_record_string - record a hit of a probe whose one dynamic argument
 *	is a string, reading the string once
 * @tp: the probe hit (PROBE_ARGS_ONE_STRING)
 * @env: the hit, not a uprobe's own task context
 * @head: the words after the common head
 * @nhead: how many
 * @trigger_regs: what fbuffer.regs is set to
 *
 * For the hits probe_record_fast() would take but for the string, inlined
 * into the front end's own out-of-line path for them, which a hit reaches
 * without the fast path's stack frame.  The general path reads a string
 * twice, to size the record and then to fill it, through loops over
 * every argument built for any number of strings and arrays of them.
 * Here the string is read once, onto the stack, and copied into a record
 * of its size.  One that fills the stack's bytes is read on from the
 * last of them (where the NUL that cut it went): measured, then copied
 * into the record after them, as the general path would read it all.
 *
 * Return: false, having done nothing, if the hit is not of this kind.
 */
static nokprobe_inline bool probe_record_string(struct trace_probe *tp,
						struct probe_fetch_env *env,
						const unsigned long *head,
						unsigned int nhead,
						struct pt_regs *trigger_regs)
{
	const int part = PROBE_SHORT_STRING - 1;
	struct trace_event_buffer fbuffer __uninitialized;
	/*
	 * Only the bytes read are copied: not worth zeroing on a hit.  The
	 * room after them takes the string's last word whole.
	 */
	char str[PROBE_SHORT_STRING + sizeof(long) - 1] __uninitialized;
	unsigned int hsize = sizeof(struct trace_entry) + nhead * sizeof(long);
	struct list_head *files = &tp->event->files;
	const struct probe_arg *sarg = tp->args;
	struct trace_event_file *file;
	const struct fetch_prog *p;
	struct list_head *first;
	unsigned long *word, addr;
	void *rec, *data, *dyn;
	unsigned int i;
	int len = 0, dsize;
	bool found;
	u32 loc;

	first = READ_ONCE(files->next);
	if (unlikely(first == files))
		return true;
	file = probe_record_sole_file(files, first);
	if (!file)
		return false;
	/*
	 * A load and a branch for each fixed argument before it: cheaper
	 * than an index kept in struct trace_probe, whose address the
	 * compiler computes again at each use.
	 */
	while (!sarg->dynamic)
		sarg++;
	p = &sarg->prog;
	found = !fetch_target(p, env, &addr);
	if (found) {
		len = fetch_string_copy(p, env, addr, str, PROBE_SHORT_STRING,
					true);
		if (len == PROBE_SHORT_STRING) {
			len = fetch_strlen(p, env, addr + part);
			if (len > 0)
				len = min_t(int, len + part, MAX_STRING_SIZE);
		}
	}
	/*
	 * What the general path stores: no location for a string whose
	 * address could not be read, an empty one for a string that could
	 * not be.  Made before the record is reserved, from what is known
	 * by then: one word kept across the calls, where the length and
	 * whether the address was read would be two.
	 */
	dsize = max(len, 0);
	loc = found ? make_data_loc(dsize, hsize + tp->size) : 0;
	rec = probe_event_reserve_direct(&fbuffer, file,
					 hsize + tp->size + dsize);
	if (!rec)
		return true;
	word = rec + sizeof(struct trace_entry);
	for (i = 0; i < nhead; i++)
		word[i] = head[i];
	data = rec + hsize;
	dyn = data + tp->size;
	if (tp->nr_args > 1) {
		/* A copy for the call: the hit's then stays in registers. */
		struct probe_fetch_env others = *env;

		probe_args_store_others(data, tp, &others, sarg);
	}
	if (len > PROBE_SHORT_STRING) {
		/* Read on; a string that changed since is cut, with a NUL. */
		memcpy(dyn, str, part);
		len = fetch_string_copy(p, env, addr + part, dyn + part,
					len - part, false);
		if (len > 0)
			len += part;
		fetch_set_loc(len, data + sarg->offset, dyn, rec);
	} else {
		if (len > 0)
			memcpy(dyn, str, len);
		*(u32 *)(data + sarg->offset) = loc;
	}
	probe_event_commit_direct(&fbuffer, trigger_regs);
	return true;
}
#endif /* PROBE_RECORD_ONE_STRING */

/**
 * probe_hit_record_file - write a hit's record into one event file
 * @hit: the hit
 * @file: the file
 */
static nokprobe_inline void probe_hit_record_file(struct probe_hit *hit,
						  struct trace_event_file *file)
{
	struct trace_event_buffer fbuffer;

	if (probe_hit_write(hit, file, &fbuffer, NULL))
		probe_event_commit(&fbuffer);
}

/**
 * probe_hit_record - write a hit's record into each file it is enabled in
 * @hit: the hit
 *
 * Each program runs once, for the first file's record, which stays
 * reserved until the other files' records have been copied from it.
 * Called under RCU (a probe handler's context is one), which keeps the
 * file links alive.
 */
static nokprobe_inline void probe_hit_record(struct probe_hit *hit)
{
	/* Every field is set before it is read: not worth zeroing on a hit. */
	struct trace_event_buffer first __uninitialized;
	struct trace_event_buffer fbuffer __uninitialized;
	struct event_file_link *link;
	void *src = NULL;

	trace_probe_for_each_link_rcu(link, hit->tp) {
		if (!src) {
			src = probe_hit_write(hit, link->file, &first, NULL);
			continue;
		}
		if (probe_hit_write(hit, link->file, &fbuffer, src))
			probe_event_commit(&fbuffer);
	}
	if (src)
		probe_event_commit(&first);
}

#ifdef CONFIG_PERF_EVENTS
/*
 * Room in this context's perf buffer for the hit's record, and the regs
 * perf samples, in @regs.  perf wants the record with its u32 size header
 * u64-aligned: the padding is zeroed with the rest, since the buffer is
 * perf's scratch and no byte of it may reach userspace.
 */
static nokprobe_inline void *probe_hit_perf_alloc(struct probe_hit *hit,
						  int *size,
						  struct pt_regs **regs,
						  int *rctx)
{
	unsigned int head = probe_hit_head_size(hit);
	void *rec;

	*size = ALIGN(head + hit->tp->size + probe_hit_dsize(hit) + sizeof(u32),
		      sizeof(u64)) - sizeof(u32);
	*regs = hit->regs;
#ifdef PROBE_FETCH_FTRACE_REGS
	/*
	 * An fprobe hit has no pt_regs: perf samples the per-context one it
	 * lends, filled with what a caller's regs would give it (ip, stack
	 * and frame).
	 */
	rec = perf_trace_buf_alloc(*size, regs, rctx);
	if (!rec)
		return NULL;
	*regs = ftrace_fill_perf_regs(hit->env.fregs, *regs);
#else
	rec = perf_trace_buf_alloc(*size, NULL, rctx);
	if (!rec)
		return NULL;
#endif
	memset(rec + head, 0, *size - head);
	return rec;
}

/**
 * probe_hit_perf - give a hit's record to the perf events that listen
 * @hit: the hit
 */
static nokprobe_inline void probe_hit_perf(struct probe_hit *hit)
{
	struct trace_event_call *call = trace_probe_event_call(hit->tp);
	struct hlist_head *listeners = this_cpu_ptr(call->perf_events);
	struct pt_regs *regs;
	int rctx, size;
	void *rec;

	if (hlist_empty(listeners))
		return;
	rec = probe_hit_perf_alloc(hit, &size, &regs, &rctx);
	if (!rec)
		return;
	probe_hit_fill(hit, rec, NULL);
	perf_trace_buf_submit(rec, size, rctx, call->event.type, 1, regs,
			      listeners, NULL);
}

/**
 * probe_hit_record_perf - record a hit for the instances and for perf
 * @hit: the hit
 *
 * When instances and perf both take the hit, the programs run once, into
 * perf's record, and the instances' records are copied from it.  The order
 * matters: the instances' records are committed before perf's is
 * submitted, because a BPF program perf runs for a listener may write
 * into an instance's buffer (bpf_trace_printk()), which a reservation
 * still held in this context would refuse it.  perf's buffer stays this
 * context's until then; the ring buffer's writers do not use it.
 */
static nokprobe_inline void probe_hit_record_perf(struct probe_hit *hit)
{
	struct trace_event_call *call = trace_probe_event_call(hit->tp);
	struct hlist_head *listeners = this_cpu_ptr(call->perf_events);
	unsigned int head = probe_hit_head_size(hit);
	struct pt_regs *regs;
	int rctx, size;
	void *rec;

	if (hlist_empty(listeners)) {
		probe_hit_record(hit);
		return;
	}
	rec = probe_hit_perf_alloc(hit, &size, &regs, &rctx);
	if (!rec) {
		probe_hit_record(hit);
		return;
	}
	probe_hit_fill(hit, rec, NULL);
	hit->args = rec + head;
	probe_hit_record(hit);
	perf_trace_buf_submit(rec, size, rctx, call->event.type, 1, regs,
			      listeners, NULL);
}
#endif

#endif /* _TRACE_PROBE_RECORD_H */
