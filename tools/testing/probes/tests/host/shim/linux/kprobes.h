/* SPDX-License-Identifier: GPL-2.0 */
#define NOKPROBE_SYMBOL(fn)
#define __kprobes
