// SPDX-License-Identifier: GPL-2.0
/*
 * The probe-event definition language: the words of a definition in,
 * checked names, expanded words and each argument's compiled struct
 * fetch_prog out, or an error code with the offset of the bad token.
 *
 * Nothing here touches a probe or an event: the front ends call in while
 * they build one, under dyn_event_ops_mutex.  The few kernel services used
 * (string and number helpers, allocation, BTF, register names, the error
 * log) are small enough to stand in for, so this file also builds as a
 * host program, to be tested and fuzzed with the sanitizers.
 */
#include <linux/btf.h>
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/glob.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_btf.h"
#include "trace_probe.h"

/* ---- Types ------------------------------------------------------------ */

#define SCALAR_TYPE(tname, bytes, k, ftype, conv)			\
	{ .name = #tname, .size = bytes, .kind = FETCH_KIND_##k,	\
	  .is_signed = FETCH_KIND_##k == FETCH_KIND_SIGNED,		\
	  .fmttype = ftype, .fmt = conv }
#define STRING_TYPE(tname)						\
	{ .name = tname, .size = sizeof(u32), .is_signed = true,	\
	  .is_string = true, .fmttype = "__data_loc char[]",		\
	  .fmt = "\\\"%s\\\"" }

/* The types of a register and of an address: as wide as the kernel's long. */
#if BITS_PER_LONG == 64
#define LONG_HEX_TYPE		"x64"
#define LONG_FIELD_TYPE		"u64"
#else
#define LONG_HEX_TYPE		"x32"
#define LONG_FIELD_TYPE		"u32"
#endif

/*
 * The format-file type and the print fmt conversion of each are an ABI
 * that tools parse: x and char types are their unsigned container, a
 * symbol is an unsigned long.  s8 and s16 take "%hhd" and "%hd": a
 * reader that formats the field's bytes with "%d" shows a negative value
 * as a large positive one.
 *
 * A 64-bit value's conversion has the L modifier.  The kernel never
 * passes these strings to a printf() (print_value() formats the trace
 * file), so the advice for printf() calls does not apply: FMT_64() writes
 * them in two pieces that say so.
 */
#define FMT_64(conv)	"%L" conv

static const struct fetch_type probe_types[] = {
	STRING_TYPE("string"),
	STRING_TYPE("ustring"),
	STRING_TYPE("symstr"),
	SCALAR_TYPE(u8, 1, UNSIGNED, "u8", "%u"),
	SCALAR_TYPE(u16, 2, UNSIGNED, "u16", "%u"),
	SCALAR_TYPE(u32, 4, UNSIGNED, "u32", "%u"),
	SCALAR_TYPE(u64, 8, UNSIGNED, "u64", FMT_64("u")),
	SCALAR_TYPE(s8, 1, SIGNED, "s8", "%hhd"),
	SCALAR_TYPE(s16, 2, SIGNED, "s16", "%hd"),
	SCALAR_TYPE(s32, 4, SIGNED, "s32", "%d"),
	SCALAR_TYPE(s64, 8, SIGNED, "s64", FMT_64("d")),
	SCALAR_TYPE(x8, 1, HEX, "u8", "0x%x"),
	SCALAR_TYPE(x16, 2, HEX, "u16", "0x%x"),
	SCALAR_TYPE(x32, 4, HEX, "u32", "0x%x"),
	SCALAR_TYPE(x64, 8, HEX, "u64", "0x" FMT_64("x")),
	SCALAR_TYPE(char, 1, CHAR, "u8", "'%c'"),
	SCALAR_TYPE(symbol, sizeof(long), SYMBOL, LONG_FIELD_TYPE, "%pS"),
};

static const struct fetch_type *type_by_name(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(probe_types); i++)
		if (!strcmp(probe_types[i].name, name))
			return &probe_types[i];
	return NULL;
}

/*
 * A bitfield "b<width>@<offset>/<container bits>" is stored as its
 * container.  Symbols exist only in the kernel.
 */
static const struct fetch_type *find_fetch_type(const char *name,
						unsigned int flags)
{
	const char *slash;
	unsigned int bits;

	if (name && (flags & TPARG_FL_USER) &&
	    (!strcmp(name, "symbol") || !strcmp(name, "symstr")))
		return NULL;
	if (!name)
		return type_by_name(LONG_HEX_TYPE);
	if (name[0] == 'b') {
		slash = strrchr(name, '/');
		if (!slash)
			return NULL;
		if (kstrtouint(slash + 1, 0, &bits))
			return NULL;
		switch (bits) {
		case 8:
			return type_by_name("u8");
		case 16:
			return type_by_name("u16");
		case 32:
			return type_by_name("u32");
		case 64:
			return type_by_name("u64");
		}
		return NULL;
	}
	return type_by_name(name);
}

/* ---- Parsing one argument ----------------------------------------------- */

/*
 * The state of parsing one argument body.  @text is our writable copy of
 * it; @pos0 is the offset of @text[0] in the word, so that the position of
 * any token is pos0 + (token - text).  @ops counts the operations the
 * program needs: a base is one, a symbol two, every memory access one.
 * @depth is how many "+OFFS(" the token being parsed is inside.  @typed
 * is set when the argument names its type, which BTF then does not choose.
 * @field is the last BTF member name read, where an error about the type
 * it gives the value points.
 */
struct arg_parse {
	struct traceprobe_parse_context	*ctx;
	struct probe_arg		*parg;
	struct fetch_prog		*prog;
	char				*text;
	char				*field;
	int				pos0;
	int				ops;
	int				depth;
	bool				typed;
};

static int pos_of(struct arg_parse *ap, const char *p)
{
	return ap->pos0 + (int)(p - ap->text);
}

static int parse_fail(struct arg_parse *ap, const char *at, int err)
{
	__trace_probe_log_err(pos_of(ap, at), err);
	return -EINVAL;
}

static int add_ops(struct arg_parse *ap, int n, const char *at)
{
	ap->ops += n;
	if (ap->ops > FETCH_MAX_OPS)
		return parse_fail(ap, at, TP_ERR_TOO_MANY_OPS);
	return 0;
}

/* Add a memory access at @offs from the current value. */
static int add_deref(struct arg_parse *ap, long offs, bool user,
		     const char *at)
{
	struct fetch_prog *prog = ap->prog;
	int ret;

	ret = add_ops(ap, 1, at);
	if (ret)
		return ret;
	if (prog->nderef >= FETCH_MAX_DEREF)
		return parse_fail(ap, at, TP_ERR_TOO_MANY_OPS);
	prog->offs[prog->nderef] = offs;
	if (user)
		prog->user |= BIT(prog->nderef);
	prog->nderef++;
	return 0;
}

#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS

static u32 btf_int_data(const struct btf_type *t)
{
	return *(const u32 *)(t + 1);
}

static bool btf_is_byte(struct btf *btf, u32 tid)
{
	const struct btf_type *t = btf_type_skip_modifiers(btf, tid, NULL);
	u32 data;

	if (!t || BTF_INFO_KIND(t->info) != BTF_KIND_INT)
		return false;
	data = btf_int_data(t);
	return BTF_INT_BITS(data) == 8 && !(BTF_INT_ENCODING(data) & BTF_INT_SIGNED);
}

static int btf_query(struct traceprobe_parse_context *ctx)
{
	const struct btf_param *param;
	const struct btf_type *proto;
	struct btf *btf;
	s32 nr = 0;

	if (ctx->btf)
		return 0;
	if (!ctx->funcname)
		return -EINVAL;
	proto = btf_find_func_proto(ctx->funcname, &btf);
	if (!proto)
		return -ENOENT;
	ctx->btf = btf;
	ctx->proto = proto;
	param = btf_get_func_param(proto, &nr);
	if (IS_ERR_OR_NULL(param) || nr <= 0) {
		ctx->params = NULL;
		ctx->nr_params = 0;
		return 0;
	}
	if (ctx->flags & TPARG_FL_TPOINT) {
		param++;
		nr--;
	}
	ctx->params = param;
	ctx->nr_params = nr;
	return 0;
}

static void btf_release(struct traceprobe_parse_context *ctx)
{
	if (ctx->btf)
		btf_put(ctx->btf);
	ctx->btf = NULL;
	ctx->proto = NULL;
	ctx->params = NULL;
	ctx->nr_params = 0;
}

