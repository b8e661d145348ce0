// SPDX-License-Identifier: GPL-2.0
/*
 * A small, fake, hand-written BTF for the host build of the probe parser,
 * and the kernel's BTF functions the parser calls, on it: enough types
 * for each path of the parser's BTF code (CONFIG_PROBE_EVENTS_BTF_ARGS)
 * that a BTF the kernel loaded can lead to, to be taken by
 * parse-cases.txt and reached by the fuzz.
 *
 * The types are written below as rows, one a type, and encoded at first
 * use into the kernel's own layout: each struct btf_type in a block of its
 * own, exactly as long as the records that follow it (an int's word, an
 * array's struct btf_array, a structure's members, a prototype's
 * parameters), so that AddressSanitizer catches the parser reading a
 * record a type has not.  There are two BTFs, as in a kernel with a
 * module: vmlinux's, and a module's split BTF whose ids and strings
 * continue vmlinux's and whose types may refer to vmlinux's.
 *
 * The functions follow 7.3's kernel/bpf/btf.c and kernel/trace/trace_btf.c;
 * bpf_find_btf_id() takes a reference that btf_put() drops, and the test
 * checks that a parse leaves none held (btf_shim_refs()).
 */
#include <linux/btf.h>
#include "trace_btf.h"
#include "btf-shim.h"

/* ---- The types --------------------------------------------------------- */

/*
 * Type ids.  vmlinux's BTF holds T_VOID .. T_VMLINUX_NR - 1, the module's
 * T_VMLINUX_NR .. T_NR - 1; ids are what the tables below are indexed by.
 */
enum {
	T_VOID,			/* id 0, void, in every kernel BTF */
	/* Integers */
	T_CHAR,
	T_SCHAR,
	T_UCHAR,
	T_SHORT,
	T_USHORT,
	T_INT,
	T_UINT,
	T_LONG,
	T_ULONG,
	T_LLONG,
	T_ULLONG,
	T_BOOL,
	T_UINT3,
	T_INT5,
	T_ENUM,
	T_ENUM64,
	/* Typedefs and modifiers */
	T_U8,
	T_S8,
	T_U16,
	T_S16,
	T_U32,
	T_S32,
	T_U64,
	T_S64,
	T_SIZE_T,
	T_SSIZE_T,
	T_LOFF_T,
	T_PID_T,
	T_FMODE_T,
	T_GFP_T,
	T_CONST_CHAR,
	T_CONST_VOID,
	T_VOLATILE_LONG,
	T_USER_CHAR,
	/* Pointers and arrays */
	T_PTR_VOID,
	T_PTR_CONST_VOID,
	T_PTR_CHAR,
	T_PTR_CONST_CHAR,
	T_PTR_USER_CHAR,
	T_PTR_SCHAR,
	T_PTR_LOFF_T,
	T_PTR_TASK,
	T_PTR_LIST_HEAD,
	T_PTR_DENTRY,
	T_PTR_FILE,
	T_PTR_LEGACY,
	T_COMM,
	T_INT_ARRAY,
	/* Structures and unions */
	T_LIST_HEAD,
	T_SCHED_ENTITY,
	T_TASK_ANON_UNION,
	T_TASK_ANON_STRUCT,
	T_TASK,
	T_QSTR,
	T_DENTRY,
	T_PATH,
	T_FILE,
	T_LEGACY,
	/* Functions: each FUNC_PROTO, then its FUNC */
	T_VFS_READ_PROTO,
	T_VFS_READ,
	T_KFREE_PROTO,
	T_KFREE,
	T_SCHEDULE_PROTO,
	T_SCHEDULE,
	T_PRINTK_PROTO,
	T_PRINTK,
	T_KMALLOC_PROTO,
	T_KMALLOC,
	T_STUB_PROTO,
	T_STUB,
	T_SCALARS_PROTO,
	T_SCALARS,
	T_LONG_NAMES_PROTO,
	T_LONG_NAMES,
	T_VMLINUX_NR,
	/* The module's */
	T_DEV = T_VMLINUX_NR,
	T_PTR_DEV,
	T_DEV_OPEN_PROTO,
	T_DEV_OPEN,
	T_NR,
};

