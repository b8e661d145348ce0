/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the probe-argument parser (kernel/trace/trace_probe_parse.c) uses of
 * the kernel, for building it as a host program.  Included first, with -include.
 */
#define _GNU_SOURCE	/* vasprintf() */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define BITS_PER_LONG	(__SIZEOF_LONG__ * 8)

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

#define GFP_KERNEL	0
#define THREAD_SIZE	16384
#define BIT(n)		(1UL << (n))
#define GENMASK(h, l)	(((~0UL) << (l)) & (~0UL >> (63 - (h))))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define struct_size(p, member, n) \
	(sizeof(*(p)) + (n) * sizeof((p)->member[0]))
#define IS_ERR(p)	((unsigned long)(p) >= (unsigned long)-4095)
#define PTR_ERR(p)	((long)(p))
#define ERR_PTR(e)	((void *)(long)(e))
#define IS_ERR_OR_NULL(p) (!(p) || IS_ERR(p))

/* IS_ENABLED(): 1 for an option defined to 1 here, else 0. */
#define CONFIG_HAVE_FUNCTION_ARG_ACCESS_API 1
#define HOST_ONE_1 0,
#define HOST_SECOND(ignored, val, ...) val
#define HOST_DEFINED3(junk) HOST_SECOND(junk 1, 0)
#define HOST_DEFINED2(val) HOST_DEFINED3(HOST_ONE_##val)
#define IS_ENABLED(option) HOST_DEFINED2(option)

#define kmalloc(n, gfp)		malloc(n)
#define kzalloc(n, gfp)		calloc(1, n)
#define krealloc(p, n, gfp)	realloc(p, n)
#define kfree(p)		free((void *)(p))
#define kstrdup(s, gfp)		strdup(s)
#define kstrndup(s, n, gfp)	strndup(s, n)
#define kasprintf(gfp, ...)	host_asprintf(__VA_ARGS__)

static inline char *host_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

static inline size_t str_has_prefix(const char *s, const char *prefix)
{
	size_t len = strlen(prefix);

	return strncmp(s, prefix, len) ? 0 : len;
}

/* The kernel's kstrto*(): all of the string, one trailing newline allowed. */
static inline int host_strto(const char *s, unsigned int base, bool sign,
			     unsigned long *val)
{
	char *end;

	if (!*s || isspace((unsigned char)*s) || (!sign && *s == '-'))
		return -EINVAL;
	errno = 0;
	if (sign)
		*val = strtol(s, &end, base);
	else
		*val = strtoul(*s == '+' ? s + 1 : s, &end, base);
	if (end == s || (*end && !(end[0] == '\n' && !end[1])))
		return -EINVAL;
	return errno ? -ERANGE : 0;
}

static inline int kstrtoul(const char *s, unsigned int base, unsigned long *v)
{
	return host_strto(s, base, false, v);
}

static inline int kstrtol(const char *s, unsigned int base, long *v)
{
	return host_strto(s, base, true, (unsigned long *)v);
}

static inline int kstrtouint(const char *s, unsigned int base, unsigned int *v)
{
	unsigned long l;
	int ret = host_strto(s, base, false, &l);

	if (!ret && l > UINT_MAX)
		return -ERANGE;
	*v = l;
	return ret;
}

static inline bool is_good_name(const char *name)
{
	if (!isalpha((unsigned char)*name) && *name != '_')
		return false;
	while (*++name)
		if (!isalnum((unsigned char)*name) && *name != '_')
			return false;
	return true;
}

/* The definition words: names, $arg* and the %pd and %pD conversions. */
#include <fnmatch.h>

#define MAX_EVENT_NAME_LEN	64
#define kcalloc(n, size, gfp)	calloc(n, size)

static inline bool is_good_system_name(const char *name)
{
	for (; *name; name++)
		if (!isalnum((unsigned char)*name) && *name != '_')
			return false;
	return true;
}

static inline bool glob_match(const char *pat, const char *str)
{
	return !fnmatch(pat, str, 0);
}

struct qstr {
	const char *name;
};

struct dentry {
	unsigned long d_flags;
	struct qstr d_name;
};

struct path {
	void *mnt;
	struct dentry *dentry;
};

struct file {
	unsigned long f_mode;
	struct path f_path;
};

/* The kernel's ilog2(), for the powers of two the parser gives it. */
#define ilog2(n)	(63 - __builtin_clzll(n))

int regs_query_register_offset(const char *name);
