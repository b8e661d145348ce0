/* SPDX-License-Identifier: GPL-2.0 */
/* Host build of the probes decoder: asm/insn.h's check of its classes. */
#ifndef SHIM_LINUX_BUILD_BUG_H
#define SHIM_LINUX_BUILD_BUG_H
#define BUILD_BUG_ON(cond)	((void)sizeof(char[1 - 2 * !!(cond)]))
#endif
