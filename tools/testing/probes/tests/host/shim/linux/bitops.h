/* SPDX-License-Identifier: GPL-2.0 */
/* Host build of the probes decoder: sign_extend64(). */
#ifndef SHIM_LINUX_BITOPS_H
#define SHIM_LINUX_BITOPS_H
#include <linux/types.h>
static inline s64 sign_extend64(u64 value, int index)
{
	int shift = 63 - index;

	return (s64)(value << shift) >> shift;
}
#endif