/* A structure's or union's member, or a prototype's parameter. */
struct fake_member {
	const char	*name;		/* NULL: anonymous */
	u32		type;
	u32		bitoffs;
	u32		bitsize;	/* a bitfield's (kflag structures) */
};

/*
 * One type.  @type is what a pointer, typedef, modifier, array or function
 * is of, a prototype's return type; @size the bytes of an integer, enum,
 * structure or union; @members a structure's or a prototype's parameters.
 */
struct fake_type {
	u8			kind;		/* BTF_KIND_* */
	bool			kflag;		/* with bitfield sizes */
	const char		*name;		/* NULL: anonymous */
	u32			size;
	u32			type;
	u32			int_enc;	/* BTF_INT_* */
	u32			int_bits;
	u32			int_offs;
	u32			nelems;		/* an array's */
	u32			nmembers;
	const struct fake_member *members;
};

#define INT(n, bytes, enc)						\
	{ .kind = BTF_KIND_INT, .name = n, .size = bytes,		\
	  .int_bits = (bytes) * 8, .int_enc = enc }
/* An integer of @bits at @offs in its @bytes: the old bitfield encoding. */
#define INT_BITS(n, bytes, bits, offs, enc)				\
	{ .kind = BTF_KIND_INT, .name = n, .size = bytes,		\
	  .int_bits = bits, .int_offs = offs, .int_enc = enc }
#define ENUM(n, bytes)							\
	{ .kind = BTF_KIND_ENUM, .name = n, .size = bytes }
#define ENUM64(n, bytes)						\
	{ .kind = BTF_KIND_ENUM64, .name = n, .size = bytes }
#define TYPEDEF(n, to)							\
	{ .kind = BTF_KIND_TYPEDEF, .name = n, .type = to }
#define CONST(to)		{ .kind = BTF_KIND_CONST, .type = to }
#define VOLATILE(to)		{ .kind = BTF_KIND_VOLATILE, .type = to }
#define TYPE_TAG(n, to)							\
	{ .kind = BTF_KIND_TYPE_TAG, .name = n, .type = to }
#define PTR(to)			{ .kind = BTF_KIND_PTR, .type = to }
#define ARRAY(elem, n)							\
	{ .kind = BTF_KIND_ARRAY, .type = elem, .nelems = n }

#define MEMBERS(...)							\
	.members = (const struct fake_member[]){ __VA_ARGS__ },		\
	.nmembers = sizeof((const struct fake_member[]){ __VA_ARGS__ }) / \
		    sizeof(struct fake_member)
#define STRUCT(n, bytes, ...)						\
	{ .kind = BTF_KIND_STRUCT, .name = n, .size = bytes,		\
	  MEMBERS(__VA_ARGS__) }
/* A structure with bitfields: its member offsets hold their sizes too. */
#define STRUCT_KFLAG(n, bytes, ...)					\
	{ .kind = BTF_KIND_STRUCT, .kflag = true, .name = n, .size = bytes, \
	  MEMBERS(__VA_ARGS__) }
#define UNION(n, bytes, ...)						\
	{ .kind = BTF_KIND_UNION, .name = n, .size = bytes,		\
	  MEMBERS(__VA_ARGS__) }
#define M(n, t, bitoffs)	{ n, t, bitoffs, 0 }
#define BITFIELD(n, t, bitoffs, bits)	{ n, t, bitoffs, bits }

#define PROTO(ret, ...)							\
	{ .kind = BTF_KIND_FUNC_PROTO, .type = ret, MEMBERS(__VA_ARGS__) }
#define PROTO_VOID(ret)							\
	{ .kind = BTF_KIND_FUNC_PROTO, .type = ret }
#define P(n, t)			{ n, t, 0, 0 }
/* The "..." of a variadic function: no name, type void. */
#define P_VARARGS		{ "", T_VOID, 0, 0 }
#define FUNC(n, proto)							\
	{ .kind = BTF_KIND_FUNC, .name = n, .type = proto }

