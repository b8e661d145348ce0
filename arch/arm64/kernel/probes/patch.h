/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writing code for the probes: the one place the backend changes kernel
 * text, its probes' slots and their detours (patch.c).
 */
#ifndef __ARM64_KERNEL_PROBES_PATCH_H
#define __ARM64_KERNEL_PROBES_PATCH_H

#include <linux/types.h>

#include <asm/probes.h>

struct kprobe;

int probe_write_code(kprobe_opcode_t *dst, const void *src, size_t len);
u32 probe_armed_insn(struct kprobe *p);
void probe_patch_site(struct kprobe *p, u32 insn);
void probe_patch_site_nosync(struct kprobe *p, u32 insn);

#endif
