// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the probe definition language: what each fetch argument
 * compiles to, each error with the position of its caret, and the round
 * trip of a definition to its kprobe_events line; and of the reading of a
 * kernel string that string arguments take at a hit.
 *
 * They look at the compiled form and at the error log's last entry, which
 * trace_probe.c keeps for them.
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/vmalloc.h>

#include "trace_dynevent.h"
#include "trace_probe.h"
#include "trace_probe_kernel.h"

/* ---- What an argument compiles to ------------------------------------- */

struct arg_case {
	const char	*text;
	unsigned int	flags;
	const char	*func;
	const char	*name;
	const char	*type;
	u8		base;
	u8		store;
	u8		nderef;
	long		offs0;
	long		offs1;
	unsigned long	param;
	const char	*reg;
	u16		user;
	u8		user_store;
	u8		count;
	u8		bf_lshift;
	u8		bf_rshift;
	u16		percpu;
};

#define KF	(TPARG_FL_KERNEL | TPARG_FL_FENTRY)
#define KR	(TPARG_FL_KERNEL | TPARG_FL_RETURN)
#define KP	TPARG_FL_KERNEL
#define UP	TPARG_FL_USER
#define KW	(TPARG_FL_KERNEL | TPARG_FL_WPROBE)

/*
 * The register names the cases use, each architecture's own: the first
 * three argument registers, one that holds a code address at a function's
 * entry (the link register, or the PC where the return address is on the
 * stack), and the stack pointer.  A case names its register and expects
 * what regs_query_register_offset() gives for it, so no case knows a
 * pt_regs layout.
 */
#if defined(CONFIG_ARM64)
#define R0	"x0"
#define R1	"x1"
#define R2	"x2"
#define RCODE	"x30"
#define RSP	"sp"
#elif defined(CONFIG_X86_64)
#define R0	"di"
#define R1	"si"
#define R2	"dx"
#define RCODE	"ip"
#define RSP	"sp"
#elif defined(CONFIG_X86_32)
#define R0	"ax"
#define R1	"dx"
#define R2	"cx"
#define RCODE	"ip"
#define RSP	"sp"
#elif defined(CONFIG_RISCV)
#define R0	"a0"
#define R1	"a1"
#define R2	"a2"
#define RCODE	"ra"
#define RSP	"sp"
#elif defined(CONFIG_ARM)
#define R0	"r0"
#define R1	"r1"
#define R2	"r2"
#define RCODE	"lr"
#define RSP	"sp"
#elif defined(CONFIG_PPC)
#define R0	"r3"
#define R1	"r4"
#define R2	"r5"
#define RCODE	"link"
#define RSP	"r1"
#elif defined(CONFIG_S390)
#define R0	"r2"
#define R1	"r3"
#define R2	"r4"
#define RCODE	"r14"
#define RSP	"r15"
#elif defined(CONFIG_LOONGARCH)
#define R0	"r4"
#define R1	"r5"
#define R2	"r6"
#define RCODE	"r1"
#define RSP	"r3"
#else
/* Unknown names: the cases that name registers are skipped. */
#define REGS_UNKNOWN	true
#define R0	"?"
#define R1	"?"
#define R2	"?"
#define RCODE	"?"
#define RSP	"?"
#endif
#ifndef REGS_UNKNOWN
#define REGS_UNKNOWN	false
#endif

/* The type an argument without one gets: a hex word. */
#if BITS_PER_LONG == 64
#define XL	"x64"
#else
#define XL	"x32"
#endif

