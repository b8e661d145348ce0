/* SPDX-License-Identifier: GPL-2.0 */
#define ALIGN_DOWN(x, a)	((x) & ~((__typeof__(x))(a) - 1))
