/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The markers of make bench's count of exceptions, for the arm64 bench
 * programs (getppid_loop.c, arm64/uprobe_loop.c). make bench counts, in
 * QEMU's "-d int" log, the exceptions a CPU takes between
 * "svc #(0x100 + ID)" and "svc #(0x200 + ID)", the markers of the loop of
 * kind ID (below 256). QEMU logs the immediate in the ESR's ISS
 * (0x56000100 + ID); Linux ignores it, takes the call's number from x8
 * and runs getpid. An SVC's immediate is in its encoding, so each marker
 * is a stub of its own: bench_marks is 512 stubs "svc #IMM; ret" of 8
 * bytes, IMM from 0x100.
 */
#ifndef BENCH_MARKS_H
#define BENCH_MARKS_H

#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>

asm(".text\n"
	".p2align 3\n"
	".global bench_marks\n"
	".type bench_marks, %function\n"
	"bench_marks:\n"
	".set .Lmark_imm, 0x100\n"
	".rept 512\n"
	"	svc #.Lmark_imm\n"
	"	ret\n"
	".set .Lmark_imm, .Lmark_imm + 1\n"
	".endr\n"
	".size bench_marks, . - bench_marks\n");

static void mark(unsigned int imm)
{
	register long nr asm("x8") = SYS_getpid;

	asm volatile("adrp x0, bench_marks\n"
		     "add x0, x0, :lo12:bench_marks\n"
		     "add x0, x0, %1\n"
		     "blr x0"
		     : "+r" (nr)
		     : "r" (8UL * (imm - 0x100))
		     : "x0", "x30", "memory");
}

/*
 * N runs of @body between the markers of kind ID, on the CPU the program
 * is pinned to: the log is read CPU by CPU, and a migration would leave
 * the exceptions of the loop's end on another CPU than its start.
 */
static int marked_loop(const char *prog, unsigned int id, long n,
		       void (*body)(void))
{
	cpu_set_t cpus;
	long i;

	if (id > 255) {
		fprintf(stderr, "%s: marker IDs go up to 255\n", prog);
		return 1;
	}
	CPU_ZERO(&cpus);
	CPU_SET(sched_getcpu(), &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		perror("sched_setaffinity");
		return 1;
	}
	mark(0x100 + id);
	for (i = 0; i < n; i++)
		body();
	mark(0x200 + id);
	return 0;
}

#endif /* BENCH_MARKS_H */
