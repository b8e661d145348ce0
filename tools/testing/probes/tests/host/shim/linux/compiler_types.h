/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host build of the probes decoder: what the kernel's build includes
 * before every file and asm/insn.h uses.
 */
#ifndef SHIM_LINUX_COMPILER_TYPES_H
#define SHIM_LINUX_COMPILER_TYPES_H
#define __always_inline	inline
#endif