static const struct fake_type fake_types[T_NR] = {
	[T_VOID]	= { .kind = BTF_KIND_UNKN },
	/*
	 * Integers of 1, 2, 4 and 8 bytes, signed and not.  The kernel is
	 * built with -funsigned-char: char is a byte, not signed, and so
	 * what ":string" reads through a char * or in a char[].
	 */
	[T_CHAR]	= INT("char", 1, BTF_INT_CHAR),
	[T_SCHAR]	= INT("signed char", 1, BTF_INT_SIGNED | BTF_INT_CHAR),
	[T_UCHAR]	= INT("unsigned char", 1, 0),
	[T_SHORT]	= INT("short", 2, BTF_INT_SIGNED),
	[T_USHORT]	= INT("unsigned short", 2, 0),
	[T_INT]		= INT("int", 4, BTF_INT_SIGNED),
	[T_UINT]	= INT("unsigned int", 4, 0),
	[T_LONG]	= INT("long", 8, BTF_INT_SIGNED),
	[T_ULONG]	= INT("unsigned long", 8, 0),
	[T_LLONG]	= INT("long long", 8, BTF_INT_SIGNED),
	[T_ULLONG]	= INT("unsigned long long", 8, 0),
	[T_BOOL]	= INT("_Bool", 1, BTF_INT_BOOL),
	/* Bitfields in the old encoding (kflag clear): odd-sized integers. */
	[T_UINT3]	= INT_BITS("unsigned int", 4, 3, 2, 0),
	[T_INT5]	= INT_BITS("int", 4, 5, 0, BTF_INT_SIGNED),
	[T_ENUM]	= ENUM("pid_type", 4),
	[T_ENUM64]	= ENUM64("btf_shim_wide", 8),

	/* Typedefs and modifiers, which the parser looks through. */
	[T_U8]		= TYPEDEF("u8", T_UCHAR),
	[T_S8]		= TYPEDEF("s8", T_SCHAR),
	[T_U16]		= TYPEDEF("u16", T_USHORT),
	[T_S16]		= TYPEDEF("s16", T_SHORT),
	[T_U32]		= TYPEDEF("u32", T_UINT),
	[T_S32]		= TYPEDEF("s32", T_INT),
	[T_U64]		= TYPEDEF("u64", T_ULLONG),
	[T_S64]		= TYPEDEF("s64", T_LLONG),
	[T_SIZE_T]	= TYPEDEF("size_t", T_ULONG),
	[T_SSIZE_T]	= TYPEDEF("ssize_t", T_LONG),
	[T_LOFF_T]	= TYPEDEF("loff_t", T_LLONG),
	[T_PID_T]	= TYPEDEF("pid_t", T_INT),
	[T_FMODE_T]	= TYPEDEF("fmode_t", T_UINT),
	[T_GFP_T]	= TYPEDEF("gfp_t", T_UINT),
	[T_CONST_CHAR]	= CONST(T_CHAR),
	[T_CONST_VOID]	= CONST(T_VOID),
	[T_VOLATILE_LONG] = VOLATILE(T_LONG),
	/* Clang's __user: a type tag a GCC-built BTF has not. */
	[T_USER_CHAR]	= TYPE_TAG("user", T_CHAR),

	[T_PTR_VOID]	= PTR(T_VOID),
	[T_PTR_CONST_VOID] = PTR(T_CONST_VOID),
	[T_PTR_CHAR]	= PTR(T_CHAR),
	[T_PTR_CONST_CHAR] = PTR(T_CONST_CHAR),
	[T_PTR_USER_CHAR] = PTR(T_USER_CHAR),
	/* Not a string: its bytes are signed. */
	[T_PTR_SCHAR]	= PTR(T_SCHAR),
	[T_PTR_LOFF_T]	= PTR(T_LOFF_T),
	[T_PTR_TASK]	= PTR(T_TASK),
	[T_PTR_LIST_HEAD] = PTR(T_LIST_HEAD),
	[T_PTR_DENTRY]	= PTR(T_DENTRY),
	[T_PTR_FILE]	= PTR(T_FILE),
	[T_PTR_LEGACY]	= PTR(T_LEGACY),
	[T_COMM]	= ARRAY(T_CHAR, 16),
	/* An array, not of bytes: no string. */
	[T_INT_ARRAY]	= ARRAY(T_INT, 4),

	[T_LIST_HEAD]	= STRUCT("list_head", 16,
				 M("next", T_PTR_LIST_HEAD, 0),
				 M("prev", T_PTR_LIST_HEAD, 64)),
	[T_SCHED_ENTITY] = STRUCT("sched_entity", 24,
				  M("vruntime", T_U64, 0),
				  M("group_node", T_LIST_HEAD, 64)),
	/*
	 * task_struct's anonymous members: a union at bit 128 of it, and in
	 * the union a structure, whose members are found through both.  The
	 * structure is also the first anonymous one of the BTF, which a
	 * search for the empty name finds, as the kernel's does.
	 */
	[T_TASK_ANON_UNION] = UNION(NULL, 8,
				    M("rcu_users", T_INT, 0),
				    M(NULL, T_TASK_ANON_STRUCT, 0)),
	[T_TASK_ANON_STRUCT] = STRUCT(NULL, 8,
				      M("prio", T_INT, 0),
				      M("static_prio", T_INT, 32)),
	/*
	 * task_struct, with bitfields, so its offsets hold their sizes: one
	 * bitfield on a byte, one off it (TYPECAST_NOT_ALIGNED), "se" for
	 * "(task_struct,se->group_node)" (TYPECAST_BAD_ARROW).  int_array is
	 * no member of the kernel's.  120 bytes.
	 */
	[T_TASK]	= STRUCT_KFLAG("task_struct", 120,
				M("__state", T_UINT, 0),
				M("flags", T_UINT, 32),
				BITFIELD("sched_reset_on_fork", T_UINT, 64, 1),
				BITFIELD("in_execve", T_UINT, 65, 1),
				M("on_cpu", T_INT, 96),
				M(NULL, T_TASK_ANON_UNION, 128),
				M("se", T_SCHED_ENTITY, 192),
				M("tasks", T_LIST_HEAD, 384),
				M("pid", T_PID_T, 512),
				M("tgid", T_PID_T, 544),
				M("real_parent", T_PTR_TASK, 576),
				M("group_leader", T_PTR_TASK, 640),
				M("comm", T_COMM, 704),
				M("int_array", T_INT_ARRAY, 832)),
	/*
	 * The file, path, dentry and qstr of parse-shim.h, which %pd and %pD
	 * are rewritten to the offsets of: the same offsets here (asserted
	 * below), so that both ways to a file's name agree.
	 */
	[T_QSTR]	= STRUCT("qstr", 8,
				 M("name", T_PTR_CONST_CHAR, 0)),
	[T_DENTRY]	= STRUCT("dentry", 16,
				 M("d_flags", T_UINT, 0),
				 M("d_name", T_QSTR, 64)),
	[T_PATH]	= STRUCT("path", 16,
				 M("mnt", T_PTR_VOID, 0),
				 M("dentry", T_PTR_DENTRY, 64)),
	[T_FILE]	= STRUCT("file", 24,
				 M("f_mode", T_FMODE_T, 0),
				 M("f_flags", T_UINT, 32),
				 M("f_path", T_PATH, 64)),
	/* Old-style bitfields: odd-sized integers, no kflag. */
	[T_LEGACY]	= STRUCT("btf_shim_legacy", 8,
				 M("flag3", T_UINT3, 8),
				 M("flag5", T_INT5, 16),
				 M("whole", T_INT, 32)),

	/* ssize_t vfs_read(struct file *, char __user *, size_t, loff_t *) */
	[T_VFS_READ_PROTO] = PROTO(T_SSIZE_T,
				   P("file", T_PTR_FILE),
				   P("buf", T_PTR_USER_CHAR),
				   P("count", T_SIZE_T),
				   P("pos", T_PTR_LOFF_T)),
	[T_VFS_READ]	= FUNC("vfs_read", T_VFS_READ_PROTO),
	/* void kfree(const void *): NO_RETVAL, $arg2 NO_BTFARG */
	[T_KFREE_PROTO]	= PROTO(T_VOID, P("objp", T_PTR_CONST_VOID)),
	[T_KFREE]	= FUNC("kfree", T_KFREE_PROTO),
	/* void schedule(void): no parameters at all */
	[T_SCHEDULE_PROTO] = PROTO_VOID(T_VOID),
	[T_SCHEDULE]	= FUNC("schedule", T_SCHEDULE_PROTO),
	/* int _printk(const char *fmt, ...): an unnamed last parameter */
	[T_PRINTK_PROTO] = PROTO(T_INT,
				 P("fmt", T_PTR_CONST_CHAR),
				 P_VARARGS),
	[T_PRINTK]	= FUNC("_printk", T_PRINTK_PROTO),
	/* void *__kmalloc(size_t, gfp_t): a $retval that is a pointer */
	[T_KMALLOC_PROTO] = PROTO(T_PTR_VOID,
				  P("size", T_SIZE_T),
				  P("flags", T_GFP_T)),
	[T_KMALLOC]	= FUNC("__kmalloc", T_KMALLOC_PROTO),
	/*
	 * A tracepoint's stub, whose BTF names a tracepoint probe's
	 * arguments: all but the first, __data.
	 */
	[T_STUB_PROTO]	= PROTO(T_VOID,
				P("__data", T_PTR_VOID),
				P("preempt", T_BOOL),
				P("prev", T_PTR_TASK),
				P("next", T_PTR_TASK),
				P("prev_state", T_UINT)),
	[T_STUB]	= FUNC("__probestub_sched_switch", T_STUB_PROTO),
	/* Every kind of parameter, for the type each is stored as. */
	[T_SCALARS_PROTO] = PROTO(T_LLONG,
				  P("uc", T_U8),
				  P("sc", T_S8),
				  P("us", T_U16),
				  P("ss", T_S16),
				  P("ui", T_U32),
				  P("si", T_S32),
				  P("ul", T_U64),
				  P("sl", T_S64),
				  P("ch", T_CHAR),
				  P("b", T_BOOL),
				  P("e", T_ENUM),
				  P("e64", T_ENUM64),
				  P("vl", T_VOLATILE_LONG),
				  P("lh", T_LIST_HEAD),
				  P("lb", T_PTR_LEGACY),
				  P("sp", T_PTR_SCHAR),
				  P("cp", T_PTR_CONST_CHAR),
				  P("vp", T_PTR_VOID)),
	[T_SCALARS]	= FUNC("btf_shim_scalars", T_SCALARS_PROTO),
	/* Names longer, together, than $arg* has room for (ARGS_2LONG). */
	[T_LONG_NAMES_PROTO] = PROTO(T_VOID,
			P("a_parameter_whose_name_is_long", T_INT),
			P("another_parameter_with_a_long_name", T_INT),
			P("a_third_parameter_with_a_long_name", T_INT),
			P("the_fourth_parameter_of_this_one", T_INT)),
	[T_LONG_NAMES]	= FUNC("btf_shim_long_names", T_LONG_NAMES_PROTO),

	/*
	 * The module's: a structure of its own pointing into vmlinux's
	 * types, and a function taking it and a vmlinux type.
	 */
	[T_DEV]		= STRUCT("btf_shim_dev", 32,
				 M("id", T_INT, 0),
				 M("owner", T_PTR_TASK, 64),
				 M("node", T_LIST_HEAD, 128)),
	[T_PTR_DEV]	= PTR(T_DEV),
	[T_DEV_OPEN_PROTO] = PROTO(T_INT,
				   P("dev", T_PTR_DEV),
				   P("file", T_PTR_FILE)),
	[T_DEV_OPEN]	= FUNC("btf_shim_dev_open", T_DEV_OPEN_PROTO),
};