static const struct arg_case arg_cases[] = {
	{ "%" R0, KP, NULL, "arg1", XL, FETCH_BASE_REG, FETCH_STORE_RAW,
	  .reg = R0 },
	{ "v=%" R1 ":u32", KP, NULL, "v", "u32", FETCH_BASE_REG, FETCH_STORE_RAW,
	  .reg = R1 },
	{ "%" RSP ":s16", KP, NULL, "arg1", "s16", FETCH_BASE_REG, FETCH_STORE_RAW,
	  .reg = RSP },
	{ "$stack", KP, NULL, "arg1", XL, FETCH_BASE_STACKP, FETCH_STORE_RAW },
	{ "$stack3:x8", KP, NULL, "arg1", "x8", FETCH_BASE_STACK,
	  FETCH_STORE_RAW, .param = 3 },
	{ "c=$comm", KP, NULL, "c", "string", FETCH_BASE_COMM, FETCH_STORE_STRING },
	{ "$COMM:string", KP, NULL, "arg1", "string", FETCH_BASE_COMM,
	  FETCH_STORE_STRING },
	{ "@0x1000", KP, NULL, "arg1", XL, FETCH_BASE_IMM, FETCH_STORE_MEM,
	  1, 0, .param = 0x1000 },
	{ "j=@jiffies:u64", KP, NULL, "j", "u64", FETCH_BASE_SYMBOL,
	  FETCH_STORE_MEM, 1, 0 },
	{ "+8(%" R0 "):s16", KP, NULL, "arg1", "s16", FETCH_BASE_REG,
	  FETCH_STORE_MEM, 1, 8, .reg = R0 },
	{ "-8(+16(%" R2 ")):x8", KP, NULL, "arg1", "x8", FETCH_BASE_REG,
	  FETCH_STORE_MEM, 2, 16, -8, .reg = R2 },
	{ "+u4(%" R0 "):u32", KP, NULL, "arg1", "u32", FETCH_BASE_REG,
	  FETCH_STORE_MEM, 1, 4, .reg = R0, .user = 1, .user_store = 1 },
	{ "s=+0(%" R1 "):string", KP, NULL, "s", "string", FETCH_BASE_REG,
	  FETCH_STORE_STRING, 1, 0, .reg = R1 },
	{ "+0(%" R1 "):ustring", KP, NULL, "arg1", "ustring", FETCH_BASE_REG,
	  FETCH_STORE_STRING, 1, 0, .reg = R1, .user_store = 1 },
	{ "%" RCODE ":symbol", KP, NULL, "arg1", "symbol", FETCH_BASE_REG,
	  FETCH_STORE_RAW, .reg = RCODE },
	{ "%" RCODE ":symstr", KP, NULL, "arg1", "symstr", FETCH_BASE_REG,
	  FETCH_STORE_SYMSTR, .reg = RCODE },
	{ "+0(%" R0 "):u8[4]", KP, NULL, "arg1", "u8", FETCH_BASE_REG,
	  FETCH_STORE_MEM, 1, 0, .reg = R0, .count = 4 },
	{ "+0(%" R0 "):string[2]", KP, NULL, "arg1", "string", FETCH_BASE_REG,
	  FETCH_STORE_STRING, 1, 0, .reg = R0, .count = 2 },
	{ "%" R0 ":b3@4/32", KP, NULL, "arg1", "u32", FETCH_BASE_REG,
	  FETCH_STORE_RAW, .reg = R0, .bf_lshift = 25, .bf_rshift = 29 },
	{ "\\123", KP, NULL, "arg1", XL, FETCH_BASE_IMM, FETCH_STORE_RAW,
	  .param = 123 },
	{ "\\-1:s8", KP, NULL, "arg1", "s8", FETCH_BASE_IMM, FETCH_STORE_RAW,
	  .param = (unsigned long)-1 },
	{ "\\\"hi there\"", KP, NULL, "arg1", "string", FETCH_BASE_DATA,
	  FETCH_STORE_STRING },
	{ "$current", KP, NULL, "arg1", XL, FETCH_BASE_CURRENT,
	  FETCH_STORE_RAW },
	{ "t=+16($current):u32", KP, NULL, "t", "u32", FETCH_BASE_CURRENT,
	  FETCH_STORE_MEM, 1, 16 },
	{ "this_cpu_ptr(%" R0 ")", KP, NULL, "arg1", XL, FETCH_BASE_REG,
	  FETCH_STORE_RAW, .reg = R0, .percpu = 1 },
	{ "this_cpu_read(%" R0 "):u32", KP, NULL, "arg1", "u32", FETCH_BASE_REG,
	  FETCH_STORE_MEM, 1, 0, .reg = R0, .percpu = 1 },
	{ "this_cpu_ptr(@cpu_number)", KP, NULL, "arg1", XL, FETCH_BASE_SYMBOL,
	  FETCH_STORE_RAW, .percpu = 1 },
	/* A watchpoint's: the address watched, and the data there. */
	{ "$addr", KW, NULL, "arg1", XL, FETCH_BASE_WADDR, FETCH_STORE_RAW },
	{ "v=$value:u32", KW, NULL, "v", "u32", FETCH_BASE_WADDR,
	  FETCH_STORE_MEM, 1, 0 },
	{ "+8($addr):s16", KW, NULL, "arg1", "s16", FETCH_BASE_WADDR,
	  FETCH_STORE_MEM, 1, 8 },
	{ "n=this_cpu_read(@cpu_number):s32", KP, NULL, "n", "s32",
	  FETCH_BASE_SYMBOL, FETCH_STORE_MEM, 1, 0, .percpu = 1 },
	{ "+8(this_cpu_ptr(@runqueues))", KP, NULL, "arg1", XL,
	  FETCH_BASE_SYMBOL, FETCH_STORE_MEM, 1, 8, .percpu = 1 },
	{ "this_cpu_read(+8(%" R1 "))", KP, NULL, "arg1", XL, FETCH_BASE_REG,
	  FETCH_STORE_MEM, 2, 8, 0, .reg = R1, .percpu = 2 },
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
	{ "$arg2", KF, NULL, "arg1", XL, FETCH_BASE_ARG, FETCH_STORE_RAW,
	  .param = 1 },
	{ "$retval", KR, NULL, "arg1", XL, FETCH_BASE_RETVAL,
	  FETCH_STORE_RAW },
	{ "$arg3", KR, NULL, "arg1", XL, FETCH_BASE_EDATA, FETCH_STORE_RAW,
	  .param = 0 },
#endif
	{ "@+0x40:u16", UP, NULL, "arg1", "u16", FETCH_BASE_FOFFS,
	  FETCH_STORE_MEM, 1, 0, .param = 0x40 },
	{ "+0($stack):u32", UP, NULL, "arg1", "u32", FETCH_BASE_STACKP,
	  FETCH_STORE_MEM, 1, 0 },
#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
	{ "file", KF, "vfs_read", "file", XL, FETCH_BASE_ARG,
	  FETCH_STORE_RAW },
	{ "count", KF, "vfs_read", "count", "u64", FETCH_BASE_ARG,
	  FETCH_STORE_RAW, .param = 2 },
	{ "file->f_flags", KF, "vfs_read", "arg1", "u32", FETCH_BASE_ARG,
	  FETCH_STORE_MEM, 1, offsetof(struct file, f_flags) },
	{ "$retval", KR, "vfs_read", "arg1", "s64", FETCH_BASE_RETVAL,
	  FETCH_STORE_RAW },
	{ "count", KR, "vfs_read", "count", "u64", FETCH_BASE_EDATA,
	  FETCH_STORE_RAW },
	{ "(file)file->f_flags", KF, "vfs_read", "arg1", "u32", FETCH_BASE_ARG,
	  FETCH_STORE_MEM, 1, offsetof(struct file, f_flags) },
	{ "(file)(file)->f_flags", KF, "vfs_read", "arg1", "u32",
	  FETCH_BASE_ARG, FETCH_STORE_MEM, 1, offsetof(struct file, f_flags) },
	{ "m=(file,f_path)file->f_mode", KF, "vfs_read", "m", "u32",
	  FETCH_BASE_ARG, FETCH_STORE_MEM, 1,
	  offsetof(struct file, f_mode) - offsetof(struct file, f_path) },
	{ "(dentry)((file)file->f_path.dentry)->d_name.name:string", KF,
	  "vfs_read", "arg1", "string", FETCH_BASE_ARG, FETCH_STORE_STRING, 3,
	  offsetof(struct file, f_path.dentry),
	  offsetof(struct dentry, d_name.name) },
	{ "(file)$retval->f_flags", KR, "vfs_read", "arg1", "u32",
	  FETCH_BASE_RETVAL, FETCH_STORE_MEM, 1,
	  offsetof(struct file, f_flags) },
	{ "pid=$current->pid", KP, NULL, "pid", "s32", FETCH_BASE_CURRENT,
	  FETCH_STORE_MEM, 1, offsetof(struct task_struct, pid) },
	{ "(task_struct)$current->tgid", KF, "vfs_read", "arg1", "s32",
	  FETCH_BASE_CURRENT, FETCH_STORE_MEM, 1,
	  offsetof(struct task_struct, tgid) },
	{ "(task_struct,group_leader)$current->pid", KF, "vfs_read", "arg1",
	  "s32", FETCH_BASE_CURRENT, FETCH_STORE_MEM, 1,
	  offsetof(struct task_struct, pid) -
	  offsetof(struct task_struct, group_leader) },
	{ "this_cpu_read((file)file->f_flags)", KF, "vfs_read", "arg1", XL,
	  FETCH_BASE_ARG, FETCH_STORE_MEM, 2, offsetof(struct file, f_flags), 0,
	  .percpu = 2 },
	/* Read through a loff_t *: a loff_t, unless a type is named. */
	{ "this_cpu_read(pos)", KF, "vfs_read", "arg1", "s64", FETCH_BASE_ARG,
	  FETCH_STORE_MEM, 1, 0, .param = 3, .percpu = 1 },
	{ "this_cpu_read(pos):x32", KF, "vfs_read", "arg1", "x32",
	  FETCH_BASE_ARG, FETCH_STORE_MEM, 1, 0, .param = 3, .percpu = 1 },
#endif
};