/* The probe type a BTF type is stored as by default, or NULL. */
static const char *btf_default_type(struct traceprobe_parse_context *ctx)
{
	const struct btf_type *t = ctx->last_type;
	static const char *const uint[] = { "u8", "u16", "u32", "u64" };
	static const char *const sint[] = { "s8", "s16", "s32", "s64" };
	u32 data, bits;

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_ENUM:
		return "s32";
	case BTF_KIND_ENUM64:
		return "s64";
	case BTF_KIND_PTR:
		return LONG_HEX_TYPE;
	case BTF_KIND_INT:
		data = btf_int_data(t);
		bits = BTF_INT_BITS(data);
		if (bits == 8 || bits == 16 || bits == 32 || bits == 64) {
			if (BTF_INT_ENCODING(data) & BTF_INT_SIGNED)
				return sint[ilog2(bits) - 3];
			return uint[ilog2(bits) - 3];
		}
		if (BTF_INT_ENCODING(data) & BTF_INT_SIGNED)
			return NULL;
		/* An odd-sized integer: a bitfield within a u64. */
		ctx->last_bitsize = bits;
		ctx->last_bitoffs += BTF_INT_OFFSET(data);
		return "u64";
	}
	return NULL;
}

/*
 * Walk "a.b.c" from *@pp in the structure or union *@ptype of @btf, up to
 * the end or a "->".  Give the bit offset of the member reached, its size
 * in bits if it is a bitfield (else 0), its type in *@ptype, and what
 * follows the "->" in *@pp (NULL at the end).  *@name is the last name
 * walked, or on an error the text the error is about.
 *
 * Return: 0, or the TP_ERR_* of the error.
 */
static int btf_member_walk(struct btf *btf, const struct btf_type **ptype,
			   char **pp, u32 *pbitoffs, u32 *pbitsize,
			   char **name)
{
	const struct btf_type *type = *ptype, *mtype;
	const struct btf_member *member;
	u32 bitoffs = 0, bitsize, anon;
	char *next, *p = *pp;
	bool arrow;

	do {
		*name = p;
		next = strpbrk(p, ".-");
		arrow = false;
		if (next) {
			if (next[0] == '-' && next[1] != '>') {
				*name = next;
				return TP_ERR_BAD_HYPHEN;
			}
			arrow = next[0] == '-';
			*next = '\0';
			next += arrow ? 2 : 1;
		}
		anon = 0;
		member = btf_find_struct_member(btf, type, p, &anon, &mtype);
		if (IS_ERR(member))
			return TP_ERR_BAD_BTF_TID;
		if (!member)
			return TP_ERR_NO_BTF_FIELD;
		bitoffs += anon;
		if (btf_type_kflag(mtype)) {
			bitoffs += BTF_MEMBER_BIT_OFFSET(member->offset);
			bitsize = BTF_MEMBER_BITFIELD_SIZE(member->offset);
		} else {
			bitoffs += member->offset;
			bitsize = 0;
		}
		type = btf_type_skip_modifiers(btf, member->type, NULL);
		if (!type)
			return TP_ERR_BAD_BTF_TID;
		p = next;
	} while (p && !arrow);

	*ptype = type;
	*pp = p;
	*pbitoffs = bitoffs;
	*pbitsize = bitsize;
	return 0;
}

/*
 * btf_member_walk() for an argument: *@at is where an error about the
 * walk as a whole points, the text after the "->" or the last name.
 */
static int btf_walk_members(struct arg_parse *ap, struct btf *btf,
			    const struct btf_type **ptype, char **pp,
			    u32 *pbitoffs, char **at)
{
	char *name;
	int err;

	err = btf_member_walk(btf, ptype, pp, pbitoffs,
			      &ap->ctx->last_bitsize, &name);
	if (err)
		return parse_fail(ap, name, err);
	ap->field = name;
	*at = *pp ? *pp : name;
	return 0;
}

/**
 * traceprobe_btf_member_offset - where a member is in a structure
 * @sname: the structure's name in BTF
 * @members: "a.b.c", a member of a member, as C writes it; cut in place
 * @bad: on an error, set to the text the error is about
 *
 * For what is not an argument: the address a trigger computes from the
 * value of its event's field.
 *
 * Return: the member's offset in bytes; -ENOENT if there is no such
 * structure or member, -EINVAL if the path crosses a pointer or the member
 * does not start on a byte, -EOPNOTSUPP without BTF arguments.
 */
int traceprobe_btf_member_offset(char *sname, char *members, char **bad)
{
	const struct btf_type *type;
	struct btf *btf = NULL;
	u32 bitoffs, bitsize;
	char *p = members;
	int ret = -ENOENT;
	s32 id;

	*bad = sname;
	id = bpf_find_btf_id(sname, BTF_KIND_STRUCT, &btf);
	type = id < 0 ? NULL : btf_type_by_id(btf, id);
	if (!type)
		goto out;
	switch (btf_member_walk(btf, &type, &p, &bitoffs, &bitsize, bad)) {
	case 0:
		if (p || bitsize || bitoffs % 8) {
			*bad = members;
			ret = -EINVAL;
		} else {
			ret = bitoffs / 8;
		}
		break;
	case TP_ERR_NO_BTF_FIELD:
		break;
	default:
		ret = -EINVAL;
	}
out:
	btf_put(btf);
	return ret;
}

/*
 * Resolve "->a.b->c" on a value of BTF type @type: each "->" reads memory
 * at the accumulated offset of the "."-joined members before it.  After a
 * typecast (@cast), @type is the structure itself, not a pointer, and the
 * value points @prefix bytes into it (the "(STRUCT,FIELD)" form): the
 * first access is that much nearer.
 */
static int parse_btf_fields(struct arg_parse *ap, char *p,
			    const struct btf_type *type, struct btf *btf,
			    bool cast, u32 prefix)
{
	struct traceprobe_parse_context *ctx = ap->ctx;
	bool first = true;
	char *name, *at;
	u32 bitoffs;
	long offs;
	int ret;

	while (p) {
		/* p points just after "->", or at the cast's first field. */
		if (!(first && cast)) {
			if (BTF_INFO_KIND(type->info) != BTF_KIND_PTR)
				return parse_fail(ap, p, TP_ERR_NO_PTR_STRCT);
			type = btf_type_skip_modifiers(btf, type->type, NULL);
			if (!type)
				return parse_fail(ap, p, TP_ERR_BAD_BTF_TID);
		}
		name = p;
		ret = btf_walk_members(ap, btf, &type, &p, &bitoffs, &at);
		if (ret)
			return ret;
		offs = bitoffs / 8;
		if (first && cast)
			offs -= prefix;
		ret = add_deref(ap, offs, false, name);
		if (ret)
			return ret;
		ctx->last_bitoffs = bitoffs % 8;
		ctx->last_type = type;
		ctx->last_btf = btf;
		first = false;
	}
	return 0;
}

/* The BTF a typecast or "$current->" names a structure in, held. */
static void hold_cast_btf(struct traceprobe_parse_context *ctx,
			  struct btf *btf)
{
	if (ctx->cast_btf)
		btf_put(ctx->cast_btf);
	ctx->cast_btf = btf;
}

static void drop_cast_btf(struct traceprobe_parse_context *ctx)
{
	hold_cast_btf(ctx, NULL);
}

/* The structure @name, or a negative errno. */
static int find_struct(struct traceprobe_parse_context *ctx, const char *name,
		       const struct btf_type **type)
{
	struct btf *btf = NULL;
	s32 id;

	id = bpf_find_btf_id(name, BTF_KIND_STRUCT, &btf);
	if (id < 0)
		return id;
	hold_cast_btf(ctx, btf);
	*type = btf_type_by_id(btf, id);
	return *type ? 0 : -ENOENT;
}

/*
 * "(STRUCT[,FIELD])" applied to a value already compiled: resolve @fields
 * in STRUCT.  With FIELD, the value points at that member, as the
 * argument of container_of() does; FIELD may be "a.b" but not cross a
 * pointer, and must start on a byte.
 */
static int parse_cast_fields(struct arg_parse *ap, char *cast, char *fields)
{
	struct traceprobe_parse_context *ctx = ap->ctx;
	const struct btf_type *st, *t;
	char *member, *at;
	u32 bitoffs = 0;
	int ret;

	member = strchr(cast, ',');
	if (member)
		*member++ = '\0';
	if (find_struct(ctx, cast, &st))
		return parse_fail(ap, cast, TP_ERR_NO_PTR_STRCT);
	if (member) {
		t = st;
		ret = btf_walk_members(ap, ctx->cast_btf, &t, &member, &bitoffs,
				       &at);
		if (ret)
			return ret;
		if (bitoffs % 8)
			return parse_fail(ap, at, TP_ERR_TYPECAST_NOT_ALIGNED);
		if (member)
			return parse_fail(ap, at - 2, TP_ERR_TYPECAST_BAD_ARROW);
	}
	return parse_btf_fields(ap, fields, st, ctx->cast_btf, true,
				bitoffs / 8);
}

