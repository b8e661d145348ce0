/* SPDX-License-Identifier: GPL-2.0 */
/* Host build of the probe parser: parse-shim.h has what it uses. */
