/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fetch engine: runs the arguments' programs on a probe hit.
 *
 * Included by each front end (through trace_probe_record.h), so that the
 * engine is inlined into its handler.  It runs in any context the probe
 * fires in (NMI included for kprobes), so it takes no lock, allocates
 * nothing and reads memory only through the nofault accessors.  A read
 * that faults stores zero for a number and an empty location, printed
 * "(fault)", for a string.
 *
 * A record is written in two passes: probe_args_dynsize() measures the
 * strings so that the record can be reserved, then probe_args_store()
 * fills it (trace_probe_record.h); a probe's one string is read once as
 * far as a buffer on the stack holds it (fetch_string_copy()).
 */
#ifndef _TRACE_PROBE_FETCH_H
#define _TRACE_PROBE_FETCH_H

#include <linux/kallsyms.h>
#include <linux/kmsan-checks.h>
#include <linux/kprobes.h>
#include <linux/uaccess.h>

#include "trace_probe.h"
#include "trace_probe_kernel.h"

/**
 * struct probe_fetch_env - what a hit gives the programs to read
 * @regs: the registers at the probe (kprobes, uprobes)
 * @fregs: ftrace's registers at a function's entry or return (fprobes)
 * @edata: the words a return probe saved at entry
 * @rec: the record an event probe's event just wrote
 * @foffs_base: what a file offset is added to, to make a user address
 * @watch_addr: the address a watchpoint that hit watches (wprobes)
 * @user: memory is user memory (uprobes)
 * @may_fault: the probed task's own context: user pages may be faulted in
 */
struct probe_fetch_env {
	struct pt_regs		*regs;
	struct ftrace_regs	*fregs;
	void			*edata;
	void			*rec;
	unsigned long		foffs_base;
	unsigned long		watch_addr;
	bool			user;
	bool			may_fault;
};

/*
 * The registers the programs read.  A kprobe or a uprobe stops the CPU
 * with a pt_regs; an fprobe gets ftrace's ftrace_regs, which on arm64 and
 * other DYNAMIC_FTRACE_WITH_ARGS architectures is no pt_regs but the
 * argument registers and the stack, frame and return pointers only.  A
 * front end whose hits give ftrace_regs (trace_fprobe.c) defines
 * PROBE_FETCH_FTRACE_REGS before it includes this file: its programs then
 * read through ftrace's accessors, with no pt_regs made up on each hit.
 * None of its programs reads a named register, which only a pt_regs holds:
 * the parser refuses %REG on an fprobe (TPARG_FL_FPROBE).
 *
 * A front end whose hits give either (trace_kprobe.c, where a probe armed
 * on an ftrace site may take ftrace_regs) defines PROBE_FETCH_EITHER_REGS:
 * a hit then reads the ftrace_regs when it has them.  Such a hit is one of
 * a probe none of whose registers is missing from them (PROBE_ARGS_REGS).
 */
#if defined(PROBE_FETCH_FTRACE_REGS) || defined(PROBE_FETCH_EITHER_REGS)
#define PROBE_FETCH_FREGS
/* The hit gave ftrace_regs: a constant where only they can be given. */
static nokprobe_inline bool fetch_has_fregs(const struct probe_fetch_env *env)
{
#ifdef PROBE_FETCH_FTRACE_REGS
	return true;
#else
	return env->fregs;
#endif
}
#endif

/*
 * A register by name: ftrace's registers hold it where the parser found
 * them to (@fregs_param), and a hit gives them only to a probe none of
 * whose registers is elsewhere (PROBE_ARGS_REGS).
 */
static nokprobe_inline unsigned long fetch_reg(struct probe_fetch_env *env,
					       const struct fetch_prog *p)
{
#ifdef PROBE_FETCH_FREGS
	if (fetch_has_fregs(env))
		return *(unsigned long *)((void *)arch_ftrace_regs(env->fregs) +
					  p->fregs_param);
#endif
	return regs_get_register(env->regs, p->param);
}