/* parse-shim.h's structures, which %pd and %pD use: as the BTF has them. */
_Static_assert(offsetof(struct file, f_path) * 8 == 64, "file.f_path");
_Static_assert(offsetof(struct path, dentry) * 8 == 64, "path.dentry");
_Static_assert(offsetof(struct dentry, d_name) * 8 == 64, "dentry.d_name");
_Static_assert(offsetof(struct qstr, name) == 0, "qstr.name");

/* ---- The BTFs, encoded ------------------------------------------------- */

/* What the kernel's struct btf holds of use here. */
struct btf {
	const char		*name;
	struct btf		*base;		/* under a module's */
	u32			start_id;
	u32			nr_types;
	u32			start_str_off;
	const struct btf_type	**types;
	char			*strings;
	u32			str_len;
	int			refs;
};

static struct btf vmlinux_btf = {
	.name = "vmlinux", .nr_types = T_VMLINUX_NR,
};

static struct btf module_btf = {
	.name = "btf_shim_mod", .base = &vmlinux_btf,
	.start_id = T_VMLINUX_NR, .nr_types = T_NR - T_VMLINUX_NR,
};

static void __attribute__((noreturn)) bad_table(u32 id, const char *why)
{
	fprintf(stderr, "btf-shim.c: type %u: %s\n", id, why);
	abort();
}

