// SPDX-License-Identifier: GPL-2.0
/*
 * The uprobe benchmark's load: "uprobe_loop N ROUNDS" makes ROUNDS rounds
 * of N calls of ub_func and prints the nanoseconds of the fastest round.
 * ub_func opens as most functions do, with the push of its frame record
 * and the frame pointer, then has a NOP (a USDT probe's), and returns:
 * make bench puts a uprobe on each of its labels, and a uretprobe on it.
 * "uprobe_loop exceptions ID N" makes N calls between two marker SVCs,
 * for make bench's count of exceptions (see mark()).
 * "uprobe_loop mark K N" calls getpgid(K), the marker make profile's
 * debugger breaks on, then ub_func N times.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

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

#include "../bench_marks.h"

static int exceptions(unsigned int id, long n)
{
	return marked_loop("uprobe_loop", id, n, ub_func);
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
	if (argc > 3 && !strcmp(argv[1], "mark")) {
		syscall(SYS_getpgid, atol(argv[2]));
		for (i = atol(argv[3]); i > 0; i--)
			ub_func();
		return 0;
	}
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