/* "$current->a.b->c": fields of the current task_struct. */
static int parse_current_fields(struct arg_parse *ap, char *var, char *fields)
{
	const struct btf_type *st;

	if (find_struct(ap->ctx, "task_struct", &st))
		return parse_fail(ap, var, TP_ERR_NO_BTF_ENTRY);
	return parse_btf_fields(ap, fields, st, ap->ctx->cast_btf, true, 0);
}

static int save_entry_arg(struct traceprobe_parse_context *ctx, int argnum);

/* A function parameter by name, or $retval, with optional "->field"s. */
static int parse_btf_var(struct arg_parse *ap, char *var)
{
	struct traceprobe_parse_context *ctx = ap->ctx;
	struct fetch_prog *prog = ap->prog;
	const struct btf_type *type;
	char *fields = NULL, *sep;
	u32 tid = 0;
	int i, ret;

	sep = strpbrk(var, ".-");
	if (sep) {
		if (sep[0] == '.')
			return parse_fail(ap, sep + 1, TP_ERR_NOSUP_DAT_ARG);
		if (sep[1] != '>')
			return parse_fail(ap, sep, TP_ERR_BAD_HYPHEN);
		*sep = '\0';
		fields = sep + 2;
	}

	if ((ctx->flags & TPARG_FL_RETURN) && !strcmp(var, "$retval")) {
		prog->base = FETCH_BASE_RETVAL;
		/* At an address, not a function: the value, untyped. */
		if (btf_query(ctx)) {
			if (fields)
				return parse_fail(ap, fields, TP_ERR_NO_BTF_ENTRY);
			return 0;
		}
		if (!ctx->proto->type)
			return parse_fail(ap, var, TP_ERR_NO_RETVAL);
		tid = ctx->proto->type;
		goto found;
	}

	if (!ctx->funcname)
		return parse_fail(ap, var, TP_ERR_NO_BTF_ENTRY);
	ret = btf_query(ctx);
	if (ret || !ctx->nr_params)
		return parse_fail(ap, var, TP_ERR_NO_BTF_ENTRY);
	for (i = 0; i < ctx->nr_params; i++) {
		const char *name = btf_name_by_offset(ctx->btf,
						      ctx->params[i].name_off);

		if (!name || strcmp(name, var))
			continue;
		if (tparg_is_function_entry(ctx->flags)) {
			prog->base = FETCH_BASE_ARG;
			prog->param = i + !!(ctx->flags & TPARG_FL_TPOINT);
		} else {
			ret = save_entry_arg(ctx, i);
			if (ret < 0)
				return ret;
			prog->base = FETCH_BASE_EDATA;
			prog->param = ret;
		}
		tid = ctx->params[i].type;
		goto found;
	}
	return parse_fail(ap, var, TP_ERR_NO_BTFARG);

found:
	type = btf_type_skip_modifiers(ctx->btf, tid, NULL);
	if (!type)
		return parse_fail(ap, var, TP_ERR_BAD_BTF_TID);
	ctx->last_type = type;
	ctx->last_btf = ctx->btf;
	ctx->last_bitoffs = 0;
	ctx->last_bitsize = 0;
	return fields ? parse_btf_fields(ap, fields, type, ctx->btf, false, 0) : 0;
}

/* A BTF-typed value asked for as a string: char[] is read in place, char * through. */
static int btf_string_fixup(struct arg_parse *ap, const char *type)
{
	struct traceprobe_parse_context *ctx = ap->ctx;
	const struct btf_type *t = ctx->last_type;
	struct btf *btf = ctx->last_btf;

	if (!btf || !t)
		return 0;
	if (BTF_INFO_KIND(t->info) == BTF_KIND_ARRAY &&
	    btf_is_byte(btf, btf_array(t)->type))
		return 0;
	if (BTF_INFO_KIND(t->info) == BTF_KIND_PTR && btf_is_byte(btf, t->type))
		return add_deref(ap, 0, type[0] == 'u', ap->text);
	/* The caret goes under the field whose type it is, if any. */
	return parse_fail(ap, ap->field ?: ap->text, TP_ERR_BAD_TYPE4STR);
}

/*
 * What this_cpu_read() reads is the object its per-CPU pointer points at.
 * When the pointer's BTF type is known, so is the object's: a scalar gets
 * the default type of its own (an int counter is an s32, read as 4 bytes,
 * not a word that reaches past it).  A structure or an array is read as a
 * word, as a value of no known type is.
 */
static void btf_percpu_pointee(struct traceprobe_parse_context *ctx)
{
	const struct btf_type *t = ctx->last_type;

	ctx->last_type = NULL;
	if (!t || BTF_INFO_KIND(t->info) != BTF_KIND_PTR)
		return;
	t = btf_type_skip_modifiers(ctx->last_btf, t->type, NULL);
	if (!t)
		return;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_PTR:
		ctx->last_type = t;
		ctx->last_bitoffs = 0;
		ctx->last_bitsize = 0;
		break;
	}
}

#else /* !CONFIG_PROBE_EVENTS_BTF_ARGS */

static int btf_query(struct traceprobe_parse_context *ctx)
{
	return -EOPNOTSUPP;
}

static void btf_release(struct traceprobe_parse_context *ctx)
{
	ctx->btf = NULL;
}

static const char *btf_default_type(struct traceprobe_parse_context *ctx)
{
	return NULL;
}

static int parse_btf_var(struct arg_parse *ap, char *var)
{
	return parse_fail(ap, var, TP_ERR_NOSUP_BTFARG);
}

static void drop_cast_btf(struct traceprobe_parse_context *ctx)
{
	ctx->cast_btf = NULL;
}

static int parse_cast_fields(struct arg_parse *ap, char *cast, char *fields)
{
	return parse_fail(ap, cast, TP_ERR_NOSUP_BTFARG);
}

static int parse_current_fields(struct arg_parse *ap, char *var, char *fields)
{
	return parse_fail(ap, var, TP_ERR_BAD_VAR);
}

int traceprobe_btf_member_offset(char *sname, char *members, char **bad)
{
	*bad = sname;
	return -EOPNOTSUPP;
}

static int btf_string_fixup(struct arg_parse *ap, const char *type)
{
	return 0;
}

static void btf_percpu_pointee(struct traceprobe_parse_context *ctx)
{
	ctx->last_type = NULL;
}

#endif /* CONFIG_PROBE_EVENTS_BTF_ARGS */

/**
 * traceprobe_get_entry_data_size - bytes a return probe saves at entry
 * @tp: the probe
 *
 * Return: the size of the entry data its entry handler fills (none
 * without the function argument API, whose parser saves nothing).
 */
int traceprobe_get_entry_data_size(struct trace_probe *tp)
{
	return tp->entry_arg ? tp->entry_arg->nr * sizeof(unsigned long) : 0;
}

#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
/*
 * A return probe reads an entry argument from a word its entry handler
 * saved.  Return the word's byte offset in the entry data.
 */
static int save_entry_arg(struct traceprobe_parse_context *ctx, int argnum)
{
	struct trace_probe *tp = ctx->tp;
	struct probe_entry_arg *earg = tp->entry_arg, *grown;
	unsigned int i, nr = earg ? earg->nr : 0;

	for (i = 0; i < nr; i++)
		if (earg->argnum[i] == argnum)
			return i * sizeof(unsigned long);
	grown = krealloc(earg, struct_size(earg, argnum, nr + 1), GFP_KERNEL);
	if (!grown)
		return -ENOMEM;
	grown->argnum[nr] = argnum;
	grown->nr = nr + 1;
	tp->entry_arg = grown;
	return nr * sizeof(unsigned long);
}

#else
static int save_entry_arg(struct traceprobe_parse_context *ctx, int argnum)
{
	return -EOPNOTSUPP;
}
#endif

#define PARAM_MAX_STACK	(THREAD_SIZE / sizeof(unsigned long))

