/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/types.h>
struct pt_regs;
typedef bool (probe_simulate_t)(u32 insn, struct pt_regs *regs);
