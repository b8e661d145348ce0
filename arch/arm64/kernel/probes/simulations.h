/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulation routines, listed once. The includer defines
 * PROBE_SIMULATION(routine) as what each is to give: simulate.h declares
 * them, the decoder's host test defines stand-ins and names them.
 */
PROBE_SIMULATION(sim_nop);
PROBE_SIMULATION(sim_b);
PROBE_SIMULATION(sim_b_cond);
PROBE_SIMULATION(sim_cbz);
PROBE_SIMULATION(sim_tbz);
PROBE_SIMULATION(sim_br);
PROBE_SIMULATION(sim_adr);
PROBE_SIMULATION(sim_ldr_literal);
PROBE_SIMULATION(sim_ldr_fp_literal);
PROBE_SIMULATION(sim_pac_lr);
PROBE_SIMULATION(sim_mrs_daif);
PROBE_SIMULATION(sim_frame_pointer);
PROBE_SIMULATION(sim_push_frame);

#undef PROBE_SIMULATION
