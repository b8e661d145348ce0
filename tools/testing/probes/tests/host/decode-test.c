// SPDX-License-Identifier: GPL-2.0
/*
 * The probes decoder, built for the host: reads instruction words (hex, one
 * a line) and prints, for each, the kprobe and uprobe actions, the
 * optimized kprobe's detour's, the class name and the simulation routine.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../../../arch/arm64/kernel/probes/decode.c"

/*
 * The simulations are not run here: each has a stand-in, which the table
 * points to and sim_name() knows by its address.
 */
#define PROBE_SIMULATION(fn) \
	bool fn(u32 insn, struct pt_regs *regs) { (void)insn; (void)regs; abort(); }
#include "simulations.h"

static const char *sim_name(probe_simulate_t *fn)
{
	const char *name = "-";

#define PROBE_SIMULATION(sim)	(name = fn == (sim) ? #sim : name)
#include "simulations.h"
	return name;
}

static const char * const action[] = { "NO", "STEP", "SIM" };
static const char * const opt_action[] = {
	[OPT_KEEP] = "KEEP", [OPT_COPY] = "COPY", [OPT_PAD] = "PAD",
	[OPT_SKIP] = "SKIP", [OPT_B] = "B", [OPT_BL] = "BL",
	[OPT_COND19] = "COND19", [OPT_COND14] = "COND14", [OPT_ADR] = "ADR",
	[OPT_LDR_LIT] = "LDR_LIT",
};

int main(void)
{
	unsigned int insn;

	while (scanf("%x", &insn) == 1) {
		const struct probe_insn_class *c = probe_decode(insn);

		printf("%08x %s %s %s %s %s\n", insn, action[c->kernel],
		       action[c->user], opt_action[c->opt], c->name,
		       sim_name(c->simulate));
	}
	return 0;
}