static void arg_case_desc(const struct arg_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->text);
}

KUNIT_ARRAY_PARAM(arg, arg_cases, arg_case_desc);

/* Parse @text as word 2 of "p f @text"; on error, *@pos is in @text. */
static int parse_one(struct trace_probe *tp, const char *text,
		     unsigned int flags, const char *func, int *err, int *pos)
{
	const char *argv[3] = { "p", "f" };
	struct traceprobe_parse_context ctx = {
		.flags = flags, .funcname = func,
	};
	int ret;

	argv[2] = text;
	mutex_lock(&dyn_event_ops_mutex);
	trace_probe_log_init("kunit", 3, argv);
	trace_probe_log_set_index(2);
	trace_probe_last_error.err = -1;
	ret = traceprobe_parse_probe_arg(tp, 0, text, &ctx);
	*err = trace_probe_last_error.err;
	*pos = trace_probe_last_error.pos - 4;
	traceprobe_finish_parse(&ctx);
	trace_probe_log_clear();
	mutex_unlock(&dyn_event_ops_mutex);
	return ret;
}

static void free_test_probe(struct trace_probe *tp)
{
	unsigned int i;

	for (i = 0; i < tp->nr_args; i++)
		traceprobe_free_probe_arg(&tp->args[i]);
	kfree(tp->entry_arg);
	kfree(tp);
}

static void parse_arg_test(struct kunit *test)
{
	const struct arg_case *c = test->param_value;
	struct trace_probe *tp = trace_probe_alloc(sizeof(*tp), 1);
	struct fetch_prog *p;
	int ret, err, pos;

	KUNIT_ASSERT_NOT_NULL(test, tp);
	if (REGS_UNKNOWN && c->reg) {
		kfree(tp);
		kunit_skip(test, "no register names for this architecture");
	}
	tp->nr_args = 1;
	ret = parse_one(tp, c->text, c->flags, c->func, &err, &pos);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "error %d at %d", err, pos);
	p = &tp->args[0].prog;
	KUNIT_EXPECT_STREQ(test, tp->args[0].name, c->name);
	KUNIT_EXPECT_STREQ(test, tp->args[0].type->name, c->type);
	KUNIT_EXPECT_EQ(test, p->base, c->base);
	KUNIT_EXPECT_EQ(test, p->store, c->store);
	KUNIT_EXPECT_EQ(test, p->nderef, c->nderef);
	if (c->nderef > 0)
		KUNIT_EXPECT_EQ(test, p->offs[0], c->offs0);
	if (c->nderef > 1)
		KUNIT_EXPECT_EQ(test, p->offs[1], c->offs1);
	if (c->reg)
		KUNIT_EXPECT_EQ(test, p->param,
				(unsigned long)regs_query_register_offset(c->reg));
	else if (c->base != FETCH_BASE_SYMBOL)
		KUNIT_EXPECT_EQ(test, p->param, c->param);
	KUNIT_EXPECT_EQ(test, p->user, c->user);
	KUNIT_EXPECT_EQ(test, p->user_store, c->user_store);
	KUNIT_EXPECT_EQ(test, p->count, c->count);
	KUNIT_EXPECT_EQ(test, p->bf_lshift, c->bf_lshift);
	KUNIT_EXPECT_EQ(test, p->bf_rshift, c->bf_rshift);
	KUNIT_EXPECT_EQ(test, p->percpu, c->percpu);
	KUNIT_EXPECT_EQ(test, tp->args[0].dynamic, tp->args[0].type->is_string);
	KUNIT_EXPECT_EQ(test, !!(tp->arg_kinds & PROBE_ARGS_DYNAMIC),
			tp->args[0].dynamic);
	/* The one string a hit may read once, onto the stack. */
	KUNIT_EXPECT_EQ(test, !!(tp->arg_kinds & PROBE_ARGS_ONE_STRING),
			c->store == FETCH_STORE_STRING && !c->count);
	/* Only a word of the hit is stored without its program. */
	KUNIT_EXPECT_EQ(test, !(tp->arg_kinds & PROBE_ARGS_GENERAL),
			(c->base == FETCH_BASE_REG || c->base == FETCH_BASE_ARG ||
			 c->base == FETCH_BASE_EDATA) &&
			c->store == FETCH_STORE_RAW && !c->nderef && !c->count &&
			!c->bf_rshift && !c->percpu);
	/* What a hit without a pt_regs cannot read. */
	KUNIT_EXPECT_EQ(test, !!(tp->arg_kinds & PROBE_ARGS_REGS),
			c->base == FETCH_BASE_REG && p->fregs_param < 0);
