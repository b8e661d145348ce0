/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host build of the probe parser: what it uses of the kernel's
 * <linux/btf.h>.  Built two ways, as the kernel is: with
 * CONFIG_PROBE_EVENTS_BTF_ARGS, the BTF format is the uapi header's
 * (bookworm's linux-libc-dev) and the BTF is btf-shim.c's fake one; without
 * it, the parser asks BTF nothing but the name of a parameter, of which
 * there are none.
 */
#ifndef SHIM_LINUX_BTF_H
#define SHIM_LINUX_BTF_H

#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS

/*
 * The uapi header's own <linux/types.h> is shim/'s, which has no __u32:
 * take those from the system's <asm/types.h> first.
 */
#include <asm/types.h>
#include_next <linux/btf.h>

struct btf;

/* The kernel's (kernel/bpf/btf.c), on the fake BTF: btf-shim.c. */
const struct btf_type *btf_type_by_id(const struct btf *btf, u32 type_id);
const char *btf_name_by_offset(const struct btf *btf, u32 offset);
const struct btf_type *btf_type_skip_modifiers(const struct btf *btf,
					       u32 id, u32 *res_id);
s32 bpf_find_btf_id(const char *name, u32 kind, struct btf **btf_p);
void btf_put(struct btf *btf);

/* 7.3's include/linux/btf.h inline helpers, those the parser and shim use. */
static inline u32 btf_type_vlen(const struct btf_type *t)
{
	return BTF_INFO_VLEN(t->info);
}

static inline bool btf_type_kflag(const struct btf_type *t)
{
	return BTF_INFO_KFLAG(t->info);
}

static inline bool btf_type_is_ptr(const struct btf_type *t)
{
	return BTF_INFO_KIND(t->info) == BTF_KIND_PTR;
}

static inline bool btf_type_is_int(const struct btf_type *t)
{
	return BTF_INFO_KIND(t->info) == BTF_KIND_INT;
}

static inline bool btf_type_is_func(const struct btf_type *t)
{
	return BTF_INFO_KIND(t->info) == BTF_KIND_FUNC;
}

static inline bool btf_type_is_func_proto(const struct btf_type *t)
{
	return BTF_INFO_KIND(t->info) == BTF_KIND_FUNC_PROTO;
}

static inline bool btf_type_is_struct(const struct btf_type *t)
{
	u8 kind = BTF_INFO_KIND(t->info);

	return kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION;
}

static inline u32 __btf_member_bit_offset(const struct btf_type *struct_type,
					  const struct btf_member *member)
{
	return btf_type_kflag(struct_type) ?
		BTF_MEMBER_BIT_OFFSET(member->offset) : member->offset;
}

static inline u32 __btf_member_bitfield_size(const struct btf_type *struct_type,
					     const struct btf_member *member)
{
	return btf_type_kflag(struct_type) ?
		BTF_MEMBER_BITFIELD_SIZE(member->offset) : 0;
}

static inline const struct btf_member *btf_type_member(const struct btf_type *t)
{
	return (const struct btf_member *)(t + 1);
}

static inline u32 btf_member_bit_offset(const struct btf_type *t,
					u32 member_idx)
{
	return __btf_member_bit_offset(t, btf_type_member(t) + member_idx);
}

static inline u32 btf_member_bitfield_size(const struct btf_type *t,
					   u32 member_idx)
{
	return __btf_member_bitfield_size(t, btf_type_member(t) + member_idx);
}

static inline struct btf_array *btf_array(const struct btf_type *t)
{
	return (struct btf_array *)(t + 1);
}

static inline const struct btf_param *btf_params(const struct btf_type *t)
{
	return (const struct btf_param *)(t + 1);
}

#define for_each_member(i, struct_type, member)			\
	for (i = 0, member = btf_type_member(struct_type);	\
	     i < btf_type_vlen(struct_type);			\
	     i++, member++)

#else /* !CONFIG_PROBE_EVENTS_BTF_ARGS */

/* No BTF: $arg* names nothing (the parser asks no BTF). */
struct btf;
struct btf_param {
	u32 name_off;
	u32 type;
};

static inline const char *btf_name_by_offset(const struct btf *btf, u32 off)
{
	return NULL;
}

#endif /* CONFIG_PROBE_EVENTS_BTF_ARGS */
#endif /* SHIM_LINUX_BTF_H */