static nokprobe_inline unsigned long
fetch_kernel_stack_nth(struct probe_fetch_env *env, unsigned int n)
{
#ifdef PROBE_FETCH_FREGS
	if (fetch_has_fregs(env))
		return ftrace_regs_get_kernel_stack_nth(env->fregs, n);
#endif
	return regs_get_kernel_stack_nth(env->regs, n);
}

/* A uprobe's user stack, and a kprobe's kernel one: the regs' own. */
static nokprobe_inline unsigned long
fetch_stack_pointer(struct probe_fetch_env *env)
{
#ifdef PROBE_FETCH_FREGS
	if (fetch_has_fregs(env))
		return ftrace_regs_get_stack_pointer(env->fregs);
#endif
	return user_stack_pointer(env->regs);
}

static nokprobe_inline unsigned long
fetch_return_value(struct probe_fetch_env *env)
{
#ifdef PROBE_FETCH_FREGS
	if (fetch_has_fregs(env))
		return ftrace_regs_get_return_value(env->fregs);
#endif
	return regs_return_value(env->regs);
}

static nokprobe_inline unsigned long
fetch_argument(struct probe_fetch_env *env, unsigned int n)
{
#ifdef PROBE_FETCH_FREGS
	if (fetch_has_fregs(env))
		return ftrace_regs_get_argument(env->fregs, n);
#endif
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
	return regs_get_kernel_argument(env->regs, n);
#else
	/* Without the API the parser refuses $argN: nothing asks. */
	return 0;
#endif
}

/*
 * A scalar of kernel memory, as copy_from_kernel_nofault() reads it (the
 * architecture's check, page faults off, one access that a fault fixes
 * up), inline: most reads are of one aligned word, which its call and its
 * loops would cost the hit twice over.  Anything else goes through it.
 */
static nokprobe_inline int probe_read_kernel(void *dst, const void *src,
					     size_t size)
{
	unsigned long align = IS_ENABLED(CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS) ?
			      0 : (unsigned long)src | (unsigned long)dst;

	if ((size != 1 && size != 2 && size != 4 && size != 8) ||
	    (align & (size - 1)))
		return copy_from_kernel_nofault(dst, src, size);
	if (!copy_from_kernel_nofault_allowed(src, size))
		return -ERANGE;
	pagefault_disable();
	switch (size) {
	case 1:
		__get_kernel_nofault(dst, src, u8, fault);
		break;
	case 2:
		__get_kernel_nofault(dst, src, u16, fault);
		break;
	case 4:
		__get_kernel_nofault(dst, src, u32, fault);
		break;
	default:
		__get_kernel_nofault(dst, src, u64, fault);
		break;
	}
	pagefault_enable();
	kmsan_check_memory(src, size);
	return 0;
fault:
	pagefault_enable();
	return -EFAULT;
}

static nokprobe_inline int probe_read(struct probe_fetch_env *env, void *dst,
				      unsigned long addr, size_t size, bool user)
{
	const void __user *uaddr = (const void __user *)addr;

	if (user && env->may_fault)
		return copy_from_user(dst, uaddr, size) ? -EFAULT : 0;
	if (user || fetch_kernel_addr_is_user(addr))
		return copy_from_user_nofault(dst, uaddr, size);
	return probe_read_kernel(dst, (const void *)addr, size);
}

/* An event probe's field: its value, or the address of a string field. */
static nokprobe_inline unsigned long
fetch_event_field(struct ftrace_event_field *f, void *rec)
{
	void *addr = rec + f->offset;

	switch (f->filter_type) {
	case FILTER_DYN_STRING:
		return (unsigned long)rec + (*(u32 *)addr & 0xffff);
	case FILTER_RDYN_STRING:
		return (unsigned long)addr + sizeof(u32) + (*(u32 *)addr & 0xffff);
	case FILTER_STATIC_STRING:
		return (unsigned long)addr;
	case FILTER_PTR_STRING:
		return *(unsigned long *)addr;
	}
	if (f->size == sizeof(long))
		return *(unsigned long *)addr;
	switch (f->size) {
	case 1:
		return f->is_signed ? (long)*(s8 *)addr : *(u8 *)addr;
	case 2:
		return f->is_signed ? (long)*(s16 *)addr : *(u16 *)addr;
	case 4:
		return f->is_signed ? (long)*(s32 *)addr : *(u32 *)addr;
	}
	/* An array (or a field wider than a word): where it lies. */
	return (unsigned long)addr;
}

