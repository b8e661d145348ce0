/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The register and memory state an instruction-matrix case runs on; shared
 * by kprobes_insn_test.c and kprobes_insn_test_asm.S.
 */
#ifndef __ARM64_KERNEL_PROBES_INSN_TEST_H
#define __ARM64_KERNEL_PROBES_INSN_TEST_H

#define ISTATE_X	0	/* x0..x15 */
#define ISTATE_X30	128
#define ISTATE_NZCV	136
#define ISTATE_Q0	144	/* v0, after */
#define ISTATE_MEM	160	/* 32 bytes the case may load and store */
#define ISTATE_PATH	192	/* 1: fell through, 2: branched */
#define ISTATE_SIZE	200

/* How a case's inputs vary from run to run (struct insn_case.inputs). */
#define IC_DEFAULT	0	/* one run */
#define IC_FLAGS	1	/* every NZCV */
#define IC_X1		2	/* x1 zero or not, in either half */
#define IC_ARITH	3	/* x1, x2 and NZCV for flag-setting arithmetic */
#define IC_MEM		4	/* x2 points at insn_state.mem */

/*
 * Whether a probe on the case's instruction simulates or steps it
 * (struct insn_case.how), and, or'ed in, whether an optimized probe's
 * detour cannot carry it: never, or where the kernel runs with BTI, for
 * a landing pad.
 */
#define IC_STEP		0
#define IC_SIM		1
#define IC_KEEP_BRK	2
#define IC_PAD		4
/*
 * Or'ed in too: the BTYPE a branch through a register leaves for the
 * instruction it lands on, where the kernel runs with BTI (BLR: C; BR
 * through x16 or x17: J; BR through another register: J or C).
 */
#define IC_BTYPE_C	8
#define IC_BTYPE_J	16
#define IC_BTYPE_JC	(IC_BTYPE_C | IC_BTYPE_J)

#ifndef __ASSEMBLY__
#include <linux/types.h>

struct insn_state {
	u64 x[16];
	u64 x30;
	u64 nzcv;
	u64 q0[2];
	u64 mem[4];
	u64 path;
};

/* One case, as the assembly's insn_case macro lays it out in .rodata. */
struct insn_case {
	const char *name;
	void (*run)(struct insn_state *state);
	void *probe;
	u32 how;
	u32 inputs;
};

extern const struct insn_case insn_cases[], insn_cases_end[];
extern char ic_refused_first[], ic_refused_end[];
void ic_exclusive(void);
int ic_nested(int x);
extern char ic_nested_probe[];
void insn_case_call(struct insn_state *state,
		    void (*run)(struct insn_state *state));
#endif

#endif /* __ARM64_KERNEL_PROBES_INSN_TEST_H */
