// SPDX-License-Identifier: GPL-2.0
/*
 * The probe-argument parser (kernel/trace/trace_probe_parse.c) built for
 * the host: the cases of parse-cases.txt, then a fuzz run of random and
 * mutated arguments, under AddressSanitizer, UBSan and LeakSanitizer.
 * Built twice, as the kernel is: with CONFIG_PROBE_EVENTS_BTF_ARGS, on
 * btf-shim.c's fake BTF, it prints a KTAP document of suite "parser";
 * without, of suite "parser-nobtf", with the logs of the cases that fail
 * (see report.py).
 *
 *   parse-test CASES [FUZZ_ITERATIONS [SEED]]
 */
#include "trace_probe_prog.h"
#include "trace_probe_parse.c"
#include "parse-errnames.h"

#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
#include "btf-shim.h"
#define SUITE	"parser"
#else
#define SUITE	"parser-nobtf"
static int btf_shim_refs(void)
{
	return 0;
}

static void btf_shim_exit(void)
{
}
#endif

static int last_err = -1, last_pos;

/* The number of the last KTAP result line printed. */
static int ktap_no;

/* One KTAP result line: "ok N NAME" or "not ok N NAME". */
static void __attribute__((format(printf, 2, 3)))
ktap_result(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d ", ok ? "ok" : "not ok", ++ktap_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

void __trace_probe_log_err(int offset, int err)
{
	last_err = err;
	last_pos = offset;
}

void trace_probe_log_set_index(int index)
{
}

/*
 * The event an event probe ("t") is attached to: one with two task
 * pointers, as a probe event recording them has, for typecasts to name
 * what they point to, and a number.
 */
struct ftrace_event_field {
	const char *name;
};

static struct ftrace_event_field event_fields[] = {
	{ "prev" }, { "next" }, { "prev_state" },
};

struct ftrace_event_field *probe_event_field(struct trace_event_call *event,
					     const char *name)
{
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(event_fields); i++)
		if (!strcmp(event_fields[i].name, name))
			return &event_fields[i];
	return NULL;
}

/* arm64's struct pt_regs: x0..x30, then sp, pc, pstate. */
int regs_query_register_offset(const char *name)
{
	unsigned int n;

	if (!strcmp(name, "sp"))
		return 31 * 8;
	if (!strcmp(name, "pc"))
		return 32 * 8;
	if (!strcmp(name, "pstate"))
		return 33 * 8;
	if (name[0] == 'x' && !kstrtouint(name + 1, 10, &n) && n <= 30)
		return n * 8;
	return -EINVAL;
}

static const char *const base_names[] = {
	"NONE", "REG", "STACK", "STACKP", "RETVAL", "ARG", "EDATA", "COMM",
	"IMM", "SYMBOL", "DATA", "FOFFS", "EFIELD", "CURRENT", "WADDR",
};

static const char *const store_names[] = { "RAW", "MEM", "STRING", "SYMSTR" };

static unsigned int flags_of(const char *f, size_t len)
{
	static const struct {
		const char	*name;
		unsigned int	flags;
	} where[] = {
		{ "k", TPARG_FL_KERNEL },
		{ "e", TPARG_FL_KERNEL | TPARG_FL_FENTRY },
		{ "r", TPARG_FL_KERNEL | TPARG_FL_RETURN },
		{ "u", TPARG_FL_USER },
		{ "ur", TPARG_FL_USER | TPARG_FL_RETURN },
		{ "f", TPARG_FL_KERNEL | TPARG_FL_FPROBE | TPARG_FL_FENTRY },
		{ "fr", TPARG_FL_KERNEL | TPARG_FL_FPROBE | TPARG_FL_RETURN },
		{ "tp", TPARG_FL_KERNEL | TPARG_FL_FPROBE | TPARG_FL_FENTRY |
			TPARG_FL_TPOINT },
		{ "w", TPARG_FL_KERNEL | TPARG_FL_WPROBE },
	};
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(where); i++)
		if (strlen(where[i].name) == len &&
		    !strncmp(where[i].name, f, len))
			return where[i].flags;
	return TPARG_FL_KERNEL | TPARG_FL_TEVENT;
}

/*
 * "FLAGS[@FUNC]": where the argument is read, and the function probed,
 * which the front ends give the parser for its BTF: a kprobe or fprobe
 * the symbol, a tracepoint probe its stub "__probestub_FUNC".  Without
 * one, a probe at an address.
 */