/* Add @s to @btf's strings; return its offset, 0 for no name. */
static u32 add_string(struct btf *btf, const char *s)
{
	size_t len = strlen(s) + 1;
	u32 off = btf->str_len;

	if (!*s)
		return 0;
	btf->strings = realloc(btf->strings, btf->str_len + len);
	if (!btf->strings)
		abort();
	memcpy(btf->strings + off, s, len);
	btf->str_len += len;
	return btf->start_str_off + off;
}

/* A type id @btf may refer to: its own, or its base's. */
static void check_ref(struct btf *btf, u32 id, u32 ref)
{
	if (ref >= btf->start_id + btf->nr_types)
		bad_table(id, "refers to a type after its BTF's");
}

/* Encode row @id as the kernel has it: the btf_type, then its records. */
static const struct btf_type *encode(struct btf *btf, u32 id)
{
	const struct fake_type *f = &fake_types[id];
	u32 vlen = 0, tail = 0, i;
	struct btf_type *t;

	if (id && f->kind == BTF_KIND_UNKN)
		bad_table(id, "no row");
	switch (f->kind) {
	case BTF_KIND_INT:
		tail = sizeof(u32);
		break;
	case BTF_KIND_ARRAY:
		tail = sizeof(struct btf_array);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		vlen = f->nmembers;
		tail = vlen * sizeof(struct btf_member);
		break;
	case BTF_KIND_FUNC_PROTO:
		vlen = f->nmembers;
		tail = vlen * sizeof(struct btf_param);
		break;
	case BTF_KIND_FUNC:
		vlen = BTF_FUNC_GLOBAL;
		break;
	}
	t = calloc(1, sizeof(*t) + tail);
	if (!t)
		abort();
	t->name_off = add_string(btf, f->name ? f->name : "");
	t->info = (u32)f->kflag << 31 | (u32)f->kind << 24 | vlen;

	switch (f->kind) {
	case BTF_KIND_INT:
		if (f->int_bits + f->int_offs > f->size * 8)
			bad_table(id, "integer bits outside its size");
		*(u32 *)(t + 1) = f->int_enc << 24 | f->int_offs << 16 |
				  f->int_bits;
		/* fall through */
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		t->size = f->size;
		break;
	case BTF_KIND_ARRAY:
		check_ref(btf, id, f->type);
		btf_array(t)->type = f->type;
		btf_array(t)->index_type = T_UINT;
		btf_array(t)->nelems = f->nelems;
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		struct btf_member *m = (struct btf_member *)(t + 1);

		t->size = f->size;
		for (i = 0; i < vlen; i++) {
			const struct fake_member *fm = &f->members[i];

			check_ref(btf, id, fm->type);
			if (fm->bitsize && !f->kflag)
				bad_table(id, "a bitfield size without kflag");
			m[i].name_off = add_string(btf,
						   fm->name ? fm->name : "");
			m[i].type = fm->type;
			m[i].offset = fm->bitoffs;
			if (f->kflag)
				m[i].offset |= fm->bitsize << 24;
		}
		break;
	}
	case BTF_KIND_FUNC_PROTO: {
		struct btf_param *p = (struct btf_param *)(t + 1);

		check_ref(btf, id, f->type);
		t->type = f->type;
		for (i = 0; i < vlen; i++) {
			check_ref(btf, id, f->members[i].type);
			p[i].name_off = add_string(btf, f->members[i].name);
			p[i].type = f->members[i].type;
		}
		break;
	}
	case BTF_KIND_UNKN:
		break;
	default:
		check_ref(btf, id, f->type);
		t->type = f->type;
	}
	return t;
}

