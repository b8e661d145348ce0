/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What an optimized probe's detour calls (opt.c, opt-trampoline.S), and
 * what opt.c and kprobes.c share.
 */
#ifndef __ARM64_KERNEL_PROBES_OPT_H
#define __ARM64_KERNEL_PROBES_OPT_H

#include <linux/types.h>

#include <asm/probes.h>

struct kprobe;

int probe_write_code(kprobe_opcode_t *dst, const void *src, size_t len);
void optprobe_common(void);

#ifdef CONFIG_OPTPROBES
bool optprobe_rearm(struct kprobe *p);
#else
static inline bool optprobe_rearm(struct kprobe *p)
{
	return false;
}
#endif

#endif