static nokprobe_inline unsigned long
fetch_base_value(const struct fetch_prog *p, struct probe_fetch_env *env)
{
	unsigned long val = 0;

	switch (p->base) {
	case FETCH_BASE_REG:
		return fetch_reg(env, p);
	case FETCH_BASE_STACK:
		if (!env->user)
			return fetch_kernel_stack_nth(env, p->param);
		probe_read(env, &val, fetch_stack_pointer(env) +
			   p->param * sizeof(long), sizeof(long), true);
		return val;
	case FETCH_BASE_STACKP:
		return fetch_stack_pointer(env);
	case FETCH_BASE_RETVAL:
		return fetch_return_value(env);
	case FETCH_BASE_ARG:
		return fetch_argument(env, p->param);
	case FETCH_BASE_EDATA:
		return *(unsigned long *)(env->edata + p->param);
	case FETCH_BASE_COMM:
		return (unsigned long)current->comm;
	case FETCH_BASE_IMM:
	case FETCH_BASE_SYMBOL:
		return p->param;
	case FETCH_BASE_DATA:
		return (unsigned long)p->data;
	case FETCH_BASE_FOFFS:
		return env->foffs_base + p->param;
	case FETCH_BASE_EFIELD:
		return fetch_event_field(p->data, env->rec);
	case FETCH_BASE_CURRENT:
		return (unsigned long)current;
	case FETCH_BASE_WADDR:
		return env->watch_addr;
	}
	return 0;
}

/* The value of an argument that fetch_prog_is_word(). */
static nokprobe_inline unsigned long fetch_word(const struct fetch_prog *p,
						struct probe_fetch_env *env)
{
	if (p->base == FETCH_BASE_REG)
		return fetch_reg(env, p);
	if (p->base == FETCH_BASE_ARG)
		return fetch_argument(env, p->param);
	return *(unsigned long *)(env->edata + p->param);
}

/*
 * this_cpu_ptr() of a value the program computed: only kernel probes
 * have them (the parser refuses them elsewhere), and their handlers run
 * with preemption off, so the CPU cannot change under the read.
 */
static nokprobe_inline unsigned long fetch_cpu_ptr(const struct fetch_prog *p,
						   unsigned int i,
						   unsigned long v)
{
	if (likely(!(p->percpu & BIT(i))))
		return v;
	return (unsigned long)this_cpu_ptr((void __percpu *)v);
}

/* The value after the first @n memory accesses, or -EFAULT. */
static nokprobe_inline int fetch_walk(const struct fetch_prog *p,
				      struct probe_fetch_env *env,
				      unsigned int n, unsigned long *val)
{
	unsigned long v = fetch_base_value(p, env);
	unsigned int i = 0;

	if (n && p->direct) {
		/* Racing its writers, as any probe's read does. */
		v = data_race(*(unsigned long *)(fetch_cpu_ptr(p, 0, v) +
						 p->offs[0]));
		i = 1;
	}
	for (; i < n; i++)
		if (probe_read(env, &v, fetch_cpu_ptr(p, i, v) + p->offs[i],
			       sizeof(v), env->user || (p->user & BIT(i))))
			return -EFAULT;
	*val = v;
	return 0;
}

/* Where the store reads: the final address (or value for RAW/SYMSTR). */
static nokprobe_inline int fetch_target(const struct fetch_prog *p,
					struct probe_fetch_env *env,
					unsigned long *val)
{
	unsigned int last;

	if (p->store == FETCH_STORE_RAW || p->store == FETCH_STORE_SYMSTR ||
	    !p->nderef)
		last = p->nderef;
	else
		last = p->nderef - 1;
	if (fetch_walk(p, env, last, val))
		return -EFAULT;
	*val = fetch_cpu_ptr(p, last, *val);
	if (last < p->nderef)
		*val += p->offs[last];
	return 0;
}

