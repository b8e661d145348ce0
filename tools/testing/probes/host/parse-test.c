// SPDX-License-Identifier: GPL-2.0
/*
 * The probe-argument parser (kernel/trace/trace_probe_parse.c) built for
 * the host: the cases of parse-cases.txt, then a fuzz run of random and
 * mutated arguments, under AddressSanitizer, UBSan and LeakSanitizer.
 * Prints "@result parser STATUS NAME" lines.
 *
 *   parse-test CASES [FUZZ_ITERATIONS [SEED]]
 */
#include "trace_probe_prog.h"
#include "trace_probe_parse.c"
#include "parse-errnames.h"

static int last_err = -1, last_pos;

void __trace_probe_log_err(int offset, int err)
{
	last_err = err;
	last_pos = offset;
}

void trace_probe_log_set_index(int index)
{
}

struct ftrace_event_field *probe_event_field(struct trace_event_call *event,
					     const char *name)
{
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
	"IMM", "SYMBOL", "DATA", "FOFFS", "EFIELD", "CURRENT",
};

static const char *const store_names[] = { "RAW", "MEM", "STRING", "SYMSTR" };

static unsigned int flags_of(const char *f)
{
	if (!strcmp(f, "k"))
		return TPARG_FL_KERNEL;
	if (!strcmp(f, "e"))
		return TPARG_FL_KERNEL | TPARG_FL_FENTRY;
	if (!strcmp(f, "r"))
		return TPARG_FL_KERNEL | TPARG_FL_RETURN;
	if (!strcmp(f, "u"))
		return TPARG_FL_USER;
	if (!strcmp(f, "ur"))
		return TPARG_FL_USER | TPARG_FL_RETURN;
	if (!strcmp(f, "f"))
		return TPARG_FL_KERNEL | TPARG_FL_FPROBE | TPARG_FL_FENTRY;
	if (!strcmp(f, "fr"))
		return TPARG_FL_KERNEL | TPARG_FL_FPROBE | TPARG_FL_RETURN;
	if (!strcmp(f, "tp"))
		return TPARG_FL_KERNEL | TPARG_FL_FPROBE | TPARG_FL_FENTRY |
		       TPARG_FL_TPOINT;
	return TPARG_FL_KERNEL | TPARG_FL_TEVENT;
}

static struct trace_probe *parse(const char *text, unsigned int flags, int *ret)
{
	struct traceprobe_parse_context ctx = { .flags = flags };
	struct trace_probe *tp = calloc(1, sizeof(*tp) + sizeof(struct probe_arg));

	tp->nr_args = 1;
	last_err = -1;
	*ret = traceprobe_parse_probe_arg(tp, 0, text, &ctx);
	traceprobe_finish_parse(&ctx);
	return tp;
}

static void release(struct trace_probe *tp)
{
	traceprobe_free_probe_arg(&tp->args[0]);
	free(tp->entry_arg);
	free(tp);
}

/* What a parse gave, as parse-cases.txt writes it. */
static void describe(struct trace_probe *tp, int ret, char *out, size_t size)
{
	struct probe_arg *a = &tp->args[0];
	int n, i;

	if (ret) {
		snprintf(out, size, "err %s %d", last_err >= 0 ?
			 err_names[last_err] : "(none)", last_pos);
		return;
	}
	n = snprintf(out, size, "ok %s %s %s %s %u", a->name, a->type->name,
		     base_names[a->prog.base], store_names[a->prog.store],
		     a->prog.nderef);
	for (i = 0; i < a->prog.nderef; i++)
		n += snprintf(out + n, size - n, "%s%ld", i ? "," : " ",
			      a->prog.offs[i]);
}