static void context_of(const char *where, struct traceprobe_parse_context *ctx,
		       char *func, size_t size)
{
	const char *at = strchr(where, '@');
	size_t len = at ? (size_t)(at - where) : strlen(where);

	ctx->flags = flags_of(where, len);
	if (!at)
		return;
	snprintf(func, size, "%s%s",
		 ctx->flags & TPARG_FL_TPOINT ? "__probestub_" : "", at + 1);
	ctx->funcname = func;
}

/*
 * Parse @argv as a front end parses the argument words of a definition:
 * expanded first ($argN, $arg* and %pd by trace_probe_expand_words()),
 * then each word they became as an argument of its own.  *@wordlen is the
 * length of the word refused, which the error's offset is in.
 */
static struct trace_probe *parse(int argc, const char **argv, const char *where,
				 int *ret, size_t *wordlen)
{
	struct traceprobe_parse_context ctx = { };
	struct probe_words w = { };
	const char *words[MAX_TRACE_ARGS + 4];
	struct trace_probe *tp;
	char func[128];
	int i, n;

	if (argc > (int)ARRAY_SIZE(words))
		abort();
	context_of(where, &ctx, func, sizeof(func));
	last_err = -1;
	/* %pd and %pD words are rewritten in the array, into w's memory. */
	for (*wordlen = 0, i = 0; i < argc; i++) {
		words[i] = argv[i];
		if (strlen(argv[i]) > *wordlen)
			*wordlen = strlen(argv[i]);
	}
	*ret = trace_probe_expand_words(&w, argc, words, &ctx);
	n = w.argc > 1 ? w.argc : 1;
	tp = calloc(1, sizeof(*tp) + n * sizeof(struct probe_arg));
	for (i = 0; !*ret && i < w.argc; i++) {
		tp->nr_args = i + 1;
		*wordlen = strlen(w.argv[i]);
		*ret = traceprobe_parse_probe_arg(tp, i, w.argv[i], &ctx);
	}
	traceprobe_finish_parse(&ctx);
	trace_probe_free_words(&w);
	return tp;
}

static void release(struct trace_probe *tp)
{
	int i;

	for (i = 0; i < tp->nr_args; i++)
		traceprobe_free_probe_arg(&tp->args[i]);
	free(tp->entry_arg);
	free(tp);
}

/*
 * What a parse gave, as parse-cases.txt writes it: each argument's
 * "ok NAME TYPE BASE[:PARAM] STORE ACCESSES [OFFSETS] [bf LSHIFT RSHIFT
 * SIZE]", " | " between the arguments $arg* became, or "err CODE OFFSET".
 */
static void describe(struct trace_probe *tp, int ret, char *out, size_t size)
{
	int n = 0, i, j;

	if (ret) {
		snprintf(out, size, "err %s %d", last_err >= 0 ?
			 err_names[last_err] : "(none)", last_pos);
		return;
	}
	out[0] = '\0';
	for (j = 0; j < tp->nr_args && n < (int)size; j++) {
		struct probe_arg *a = &tp->args[j];

		n += snprintf(out + n, size - n, "%sok %s %s %s",
			      j ? " | " : "", a->name, a->type->name,
			      base_names[a->prog.base]);
		/* Which argument, or where its word was saved at the entry. */
		if ((a->prog.base == FETCH_BASE_ARG ||
		     a->prog.base == FETCH_BASE_EDATA) && n < (int)size)
			n += snprintf(out + n, size - n, ":%lu", a->prog.param);
		if (n < (int)size)
			n += snprintf(out + n, size - n, " %s %u",
				      store_names[a->prog.store],
				      a->prog.nderef);
		for (i = 0; i < a->prog.nderef && n < (int)size; i++)
			n += snprintf(out + n, size - n, "%s%ld", i ? "," : " ",
				      a->prog.offs[i]);
		if (a->prog.bf_rshift && n < (int)size)
			n += snprintf(out + n, size - n, " bf %u %u %u",
				      a->prog.bf_lshift, a->prog.bf_rshift,
				      a->prog.bf_size);
	}
}

/*
 * A watchpoint event's place, as parse-cases.txt writes what became of it:
 * "ok TYPE LEN ADDR|SYMBOL|-1 OFFSET" or "err CODE OFFSET".  Return 0, or
 * what refused it, with *@why set if it broke a rule of the parser's.
 */
