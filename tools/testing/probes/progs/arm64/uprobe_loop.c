// SPDX-License-Identifier: GPL-2.0
/*
 * The uprobe benchmark's load: "uprobe_loop N ROUNDS" makes ROUNDS rounds
 * of N calls of ub_func and prints the nanoseconds of the fastest round.
 * ub_func opens as most functions do, with the push of its frame record
 * and the frame pointer, then has a NOP (a USDT probe's), and returns:
 * make bench puts a uprobe on each of its labels, and a uretprobe on it.
 * "uprobe_loop exceptions ID N" makes N calls between two marker SVCs,
 * for make bench's count of exceptions (see mark()).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>

void ub_func(void);

asm(".text\n"
	".global ub_func\n"
	".type ub_func, %function\n"
	"ub_func:\n"
	".global ub_push\n"
	"ub_push: stp x29, x30, [sp, #-16]!\n"
	".global ub_fp\n"
	"ub_fp: mov x29, sp\n"
	".global ub_nop\n"
	"ub_nop: nop\n"
	"	ldp x29, x30, [sp], #16\n"
	".global ub_ret\n"
	"ub_ret: ret\n"
	".size ub_func, . - ub_func\n");

/*
 * As in getppid_loop.c: make bench counts, in QEMU's "-d int" log, the
 * exceptions a CPU takes between "svc #(0x100 + ID)" and
 * "svc #(0x200 + ID)", the markers of the loop of kind ID (below 256).
 * QEMU logs the immediate in the ESR's ISS (0x56000100 + ID); Linux
 * ignores it, takes the call's number from x8 and runs getpid. An SVC's
 * immediate is in its encoding, so each marker is a stub of its own:
 * bench_marks is 512 stubs "svc #IMM; ret" of 8 bytes, IMM from 0x100.
 */
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
 * N calls of ub_func between the markers of kind ID, on the CPU the
 * program is pinned to: the log is read CPU by CPU, and a migration would
 * leave the exceptions of the loop's end on another CPU than its start.
 */
static int exceptions(unsigned int id, long n)
{
	cpu_set_t cpus;
	long i;

	if (id > 255) {
		fprintf(stderr, "uprobe_loop: marker IDs go up to 255\n");
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
		ub_func();
	mark(0x200 + id);
	return 0;
}

static long long now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000;
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	long long best = -1, t;
	long i;

	if (argc > 3 && !strcmp(argv[1], "exceptions"))
		return exceptions(atoi(argv[2]), atol(argv[3]));
	while (rounds--) {
		t = now();
		for (i = 0; i < n; i++)
			ub_func();
		t = now() - t;
		if (best < 0 || t < best)
			best = t;
	}
	printf("%lld\n", best);
	return 0;
}