#ifdef CONFIG_HAVE_KPROBES_FREGS_HANDLER
	/* Where ftrace's registers hold it, if anywhere. */
	if (c->reg && p->fregs_param >= 0)
		KUNIT_EXPECT_EQ(test, (int)p->fregs_param,
				ftrace_regs_query_register_offset(c->reg));
#endif
	KUNIT_EXPECT_STREQ(test, tp->args[0].comm, strchr(c->text, '=') &&
			   c->text[0] != '\\' ? strchr(c->text, '=') + 1 : c->text);
	KUNIT_EXPECT_EQ(test, (int)tp->size,
			(int)(tp->args[0].type->size * (c->count ?: 1)));
	free_test_probe(tp);
}

/* An array argument's format type, and the record space it takes. */
static void array_format_test(struct kunit *test)
{
	struct trace_probe *tp = trace_probe_alloc(sizeof(*tp), 1);
	int err, pos;

	KUNIT_ASSERT_NOT_NULL(test, tp);
	tp->nr_args = 1;
	KUNIT_ASSERT_EQ(test, parse_one(tp, "a=+0(%" R0 "):x16[3]", KP, NULL,
					&err, &pos), 0);
	KUNIT_EXPECT_STREQ(test, tp->args[0].fmt, "u16[3]");
	KUNIT_EXPECT_EQ(test, (int)tp->size, 6);
	free_test_probe(tp);
}

/* ---- Errors, and where the caret goes ---------------------------------- */

struct err_case {
	const char	*cmd;	/* '^' marks the expected position */
	int		err;
};

/* Eight typecasts, each of the next one's parenthesized value. */
#define EIGHT_CASTS	"(a)((b)((c)((d)((e)((f)((g)((h)("