static int parse_spec(const char *text, char *out, size_t size,
		      const char **why)
{
	static const char *const types[] = { "?", "r", "w", "rw" };
	struct watch_spec ws;
	int ret;

	last_err = -1;
	*why = NULL;
	ret = traceprobe_parse_watch_spec(text, &ws);
	if (ret) {
		snprintf(out, size, "err %s %d", last_err >= 0 ?
			 err_names[last_err] : "(none)", last_pos);
		if (ret != -ENOMEM &&
		    (last_err < 0 || last_pos < 0 || last_pos > (int)strlen(text)))
			*why = "refused without an error in the place";
		if (ws.symbol)
			*why = "refused, with the symbol kept";
		return ret;
	}
	if (ws.by_trigger)
		snprintf(out, size, "ok %s %u -1 %ld", types[ws.type & 3],
			 ws.len, ws.offset);
	else if (ws.symbol)
		snprintf(out, size, "ok %s %u %s %ld", types[ws.type & 3],
			 ws.len, ws.symbol, ws.offset);
	else
		snprintf(out, size, "ok %s %u 0x%lx %ld", types[ws.type & 3],
			 ws.len, ws.addr, ws.offset);
	if (!ws.type || ws.type > 3 || !ws.len || ws.len > 8 ||
	    (ws.len & (ws.len - 1)) || (ws.symbol && !ws.symbol[0]) ||
	    (ws.by_trigger && (ws.symbol || ws.addr)))
		*why = "accepted a place that cannot be watched";
	free(ws.symbol);
	return 0;
}

/*
 * A member's offset for what is not an argument (a watchpoint trigger's
 * field), "STRUCT MEMBER[.MEMBER...]", as parse-cases.txt writes what
 * became of it: "ok OFFSET" or "err ERRNO POSITION", the position that of
 * the text the error is about.  Return whether it kept a BTF reference.
 */
static bool member_offset(const char *text, char *out, size_t size)
{
	char buf[256], *members, *bad = NULL;
	int held = btf_shim_refs(), ret;

	snprintf(buf, sizeof(buf), "%s", text);
	members = strchr(buf, ' ');
	if (members)
		*members++ = '\0';
	ret = traceprobe_btf_member_offset(buf, members ?: buf + strlen(buf),
					   &bad);
	if (ret >= 0)
		snprintf(out, size, "ok %d", ret);
	else
		snprintf(out, size, "err %s %d", ret == -ENOENT ? "ENOENT" :
			 ret == -EINVAL ? "EINVAL" :
			 ret == -EOPNOTSUPP ? "EOPNOTSUPP" : "?",
			 bad ? (int)(bad - buf) : -1);
	return btf_shim_refs() != held;
}

/*
 * A case is "WHERE<TAB>ARGUMENT<TAB>EXPECTED[<TAB>EXPECTED WITHOUT BTF]":
 * the last only where a kernel without BTF arguments gives another result.
 */
static int run_cases(const char *path)
{
	char line[1024], got[1024];
	int bad = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f)) {
		char *where, *text, *want, *nobtf;
		struct trace_probe *tp;
		size_t len;
		int ret, held;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		where = strtok(line, "\t");
		text = strtok(NULL, "\t");
		want = strtok(NULL, "\t");
		nobtf = strtok(NULL, "\t");
		if (!where || !text || !want)
			continue;
		if (!IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS) && nobtf)
			want = nobtf;
		if (!strcmp(where, "member")) {
			if (member_offset(text, got, sizeof(got)))
				snprintf(got + strlen(got),
					 sizeof(got) - strlen(got),
					 ", a BTF reference held");
		} else if (!strcmp(where, "spec")) {
			const char *why;

			parse_spec(text, got, sizeof(got), &why);
			if (why)
				snprintf(got + strlen(got),
					 sizeof(got) - strlen(got), ": %s", why);
		} else {
			held = btf_shim_refs();
			tp = parse(1, (const char **)&text, where, &ret, &len);
			describe(tp, ret, got, sizeof(got));
			release(tp);
			/* A reference the parse took and kept fails the case. */
			if (btf_shim_refs() != held)
				snprintf(got + strlen(got),
					 sizeof(got) - strlen(got),
					 ", %d BTF references held",
					 btf_shim_refs() - held);
		}
		if (!strcmp(got, want)) {
			ktap_result(true, "%s %s", where, text);
		} else {
			bad++;
			ktap_result(false, "%s %s", where, text);
			printf("@log " SUITE " %s %s\n", where, text);
			printf("want: %s\ngot:  %s\n@endlog\n", want, got);
		}
	}
	fclose(f);
	return bad;
}

