/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host build of the probe parser: kernel/trace/trace_btf.h, the three
 * helpers of kernel/trace/trace_btf.c, here on btf-shim.c's fake BTF.
 * Without CONFIG_PROBE_EVENTS_BTF_ARGS the parser calls none of them.
 */
#include <linux/btf.h>

#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
const struct btf_type *btf_find_func_proto(const char *func_name,
					   struct btf **btf_p);
const struct btf_param *btf_get_func_param(const struct btf_type *func_proto,
					   s32 *nr);
const struct btf_member *
btf_find_struct_member(struct btf *btf, const struct btf_type *type,
		       const char *member_name, u32 *anon_offset,
		       const struct btf_type **member_type);
#endif