static void encode_btf(struct btf *btf)
{
	u32 i;

	if (btf->base)
		btf->start_str_off = btf->base->str_len;
	btf->types = calloc(btf->nr_types, sizeof(*btf->types));
	if (!btf->types)
		abort();
	/* Offset 0 is the empty name, in a module's strings too. */
	btf->strings = calloc(1, 1);
	btf->str_len = 1;
	for (i = 0; i < btf->nr_types; i++)
		btf->types[i] = encode(btf, btf->start_id + i);
}

static void btf_shim_init(void)
{
	if (vmlinux_btf.types)
		return;
	encode_btf(&vmlinux_btf);
	encode_btf(&module_btf);
}

int btf_shim_refs(void)
{
	return vmlinux_btf.refs + module_btf.refs;
}

static void free_btf(struct btf *btf)
{
	u32 i;

	for (i = 0; btf->types && i < btf->nr_types; i++)
		free((void *)btf->types[i]);
	free(btf->types);
	free(btf->strings);
	btf->types = NULL;
	btf->strings = NULL;
	btf->str_len = 0;
}

void btf_shim_exit(void)
{
	free_btf(&module_btf);
	free_btf(&vmlinux_btf);
}

/* ---- kernel/bpf/btf.c -------------------------------------------------- */

const struct btf_type *btf_type_by_id(const struct btf *btf, u32 type_id)
{
	while (type_id < btf->start_id)
		btf = btf->base;
	type_id -= btf->start_id;
	if (type_id >= btf->nr_types)
		return NULL;
	return btf->types[type_id];
}