static const struct err_case err_cases[] = {
	{ "p^100 vfs_read", TP_ERR_BAD_MAXACT_TYPE },
	{ "r^1a111 vfs_read", TP_ERR_BAD_MAXACT },
	{ "r^100000 vfs_read", TP_ERR_MAXACT_TOO_BIG },
	{ "p ^non_exist_func", TP_ERR_BAD_PROBE_ADDR },
	{ "p ^hoge-fuga", TP_ERR_BAD_PROBE_ADDR },
	/* +16: past the entry whatever comes first (BTI, ENDBR, ftrace's). */
	{ "r ^vfs_read+16", TP_ERR_BAD_RETPROBE },
	{ "p vfs_read^%hoge", TP_ERR_BAD_ADDR_SUFFIX },
	{ "p ^vfs_read+16%return", TP_ERR_BAD_RETPROBE },
	{ "p:^/bar vfs_read", TP_ERR_NO_GROUP_NAME },
	{ "p:^foo.1/bar vfs_read", TP_ERR_BAD_GROUP_NAME },
	{ "p:^ vfs_read", TP_ERR_NO_EVENT_NAME },
	{ "p:foo/^bar.1 vfs_read", TP_ERR_BAD_EVENT_NAME },
	{ "p:foo/^1234567890123456789012345678901234567890123456789012345678901234 vfs_read",
	  TP_ERR_EVENT_TOO_LONG },
	{ "p vfs_read ^$retval", TP_ERR_RETVAL_ON_PROBE },
	{ "p vfs_read ^$stack10000", TP_ERR_BAD_STACK_NUM },
	{ "p vfs_read ^$none_var", TP_ERR_BAD_VAR },
	{ "p vfs_read ^%none_reg", TP_ERR_BAD_REG_NAME },
	{ "p vfs_read ^@12345678abcde", TP_ERR_BAD_MEM_ADDR },
	{ "p vfs_read ^@+10", TP_ERR_FILE_ON_KPROBE },
	{ "p vfs_read arg1=\\^x", TP_ERR_BAD_IMM },
	{ "p vfs_read arg1=\\\"abcd^", TP_ERR_IMMSTR_NO_CLOSE },
	{ "p vfs_read ^+0@0)", TP_ERR_DEREF_NEED_BRACE },
	{ "p vfs_read ^+0ab1(@0)", TP_ERR_BAD_DEREF_OFFS },
	{ "p vfs_read +0(+0(@0^)", TP_ERR_DEREF_OPEN_BRACE },
	{ "p vfs_read +0(^$comm)", TP_ERR_COMM_CANT_DEREF },
	{ "p vfs_read ^&1", TP_ERR_BAD_FETCH_ARG },
	{ "p vfs_read +0(+0(+0(+0(+0(+0(+0(+0(^+0(@0)))))))))",
	  TP_ERR_TOO_MANY_NESTED },
	{ "p vfs_read +0(@11):u8[10^", TP_ERR_ARRAY_NO_CLOSE },
	{ "p vfs_read +0(@11):u8[10]^a", TP_ERR_BAD_ARRAY_SUFFIX },
	{ "p vfs_read +0(@11):u8[^10a]", TP_ERR_BAD_ARRAY_NUM },
	{ "p vfs_read +0(@11):u8[^256]", TP_ERR_ARRAY_TOO_BIG },
	{ "p vfs_read @11:^unknown_type", TP_ERR_BAD_TYPE },
	{ "p vfs_read $stack0:^string", TP_ERR_BAD_STRING },
	{ "p vfs_read @11:^b10@a/16", TP_ERR_BAD_BITFIELD },
	{ "p vfs_read %" R0 ":^symstr[2]", TP_ERR_BAD_STRING },
	{ "p vfs_read $comm:^u32", TP_ERR_NEED_STRING_TYPE },
	{ "p vfs_read ^arg123456789012345678901234567890=@11",
	  TP_ERR_ARG_NAME_TOO_LONG },
	{ "p vfs_read ^=@11", TP_ERR_NO_ARG_NAME },
	{ "p vfs_read ^var.1=@11", TP_ERR_BAD_ARG_NAME },
	{ "p vfs_read var1=@11 ^var1=@12", TP_ERR_USED_ARG_NAME },
	{ "p vfs_read ^common_pid=@11", TP_ERR_USED_ARG_NAME },
	{ "p vfs_read arg1=^", TP_ERR_NO_ARG_BODY },
	{ "p vfs_read ^$current.pid", TP_ERR_BAD_VAR },
	{ "p vfs_read this_cpu_read(%" R0 "^", TP_ERR_DEREF_OPEN_BRACE },
	{ "p vfs_read this_cpu_ptr(^$comm)", TP_ERR_COMM_CANT_DEREF },
	{ "p vfs_read +0(+0(+0(+0(+0(+0(+0(+0(^this_cpu_ptr(@0)))))))))",
	  TP_ERR_TOO_MANY_NESTED },
#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
	{ "p vfs_read $current^-pid", TP_ERR_BAD_HYPHEN },
	{ "p vfs_read $current->^nonexistent", TP_ERR_NO_BTF_FIELD },
	{ "p vfs_read arg1=(task_struct)file^", TP_ERR_TYPECAST_REQ_FIELD },
	{ "p vfs_read arg1=" EIGHT_CASTS "^(i)file->i)->h)->g)->f)->e)->d)->c)->b)->a",
	  TP_ERR_TOO_MANY_NESTED },
	{ "p vfs_read arg1=(task_struct,^in_execve)file->comm",
	  TP_ERR_TYPECAST_NOT_ALIGNED },
	{ "p vfs_read arg1=(task_struct,^foo_bar)file->pid", TP_ERR_NO_BTF_FIELD },
	{ "p vfs_read arg1=(^task_struct1234)file->pid", TP_ERR_NO_PTR_STRCT },
	{ "p vfs_read arg1=(task_struct,se^->group_node)file->comm",
	  TP_ERR_TYPECAST_BAD_ARROW },
	{ "p vfs_read arg1=(task_struct,^->pid)file->comm", TP_ERR_NO_BTF_FIELD },
	{ "p vfs_read arg1=(task_struct,^.pid)file->comm", TP_ERR_NO_BTF_FIELD },
	{ "p vfs_read arg1=(task_struct)^@symbol+10->comm",
	  TP_ERR_TYPECAST_SYM_OFFSET },
	{ "p vfs_read arg1=(file)^(file->f_flags", TP_ERR_DEREF_OPEN_BRACE },
	{ "p vfs_read arg1=(file)(file)^f_flags", TP_ERR_TYPECAST_REQ_FIELD },
	{ "p vfs_read arg1=(file)+0(file->f_flags^", TP_ERR_DEREF_OPEN_BRACE },
	{ "p vfs_read args=^$arg*", TP_ERR_BAD_VAR },
	{ "p vfs_read +0(^$arg*)", TP_ERR_BAD_VAR },
	{ "p vfs_read $arg* ^$arg*", TP_ERR_DOUBLE_ARGS },
	{ "p vfs_read+20 ^$arg*", TP_ERR_NOFENTRY_ARGS },
	{ "p vfs_read ^hoge", TP_ERR_NO_BTFARG },
	{ "p kfree ^$arg10", TP_ERR_NO_BTFARG },
	{ "r kfree ^$retval", TP_ERR_NO_RETVAL },
	{ "p vfs_read file^-f_flags", TP_ERR_BAD_HYPHEN },
	{ "p vfs_read file->^nonexistent", TP_ERR_NO_BTF_FIELD },
	{ "p vfs_read count->^x", TP_ERR_NO_PTR_STRCT },
	{ "p vfs_read file.^f_flags", TP_ERR_NOSUP_DAT_ARG },
	{ "p vfs_read ^count:string", TP_ERR_BAD_TYPE4STR },
	{ "p vfs_read file->^f_path:string", TP_ERR_BAD_TYPE4STR },
#endif
};

static void err_case_desc(const struct err_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->cmd);
}

KUNIT_ARRAY_PARAM(err, err_cases, err_case_desc);

