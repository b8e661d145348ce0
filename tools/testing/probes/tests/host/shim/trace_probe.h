/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host build of the probe parser: of the probe-event layer's header, only
 * the compiled form and the parser's interface, which need no kernel.
 */
#include "trace_probe_prog.h"
