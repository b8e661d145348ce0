// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writing code for the probes: the probed instruction's place in kernel
 * text, which other CPUs may be executing, and the slots and detours,
 * which no CPU can be executing yet when they are written.
 *
 * kprobes.c and opt.c both write here and nowhere else, so that neither
 * needs the other: kprobes.c puts a BRK in place, opt.c a B to a detour,
 * and a probe armed again while the core still counts it as optimized
 * gets back the B the optimizer would leave there, which only this file
 * and opt.c need to know how to build.
 */

#include <linux/cacheflush.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include <linux/text-patching.h>

#include <asm/debug-monitors.h>
#include <asm/insn.h>

#include "patch.h"

/**
 * probe_write_code() - write code no CPU can be running yet
 * @dst: an out-of-line slot or a detour, 8-byte aligned
 * @src: the words, as they go to memory
 * @len: bytes, a multiple of 8
 *
 * With the cache maintenance that makes the code visible to instruction
 * fetch, but unlike aarch64_insn_copy() without an IPI to every CPU: the
 * caller makes the code reachable only through a context synchronisation
 * event on each CPU.
 *
 * Return: 0, or -EFAULT if a word could not be written.
 */
int __kprobes probe_write_code(kprobe_opcode_t *dst, const void *src, size_t len)
{
	size_t i;
	u64 word;

	for (i = 0; i < len; i += sizeof(word)) {
		memcpy(&word, src + i, sizeof(word));
		if (aarch64_insn_write_literal_u64((void *)dst + i, word))
			return -EFAULT;
	}
	caches_clean_inval_pou((unsigned long)dst, (unsigned long)dst + len);
	return 0;
}

/**
 * probe_armed_insn() - what an armed probe's address holds
 * @p: the probe, or the core's aggregate probe at its address
 *
 * The BRK of the breakpoint path; or, for a probe the core counts as
 * optimized, the B to its detour. Both may be swapped for each other and
 * for the original instruction while other CPUs execute them.
 *
 * Return: the instruction, as a value.
 */
u32 __kprobes probe_armed_insn(struct kprobe *p)
{
#ifdef CONFIG_OPTPROBES
	if (kprobe_optimized(p)) {
		const struct optimized_kprobe *op =
			container_of(p, struct optimized_kprobe, kp);

		return aarch64_insn_gen_branch_imm((unsigned long)p->addr,
						   (unsigned long)op->optinsn.detour,
						   AARCH64_INSN_BRANCH_NOLINK);
	}
#endif
	return BRK64_OPCODE_KPROBES;
}

/**
 * probe_patch_site() - write a probe's address, other CPUs running
 * @p: the probe
 * @insn: the instruction to put there
 *
 * Through aarch64_insn_patch_text(), which makes every CPU see it before
 * it returns: a probe disarmed is not hit any more once this is done.
 */
void __kprobes probe_patch_site(struct kprobe *p, u32 insn)
{
	void *addr = p->addr;

	aarch64_insn_patch_text(&addr, &insn, 1);
}

/**
 * probe_patch_site_nosync() - write a probe's address, for the optimizer
 * @p: the probe
 * @insn: the B to its detour, or its BRK
 *
 * Without the IPIs: the optimizer has already made every CPU synchronise
 * with the detours it branches to, and a CPU still fetching the old one of
 * two instructions that may be swapped live takes a path as valid.
 */
void __kprobes probe_patch_site_nosync(struct kprobe *p, u32 insn)
{
	WARN_ON(aarch64_insn_patch_text_nosync(p->addr, insn));
}
