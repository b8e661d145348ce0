/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Instructions that a probe carries out in C rather than out of line.
 */
#ifndef __ARM64_KERNEL_PROBES_SIMULATE_H
#define __ARM64_KERNEL_PROBES_SIMULATE_H

#include <asm/probes.h>

probe_simulate_t sim_nop;
probe_simulate_t sim_b;
probe_simulate_t sim_b_cond;
probe_simulate_t sim_cbz;
probe_simulate_t sim_tbz;
probe_simulate_t sim_br;
probe_simulate_t sim_adr;
probe_simulate_t sim_ldr_literal;
probe_simulate_t sim_ldr_fp_literal;
probe_simulate_t sim_pac_lr;
probe_simulate_t sim_mrs_daif;
probe_simulate_t sim_frame_pointer;
probe_simulate_t sim_push_frame;

#endif /* __ARM64_KERNEL_PROBES_SIMULATE_H */