/* ---- Fuzzing ------------------------------------------------------------ */

static u64 rng;

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? rng % n : 0;
}

static const char alphabet[] =
	"%$@+-()[]{}:=/\\\"'0123456789abcdefxsuprkbl_.>*,tgw ";

/*
 * Pieces of the BTF forms, which one character at a time seldom makes:
 * structure and member names of btf-shim.c, the "->" and "." that walk
 * them, the typecast forms.
 */
static const char *const tokens[] = {
	"->", ".", ",", "-", "$current->", "$retval", "$arg*", "$arg1",
	"(task_struct)", "(task_struct,", "(file)", "(file,f_path)",
	"(dentry)", "(list_head)", "(btf_shim_dev)", "()", "(nosuch)",
	"pid", "comm", "real_parent->", "group_leader->", "tasks.next",
	"in_execve", "sched_reset_on_fork", "se", "se.group_node", "prio",
	"f_path.dentry->", "d_name.name", "file", "buf", "count", "pos",
	"prev->", "dev->owner->", "lb->flag3", ":string", ":ustring", ":u8",
	"@jiffies+8", "this_cpu_read(", "this_cpu_ptr(", "+0(", ")",
	":%pd", ":%pD",
};

struct corpus_case {
	char	*where;
	char	*text;
};

static void mutate(char *s, size_t size, const struct corpus_case *corpus,
		   int nc)
{
	size_t len = strlen(s), i = rnd(len + 1), j;
	const char *w;

	switch (rnd(7)) {
	case 0:		/* drop a character */
		if (len)
			memmove(s + i, s + i + 1, len - i);
		break;
	case 1:		/* insert one */
		if (len + 2 < size) {
			memmove(s + i + 1, s + i, len - i + 1);
			s[i] = alphabet[rnd(sizeof(alphabet) - 1)];
		}
		break;
	case 2:		/* repeat a piece */
		j = rnd(10) + 1;
		if (i + j <= len && len + j + 1 < size)
			memmove(s + i + j, s + i, len - i + 1);
		break;
	case 3:		/* cut the end */
		s[i] = '\0';
		break;
	case 4:		/* splice another case in */
	case 5:		/* or a piece of the BTF forms */
		w = rnd(2) ? corpus[rnd(nc)].text :
			     tokens[rnd(ARRAY_SIZE(tokens))];
		if (len + strlen(w) + 1 < size) {
			memmove(s + i + strlen(w), s + i, len - i + 1);
			memcpy(s + i, w, strlen(w));
		}
		break;
	default:	/* a number where it hurts */
		if (len + 3 < size) {
			memmove(s + i + 2, s + i, len - i + 1);
			s[i] = "0123456789"[rnd(10)];
			s[i + 1] = "0x-+f9"[rnd(6)];
		}
	}
}

/* A parse must leave a consistent program, or one logged error in range. */
static const char *check(struct trace_probe *tp, int ret, size_t wordlen)
{
	unsigned int size = 0;
	int i;

	if (btf_shim_refs())
		return "a BTF reference is still held after the parse";
	if (ret) {
		if (ret == -ENOMEM)
			return NULL;
		if (last_err < 0 || last_err >= TP_ERR_NR)
			return "refused without an error code";
		if (last_pos < 0 || last_pos > (int)wordlen)
			return "error position outside the argument";
		return NULL;
	}
	for (i = 0; i < tp->nr_args; i++) {
		struct probe_arg *a = &tp->args[i];

		if (!a->type || !a->name || !a->comm)
			return "accepted without a type, a name or its text";
		if (a->prog.nderef > FETCH_MAX_DEREF)
			return "more memory accesses than the program holds";
		if (a->dynamic != a->type->is_string)
			return "a string that is not stored as one";
		if (a->offset != size)
			return "its field is not after the one before";
		size += a->type->size * (a->count ?: 1);
		if (a->prog.bf_rshift &&
		    (a->prog.bf_rshift > 63 || !a->prog.bf_size))
			return "a bitfield with impossible shifts";
		/* The bitfield is cut in the stored value, no wider. */
		if (a->prog.bf_rshift &&
		    (a->prog.bf_size != a->type->size ||
		     a->prog.bf_rshift >= a->prog.bf_size * 8 ||
		     a->prog.bf_lshift > a->prog.bf_rshift))
			return "a bitfield wider than its stored value";
	}
	if (tp->size != size)
		return "its field size is wrong";
	return NULL;
}

