/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compiled form of probe arguments, and the parser's interface: what
 * trace_probe_parse.c needs and gives.  Kernel-free on purpose, so that
 * the parser also builds as a host program, to be tested and fuzzed.
 */
#ifndef _TRACE_PROBE_PROG_H
#define _TRACE_PROBE_PROG_H

struct btf;
struct btf_param;
struct btf_type;
struct ftrace_event_field;
struct probe_event;
struct trace_event_call;

/* The limits a definition is held to, each with its error_log entry. */
#define MAX_TRACE_ARGS		128	/* arguments of one probe */
#define MAX_ARG_NAME_LEN	32	/* an argument's name */
#define MAX_ARGSTR_LEN		255	/* one argument's text */
#define MAX_ARRAY_LEN		64	/* elements of a :TYPE[N] */
#define MAX_BTF_ARGS_LEN	128	/* what $arg* expands to */
#define MAX_DENTRY_ARGS_LEN	256	/* what %pd/%pD expands to */
#define MAX_PROBE_EVENT_SIZE	3072	/* the record's fixed part */
#define MAX_STRING_SIZE		PATH_MAX	/* a string argument's bytes */

/* The fixed fields' names, which no argument may take. */
#define FIELD_STRING_IP		"__probe_ip"
#define FIELD_STRING_FUNC	"__probe_func"
#define FIELD_STRING_RETIP	"__probe_ret_ip"

/* Where a fetch program takes its first value from. */
enum fetch_base {
	FETCH_BASE_NONE,
	FETCH_BASE_REG,		/* pt_regs word at byte offset param */
	FETCH_BASE_STACK,	/* param-th word above the stack pointer */
	FETCH_BASE_STACKP,	/* the stack pointer */
	FETCH_BASE_RETVAL,	/* the return value register */
	FETCH_BASE_ARG,		/* param-th function argument (0 based) */
	FETCH_BASE_EDATA,	/* word saved at function entry, offset param */
	FETCH_BASE_COMM,	/* address of current->comm */
	FETCH_BASE_IMM,		/* the constant param */
	FETCH_BASE_SYMBOL,	/* address of symbol data + param */
	FETCH_BASE_DATA,	/* address of the constant string data */
	FETCH_BASE_FOFFS,	/* file offset param, made an address per hit */
	FETCH_BASE_EFIELD,	/* a field of the record an eprobe is attached to */
	FETCH_BASE_CURRENT,	/* address of the current task_struct */
	FETCH_BASE_WADDR,	/* the address a watchpoint watches */
};

/* How a fetch program stores what it reached. */
enum fetch_store {
	FETCH_STORE_RAW,	/* the value itself */
	FETCH_STORE_MEM,	/* size bytes read at the final address */
	FETCH_STORE_STRING,	/* a string read at the final address */
	FETCH_STORE_SYMSTR,	/* the symbol name of the value */
};

#define FETCH_MAX_OPS		15
#define FETCH_MAX_DEREF		(FETCH_MAX_OPS - 1)
/*
 * "+OFFS(...)" dereferences, "(STRUCT)" typecasts and this_cpu_*()
 * reads one inside another, at most this deep: the limit userspace is
 * told of (TOO_MANY_NESTED), below what a program holds.  BTF "->field"
 * accesses do not nest and are not counted.
 */
#define FETCH_MAX_NESTED	8

/**
 * struct fetch_prog - one fetch argument, compiled
 * @base: a &enum fetch_base
 * @store: a &enum fetch_store
 * @nderef: memory accesses after the base; the last is done by @store
 *	unless @store is RAW or SYMSTR, or an array of strings is read
 * @size: bytes of one stored element
 * @count: array elements, 0 for a scalar
 * @user_store: the last access (the store's) reads user memory
 * @bf_lshift: bitfield: left shift that drops the bits above the field
 * @bf_rshift: bitfield: right shift that drops the bits below it; 0 if
 *	the value is not a bitfield
 * @bf_size: bitfield: size of the container the shifts apply to
 * @direct: the first access cannot fault, and is a plain load: set when
 *	the probe is registered (traceprobe_update_arg())
 * @param: operand of @base
 * @data: @base's data: the constant string, the symbol name, the
 *	eprobe's &struct ftrace_event_field
 * @user: bit i set if access i reads user memory
 * @percpu: bit i set if the value before access i is a per-CPU pointer,
 *	made this CPU's address before the access's offset is added; bit
 *	@nderef for the final value (this_cpu_ptr() outermost)
 * @fregs_param: for a register, where ftrace's registers hold it, or -1
 *	where only a pt_regs does (see probe_fregs_reg_offset())
 * @offs: the offset added before each memory access
 */