/* "$..." variables. @var points at the '$'. */
static int parse_var(struct arg_parse *ap, char *var)
{
	struct traceprobe_parse_context *ctx = ap->ctx;
	struct fetch_prog *prog = ap->prog;
	const char *name = var + 1;
	unsigned long n;
	int ret;

	if (ctx->flags & TPARG_FL_TEVENT) {
		prog->data = probe_event_field(ctx->event, name);
		if (prog->data) {
			prog->base = FETCH_BASE_EFIELD;
			return 0;
		}
		if (!strcmp(name, "comm") || !strcmp(name, "COMM")) {
			prog->base = FETCH_BASE_COMM;
			return 0;
		}
		return parse_fail(ap, var, TP_ERR_BAD_VAR);
	}

	/*
	 * A watchpoint's hit is an access to data, in no particular function:
	 * what it has is the address watched and what the task is.
	 */
	if (ctx->flags & TPARG_FL_WPROBE) {
		if (!strcmp(name, "addr")) {
			prog->base = FETCH_BASE_WADDR;
			return 0;
		}
		if (!strcmp(name, "value")) {
			prog->base = FETCH_BASE_WADDR;
			return add_deref(ap, 0, false, var);
		}
		if (strcmp(name, "comm") && strcmp(name, "COMM") &&
		    !str_has_prefix(name, "current"))
			return parse_fail(ap, var, TP_ERR_BAD_VAR);
	}

	if (str_has_prefix(name, "retval")) {
		if (!(ctx->flags & TPARG_FL_RETURN))
			return parse_fail(ap, var, TP_ERR_RETVAL_ON_PROBE);
		if ((ctx->flags & TPARG_FL_KERNEL) &&
		    IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS))
			return parse_btf_var(ap, var);
		if (strcmp(name, "retval"))
			return parse_fail(ap, var, TP_ERR_BAD_VAR);
		prog->base = FETCH_BASE_RETVAL;
		return 0;
	}

	if (str_has_prefix(name, "stack")) {
		if (!name[5]) {
			prog->base = FETCH_BASE_STACKP;
			return 0;
		}
		if (!isdigit(name[5]) || kstrtoul(name + 5, 10, &n))
			return parse_fail(ap, var, TP_ERR_BAD_VAR);
		if ((ctx->flags & TPARG_FL_KERNEL) && n > PARAM_MAX_STACK)
			return parse_fail(ap, var, TP_ERR_BAD_STACK_NUM);
		prog->base = FETCH_BASE_STACK;
		prog->param = n;
		return 0;
	}

	if (!strcmp(name, "comm") || !strcmp(name, "COMM")) {
		prog->base = FETCH_BASE_COMM;
		return 0;
	}

	if (str_has_prefix(name, "current")) {
		char *rest = var + strlen("$current");

		if (!(ctx->flags & TPARG_FL_KERNEL))
			return parse_fail(ap, var, TP_ERR_BAD_VAR);
		prog->base = FETCH_BASE_CURRENT;
		if (rest[0] == '-' && rest[1] == '>') {
			*rest = '\0';
			return parse_current_fields(ap, var, rest + 2);
		}
		if (rest[0] == '-' && IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS))
			return parse_fail(ap, rest, TP_ERR_BAD_HYPHEN);
		if (rest[0])
			return parse_fail(ap, var, TP_ERR_BAD_VAR);
		return 0;
	}

	if (IS_ENABLED(CONFIG_HAVE_FUNCTION_ARG_ACCESS_API) &&
	    str_has_prefix(name, "arg")) {
		if (kstrtoul(name + 3, 10, &n))
			return parse_fail(ap, var, TP_ERR_BAD_VAR);
		if (!n || n > PARAM_MAX_STACK)
			return parse_fail(ap, var, TP_ERR_BAD_ARG_NUM);
		n--;
		if (tparg_is_function_entry(ctx->flags)) {
			prog->base = FETCH_BASE_ARG;
			prog->param = n + !!(ctx->flags & TPARG_FL_TPOINT);
			return 0;
		}
		if (tparg_is_function_return(ctx->flags)) {
			ret = save_entry_arg(ctx, n);
			if (ret < 0)
				return ret;
			prog->base = FETCH_BASE_EDATA;
			prog->param = ret;
			return 0;
		}
		return parse_fail(ap, var, TP_ERR_NOFENTRY_ARGS);
	}

	return parse_fail(ap, var, TP_ERR_BAD_VAR);
}

static int parse_immediate(const char *s, unsigned long *val)
{
	if (isdigit(s[0]))
		return kstrtoul(s, 0, val);
	if (s[0] == '-')
		return kstrtol(s, 0, (long *)val);
	if (s[0] == '+')
		return kstrtol(s + 1, 0, (long *)val);
	return -EINVAL;
}

static int parse_fetch(struct arg_parse *ap, char *s);

/* "+|-[u]OFFS(INNER)": read memory at INNER's value plus OFFS. */
static int parse_deref(struct arg_parse *ap, char *s)
{
	bool user = s[1] == 'u';
	char *num = s + (user ? 2 : 1);
	char *open, *close;
	long offs;
	int ret;

	open = strchr(s, '(');
	if (!open)
		return parse_fail(ap, s, TP_ERR_DEREF_NEED_BRACE);
	*open = '\0';
	if (kstrtol(num, 0, &offs))
		return parse_fail(ap, s, TP_ERR_BAD_DEREF_OFFS);
	if (s[0] == '-')
		offs = -offs;
	close = strrchr(open + 1, ')');
	if (!close)
		return parse_fail(ap, open + 1 + strlen(open + 1),
				  TP_ERR_DEREF_OPEN_BRACE);
	*close = '\0';
	ret = parse_fetch(ap, open + 1);
	if (ret)
		return ret;
	if (!ap->prog->nderef && (ap->prog->base == FETCH_BASE_COMM ||
				  ap->prog->base == FETCH_BASE_DATA))
		return parse_fail(ap, open + 1, TP_ERR_COMM_CANT_DEREF);
	ap->ctx->last_type = NULL;
	return add_deref(ap, offs, user, open + 1);
}

/* "@ADDR", "@+FOFFS", "@SYM[+|-OFFS]": memory at a fixed place. */
static int parse_memory(struct arg_parse *ap, char *s)
{
	struct traceprobe_parse_context *ctx = ap->ctx;
	struct fetch_prog *prog = ap->prog;
	unsigned long addr;
	long offs;
	int ret;

	if (isdigit(s[1])) {
		if (kstrtoul(s + 1, 0, &addr))
			return parse_fail(ap, s, TP_ERR_BAD_MEM_ADDR);
		prog->base = FETCH_BASE_IMM;
		prog->param = addr;
	} else if (s[1] == '+') {
		if (ctx->flags & TPARG_FL_KERNEL)
			return parse_fail(ap, s, TP_ERR_FILE_ON_KPROBE);
		if (kstrtol(s + 2, 0, &offs))
			return parse_fail(ap, s, TP_ERR_BAD_FILE_OFFS);
		prog->base = FETCH_BASE_FOFFS;
		prog->param = offs;
	} else {
		if (!(ctx->flags & TPARG_FL_KERNEL))
			return parse_fail(ap, s, TP_ERR_SYM_ON_UPROBE);
		prog->base = FETCH_BASE_SYMBOL;
		prog->data = kstrdup(s + 1, GFP_KERNEL);
		if (!prog->data)
			return -ENOMEM;
		ret = add_ops(ap, 1, s);
		if (ret)
			return ret;
	}
	return add_deref(ap, 0, false, s);
}

#define THIS_CPU_PTR	"this_cpu_ptr("
#define THIS_CPU_READ	"this_cpu_read("

/* The ')' matching the '(' at @open, or NULL. */
static char *matching_paren(char *open)
{
	int depth = 0;
	char *p;

	for (p = open; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && !--depth)
			return p;
	}
	return NULL;
}

/*
 * "(STRUCT[,FIELD])VALUE->FIELDS": VALUE, a variable or a parenthesized,
 * dereferenced or per-CPU value, taken as a pointer to STRUCT.  Only
 * where BTF says what the arguments are (function entry and exit), for
 * event probes' fields and for the data a watchpoint watches.  The text
 * is checked from the outside in, then the value compiled, then the cast
 * resolved into plain accesses.
 */