/*
 * Error codes the fuzz must reach, or its grammar misses what they check.
 * Upstream 7.3 has ten codes 6.12 had not: TOO_MANY_NESTED, NOSUP_PERCPU,
 * NO_EVENT_FIELD, the four TYPECAST_* and TOO_MANY_ARGS (a command of
 * over 128 words), which the parser gives; and two no fuzzed argument
 * can: TOO_MANY_EARGS (trace_fprobe.c's, for entry data) and
 * TYPECAST_NOT_EVENT (7.3 lists it but never logs it; the series has
 * not).  Without BTF, the parser gives all but the TYPECAST_* codes.
 */
static int fuzz_reached(const bool *seen)
{
	static const char *const want[] = {
		"TOO_MANY_NESTED", "NOSUP_PERCPU", "NO_EVENT_FIELD",
		"TOO_MANY_ARGS",
		/* Older, but only a command of several words gives it. */
		"DOUBLE_ARGS",
		/* A watchpoint's place. */
		"BAD_ACCESS_FMT", "BAD_ACCESS_TYPE", "BAD_ACCESS_LEN",
		"BAD_ACCESS_ADDR",
#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
		"TYPECAST_BAD_ARROW", "TYPECAST_NOT_ALIGNED",
		"TYPECAST_REQ_FIELD", "TYPECAST_SYM_OFFSET",
		/* Older, but only BTF gives them. */
		"NO_BTFARG", "NO_BTF_ENTRY", "NO_PTR_STRCT", "NOSUP_DAT_ARG",
		"BAD_HYPHEN", "NO_BTF_FIELD", "BAD_BTF_TID", "BAD_TYPE4STR",
		"NO_RETVAL", "ARGS_2LONG",
#endif
	};
	static const char name[] = "fuzz-reaches-7.3-errors";
	int i, j, missed = 0;

	for (i = 0; i < (int)ARRAY_SIZE(want); i++) {
		for (j = 0; j < (int)ARRAY_SIZE(err_names); j++)
			if (!strcmp(err_names[j], want[i]))
				break;
		if (j < (int)ARRAY_SIZE(err_names) && seen[j])
			continue;
		if (!missed++) {
			ktap_result(false, "%s", name);
			printf("@log %s %s\n", SUITE, name);
		}
		printf("never reached: %s\n", want[i]);
	}
	if (missed) {
		printf("@endlog\n");
		return 1;
	}
	ktap_result(true, "%s", name);
	return 0;
}

/* A word: @c mutated, or now and then characters at random. */
static void random_word(char *s, size_t size, const struct corpus_case *c,
			const struct corpus_case *corpus, int nc)
{
	int m;

	if (!rnd(10)) {
		m = rnd(60);
		s[m] = '\0';
		while (m--)
			s[m] = alphabet[rnd(sizeof(alphabet) - 1)];
		return;
	}
	snprintf(s, size, "%s", c->text);
	for (m = rnd(5); m > 0; m--)
		mutate(s, size, corpus, nc);
}