/* Uprobes read user memory, but $comm and "strings" are the kernel's. */
static nokprobe_inline bool fetch_store_is_user(const struct fetch_prog *p,
						struct probe_fetch_env *env)
{
	if (!p->nderef && (p->base == FETCH_BASE_COMM ||
			   p->base == FETCH_BASE_DATA))
		return false;
	return env->user || p->user_store;
}

/* The address of string @i of the argument, or -EFAULT. */
static nokprobe_inline int fetch_string_addr(const struct fetch_prog *p,
					     struct probe_fetch_env *env,
					     unsigned long target,
					     unsigned int i, unsigned long *addr)
{
	bool user = env->user || (p->nderef && (p->user & BIT(p->nderef - 1)));

	if (!p->count) {
		*addr = target;
		return 0;
	}
	/* An array of strings is an array of pointers to them. */
	return probe_read(env, addr, target + i * sizeof(long), sizeof(long), user);
}

static nokprobe_inline int fetch_strlen(const struct fetch_prog *p,
					struct probe_fetch_env *env,
					unsigned long addr)
{
	if (p->store == FETCH_STORE_SYMSTR) {
		/*
		 * In this block alone, where a string's hit does not zero it
		 * (INIT_STACK_ALL_ZERO) as it would at the function's top.
		 */
		char sym[KSYM_SYMBOL_LEN];

		return sprint_symbol(sym, addr) + 1;
	}
	if (!fetch_store_is_user(p, env))
		return fetch_store_strlen(addr);
	if (env->may_fault)
		return fetch_strlen_user_faulting(addr);
	return fetch_store_strlen_user(addr);
}

/**
 * fetch_string_copy - copy a string argument's string into a buffer
 * @p: the argument's program (a string, no array of them)
 * @env: the hit, not a uprobe's own task context
 * @addr: the string, as fetch_target() gave it
 * @buf: @max bytes, or with @room, @max + sizeof(long) - 1
 * @max: the longest string to copy, NUL included
 * @room: whether @buf has the bytes after @max, which a kernel string's
 *	copy may then fill with garbage after its NUL
 *
 * Memory read as the record's store would read it, in one pass where
 * that store measures the string, then copies it.
 *
 * Return: the length with the NUL (@max if cut, NUL put in), or a
 * negative errno.
 */
static nokprobe_inline int fetch_string_copy(const struct fetch_prog *p,
					     struct probe_fetch_env *env,
					     unsigned long addr, char *buf,
					     int max, bool room)
{
	if (fetch_store_is_user(p, env) || fetch_kernel_addr_is_user(addr))
		return strncpy_from_user_nofault(buf,
						 (const void __user *)addr, max);
	return __fetch_kernel_string(buf, addr, max, room);
}

/* Bytes of dynamic data one argument needs. */
static nokprobe_inline int fetch_arg_dynsize(const struct probe_arg *a,
					     struct probe_fetch_env *env)
{
	const struct fetch_prog *p = &a->prog;
	unsigned long target, addr;
	unsigned int i, n = p->count ?: 1;
	int len, total = 0;

	if (fetch_target(p, env, &target))
		return 0;
	for (i = 0; i < n; i++) {
		if (fetch_string_addr(p, env, target, i, &addr))
			continue;
		len = fetch_strlen(p, env, addr);
		if (len > 0)
			total += len;
	}
	return total;
}

/*
 * The general passes are out of line, in the kprobes blacklist: a handler
 * whose probe stores registers only then never carries their stack frame
 * (a symbol's name is formatted on it) or their spills.
 */
static noinline int probe_args_dynsize_general(struct trace_probe *tp,
					       struct probe_fetch_env *env)
{
	unsigned int i;
	int total = 0;

	for (i = 0; i < tp->nr_args; i++)
		if (tp->args[i].dynamic)
			total += fetch_arg_dynsize(&tp->args[i], env);
	return total;
}
NOKPROBE_SYMBOL(probe_args_dynsize_general);

/**
 * probe_args_dynsize - bytes of dynamic data a hit's record needs
 * @tp: the probe
 * @env: the hit
 *
 * Return: the total length of its string arguments, NULs included.
 */