static int parse_typecast(struct arg_parse *ap, char *s)
{
	unsigned int flags = ap->ctx->flags;
	char *cast = s + 1, *value, *close, *fields, *open;
	int ret;

	if (!IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS) ||
	    !((flags & (TPARG_FL_TEVENT | TPARG_FL_WPROBE)) ||
	      tparg_is_function_entry(flags) ||
	      tparg_is_function_return(flags)))
		return parse_fail(ap, s, TP_ERR_NOSUP_BTFARG);

	close = strchr(s, ')');
	if (!close)
		return parse_fail(ap, s + strlen(s), TP_ERR_DEREF_OPEN_BRACE);
	*close = '\0';
	value = close + 1;

	if (value[0] == '(') {
		close = matching_paren(value);
		if (!close)
			return parse_fail(ap, value, TP_ERR_DEREF_OPEN_BRACE);
		if (close[1] != '-' || close[2] != '>')
			return parse_fail(ap, close + 1, TP_ERR_TYPECAST_REQ_FIELD);
		*close = '\0';
		fields = close + 3;
		value++;
	} else if (value[0] == '+' || value[0] == '-' ||
		   str_has_prefix(value, THIS_CPU_PTR) ||
		   str_has_prefix(value, THIS_CPU_READ)) {
		/* Its own parentheses may hold another "->". */
		open = strchr(value + 1, '(');
		if (!open)
			return parse_fail(ap, value, TP_ERR_DEREF_NEED_BRACE);
		close = matching_paren(open);
		if (!close)
			return parse_fail(ap, value + strlen(value),
					  TP_ERR_DEREF_OPEN_BRACE);
		close++;
		if (close[0] != '-' || close[1] != '>')
			return parse_fail(ap, close, TP_ERR_TYPECAST_REQ_FIELD);
		*close = '\0';
		fields = close + 2;
	} else {
		/* "@SYM+8->f" would be ambiguous: "@SYM+(8->f)"? */
		if (value[0] == '@') {
			close = strpbrk(value, "+-");
			if (close && isdigit(close[1]))
				return parse_fail(ap, value,
						  TP_ERR_TYPECAST_SYM_OFFSET);
		}
		close = strchr(value, '-');
		if (!close || close[1] != '>')
			return parse_fail(ap, value + strlen(value),
					  TP_ERR_TYPECAST_REQ_FIELD);
		*close = '\0';
		fields = close + 2;
	}

	ret = parse_fetch(ap, value);
	if (ret)
		return ret;
	return parse_cast_fields(ap, cast, fields);
}

/*
 * "this_cpu_ptr(VALUE)" and "this_cpu_read(VALUE)": VALUE is a per-CPU
 * pointer, made this CPU's; "_read" reads a word there.  "@SYM" inside
 * names the per-CPU variable itself, whose address is the pointer.
 */
static int parse_this_cpu(struct arg_parse *ap, char *s)
{
	struct fetch_prog *prog = ap->prog;
	bool read = str_has_prefix(s, THIS_CPU_READ);
	char *value, *close;
	int ret;

	if (!(ap->ctx->flags & TPARG_FL_KERNEL) ||
	    (ap->ctx->flags & TPARG_FL_TEVENT))
		return parse_fail(ap, s, TP_ERR_NOSUP_PERCPU);
	value = s + (read ? strlen(THIS_CPU_READ) : strlen(THIS_CPU_PTR));
	close = strrchr(value, ')');
	if (!close)
		return parse_fail(ap, value + strlen(value),
				  TP_ERR_DEREF_OPEN_BRACE);
	*close = '\0';

	ret = parse_fetch(ap, value);
	if (ret)
		return ret;
	if (!prog->nderef && (prog->base == FETCH_BASE_COMM ||
			      prog->base == FETCH_BASE_DATA))
		return parse_fail(ap, value, TP_ERR_COMM_CANT_DEREF);
	/* 7.3 drops the BTF type here; this_cpu_ptr()'s is hex either way. */
	if (read && !ap->typed)
		btf_percpu_pointee(ap->ctx);
	else
		ap->ctx->last_type = NULL;

	if (value[0] == '@') {
		/* Not the word at the address: the address. */
		prog->nderef--;
		prog->user &= ~BIT(prog->nderef);
		ap->ops--;
	}
	ret = add_ops(ap, 1, value);
	if (ret)
		return ret;
	/* One step holds one conversion: this_cpu_ptr(this_cpu_ptr(v)). */
	if (prog->percpu & BIT(prog->nderef))
		return parse_fail(ap, value, TP_ERR_TOO_MANY_OPS);
	prog->percpu |= BIT(prog->nderef);
	return read ? add_deref(ap, 0, false, value) : 0;
}

/*
 * A dereference, a typecast or a per-CPU read (@parse): each holds
 * another value, and userspace is told how deep they may nest, not the
 * size of a program; the error is under the first one too deep, whatever
 * is wrong inside it.  The construct is not an operation of its own.
 */
static int parse_nested(struct arg_parse *ap, char *s,
			int (*parse)(struct arg_parse *ap, char *s))
{
	int ret;

	if (ap->depth >= FETCH_MAX_NESTED)
		return parse_fail(ap, s, TP_ERR_TOO_MANY_NESTED);
	ap->ops--;
	ap->depth++;
	ret = parse(ap, s);
	ap->depth--;
	return ret;
}

/*
 * Where ftrace's registers hold the register @name, at @offs in a pt_regs,
 * or -1: a kprobe armed on an ftrace site whose registers all have a place
 * there is given ftrace's registers rather than a pt_regs (its
 * fregs_handler).  Never the instruction pointer: ftrace's is the return
 * address into the function, a kprobe's is the probe's own address.
 */
static s16 fregs_reg_offset(const char *name, unsigned int offs)
{
#ifdef CONFIG_HAVE_KPROBES_FREGS_HANDLER
	struct pt_regs ip_only = {};
	int ret;

	instruction_pointer_set(&ip_only, 1);
	if (regs_get_register(&ip_only, offs))
		return -1;
	ret = ftrace_regs_query_register_offset(name);
	return ret < 0 || ret > S16_MAX ? -1 : ret;
#else
	return -1;
#endif
}

/* One fetch argument, without its type, recursively. */
static int parse_fetch(struct arg_parse *ap, char *s)
{
	struct traceprobe_parse_context *ctx = ap->ctx;
	struct fetch_prog *prog = ap->prog;
	int ret;

	ret = add_ops(ap, 1, s);
	if (ret)
		return ret;

	switch (s[0]) {
	case '$':
		return parse_var(ap, s);
	case '%':
		if (ctx->flags & (TPARG_FL_TEVENT | TPARG_FL_FPROBE |
				  TPARG_FL_WPROBE))
			return parse_fail(ap, s, TP_ERR_BAD_VAR);
		ret = regs_query_register_offset(s + 1);
		if (ret < 0)
			return parse_fail(ap, s, TP_ERR_BAD_REG_NAME);
		prog->base = FETCH_BASE_REG;
		prog->param = ret;
		prog->fregs_param = fregs_reg_offset(s + 1, ret);
		return 0;
	case '@':
		return parse_memory(ap, s);
	case '+':
	case '-':
		return parse_nested(ap, s, parse_deref);
	case '(':
		return parse_nested(ap, s, parse_typecast);
	case '\\':
		if (s[1] == '"') {
			size_t len = strlen(s + 2);

			if (!len || s[len + 1] != '"')
				return parse_fail(ap, s + 2 + len,
						  TP_ERR_IMMSTR_NO_CLOSE);
			prog->data = kstrndup(s + 2, len - 1, GFP_KERNEL);
			if (!prog->data)
				return -ENOMEM;
			prog->base = FETCH_BASE_DATA;
			return 0;
		}
		if (parse_immediate(s + 1, &prog->param))
			return parse_fail(ap, s + 1, TP_ERR_BAD_IMM);
		prog->base = FETCH_BASE_IMM;
		return 0;
	}

	if (str_has_prefix(s, THIS_CPU_PTR) || str_has_prefix(s, THIS_CPU_READ))
		return parse_nested(ap, s, parse_this_cpu);

	if (isalpha(s[0]) || s[0] == '_') {
		/* An event probe's field, named as the event's format does. */
		if (ctx->flags & TPARG_FL_TEVENT) {
			prog->data = probe_event_field(ctx->event, s);
			if (!prog->data)
				return parse_fail(ap, s, TP_ERR_NO_EVENT_FIELD);
			prog->base = FETCH_BASE_EFIELD;
			return 0;
		}
		if (!tparg_is_function_entry(ctx->flags) &&
		    !tparg_is_function_return(ctx->flags))
			return parse_fail(ap, s, TP_ERR_NOSUP_BTFARG);
		return parse_btf_var(ap, s);
	}
	return parse_fail(ap, s, TP_ERR_BAD_FETCH_ARG);
}

/*
 * Split ":TYPE[N]" off @ap->text.  Return the type text (NULL if none) or
 * an ERR_PTR with the error logged.
 */