struct fetch_prog {
	u8			base;
	u8			store;
	u8			nderef;
	u8			size;
	u8			count;
	u8			user_store;
	u8			bf_lshift;
	u8			bf_rshift;
	u8			bf_size;
	u8			direct;
	unsigned long		param;
	void			*data;
	u16			user;
	u16			percpu;
	s16			fregs_param;
	long			offs[FETCH_MAX_DEREF];
};

/**
 * struct fetch_type - a type an argument can be stored as
 * @name: its name in the definition language ("u32", "string", ...)
 * @size: bytes it takes in the fixed part of the record
 * @is_signed: shown and filtered as signed
 * @is_string: stored as a data location
 * @kind: how the trace file shows it, a &enum fetch_kind
 * @fmttype: its type in the event's format file
 * @fmt: its printf conversion in the event's print fmt
 */
struct fetch_type {
	const char	*name;
	size_t		size;
	bool		is_signed;
	bool		is_string;
	u8		kind;
	const char	*fmttype;
	const char	*fmt;
};

/* How a value is shown in the trace file. */
enum fetch_kind {
	FETCH_KIND_UNSIGNED,
	FETCH_KIND_SIGNED,
	FETCH_KIND_HEX,
	FETCH_KIND_CHAR,
	FETCH_KIND_SYMBOL,
	FETCH_KIND_STRING,
};

/**
 * struct probe_arg - one argument of a probe
 * @prog: its compiled fetch program
 * @dynamic: it stores a data location (a string)
 * @offset: byte offset of its field from the start of the argument area
 * @count: array elements, 0 for a scalar
 * @name: its field name
 * @comm: the fetch argument as written, for kprobe_events
 * @fmt: its format-file type when it is an array ("u8[4]")
 * @type: its &struct fetch_type
 */
struct probe_arg {
	struct fetch_prog	prog;
	bool			dynamic;
	unsigned int		offset;
	unsigned int		count;
	const char		*name;
	const char		*comm;
	char			*fmt;
	const struct fetch_type	*type;
};

/**
 * struct probe_entry_arg - what a return probe saves at function entry
 * @nr: words saved
 * @argnum: for each word, the argument (0 based) it holds
 */
struct probe_entry_arg {
	unsigned int	nr;
	unsigned int	argnum[];
};

/* Set in &trace_probe.arg_kinds when some argument is of the kind. */
#define PROBE_ARGS_DYNAMIC	BIT(0)	/* stores data after the fixed area */
#define PROBE_ARGS_GENERAL	BIT(1)	/* needs more than a word of the hit */
#define PROBE_ARGS_REGS		BIT(2)	/* reads a register only a pt_regs has */
#define PROBE_ARGS_ONE_STRING	BIT(3)	/* its one dynamic argument is a string */

/*
 * A word the hit holds, stored whole: a register, a function's argument,
 * or a word saved at the entry for the return. The commonest arguments:
 * the hit copies them into the record, with no program to run.
 */
static inline bool fetch_prog_is_word(const struct fetch_prog *p)
{
	switch (p->base) {
	case FETCH_BASE_REG:
	case FETCH_BASE_ARG:
	case FETCH_BASE_EDATA:
		break;
	default:
		return false;
	}
	return p->store == FETCH_STORE_RAW && !p->nderef && !p->count &&
	       !p->bf_rshift && !p->percpu;
}

/**
 * struct trace_probe - a probe definition's event side
 * @list: in &probe_event.probes
 * @event: the event it records into
 * @entry_arg: for a return probe, the arguments saved at entry
 * @size: bytes of the fixed argument area of its records
 * @nr_args: entries of @args, at most MAX_TRACE_ARGS
 * @arg_kinds: PROBE_ARGS_* of its arguments, for what a hit can skip
 * @args: its arguments
 */
struct trace_probe {
	struct hlist_node		list;
	struct probe_event		*event;
	struct probe_entry_arg		*entry_arg;
	unsigned int			size;
	u16				nr_args;
	u16				arg_kinds;
	struct probe_arg		args[];
};

/*
 * Where the argument is read, which sets the bases and accesses that are
 * legal: the address space, and at most one of the places after it. The
 * flags above TPARG_FL_LOC_MASK refine a kernel place.
 */
#define TPARG_FL_KERNEL		BIT(0)
#define TPARG_FL_USER		BIT(1)
#define TPARG_FL_FENTRY		BIT(2)	/* a function's first instruction */
#define TPARG_FL_RETURN		BIT(3)	/* a function's return */
#define TPARG_FL_TEVENT		BIT(4)	/* another event's record */
#define TPARG_FL_LOC_MASK	GENMASK(4, 0)
#define TPARG_FL_FPROBE		BIT(5)	/* the place is reached by fprobe */
#define TPARG_FL_TPOINT		BIT(6)	/* the place is a tracepoint's */
#define TPARG_FL_WPROBE		BIT(7)	/* the place is a data access */