/* Run a kprobe_events command; return its result. */
static int run_kprobe_cmd(struct kunit *test, const char *cmd)
{
	struct dynevent_cmd dcmd;
	char *buf = kunit_kzalloc(test, MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	kprobe_event_cmd_init(&dcmd, buf, MAX_DYNEVENT_CMD_LEN);
	KUNIT_ASSERT_EQ(test, dynevent_str_add(&dcmd, cmd), 0);
	return dynevent_create(&dcmd);
}

static void error_position_test(struct kunit *test)
{
	const struct err_case *c = test->param_value;
	const char *caret = strchr(c->cmd, '^');
	char *cmd;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, caret);
	cmd = kunit_kzalloc(test, strlen(c->cmd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cmd);
	memcpy(cmd, c->cmd, caret - c->cmd);
	memcpy(cmd + (caret - c->cmd), caret + 1, strlen(caret + 1));

	trace_probe_last_error.err = -1;
	ret = run_kprobe_cmd(test, cmd);
	KUNIT_EXPECT_LT(test, ret, 0);
	KUNIT_EXPECT_EQ_MSG(test, trace_probe_last_error.err, c->err, "%s: %s",
			    cmd, trace_probe_last_error.err >= 0 ?
			    trace_probe_error_text(trace_probe_last_error.err) : "no error");
	KUNIT_EXPECT_EQ(test, trace_probe_last_error.pos, (int)(caret - c->cmd));
}

/* Every error has its text. */
static void error_text_test(struct kunit *test)
{
	int i;

	for (i = 0; i < TP_ERR_NR; i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, trace_probe_error_text(i), "error %d", i);
}

/* ---- Round trip -------------------------------------------------------- */

/* The kprobe_events line of the event named @name, into @buf. */
static bool show_event(const char *name, char *buf, size_t size)
{
	struct seq_file m = { .buf = buf, .size = size };
	struct dyn_event *ev;
	bool found = false;
	char *nl;

	mutex_lock(&event_mutex);
	for_each_dyn_event(ev) {
		if (ev->ops->match("kunit", name, 0, NULL, ev)) {
			ev->ops->show(&m, ev);
			found = true;
			break;
		}
	}
	mutex_unlock(&event_mutex);
	buf[min(m.count, size - 1)] = '\0';
	/*
	 * The definition's line alone: with PROBE_EVENTS_DUMP_FETCHARG, the
	 * arguments' fetch programs follow it as comment lines.
	 */
	nl = strchr(buf, '\n');
	if (nl)
		nl[1] = '\0';
	return found;
}

/*
 * An offset that is an instruction boundary of vfs_read() on every build,
 * and not its ftrace call site, where a kprobe is refused without
 * KPROBES_ON_FTRACE: on arm64 any multiple of 4 past the patchable entry,
 * whose two NOPs are at +0 with GCC and at +4 after BTI C with Clang.
 * Elsewhere instructions vary in length, and the probe goes on the
 * function itself.
 */
#ifdef CONFIG_ARM64
#define RT_OFFS	"+16"
#else
#define RT_OFFS	""
#endif

/* An entry argument at the return, where $argN can be read. */
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
#define RT_ARG	" a=$arg1"
#else
#define RT_ARG	""
#endif

static const char *const round_trips[] = {
	"p:kunit/rt1 vfs_read a=%" R0 " b=+8(%" R1 "):u32 c=$stack d=$comm",
	"p:kunit/rt2 vfs_read" RT_OFFS " s=+0(%" R1 "):string u=+u0(%" R2
	"):ustring y=%" RCODE ":symbol",
	"r:kunit/rt3 vfs_read r=$retval" RT_ARG " e=%" R0 ":b3@4/32",
	"r5:kunit/rt4 vfs_read",
	"p:kunit/rt5 vfs_read x=\\0x10:x16 t=\\\"text\" arr=+0(%" R1 "):u8[3]",
};

/*
 * A kretprobe defined without MAXACTIVE is listed with the one the kprobes
 * core gave it when it was registered: its default, the larger of 10 and
 * twice the possible CPUs.
 */
static void listed_as(const char *def, char *want, size_t size)
{
	if (str_has_prefix(def, "r:"))
		snprintf(want, size, "r%u%s\n",
			 max_t(unsigned int, 10, 2 * num_possible_cpus()), def + 1);
	else
		snprintf(want, size, "%s\n", def);
}

static void round_trip_test(struct kunit *test)
{
	char *buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	char *want = kunit_kzalloc(test, 512, GFP_KERNEL);
	char name[8];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, want);
	if (REGS_UNKNOWN)
		kunit_skip(test, "no register names for this architecture");
	for (i = 0; i < ARRAY_SIZE(round_trips); i++) {
		snprintf(name, sizeof(name), "rt%d", i + 1);
		KUNIT_ASSERT_EQ_MSG(test, run_kprobe_cmd(test, round_trips[i]), 0,
				    "%s", round_trips[i]);
		listed_as(round_trips[i], want, 512);
		KUNIT_EXPECT_TRUE(test, show_event(name, buf, 512));
		KUNIT_EXPECT_STREQ(test, buf, want);
		snprintf(buf, 512, "-:kunit/%s", name);
		KUNIT_EXPECT_EQ(test, run_kprobe_cmd(test, buf), 0);
		KUNIT_EXPECT_FALSE(test, show_event(name, buf, 512));
	}
}

/*
 * Appending a probe to an event: same arguments are accepted, different
 * ones refused, and the refusal leaves the event as it was.
 */