const char *btf_name_by_offset(const struct btf *btf, u32 offset)
{
	while (offset < btf->start_str_off)
		btf = btf->base;
	offset -= btf->start_str_off;
	if (offset < btf->str_len)
		return &btf->strings[offset];
	return NULL;
}

static bool btf_type_is_modifier(const struct btf_type *t)
{
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return true;
	}
	return false;
}

/*
 * The kernel's would dereference the NULL of an id past the BTF; a BTF
 * the kernel loaded has none, and nor has this one (check_ref()).
 */
const struct btf_type *btf_type_skip_modifiers(const struct btf *btf,
					       u32 id, u32 *res_id)
{
	const struct btf_type *t = btf_type_by_id(btf, id);

	while (t && btf_type_is_modifier(t)) {
		id = t->type;
		t = btf_type_by_id(btf, t->type);
	}
	if (res_id)
		*res_id = id;
	return t;
}

/*
 * The kernel's searches vmlinux's sorted names; the empty name, which it
 * cannot search so, it looks for one type after the other, as here.
 */
static s32 btf_find_by_name_kind(const struct btf *btf, const char *name,
				 u8 kind)
{
	const struct btf_type *t;
	s32 id;

	if (btf->base) {
		id = btf_find_by_name_kind(btf->base, name, kind);
		if (id > 0)
			return id;
	}
	for (id = btf->start_id ? btf->start_id : 1;
	     id < btf->start_id + btf->nr_types; id++) {
		t = btf_type_by_id(btf, id);
		if (BTF_INFO_KIND(t->info) != kind)
			continue;
		if (!strcmp(btf_name_by_offset(btf, t->name_off), name))
			return id;
	}
	return -ENOENT;
}

