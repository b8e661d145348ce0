/* SPDX-License-Identifier: GPL-2.0 */
/* Host build of the probe parser: no BTF (parse-shim.h has the stubs). */