static inline bool tparg_at_kernel(unsigned int flags, unsigned int place)
{
	return (flags & TPARG_FL_LOC_MASK) == (place | TPARG_FL_KERNEL);
}

static inline bool tparg_is_function_entry(unsigned int flags)
{
	return tparg_at_kernel(flags, TPARG_FL_FENTRY);
}

static inline bool tparg_is_function_return(unsigned int flags)
{
	return tparg_at_kernel(flags, TPARG_FL_RETURN);
}

/**
 * struct traceprobe_parse_context - what parsing an argument needs to know
 * @event: an eprobe's attached event
 * @funcname: the probed function, for BTF
 * @flags: TPARG_FL_*
 * @offset: byte offset of the token being parsed in its word
 * @tp: the probe being built (return probes record entry arguments in it)
 * @btf: the BTF the function's prototype was found in
 * @proto: the function's prototype
 * @params: its parameters
 * @nr_params: entries of @params
 * @cast_btf: the BTF of the structure named by the typecast resolved
 *	last, or of task_struct for "$current->"; held until the argument
 *	is parsed
 * @last_type: BTF type of the value parsed last
 * @last_btf: the BTF @last_type is in (@btf or @cast_btf)
 * @last_bitoffs: bit offset of a BTF bitfield in the word read
 * @last_bitsize: bit size of a BTF bitfield, 0 otherwise
 */
struct traceprobe_parse_context {
	struct trace_event_call		*event;
	const char			*funcname;
	unsigned int			flags;
	int				offset;
	struct trace_probe		*tp;
	struct btf			*btf;
	const struct btf_type		*proto;
	const struct btf_param		*params;
	s32				nr_params;
	struct btf			*cast_btf;
	const struct btf_type		*last_type;
	struct btf			*last_btf;
	u32				last_bitoffs;
	u32				last_bitsize;
};

int traceprobe_parse_probe_arg(struct trace_probe *tp, int i, const char *argv,
			       struct traceprobe_parse_context *ctx);

/**
 * struct probe_words - the argument words of a command, expanded
 * @argc: words
 * @argv: the words
 * @named: the array @argv is when $arg* or $argN were replaced
 * @dentry: the text of rewritten %pd and %pD words
 * @names: the text of the parameter names put in
 */
struct probe_words {
	int		argc;
	const char	**argv;
	const char	**named;
	char		*dentry;
	char		names[MAX_BTF_ARGS_LEN];
};

int trace_probe_expand_words(struct probe_words *w, int argc, const char **argv,
			     struct traceprobe_parse_context *ctx);
void trace_probe_free_words(struct probe_words *w);
int traceprobe_split_symbol_offset(char *symbol, long *offset);
int traceprobe_parse_event_name(const char **pevent, const char **pgroup,
				char *buf, int offset);

/* What a watchpoint event watches for: the hw_breakpoint types' values. */
#define WATCH_READ		BIT(0)
#define WATCH_WRITE		BIT(1)

/**
 * struct watch_spec - the place of a watchpoint event, as written
 * @type: WATCH_READ, WATCH_WRITE or both
 * @len: the bytes watched: 1, 2, 4 or 8
 * @addr: the address, if given as a number
 * @symbol: else the symbol, a copy the caller frees
 * @offset: what is added to the symbol's address
 * @by_trigger: "@-1": no place until a set_wprobe trigger gives one
 */
struct watch_spec {
	unsigned int	type;
	unsigned int	len;
	unsigned long	addr;
	char		*symbol;
	long		offset;
	bool		by_trigger;
};

int traceprobe_parse_watch_spec(const char *text, struct watch_spec *ws);
int traceprobe_btf_member_offset(char *sname, char *members, char **bad);
const char **traceprobe_expand_meta_args(int argc, const char *argv[],
					 int *new_argc, char *buf, int bufsize,
					 struct traceprobe_parse_context *ctx);
int traceprobe_expand_dentry_args(int argc, const char *argv[], char **buf);
void traceprobe_finish_parse(struct traceprobe_parse_context *ctx);
void traceprobe_free_probe_arg(struct probe_arg *arg);
int traceprobe_get_entry_data_size(struct trace_probe *tp);

/* The parser's one question to its host: the field @name of @event. */
struct ftrace_event_field *probe_event_field(struct trace_event_call *event,
					     const char *name);

/*
 * The error_log vocabulary.  The codes are ours; the texts are what
 * userspace (ftracetest's *_syntax_errors.tc among others) reads, so they
 * stay word for word what they have been, in trace_probe_log.c.
 */
