/* SPDX-License-Identifier: GPL-2.0 */
/* Host build of the probes decoder: the field accessors decode.h uses. */
#ifndef SHIM_LINUX_BITFIELD_H
#define SHIM_LINUX_BITFIELD_H
#include <linux/types.h>
#define BIT(n)		(1UL << (n))
#define GENMASK(h, l)	((~0UL >> (63 - (h))) & (~0UL << (l)))
#define FIELD_GET(m, v)	(((v) & (m)) >> __builtin_ctzl(m))
#define FIELD_PREP(m, v) (((unsigned long)(v) << __builtin_ctzl(m)) & (m))
#endif
