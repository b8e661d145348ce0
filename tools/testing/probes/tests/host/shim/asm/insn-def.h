/* SPDX-License-Identifier: GPL-2.0 */
/* Host build of the probes decoder: asm/insn.h needs none of it. */