/* vmlinux's BTF first, then the module's; the BTF found is held. */
s32 bpf_find_btf_id(const char *name, u32 kind, struct btf **btf_p)
{
	struct btf *btfs[] = { &vmlinux_btf, &module_btf };
	s32 id;
	int i;

	btf_shim_init();
	for (i = 0; i < (int)ARRAY_SIZE(btfs); i++) {
		id = btf_find_by_name_kind(btfs[i], name, kind);
		if (id > 0) {
			btfs[i]->refs++;
			*btf_p = btfs[i];
			return id;
		}
	}
	return -ENOENT;
}

void btf_put(struct btf *btf)
{
	if (btf && --btf->refs < 0) {
		fprintf(stderr, "btf-shim.c: btf_put() of %s, not held\n",
			btf->name);
		abort();
	}
}

/* ---- kernel/trace/trace_btf.c ------------------------------------------ */

const struct btf_type *btf_find_func_proto(const char *func_name,
					   struct btf **btf_p)
{
	const struct btf_type *t;
	s32 id;

	id = bpf_find_btf_id(func_name, BTF_KIND_FUNC, btf_p);
	if (id < 0)
		return NULL;
	t = btf_type_by_id(*btf_p, id);
	if (!t || !btf_type_is_func(t))
		goto err;
	t = btf_type_by_id(*btf_p, t->type);
	if (!t || !btf_type_is_func_proto(t))
		goto err;
	return t;
err:
	btf_put(*btf_p);
	return NULL;
}

const struct btf_param *btf_get_func_param(const struct btf_type *func_proto,
					   s32 *nr)
{
	if (!btf_type_is_func_proto(func_proto))
		return ERR_PTR(-EINVAL);
	*nr = btf_type_vlen(func_proto);
	if (*nr > 0)
		return btf_params(func_proto);
	return NULL;
}

#define BTF_ANON_STACK_MAX	16

/*
 * The member @member_name of @type, or of an anonymous structure or union
 * in it, whose bit offset goes in *@anon_offset and which in
 * *@member_type; NULL if none, ERR_PTR(-EINVAL) if @type is no structure
 * or union.  The kernel's allocates its stack, and so may also fail with
 * -ENOMEM; this one is on the stack.
 */
const struct btf_member *
btf_find_struct_member(struct btf *btf, const struct btf_type *type,
		       const char *member_name, u32 *anon_offset,
		       const struct btf_type **member_type)
{
	struct {
		u32 tid;
		u32 offset;
	} anon_stack[BTF_ANON_STACK_MAX];
	const struct btf_member *member;
	const struct btf_type *mtype;
	u32 tid, cur_offset = 0;
	const char *name;
	int i, top = 0;

	if (!btf_type_is_struct(type))
		return ERR_PTR(-EINVAL);
retry:
	for_each_member(i, type, member) {
		if (!member->name_off) {
			/* Anonymous union/struct: push it for later use */
			mtype = btf_type_skip_modifiers(btf, member->type,
							&tid);
			if (mtype && btf_type_is_struct(mtype) &&
			    top < BTF_ANON_STACK_MAX) {
				anon_stack[top].tid = tid;
				anon_stack[top++].offset = cur_offset +
					__btf_member_bit_offset(type, member);
			}
		} else {
			name = btf_name_by_offset(btf, member->name_off);
			if (name && !strcmp(member_name, name)) {
				if (anon_offset)
					*anon_offset = cur_offset;
				if (member_type)
					*member_type = type;
				return member;
			}
		}
	}
	if (top > 0) {
		/* Pop from the anonymous stack and retry */
		tid = anon_stack[--top].tid;
		cur_offset = anon_stack[top].offset;
		type = btf_type_by_id(btf, tid);
		goto retry;
	}
	return NULL;
}
