/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What an optimized probe's detour calls: opt.c builds the call,
 * opt-trampoline.S provides it.
 */
#ifndef __ARM64_KERNEL_PROBES_OPT_H
#define __ARM64_KERNEL_PROBES_OPT_H

void optprobe_common(void);

#endif