static int fuzz(const struct corpus_case *corpus, int nc, long iterations)
{
	/* Where a mutated case is read, when not where the case says. */
	static const char *const where[] = {
		"k", "e", "r", "u", "ur", "t", "f", "fr", "tp",
		"k@vfs_read", "e@vfs_read", "r@vfs_read", "f@vfs_read",
		"fr@vfs_read", "e@kfree", "r@kfree", "e@schedule", "e@_printk",
		"r@__kmalloc", "tp@sched_switch", "e@btf_shim_scalars",
		"e@btf_shim_long_names", "e@btf_shim_dev_open",
		"r@btf_shim_dev_open", "e@no_such_function", "w",
	};
	static bool seen[ARRAY_SIZE(err_names)];
	char s[3][256];
	long n, accepted = 0;
	int i, distinct = 0;

	for (n = 0; n < iterations; n++) {
		const struct corpus_case *c = &corpus[rnd(nc)];
		const char *why, *w, *words[MAX_TRACE_ARGS + 3];
		struct trace_probe *tp;
		int ret, nw;
		size_t len;

		w = rnd(2) ? c->where : where[rnd(ARRAY_SIZE(where))];
		/* A watchpoint's place is a word of its own kind. */
		if (!strcmp(w, "spec")) {
			char out[300];

			random_word(s[0], sizeof(s[0]), c, corpus, nc);
			if (!parse_spec(s[0], out, sizeof(out), &why))
				accepted++;
			if (last_err >= 0 &&
			    last_err < (int)ARRAY_SIZE(err_names))
				seen[last_err] = true;
			if (why) {
				ktap_result(false, "random");
				printf("@log " SUITE " random\n");
				printf("%s: spec \"%s\"\n@endlog\n", why, s[0]);
				return 1;
			}
			continue;
		}
		/* So is a trigger's member path. */
		if (!strcmp(w, "member")) {
			char out[300];

			random_word(s[0], sizeof(s[0]), c, corpus, nc);
			if (!member_offset(s[0], out, sizeof(out)))
				continue;
			ktap_result(false, "random");
			printf("@log " SUITE " random\n");
			printf("a BTF reference held: member \"%s\"\n@endlog\n",
			       s[0]);
			return 1;
		}
		/*
		 * Now and then a command of several words, some the first
		 * again: "$arg* $arg*", "a=%x0 a=%x1"; and rarely one of
		 * more words than a probe may have arguments, its words
		 * the three drawn over and over.
		 */
		nw = rnd(8) ? 1 : 2 + rnd(ARRAY_SIZE(s) - 1);
		if (!rnd(1024))
			nw = MAX_TRACE_ARGS + 1 + rnd(3);
		for (i = 0; i < nw; i++) {
			if (i >= (int)ARRAY_SIZE(s)) {
				words[i] = s[i % ARRAY_SIZE(s)];
				continue;
			}
			if (i && !rnd(4))
				memcpy(s[i], s[0], sizeof(s[i]));
			else
				random_word(s[i], sizeof(s[i]),
					    i ? &corpus[rnd(nc)] : c,
					    corpus, nc);
			words[i] = s[i];
		}
		tp = parse(nw, words, w, &ret, &len);
		if (last_err >= 0 && last_err < (int)ARRAY_SIZE(err_names))
			seen[last_err] = true;
		why = check(tp, ret, len);
		release(tp);
		if (why) {
			ktap_result(false, "random");
			printf("@log " SUITE " random\n");
			printf("%s: %s", why, w);
			for (i = 0; i < nw; i++)
				printf(" \"%s\"", words[i]);
			printf("\n@endlog\n");
			return 1;
		}
		accepted += !ret;
	}
	ktap_result(true, "random-%ld", iterations);
	for (i = 0; i < (int)ARRAY_SIZE(err_names); i++)
		distinct += seen[i];
	/* PARSE_FUZZ_CODES=1: which, for whoever changes the grammar. */
	for (i = 0; i < (int)ARRAY_SIZE(err_names); i++)
		if (seen[i] && getenv("PARSE_FUZZ_CODES"))
			fprintf(stderr, "%s random: reached %s\n", SUITE,
				err_names[i]);
	fprintf(stderr,
		"%s random: %ld argument lists, %ld accepted, %d distinct error codes\n",
		SUITE, iterations, accepted, distinct);
	return fuzz_reached(seen);
}

int main(int argc, char **argv)
{
	long iterations = argc > 2 ? atol(argv[2]) : 200000;
	struct corpus_case corpus[1024];
	char line[1024];
	int bad, nc = 0;
	FILE *f;

	/* What was printed stays printed if a sanitizer or abort() stops us. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("@ktap %s\nKTAP version 1\n", SUITE);
	rng = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x2545f4914f6cdd1dULL;
	bad = run_cases(argv[1]);

	f = fopen(argv[1], "r");
	while (f && nc < (int)ARRAY_SIZE(corpus) &&
	       fgets(line, sizeof(line), f)) {
		char *where, *text;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#')
			continue;
		where = strtok(line, "\t");
		text = strtok(NULL, "\t");
		if (!where || !text)
			continue;
		corpus[nc].where = strdup(where);
		corpus[nc++].text = strdup(text);
	}
	if (f)
		fclose(f);
	if (nc)
		bad += fuzz(corpus, nc, iterations);
	while (nc--) {
		free(corpus[nc].where);
		free(corpus[nc].text);
	}
	btf_shim_exit();
	printf("1..%d\n@endktap\n", ktap_no);
	return bad ? 1 : 0;
}