enum probe_error {
	TP_ERR_FILE_NOT_FOUND, TP_ERR_NO_REGULAR_FILE, TP_ERR_BAD_REFCNT,
	TP_ERR_REFCNT_OPEN_BRACE, TP_ERR_BAD_REFCNT_SUFFIX,
	TP_ERR_BAD_UPROBE_OFFS, TP_ERR_BAD_MAXACT_TYPE, TP_ERR_BAD_MAXACT,
	TP_ERR_MAXACT_TOO_BIG, TP_ERR_BAD_PROBE_ADDR, TP_ERR_NON_UNIQ_SYMBOL,
	TP_ERR_BAD_RETPROBE, TP_ERR_NO_TRACEPOINT, TP_ERR_BAD_TP_NAME,
	TP_ERR_BAD_ADDR_SUFFIX, TP_ERR_NO_GROUP_NAME, TP_ERR_GROUP_TOO_LONG,
	TP_ERR_BAD_GROUP_NAME, TP_ERR_NO_EVENT_NAME, TP_ERR_EVENT_TOO_LONG,
	TP_ERR_BAD_EVENT_NAME, TP_ERR_EVENT_EXIST, TP_ERR_RETVAL_ON_PROBE,
	TP_ERR_NO_RETVAL, TP_ERR_BAD_STACK_NUM, TP_ERR_BAD_ARG_NUM,
	TP_ERR_BAD_VAR, TP_ERR_BAD_REG_NAME, TP_ERR_BAD_MEM_ADDR,
	TP_ERR_BAD_IMM, TP_ERR_IMMSTR_NO_CLOSE, TP_ERR_FILE_ON_KPROBE,
	TP_ERR_BAD_FILE_OFFS, TP_ERR_SYM_ON_UPROBE, TP_ERR_TOO_MANY_OPS,
	TP_ERR_DEREF_NEED_BRACE, TP_ERR_BAD_DEREF_OFFS,
	TP_ERR_DEREF_OPEN_BRACE, TP_ERR_COMM_CANT_DEREF, TP_ERR_BAD_FETCH_ARG,
	TP_ERR_ARRAY_NO_CLOSE, TP_ERR_BAD_ARRAY_SUFFIX, TP_ERR_BAD_ARRAY_NUM,
	TP_ERR_ARRAY_TOO_BIG, TP_ERR_BAD_TYPE, TP_ERR_BAD_STRING,
	TP_ERR_BAD_SYMSTRING, TP_ERR_BAD_BITFIELD, TP_ERR_ARG_NAME_TOO_LONG,
	TP_ERR_NO_ARG_NAME, TP_ERR_BAD_ARG_NAME, TP_ERR_USED_ARG_NAME,
	TP_ERR_ARG_TOO_LONG, TP_ERR_NO_ARG_BODY, TP_ERR_BAD_INSN_BNDRY,
	TP_ERR_FAIL_REG_PROBE, TP_ERR_DIFF_PROBE_TYPE, TP_ERR_DIFF_ARG_TYPE,
	TP_ERR_SAME_PROBE, TP_ERR_NO_EVENT_INFO, TP_ERR_BAD_ATTACH_EVENT,
	TP_ERR_BAD_ATTACH_ARG, TP_ERR_NO_EP_FILTER, TP_ERR_NOSUP_BTFARG,
	TP_ERR_NO_BTFARG, TP_ERR_NO_BTF_ENTRY, TP_ERR_BAD_VAR_ARGS,
	TP_ERR_NOFENTRY_ARGS, TP_ERR_DOUBLE_ARGS, TP_ERR_ARGS_2LONG,
	TP_ERR_ARGIDX_2BIG, TP_ERR_NO_PTR_STRCT, TP_ERR_NOSUP_DAT_ARG,
	TP_ERR_BAD_HYPHEN, TP_ERR_NO_BTF_FIELD, TP_ERR_BAD_BTF_TID,
	TP_ERR_BAD_TYPE4STR, TP_ERR_NEED_STRING_TYPE, TP_ERR_EVENT_TOO_BIG,
	TP_ERR_TOO_MANY_EARGS, TP_ERR_TOO_MANY_NESTED, TP_ERR_TOO_MANY_ARGS,
	TP_ERR_NOSUP_PERCPU, TP_ERR_NO_EVENT_FIELD, TP_ERR_TYPECAST_BAD_ARROW,
	TP_ERR_TYPECAST_NOT_ALIGNED, TP_ERR_TYPECAST_REQ_FIELD,
	TP_ERR_TYPECAST_SYM_OFFSET, TP_ERR_BAD_ACCESS_FMT,
	TP_ERR_BAD_ACCESS_TYPE, TP_ERR_BAD_ACCESS_LEN, TP_ERR_BAD_ACCESS_ADDR,
	TP_ERR_NO_WATCH_SLOT,
	TP_ERR_NR,
};

void __trace_probe_log_err(int offset, int err);
void trace_probe_log_set_index(int index);

#define trace_probe_log_err(offs, err)	\
	__trace_probe_log_err(offs, TP_ERR_##err)

#endif /* _TRACE_PROBE_PROG_H */