static nokprobe_inline int probe_args_dynsize(struct trace_probe *tp,
					      struct probe_fetch_env *env)
{
	if (likely(!(tp->arg_kinds & PROBE_ARGS_DYNAMIC)))
		return 0;
	return probe_args_dynsize_general(tp, env);
}

/* A u8, u16, u32 or u64 at @p, by @size. */
static nokprobe_inline u64 fetch_get_sized(const void *p, unsigned int size)
{
	if (size == 1)
		return *(const u8 *)p;
	if (size == 2)
		return *(const u16 *)p;
	if (size == 4)
		return *(const u32 *)p;
	return *(const u64 *)p;
}

static nokprobe_inline void fetch_put_sized(void *p, u64 v, unsigned int size)
{
	if (size == 1)
		*(u8 *)p = v;
	else if (size == 2)
		*(u16 *)p = v;
	else if (size == 4)
		*(u32 *)p = v;
	else
		*(u64 *)p = v;
}

/*
 * Keep only the bitfield of the stored container: the shifts are for the
 * container's width; as a u64, both grow by the bits it lacks.
 */
static nokprobe_inline void fetch_bitfield(const struct fetch_prog *p, void *dest)
{
	unsigned int pad = 64 - 8 * p->bf_size;
	u64 v = fetch_get_sized(dest, p->bf_size);

	v = (v << (p->bf_lshift + pad)) >> (p->bf_rshift + pad);
	fetch_put_sized(dest, v, p->bf_size);
}

/* Store one string at *@loc's place; return the bytes it took. */
static nokprobe_inline int fetch_store_one_string(const struct fetch_prog *p,
						  struct probe_fetch_env *env,
						  unsigned long addr, u32 *loc,
						  void *base)
{
	char *data = get_loc_data(loc, base);
	int len;

	if (p->store == FETCH_STORE_SYMSTR) {
		char sym[KSYM_SYMBOL_LEN];

		len = sprint_symbol(sym, addr) + 1;
		if (len > get_loc_len(*loc))
			len = get_loc_len(*loc);
		if (len > 0) {
			memcpy(data, sym, len);
			data[len - 1] = '\0';
		}
		fetch_set_loc(len, loc, data, base);
		return len;
	}
	if (!fetch_store_is_user(p, env))
		return fetch_store_string(addr, loc, base);
	if (env->may_fault)
		return fetch_string_user_faulting(addr, loc, base);
	return fetch_store_string_user(addr, loc, base);
}

/* Store one argument that has no dynamic data at @dest. */
static nokprobe_inline void fetch_arg_store_fixed(const struct probe_arg *a,
						  struct probe_fetch_env *env,
						  void *dest)
{
	const struct fetch_prog *p = &a->prog;
	unsigned int i, n = p->count ?: 1;
	unsigned long target;

	if (fetch_prog_is_word(p)) {
		fetch_put_sized(dest, fetch_word(p, env), p->size);
		return;
	}

	if (fetch_target(p, env, &target)) {
		memset(dest, 0, a->type->size * n);
		return;
	}

	if (p->store == FETCH_STORE_RAW) {
		fetch_put_sized(dest, target, p->size);
	} else if (p->direct && p->nderef == 1) {
		/* Racing its writers, as any probe's read does. */
		fetch_put_sized(dest, data_race(fetch_get_sized((void *)target,
								p->size)),
				p->size);
	} else {
		for (i = 0; i < n; i++) {
			void *d = dest + i * p->size;

			if (probe_read(env, d, target + i * p->size, p->size,
				       fetch_store_is_user(p, env)))
				memset(d, 0, p->size);
		}
	}
	if (p->bf_rshift)
		for (i = 0; i < n; i++)
			fetch_bitfield(p, dest + i * p->size);
}

/*
 * Store one string argument (or array of strings): its locations at
 * @dest, the strings at @dyn, where @room bytes are left.  Return the
 * dynamic bytes used.
 */