static char *split_type(struct arg_parse *ap)
{
	struct probe_arg *parg = ap->parg;
	char *type, *open, *close;
	unsigned int n;

	type = strchr(ap->text, ':');
	if (!type)
		return NULL;
	*type++ = '\0';
	open = strchr(type, '[');
	if (!open)
		return type;
	*open++ = '\0';
	close = strchr(open, ']');
	if (!close) {
		parse_fail(ap, open + strlen(open), TP_ERR_ARRAY_NO_CLOSE);
		return ERR_PTR(-EINVAL);
	}
	if (close[1]) {
		parse_fail(ap, close + 1, TP_ERR_BAD_ARRAY_SUFFIX);
		return ERR_PTR(-EINVAL);
	}
	*close = '\0';
	if (kstrtouint(open, 0, &n) || !n) {
		parse_fail(ap, open, TP_ERR_BAD_ARRAY_NUM);
		return ERR_PTR(-EINVAL);
	}
	if (n > MAX_ARRAY_LEN) {
		parse_fail(ap, open, TP_ERR_ARRAY_TOO_BIG);
		return ERR_PTR(-EINVAL);
	}
	parg->count = n;
	return type;
}

/* "b<width>@<offset>/<size>": the shifts that isolate the field. */
/* The number in *@p up to @end (or the end of the string); *@p moves past. */
static int take_number(const char **p, char end, unsigned int *val)
{
	const char *stop = end ? strchr(*p, end) : *p + strlen(*p);
	char num[16];

	if (!stop || stop == *p || stop - *p >= sizeof(num))
		return -EINVAL;
	memcpy(num, *p, stop - *p);
	num[stop - *p] = '\0';
	*p = end ? stop + 1 : stop;
	return kstrtouint(num, 0, val);
}

static int parse_bitfield(struct fetch_prog *prog, const char *type,
			  unsigned int size)
{
	unsigned int width, offs, bits;

	type++;
	if (take_number(&type, '@', &width) || !width ||
	    take_number(&type, '/', &offs) || take_number(&type, 0, &bits) ||
	    width + offs > size * 8)
		return -EINVAL;
	prog->bf_lshift = size * 8 - (width + offs);
	prog->bf_rshift = size * 8 - width;
	prog->bf_size = size;
	return 0;
}

/* Choose how the program stores its result, and check it can. */
static int finish_prog(struct arg_parse *ap, const char *type)
{
	struct traceprobe_parse_context *ctx = ap->ctx;
	struct probe_arg *parg = ap->parg;
	struct fetch_prog *prog = ap->prog;
	const char *tpos = type ? type : ap->text;
	const char *tname = parg->type->name;
	bool last_user = prog->nderef && (prog->user & BIT(prog->nderef - 1));
	int extra = 0;

	if (parg->type->is_string) {
		if (!strcmp(tname, "symstr")) {
			switch (prog->base) {
			case FETCH_BASE_REG: case FETCH_BASE_STACK:
			case FETCH_BASE_RETVAL: case FETCH_BASE_ARG:
			case FETCH_BASE_EFIELD:
				break;
			default:
				if (!prog->nderef)
					return parse_fail(ap, tpos, TP_ERR_BAD_SYMSTRING);
			}
			prog->store = FETCH_STORE_SYMSTR;
			extra = 1;
		} else {
			switch (prog->base) {
			case FETCH_BASE_IMM: case FETCH_BASE_COMM:
			case FETCH_BASE_DATA: case FETCH_BASE_EFIELD:
				if (!prog->nderef)
					extra = 1;
				break;
			default:
				if (!prog->nderef)
					return parse_fail(ap, tpos, TP_ERR_BAD_STRING);
			}
			prog->store = FETCH_STORE_STRING;
			prog->user_store = !strcmp(tname, "ustring") || last_user;
			if (parg->count)
				extra = 1;
		}
		parg->dynamic = true;
	} else if (prog->nderef) {
		prog->store = FETCH_STORE_MEM;
		prog->user_store = last_user;
	} else {
		prog->store = FETCH_STORE_RAW;
		extra = 1;
	}
	prog->size = parg->type->size;

	if (type && type[0] == 'b') {
		if (parse_bitfield(prog, type, parg->type->size))
			return parse_fail(ap, tpos, TP_ERR_BAD_BITFIELD);
		extra++;
	} else if (!type && ctx->last_type &&
		   (ctx->last_bitsize % 8 || ctx->last_bitoffs)) {
		/*
		 * A BTF bitfield: the member's type is what is read, from the
		 * byte the field starts in, and is the container the shifts
		 * apply to; the field must end inside it, as it does but in
		 * a packed structure.
		 */
		if (ctx->last_bitsize + ctx->last_bitoffs > prog->size * 8)
			return parse_fail(ap, tpos, TP_ERR_BAD_BITFIELD);
		prog->bf_lshift = prog->size * 8 -
				  (ctx->last_bitsize + ctx->last_bitoffs);
		prog->bf_rshift = prog->size * 8 - ctx->last_bitsize;
		prog->bf_size = prog->size;
		extra++;
	}

	if (parg->count) {
		if (prog->store != FETCH_STORE_MEM &&
		    prog->store != FETCH_STORE_STRING)
			return parse_fail(ap, tpos, TP_ERR_BAD_STRING);
		prog->count = parg->count;
		extra++;
	}
	return add_ops(ap, extra, ap->text);
}

static int parse_arg_body(const char *body, struct trace_probe *tp,
			  struct probe_arg *parg,
			  struct traceprobe_parse_context *ctx)
{
	struct arg_parse ap = {
		.ctx = ctx, .parg = parg, .prog = &parg->prog, .pos0 = ctx->offset,
	};
	const char *tname = NULL;
	char *type;
	size_t len = strlen(body);
	int ret;

	if (len > MAX_ARGSTR_LEN) {
		trace_probe_log_err(ctx->offset, ARG_TOO_LONG);
		return -E2BIG;
	}
	if (!len) {
		trace_probe_log_err(ctx->offset, NO_ARG_BODY);
		return -EINVAL;
	}
	parg->comm = kstrdup(body, GFP_KERNEL);
	ap.text = kstrdup(body, GFP_KERNEL);
	if (!parg->comm || !ap.text) {
		ret = -ENOMEM;
		goto out;
	}

	type = split_type(&ap);
	if (IS_ERR(type)) {
		ret = PTR_ERR(type);
		goto out;
	}
	ap.typed = !!type;

	/* $comm and "strings" are strings, and only strings. */
	if (!(ctx->flags & TPARG_FL_TEVENT) &&
	    (!strcmp(ap.text, "$comm") || !strcmp(ap.text, "$COMM") ||
	     str_has_prefix(ap.text, "\\\""))) {
		if (parg->count || (type && strcmp(type, "string"))) {
			ret = parse_fail(&ap, type ? type : ap.text,
					 TP_ERR_NEED_STRING_TYPE);
			goto out;
		}
		tname = "string";
	} else {
		tname = type;
	}
	parg->type = find_fetch_type(tname, ctx->flags);
	if (!parg->type) {
		ret = parse_fail(&ap, type ? type : ap.text, TP_ERR_BAD_TYPE);
		goto out;
	}

	ctx->last_type = NULL;
	ctx->last_btf = NULL;
	ctx->last_bitoffs = 0;
	ctx->last_bitsize = 0;
	ret = parse_fetch(&ap, ap.text);
	if (ret)
		goto out;

	if (ctx->last_type) {
		if (!type) {
			const char *bt = btf_default_type(ctx);

			parg->type = find_fetch_type(bt, ctx->flags);
		} else if (strstr(type, "string")) {
			ret = btf_string_fixup(&ap, type);
			if (ret)
				goto out;
		}
	}

	ret = finish_prog(&ap, type);
	if (ret)
		goto out;
	/* Nothing parsed later may name a type of this argument's casts. */
	drop_cast_btf(ctx);
	ctx->last_type = NULL;
	ctx->last_btf = NULL;

	parg->offset = tp->size;
	tp->size += parg->type->size * (parg->count ?: 1);
	if (parg->dynamic) {
		/* Not an array of strings, nor a symbol's name, nor a second. */
		if (!(tp->arg_kinds & PROBE_ARGS_DYNAMIC) && !parg->count &&
		    parg->prog.store == FETCH_STORE_STRING)
			tp->arg_kinds |= PROBE_ARGS_ONE_STRING;
		else
			tp->arg_kinds &= ~PROBE_ARGS_ONE_STRING;
		tp->arg_kinds |= PROBE_ARGS_DYNAMIC;
	}
	if (!fetch_prog_is_word(&parg->prog))
		tp->arg_kinds |= PROBE_ARGS_GENERAL;
	if (parg->prog.base == FETCH_BASE_REG && parg->prog.fregs_param < 0)
		tp->arg_kinds |= PROBE_ARGS_REGS;
	if (tp->size > MAX_PROBE_EVENT_SIZE) {
		trace_probe_log_err(ctx->offset, EVENT_TOO_BIG);
		ret = -E2BIG;
		goto out;
	}
	if (parg->count) {
		parg->fmt = kasprintf(GFP_KERNEL, "%s[%u]", parg->type->fmttype,
				      parg->count);
		if (!parg->fmt)
			ret = -ENOMEM;
	}
out:
	kfree(ap.text);
	return ret;
}

