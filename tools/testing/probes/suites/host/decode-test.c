// SPDX-License-Identifier: GPL-2.0
/*
 * The probes decoder, built for the host: reads instruction words (hex, one
 * a line) and prints, for each, the kprobe and uprobe actions, the
 * optimized kprobe's detour's, the class name and the simulation routine.
 */
#include <stdio.h>
#include <string.h>

#include "../../../../arch/arm64/kernel/probes/decode.c"

#define STUB(fn) bool fn(u32 insn, struct pt_regs *regs) { (void)insn; (void)regs; return true; }
STUB(sim_nop) STUB(sim_b) STUB(sim_b_cond) STUB(sim_cbz) STUB(sim_tbz)
STUB(sim_br) STUB(sim_adr) STUB(sim_ldr_literal) STUB(sim_ldr_fp_literal)
STUB(sim_pac_lr) STUB(sim_mrs_daif) STUB(sim_frame_pointer)
STUB(sim_push_frame)

static const struct {
	probe_simulate_t *fn;
	const char *name;
} sims[] = {
#define SIMNAME(fn) { fn, #fn }
	SIMNAME(sim_nop), SIMNAME(sim_b), SIMNAME(sim_b_cond), SIMNAME(sim_cbz),
	SIMNAME(sim_tbz), SIMNAME(sim_br), SIMNAME(sim_adr),
	SIMNAME(sim_ldr_literal), SIMNAME(sim_ldr_fp_literal),
	SIMNAME(sim_pac_lr), SIMNAME(sim_mrs_daif), SIMNAME(sim_frame_pointer),
	SIMNAME(sim_push_frame),
};

static const char *action[] = { "NO", "STEP", "SIM" };
static const char *opt_action[] = {
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
		const char *sim = "-";
		size_t i;

		for (i = 0; i < sizeof(sims) / sizeof(sims[0]); i++)
			if (sims[i].fn == c->simulate)
				sim = sims[i].name;
		printf("%08x %s %s %s %s %s\n", insn, action[c->kernel],
		       action[c->user], opt_action[c->opt], c->name, sim);
	}
	return 0;
}
