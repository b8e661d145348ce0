/* SPDX-License-Identifier: GPL-2.0 */
#define SZ_4K	0x00001000
