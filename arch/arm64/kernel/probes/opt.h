/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What optimized probes' detours need: the slots they are written in
 * (opt-pages.c) and the handlers' entry they call (opt-trampoline.S).
 */
#ifndef __ARM64_KERNEL_PROBES_OPT_H
#define __ARM64_KERNEL_PROBES_OPT_H

#include <linux/sizes.h>
#include <linux/types.h>
#include <asm/probes.h>

void optprobe_common(void);

kprobe_opcode_t *get_detour_slot(unsigned long addr);
void free_detour_slot(kprobe_opcode_t *detour);

/* Whether a B at @from reaches @to: within +/-128 MB. */
static inline bool opt_b_reaches(unsigned long from, unsigned long to)
{
	long off = to - from;

	return off >= -SZ_128M && off < SZ_128M;
}

#endif /* __ARM64_KERNEL_PROBES_OPT_H */