static const char *const reserved_names[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	"common_tgid", FIELD_STRING_IP, FIELD_STRING_RETIP, FIELD_STRING_FUNC,
};

static bool name_is_taken(const char *name, struct trace_probe *tp, int nr)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(reserved_names); i++)
		if (!strcmp(reserved_names[i], name))
			return true;
	for (i = 0; i < nr; i++)
		if (!strcmp(tp->args[i].name, name))
			return true;
	return false;
}

/* An unnamed argument is named after itself if it is an identifier. */
static char *default_arg_name(const char *arg, int i)
{
	char *name;

	if (IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS)) {
		name = kstrndup(arg, strcspn(arg, ":"), GFP_KERNEL);
		if (name && is_good_name(name))
			return name;
		kfree(name);
	}
	return kasprintf(GFP_KERNEL, "arg%d", i + 1);
}

/**
 * traceprobe_parse_probe_arg - parse "[NAME=]FETCHARG[:TYPE]" into an arg
 * @tp: the probe; @tp->size grows by the argument's field
 * @i: which argument of @tp
 * @arg: the text
 * @ctx: where it is read; its offset is set to the body's
 *
 * On error, the error is logged and what the argument holds is left for
 * traceprobe_free_probe_arg() to release.
 *
 * Return: 0 or a negative errno.
 */
int traceprobe_parse_probe_arg(struct trace_probe *tp, int i, const char *arg,
			       struct traceprobe_parse_context *ctx)
{
	struct probe_arg *parg = &tp->args[i];
	const char *eq = strchr(arg, '=');
	const char *body = arg;

	ctx->tp = tp;
	if (eq) {
		if (eq - arg > MAX_ARG_NAME_LEN) {
			trace_probe_log_err(0, ARG_NAME_TOO_LONG);
			return -EINVAL;
		}
		if (eq == arg) {
			trace_probe_log_err(0, NO_ARG_NAME);
			return -EINVAL;
		}
		parg->name = kstrndup(arg, eq - arg, GFP_KERNEL);
		body = eq + 1;
	} else {
		parg->name = default_arg_name(arg, i);
	}
	if (!parg->name)
		return -ENOMEM;
	if (!is_good_name(parg->name)) {
		trace_probe_log_err(0, BAD_ARG_NAME);
		return -EINVAL;
	}
	if (name_is_taken(parg->name, tp, i)) {
		trace_probe_log_err(0, USED_ARG_NAME);
		return -EINVAL;
	}
	ctx->offset = body - arg;
	return parse_arg_body(body, tp, parg, ctx);
}

/**
 * traceprobe_free_probe_arg - release what an argument owns
 * @arg: the argument, parsed completely or not
 */
void traceprobe_free_probe_arg(struct probe_arg *arg)
{
	if (arg->prog.base == FETCH_BASE_SYMBOL ||
	    arg->prog.base == FETCH_BASE_DATA)
		kfree(arg->prog.data);
	kfree(arg->name);
	kfree(arg->comm);
	kfree(arg->fmt);
}

/**
 * traceprobe_finish_parse - release what parsing a command held
 * @ctx: the context of its arguments
 */
void traceprobe_finish_parse(struct traceprobe_parse_context *ctx)
{
	drop_cast_btf(ctx);
	btf_release(ctx);
}

/* ---- Names -------------------------------------------------------------- */

/**
 * traceprobe_split_symbol_offset - split "SYM+OFFS" or "SYM-OFFS"
 * @symbol: the text; the sign is replaced by a NUL on success
 * @offset: where the offset is returned (0 if none)
 *
 * Return: 0, or -EINVAL if the offset is not a number.
 */
int traceprobe_split_symbol_offset(char *symbol, long *offset)
{
	char *sign;
	int ret;

	if (!offset)
		return -EINVAL;
	*offset = 0;
	sign = strpbrk(symbol, "+-");
	if (!sign)
		return 0;
	ret = kstrtol(sign, 0, offset);
	if (ret)
		return ret;
	*sign = '\0';
	return 0;
}

/**
 * traceprobe_parse_watch_spec - parse a watchpoint event's place
 * @text: "[r|w|rw]@ADDR|SYM[+|-OFFS]|-1[:LEN]", word 1 of the definition
 * @ws: what it says; @ws->symbol is the caller's to free
 *
 * Only the text: whether the symbol exists and the address may be
 * watched is the front end's to find out.  "@-1" is no place yet: the
 * event's triggers give it one.
 *
 * Return: 0, or -EINVAL or -ENOMEM with the error logged.
 */
int traceprobe_parse_watch_spec(const char *text, struct watch_spec *ws)
{
	const char *at = strchr(text, '@');
	const char *colon, *place, *sign;
	size_t len;

	ws->type = WATCH_READ | WATCH_WRITE;
	ws->len = 4;
	ws->addr = 0;
	ws->symbol = NULL;
	ws->offset = 0;
	ws->by_trigger = false;
	if (!at) {
		trace_probe_log_err(0, BAD_ACCESS_FMT);
		return -EINVAL;
	}
	len = at - text;
	if (len == 1 && text[0] == 'r') {
		ws->type = WATCH_READ;
	} else if (len == 1 && text[0] == 'w') {
		ws->type = WATCH_WRITE;
	} else if (len && (len != 2 || strncmp(text, "rw", 2))) {
		trace_probe_log_err(0, BAD_ACCESS_TYPE);
		return -EINVAL;
	}

	place = at + 1;
	colon = strchr(place, ':');
	if (colon) {
		unsigned int n;

		/* The length ends the word: 1, 2, 4 or 8. */
		if (kstrtouint(colon + 1, 0, &n) || !n || n > 8 || (n & (n - 1)))
			goto bad_len;
		ws->len = n;
		len = colon - place;
	} else {
		len = strlen(place);
	}
	if (!len) {
		trace_probe_log_err(place - text, BAD_ACCESS_ADDR);
		return -EINVAL;
	}
	if (len == 2 && !strncmp(place, "-1", 2)) {
		ws->by_trigger = true;
		return 0;
	}

	ws->symbol = kstrndup(place, len, GFP_KERNEL);
	if (!ws->symbol)
		return -ENOMEM;
	if (isdigit(place[0])) {
		if (!kstrtoul(ws->symbol, 0, &ws->addr)) {
			kfree(ws->symbol);
			ws->symbol = NULL;
			return 0;
		}
		trace_probe_log_err(place - text, BAD_ACCESS_ADDR);
		goto fail;
	}
	sign = strpbrk(ws->symbol, "+-");
	if (sign == ws->symbol) {
		trace_probe_log_err(place - text, BAD_ACCESS_ADDR);
		goto fail;
	}
	if (traceprobe_split_symbol_offset(ws->symbol, &ws->offset)) {
		trace_probe_log_err(place - text + (sign - ws->symbol),
				    BAD_PROBE_ADDR);
		goto fail;
	}
	return 0;

bad_len:
	trace_probe_log_err(colon + 1 - text, BAD_ACCESS_LEN);
	return -EINVAL;
fail:
	kfree(ws->symbol);
	ws->symbol = NULL;
	return -EINVAL;
}

/**
 * traceprobe_parse_event_name - split and check "[GROUP/]EVENT"
 * @pevent: in: the text; out: the event name (NULL for "GROUP/")
 * @pgroup: out: the group, copied into @buf, if one is given
 * @buf: MAX_EVENT_NAME_LEN bytes for the group name
 * @offset: offset of the text in the current word, for the error log
 *
 * Return: 0 or -EINVAL with the error logged.
 */
int traceprobe_parse_event_name(const char **pevent, const char **pgroup,
				char *buf, int offset)
{
	const char *name = *pevent, *sep;
	size_t len;

	sep = strchr(name, '/');
	if (!sep)
		sep = strchr(name, '.');
	if (sep) {
		len = sep - name;
		if (!len) {
			trace_probe_log_err(offset, NO_GROUP_NAME);
			return -EINVAL;
		}
		if (len >= MAX_EVENT_NAME_LEN) {
			trace_probe_log_err(offset, GROUP_TOO_LONG);
			return -EINVAL;
		}
		memcpy(buf, name, len);
		buf[len] = '\0';
		if (!is_good_system_name(buf)) {
			trace_probe_log_err(offset, BAD_GROUP_NAME);
			return -EINVAL;
		}
		*pgroup = buf;
		offset += len + 1;
		name = sep + 1;
		*pevent = name;
	}

	len = strlen(name);
	if (!len) {
		if (sep) {
			*pevent = NULL;
			return 0;
		}
		trace_probe_log_err(offset, NO_EVENT_NAME);
		return -EINVAL;
	}
	if (len >= MAX_EVENT_NAME_LEN) {
		trace_probe_log_err(offset, EVENT_TOO_LONG);
		return -EINVAL;
	}
	if (!is_good_name(name)) {
		trace_probe_log_err(offset, BAD_EVENT_NAME);
		return -EINVAL;
	}
	return 0;
}