static void multiprobe_test(struct kunit *test)
{
	char *buf = kunit_kzalloc(test, 512, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	if (REGS_UNKNOWN)
		kunit_skip(test, "no register names for this architecture");
	KUNIT_ASSERT_EQ(test, run_kprobe_cmd(test, "p:kunit/mp vfs_read a=%" R0), 0);
	KUNIT_EXPECT_EQ(test, run_kprobe_cmd(test, "p:kunit/mp vfs_write a=%" R0), 0);
	KUNIT_EXPECT_EQ(test, run_kprobe_cmd(test, "p:kunit/mp vfs_open b=%" R0), -EEXIST);
	KUNIT_EXPECT_EQ(test, trace_probe_last_error.err, TP_ERR_DIFF_ARG_TYPE);
	KUNIT_EXPECT_EQ(test, run_kprobe_cmd(test, "p:kunit/mp vfs_read a=%" R0), -EEXIST);
	KUNIT_EXPECT_EQ(test, trace_probe_last_error.err, TP_ERR_SAME_PROBE);
	KUNIT_EXPECT_EQ(test, run_kprobe_cmd(test, "r:kunit/mp vfs_read a=%" R0), -EEXIST);
	KUNIT_EXPECT_EQ(test, trace_probe_last_error.err, TP_ERR_DIFF_PROBE_TYPE);
	KUNIT_EXPECT_TRUE(test, show_event("mp", buf, 512));
	KUNIT_EXPECT_STREQ(test, buf, "p:kunit/mp vfs_read a=%" R0 "\n");
	KUNIT_EXPECT_EQ(test, run_kprobe_cmd(test, "-:kunit/mp vfs_write"), 0);
	KUNIT_EXPECT_EQ(test, run_kprobe_cmd(test, "-:kunit/mp"), 0);
	KUNIT_EXPECT_FALSE(test, show_event("mp", buf, 512));
}

/*
 * PROBE_ARGS_ONE_STRING: a probe's strings are its one string only when
 * there is one, a string and not an array of them nor a symbol's name,
 * whatever fixed arguments it has and in whatever order.
 */
static void one_string_kind_test(struct kunit *test)
{
	static const struct {
		const char *arg[2];
		bool one;
	} cases[] = {
		{ { "$comm", "\\1" }, true },
		{ { "\\1", "c=$comm" }, true },
		{ { "\\\"hi\"", "@jiffies:u64" }, true },
		{ { "$comm", "c=$comm" }, false },
		{ { "%" RCODE ":symstr", "$comm" }, false },
		{ { "$comm", "%" RCODE ":symstr" }, false },
		{ { "+0(%" R0 "):string[2]", "\\1" }, false },
		{ { "\\1", "@jiffies:u64" }, false },
	};
	const char *argv[4] = { "p", "f" };
	unsigned int i, j;
	int ret;

	if (REGS_UNKNOWN)
		kunit_skip(test, "no register names for this architecture");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct trace_probe *tp = trace_probe_alloc(sizeof(*tp), 2);
		struct traceprobe_parse_context ctx = { .flags = KP };

		KUNIT_ASSERT_NOT_NULL(test, tp);
		argv[2] = cases[i].arg[0];
		argv[3] = cases[i].arg[1];
		mutex_lock(&dyn_event_ops_mutex);
		trace_probe_log_init("kunit", 4, argv);
		for (j = 0, ret = 0; j < 2 && !ret; j++) {
			trace_probe_log_set_index(2 + j);
			tp->nr_args = j + 1;
			ret = traceprobe_parse_probe_arg(tp, j, cases[i].arg[j],
							 &ctx);
		}
		traceprobe_finish_parse(&ctx);
		trace_probe_log_clear();
		mutex_unlock(&dyn_event_ops_mutex);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s %s", argv[2], argv[3]);
		KUNIT_EXPECT_EQ_MSG(test,
				    !!(tp->arg_kinds & PROBE_ARGS_ONE_STRING),
				    cases[i].one, "%s %s", argv[2], argv[3]);
		free_test_probe(tp);
	}
}

/*
 * MAX_TRACE_ARGS arguments are accepted, one more is refused as a whole,
 * with the caret under the first argument.
 */