static int run_cases(const char *path)
{
	char line[512], got[512];
	int bad = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f)) {
		char *flags, *text, *want;
		struct trace_probe *tp;
		int ret;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		flags = strtok(line, "\t");
		text = strtok(NULL, "\t");
		want = strtok(NULL, "\t");
		if (!flags || !text || !want)
			continue;
		tp = parse(text, flags_of(flags), &ret);
		describe(tp, ret, got, sizeof(got));
		release(tp);
		if (!strcmp(got, want)) {
			printf("@result parser PASS %s %s\n", flags, text);
		} else {
			bad++;
			printf("@result parser FAIL %s %s\n", flags, text);
			printf("@log parser %s %s\nwant: %s\ngot:  %s\n@endlog\n",
			       flags, text, want, got);
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
	"%$@+-()[]{}:=/\\\"'0123456789abcdefxsuprkbl_.>*,tg ";

static void mutate(char *s, size_t size, char **corpus, int nc)
{
	size_t len = strlen(s), i = rnd(len + 1), j;
	const char *w;

	switch (rnd(6)) {
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
		w = corpus[rnd(nc)];
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
static const char *check(struct trace_probe *tp, int ret, const char *text)
{
	struct probe_arg *a = &tp->args[0];

	if (ret) {
		if (ret == -ENOMEM)
			return NULL;
		if (last_err < 0 || last_err >= TP_ERR_NR)
			return "refused without an error code";
		if (last_pos < 0 || last_pos > (int)strlen(text))
			return "error position outside the argument";
		return NULL;
	}
	if (!a->type || !a->name || !a->comm)
		return "accepted without a type, a name or its text";
	if (a->prog.nderef > FETCH_MAX_DEREF)
		return "more memory accesses than the program holds";
	if (a->dynamic != a->type->is_string)
		return "a string that is not stored as one";
	if (tp->size != (ssize_t)(a->type->size * (a->count ?: 1)))
		return "its field size is wrong";
	if (a->prog.bf_rshift && (a->prog.bf_rshift > 63 || !a->prog.bf_size))
		return "a bitfield with impossible shifts";
	return NULL;
}

/*
 * The error codes 7.3's definition language added that one argument can
 * give without BTF: the fuzz must reach each, or its grammar misses what
 * they check.  The TYPECAST_* codes need BTF, which the host build has
 * none of: the parser's KUnit suite and the guest's fuzz reach those.
 */
static int fuzz_reached(const bool *seen)
{
	static const char *const want[] = {
		"TOO_MANY_NESTED", "NOSUP_PERCPU", "NO_EVENT_FIELD",
	};
	int i, j, missed = 0;

	for (i = 0; i < (int)ARRAY_SIZE(want); i++) {
		for (j = 0; j < (int)ARRAY_SIZE(err_names); j++)
			if (!strcmp(err_names[j], want[i]))
				break;
		if (j < (int)ARRAY_SIZE(err_names) && seen[j])
			continue;
		if (!missed++)
			printf("@result parser FAIL fuzz-reaches-7.3-errors\n@log parser fuzz-reaches-7.3-errors\n");
		printf("never reached: %s\n", want[i]);
	}
	if (missed) {
		printf("@endlog\n");
		return 1;
	}
	printf("@result parser PASS fuzz-reaches-7.3-errors\n");
	return 0;
}

static int fuzz(char **corpus, int nc, long iterations)
{
	static const char *const fl[] = {
		"k", "e", "r", "u", "ur", "t", "f", "fr", "tp",
	};
	static bool seen[ARRAY_SIZE(err_names)];
	char s[256];
	long n, accepted = 0;
	int i, distinct = 0;

	for (n = 0; n < iterations; n++) {
		struct trace_probe *tp;
		const char *why;
		int ret, m, f = rnd(ARRAY_SIZE(fl));

		if (!rnd(10)) {
			m = rnd(60);
			s[m] = '\0';
			while (m--)
				s[m] = alphabet[rnd(sizeof(alphabet) - 1)];
		} else {
			snprintf(s, sizeof(s), "%s", corpus[rnd(nc)]);
			for (m = rnd(5); m > 0; m--)
				mutate(s, sizeof(s), corpus, nc);
		}
		last_err = -1;
		tp = parse(s, flags_of(fl[f]), &ret);
		if (last_err >= 0 && last_err < (int)ARRAY_SIZE(err_names))
			seen[last_err] = true;
		why = check(tp, ret, s);
		release(tp);
		if (why) {
			printf("@result parser FAIL %s\n@log parser %s\n", "random",
			       "random");
			printf("%s: flags %s, \"%s\"\n@endlog\n", why, fl[f], s);
			return 1;
		}
		accepted += !ret;
	}
	printf("@result parser PASS random-%ld\n", iterations);
	for (i = 0; i < (int)ARRAY_SIZE(err_names); i++)
		distinct += seen[i];
	fprintf(stderr, "parser %s: %ld arguments, %ld accepted, %d distinct error codes\n",
		"random", iterations, accepted, distinct);
	return fuzz_reached(seen);
}

int main(int argc, char **argv)
{
	long iterations = argc > 2 ? atol(argv[2]) : 200000;
	char line[512], *corpus[1024];
	int bad, nc = 0;
	FILE *f;

	rng = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x2545f4914f6cdd1dULL;
	bad = run_cases(argv[1]);

	f = fopen(argv[1], "r");
	while (f && nc < 1024 && fgets(line, sizeof(line), f)) {
		char *text;

		if (line[0] == '#' || !strtok(line, "\t"))
			continue;
		text = strtok(NULL, "\t");
		if (text)
			corpus[nc++] = strdup(text);
	}
	if (f)
		fclose(f);
	if (nc)
		bad += fuzz(corpus, nc, iterations);
	while (nc)
		free(corpus[--nc]);
	return bad ? 1 : 0;
}