/* ---- Expanding $arg* and $argN by BTF, %pd and %pD -------------------- */

/* Find $arg words; return 1 if any, with the index of a "$arg*" in @star. */
static int find_arg_vars(int argc, const char *argv[], int *star,
			 struct traceprobe_parse_context *ctx)
{
	int i, found = 0;

	for (i = 0; i < argc; i++) {
		if (!str_has_prefix(argv[i], "$arg"))
			continue;
		trace_probe_log_set_index(i + 2);
		if (!tparg_is_function_entry(ctx->flags) &&
		    !tparg_is_function_return(ctx->flags)) {
			trace_probe_log_err(0, NOFENTRY_ARGS);
			return -EINVAL;
		}
		found = 1;
		if (isdigit(argv[i][4]))
			continue;
		if (argv[i][4] != '*') {
			trace_probe_log_err(0, BAD_VAR);
			return -EINVAL;
		}
		if (*star >= 0) {
			trace_probe_log_err(0, DOUBLE_ARGS);
			return -EINVAL;
		}
		*star = i;
	}
	return found;
}

/* Put parameter @idx's name, then @suffix, in @buf; return the bytes used. */
static int print_param_name(char *buf, int size, int idx, const char *suffix,
			    struct traceprobe_parse_context *ctx)
{
	const char *name = NULL;
	int len;

	if (idx < ctx->nr_params)
		name = btf_name_by_offset(ctx->btf, ctx->params[idx].name_off);
	if (!name) {
		__trace_probe_log_err(0, idx < ctx->nr_params ?
				      TP_ERR_NO_BTF_ENTRY : TP_ERR_NO_BTFARG);
		return -ENOENT;
	}
	len = snprintf(buf, size, "%s%s", name, suffix) + 1;
	if (len <= size)
		return len;
	trace_probe_log_err(0, ARGS_2LONG);
	return -E2BIG;
}

/**
 * traceprobe_expand_meta_args - replace $arg* and $argN by parameter names
 * @argc: argument words
 * @argv: the words
 * @new_argc: out: words of the result
 * @buf: space for the names
 * @bufsize: bytes of @buf
 * @ctx: the probe point
 *
 * Return: NULL if nothing changes, the new argv (kfree it; its new words
 * point into @buf), or an ERR_PTR with the error logged.
 */
const char **traceprobe_expand_meta_args(int argc, const char *argv[],
					 int *new_argc, char *buf, int bufsize,
					 struct traceprobe_parse_context *ctx)
{
	int i, j, n, used = 0, star = -1, ret;
	const char **out;
	char *suffix;

	ret = find_arg_vars(argc, argv, &star, ctx);
	if (ret < 0)
		return ERR_PTR(ret);
	*new_argc = argc;
	if (!ret)
		return NULL;

	if (btf_query(ctx) || !ctx->nr_params) {
		if (star < 0)
			return NULL;
		trace_probe_log_err(0, NOSUP_BTFARG);
		return ERR_PTR(-EOPNOTSUPP);
	}

	if (star >= 0)
		*new_argc = argc + ctx->nr_params - 1;
	out = kcalloc(*new_argc, sizeof(*out), GFP_KERNEL);
	if (!out)
		return ERR_PTR(-ENOMEM);

	for (i = 0, j = 0; i < argc; i++) {
		trace_probe_log_set_index(i + 2);
		if (i == star) {
			for (n = 0; n < ctx->nr_params; n++) {
				ret = print_param_name(buf + used, bufsize - used,
						       n, "", ctx);
				if (ret < 0)
					goto fail;
				out[j++] = buf + used;
				used += ret;
			}
			continue;
		}
		if (!str_has_prefix(argv[i], "$arg")) {
			out[j++] = argv[i];
			continue;
		}
		n = 0;
		for (suffix = (char *)argv[i] + 4; isdigit(*suffix) && n < 10000;
		     suffix++)
			n = n * 10 + *suffix - '0';
		if (*suffix && *suffix != ':') {
			trace_probe_log_err(0, BAD_VAR);
			ret = -ENOENT;
			goto fail;
		}
		if (!n) {
			trace_probe_log_err(0, BAD_ARG_NUM);
			ret = -EINVAL;
			goto fail;
		}
		ret = print_param_name(buf + used, bufsize - used, n - 1,
				       suffix, ctx);
		if (ret < 0)
			goto fail;
		out[j++] = buf + used;
		used += ret;
	}
	return out;
fail:
	kfree(out);
	return ERR_PTR(ret);
}

/**
 * traceprobe_expand_dentry_args - rewrite "X:%pd" and "X:%pD" as strings
 * @argc: argument words
 * @argv: the words; rewritten ones point into *@buf afterwards
 * @buf: must point to NULL; set to the buffer the caller kfree()s
 *
 * A %pd argument is a struct dentry pointer shown by its name, a %pD a
 * struct file pointer shown by its dentry's name.
 *
 * Return: 0 or -ENOMEM.
 */
int traceprobe_expand_dentry_args(int argc, const char *argv[], char **buf)
{
	const size_t name = offsetof(struct dentry, d_name.name);
	const size_t dentry = offsetof(struct file, f_path.dentry);
	int i, used = 0, len;
	char *space = NULL;

	if (*buf)
		return -EINVAL;
	for (i = 0; i < argc; i++) {
		const char *arg = argv[i], *eq;
		int alen = strlen(arg), nlen = 0;
		bool file;

		if (!glob_match("*:%p[dD]", arg))
			continue;
		if (!space) {
			space = kmalloc(MAX_DENTRY_ARGS_LEN, GFP_KERNEL);
			if (!space)
				return -ENOMEM;
		}
		file = arg[alen - 1] == 'D';
		eq = strchr(arg, '=');
		if (eq) {
			nlen = eq - arg + 1;
			arg = eq + 1;
			alen -= nlen;
		}
		alen -= 4;	/* ":%pd" */
		if (file)
			len = snprintf(space + used, MAX_DENTRY_ARGS_LEN - used,
				       "%.*s+0x0(+0x%zx(+0x%zx(%.*s))):string",
				       nlen, argv[i], name, dentry, alen, arg);
		else
			len = snprintf(space + used, MAX_DENTRY_ARGS_LEN - used,
				       "%.*s+0x0(+0x%zx(%.*s)):string",
				       nlen, argv[i], name, alen, arg);
		if (len >= MAX_DENTRY_ARGS_LEN - used) {
			kfree(space);
			return -ENOMEM;
		}
		argv[i] = space + used;
		used += len + 1;
	}
	*buf = space;
	return 0;
}

/**
 * trace_probe_expand_words - a command's argument words, expanded
 * @w: where the words go; release with trace_probe_free_words()
 * @argc: the argument words
 * @argv: the words; %pd and %pD words are rewritten in place
 * @ctx: the probe point ($arg* and $argN are named by its BTF)
 *
 * Return: 0, or a negative errno with the error logged.
 */
int trace_probe_expand_words(struct probe_words *w, int argc, const char **argv,
			     struct traceprobe_parse_context *ctx)
{
	const char **named;

	w->argc = argc;
	w->argv = argv;
	named = traceprobe_expand_meta_args(argc, argv, &w->argc, w->names,
					    sizeof(w->names), ctx);
	if (IS_ERR(named))
		return PTR_ERR(named);
	if (named) {
		w->named = named;
		w->argv = named;
	}
	if (w->argc > MAX_TRACE_ARGS) {
		/* Under the first argument: no one word is wrong. */
		trace_probe_log_set_index(2);
		trace_probe_log_err(0, TOO_MANY_ARGS);
		return -E2BIG;
	}
	return traceprobe_expand_dentry_args(w->argc, w->argv, &w->dentry);
}

/**
 * trace_probe_free_words - release what trace_probe_expand_words() took
 * @w: the words
 */
void trace_probe_free_words(struct probe_words *w)
{
	kfree(w->named);
	kfree(w->dentry);
	w->named = NULL;
	w->dentry = NULL;
}