static nokprobe_inline int fetch_arg_store_strings(const struct probe_arg *a,
						   struct probe_fetch_env *env,
						   void *dest, void *base,
						   void *dyn, int room)
{
	const struct fetch_prog *p = &a->prog;
	unsigned int i, n = p->count ?: 1;
	unsigned long target, addr;
	int used = 0, len;

	if (fetch_target(p, env, &target)) {
		memset(dest, 0, a->type->size * n);
		return 0;
	}

	for (i = 0; i < n; i++) {
		u32 *loc = dest + i * sizeof(u32);

		*loc = make_data_loc(room - used, dyn + used - base);
		if (fetch_string_addr(p, env, target, i, &addr)) {
			fetch_set_loc(0, loc, dyn + used, base);
			continue;
		}
		len = fetch_store_one_string(p, env, addr, loc, base);
		if (len > 0)
			used += len;
	}
	return used;
}

/*
 * Probes with a string among their arguments: the strings follow the
 * fixed area, one after the other, in the @dynsize bytes reserved for
 * them.
 */
static noinline void probe_args_store_general(void *data,
					      struct trace_probe *tp,
					      struct probe_fetch_env *env,
					      int header_size,
					      int dynsize)
{
	void *base = data - header_size;
	void *dyn = data + tp->size;
	unsigned int i;
	int used;

	for (i = 0; i < tp->nr_args; i++) {
		const struct probe_arg *a = &tp->args[i];

		if (!a->dynamic) {
			fetch_arg_store_fixed(a, env, data + a->offset);
			continue;
		}
		used = fetch_arg_store_strings(a, env, data + a->offset, base,
					       dyn, dynsize);
		dyn += used;
		dynsize -= used;
	}
}
NOKPROBE_SYMBOL(probe_args_store_general);

/*
 * Probes without strings, whose arguments read memory: kept apart from
 * probe_args_store_general() so that a hit runs none of the strings' code
 * and saves no more registers than this loop needs.
 */
static noinline void probe_args_store_fixed(void *data,
					    struct trace_probe *tp,
					    struct probe_fetch_env *env)
{
	unsigned int i;

	for (i = 0; i < tp->nr_args; i++)
		fetch_arg_store_fixed(&tp->args[i], env,
				      data + tp->args[i].offset);
}
NOKPROBE_SYMBOL(probe_args_store_fixed);

/**
 * probe_args_store_words - fill the arguments of a probe whose arguments
 *	are all words of the hit (no PROBE_ARGS_GENERAL)
 * @data: the argument area of the record
 * @tp: the probe
 * @env: the hit
 *
 * The commonest case: copies, and no program to run.
 */
static nokprobe_inline void probe_args_store_words(void *data,
						   struct trace_probe *tp,
						   struct probe_fetch_env *env)
{
	const struct probe_arg *a;
	unsigned int i;

	for (i = 0, a = tp->args; i < tp->nr_args; i++, a++)
		fetch_put_sized(data + a->offset, fetch_word(&a->prog, env),
				a->prog.size);
}

/**
 * probe_args_store - fill a record's arguments
 * @data: the argument area of the record
 * @tp: the probe
 * @env: the hit
 * @header_size: bytes of the record before @data
 * @dynsize: bytes reserved after the fixed area for strings
 */
static nokprobe_inline void probe_args_store(void *data, struct trace_probe *tp,
					     struct probe_fetch_env *env,
					     int header_size, int dynsize)
{
	if (likely(!(tp->arg_kinds & PROBE_ARGS_GENERAL)))
		probe_args_store_words(data, tp, env);
	else if (!(tp->arg_kinds & PROBE_ARGS_DYNAMIC))
		probe_args_store_fixed(data, tp, env);
	else
		probe_args_store_general(data, tp, env, header_size, dynsize);
}

/**
 * probe_entry_data_store - save at a function's entry the arguments its
 *	return probe reads
 * @edata: the entry data, traceprobe_get_entry_data_size() bytes
 * @tp: the return probe
 * @env: the entry hit
 */
static nokprobe_inline void probe_entry_data_store(void *edata,
						   struct trace_probe *tp,
						   struct probe_fetch_env *env)
{
	struct probe_entry_arg *earg = tp->entry_arg;
	unsigned long *word = edata;
	unsigned int i;

	if (!earg)
		return;
	for (i = 0; i < earg->nr; i++)
		word[i] = fetch_argument(env, earg->argnum[i]);
}

#endif /* _TRACE_PROBE_FETCH_H */