static void too_many_args_test(struct kunit *test)
{
	static const char head[] = "p:kunit/ma vfs_read" RT_OFFS;
	char *buf = kunit_kzalloc(test, MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	int i, n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	n = scnprintf(buf, MAX_DYNEVENT_CMD_LEN, "%s", head);
	for (i = 1; i <= MAX_TRACE_ARGS; i++)
		n += scnprintf(buf + n, MAX_DYNEVENT_CMD_LEN - n, " \\%d", i);
	KUNIT_ASSERT_EQ(test, run_kprobe_cmd(test, buf), 0);
	KUNIT_EXPECT_EQ(test, run_kprobe_cmd(test, "-:kunit/ma"), 0);

	scnprintf(buf + n, MAX_DYNEVENT_CMD_LEN - n, " \\%d", i);
	trace_probe_last_error.err = -1;
	KUNIT_EXPECT_EQ(test, run_kprobe_cmd(test, buf), -E2BIG);
	KUNIT_EXPECT_EQ(test, trace_probe_last_error.err, TP_ERR_TOO_MANY_ARGS);
	KUNIT_EXPECT_EQ(test, trace_probe_last_error.pos, (int)strlen(head) + 1);
	KUNIT_EXPECT_FALSE(test, show_event("ma", buf, MAX_DYNEVENT_CMD_LEN));
}

/*
 * An argument of MAX_ARGSTR_LEN bytes is accepted, a longer one refused
 * with the caret at its start, before anything in it is looked at (the
 * one refused is also nested too deep).
 */
static void arg_too_long_test(struct kunit *test)
{
	static const char head[] = "p:kunit/al vfs_read" RT_OFFS " ";
	const int depth = 26, hlen = strlen(head);
	char *buf = kunit_kzalloc(test, MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	int i, n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* \"xxx...x": a string constant, the argument's whole length. */
	n = scnprintf(buf, MAX_DYNEVENT_CMD_LEN, "%s\\\"", head);
	memset(buf + n, 'x', MAX_ARGSTR_LEN - 3);
	n += MAX_ARGSTR_LEN - 3;
	buf[n] = '"';
	KUNIT_ASSERT_EQ(test, run_kprobe_cmd(test, buf), 0);
	KUNIT_EXPECT_EQ(test, run_kprobe_cmd(test, "-:kunit/al"), 0);

	n = scnprintf(buf, MAX_DYNEVENT_CMD_LEN, "%s", head);
	for (i = 0; i < depth; i++)
		n += scnprintf(buf + n, MAX_DYNEVENT_CMD_LEN - n, "+1234567(");
	n += scnprintf(buf + n, MAX_DYNEVENT_CMD_LEN - n, "@1234");
	for (i = 0; i < depth; i++)
		n += scnprintf(buf + n, MAX_DYNEVENT_CMD_LEN - n, ")");
	KUNIT_ASSERT_GT(test, n - hlen, MAX_ARGSTR_LEN);
	trace_probe_last_error.err = -1;
	KUNIT_EXPECT_EQ(test, run_kprobe_cmd(test, buf), -E2BIG);
	KUNIT_EXPECT_EQ(test, trace_probe_last_error.err, TP_ERR_ARG_TOO_LONG);
	KUNIT_EXPECT_EQ(test, trace_probe_last_error.pos, hlen);
}

#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
/* ---- A member's offset, for a trigger ---------------------------------- */

struct member_case {
	const char	*sname;
	const char	*members;
	int		want;
	int		bad;	/* where in @members an error points, or -1 */
};

/* Offsets are the compiler's: what BTF gives must be what offsetof() is. */
static const struct member_case member_cases[] = {
	{ "task_struct", "pid", offsetof(struct task_struct, pid) },
	{ "task_struct", "se.group_node",
	  offsetof(struct task_struct, se.group_node) },
	{ "file", "f_path.dentry", offsetof(struct file, f_path.dentry) },
	{ "list_head", "prev", offsetof(struct list_head, prev) },
	{ "no_such_struct", "pid", -ENOENT, -1 },
	{ "task_struct", "no_such_member", -ENOENT, 0 },
	{ "task_struct", "real_parent.pid", -EINVAL, 12 },
	{ "task_struct", "se->vruntime", -EINVAL, 0 },
};

static void btf_member_offset_test(struct kunit *test)
{
	char sname[32], members[32], *bad;
	const struct member_case *c;
	int ret;

	for (c = member_cases; c < member_cases + ARRAY_SIZE(member_cases); c++) {
		strscpy(sname, c->sname);
		strscpy(members, c->members);
		bad = NULL;
		ret = traceprobe_btf_member_offset(sname, members, &bad);
		KUNIT_EXPECT_EQ_MSG(test, ret, c->want, "%s %s", c->sname,
				    c->members);
		if (c->want >= 0)
			continue;
		KUNIT_EXPECT_PTR_EQ_MSG(test, bad, c->bad < 0 ? sname :
					members + c->bad, "%s %s", c->sname,
					c->members);
	}
}
#endif

/* ---- Reading a kernel string ------------------------------------------- */

/*
 * A string of @len bytes at @at in @page (vmalloc()'d, filled with 'x'):
 * measured, then copied whole and, given room for half of it, cut there
 * with a NUL put in; each copy into a buffer of its size and into one
 * with a word's room after it, which may take whole words. Nothing is
 * written past the size, or past the room.
 */
static void check_string_at(struct kunit *test, char *page, unsigned int at,
			    unsigned int len)
{
	unsigned long addr = (unsigned long)page + at;
	unsigned int cut = len / 2 + 1, past, max, room;
	char dst[40], want[32];

	memset(page, 'x', PAGE_SIZE);
	memset(page + at, 'a', len);
	page[at + len] = '\0';
	memset(want, 'a', len);
	want[len] = '\0';
	KUNIT_EXPECT_EQ(test, fetch_kernel_string(NULL, addr, 64), len + 1);
	for (room = 0; room < 2; room++) {
		past = room ? sizeof(long) - 1 : 0;
		max = room ? len + 1 : sizeof(want);
		memset(dst, '#', sizeof(dst));
		KUNIT_EXPECT_EQ(test, __fetch_kernel_string(dst, addr, max, room),
				len + 1);
		KUNIT_EXPECT_MEMEQ(test, dst, want, len + 1);
		KUNIT_EXPECT_EQ(test, dst[max + past], '#');
		if (len >= 2) {
			memset(dst, '#', sizeof(dst));
			want[cut - 1] = '\0';
			KUNIT_EXPECT_EQ(test,
					__fetch_kernel_string(dst, addr, cut, room),
					cut);
			KUNIT_EXPECT_MEMEQ(test, dst, want, cut);
			KUNIT_EXPECT_EQ(test, dst[cut + past], '#');
			want[cut - 1] = 'a';
		}
	}
}

/*
 * Strings of every length up to 20 at every offset into a word, and
 * ending with a page's last byte; then a fault where a string runs into
 * the unmapped page after the last of a vmalloc() area.
 */
static void kernel_string_test(struct kunit *test)
{
	char *page = vmalloc(PAGE_SIZE);
	unsigned int off, len;
	char dst[32];

	KUNIT_ASSERT_NOT_NULL(test, page);
	for (off = 0; off < 16; off++)
		for (len = 0; len <= 20; len++)
			check_string_at(test, page, off, len);
	for (len = 0; len <= 20; len++)
		check_string_at(test, page, PAGE_SIZE - len - 1, len);

	/* No NUL before the page ends: the next page is not mapped. */
	memset(page, 'x', PAGE_SIZE);
	for (off = 1; off <= 9; off++)
		KUNIT_EXPECT_EQ(test,
				fetch_kernel_string(NULL, (unsigned long)page +
						    PAGE_SIZE - off, MAX_STRING_SIZE),
				-EFAULT);
	KUNIT_EXPECT_EQ(test, fetch_kernel_string(dst, 0, sizeof(dst)), -EFAULT);
	vfree(page);
}

static struct kunit_case trace_probe_fetch_cases[] = {
	KUNIT_CASE(kernel_string_test),
	{}
};

static struct kunit_suite trace_probe_fetch_suite = {
	.name = "trace_probe_fetch",
	.test_cases = trace_probe_fetch_cases,
};

static struct kunit_case trace_probe_parse_cases[] = {
	KUNIT_CASE_PARAM(parse_arg_test, arg_gen_params),
	KUNIT_CASE(array_format_test),
	KUNIT_CASE_PARAM(error_position_test, err_gen_params),
	KUNIT_CASE(error_text_test),
	KUNIT_CASE(round_trip_test),
	KUNIT_CASE(multiprobe_test),
	KUNIT_CASE(one_string_kind_test),
	KUNIT_CASE(too_many_args_test),
	KUNIT_CASE(arg_too_long_test),
#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
	KUNIT_CASE(btf_member_offset_test),
#endif
	{}
};

static struct kunit_suite trace_probe_parse_suite = {
	.name = "trace_probe_parse",
	.test_cases = trace_probe_parse_cases,
};

kunit_test_suites(&trace_probe_parse_suite, &trace_probe_fetch_suite);
