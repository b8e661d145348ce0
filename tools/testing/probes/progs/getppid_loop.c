// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's load: "getppid_loop N ROUNDS" makes ROUNDS rounds of N
 * getppid system calls and prints the nanoseconds of the fastest round;
 * "getppid_loop now" prints CLOCK_MONOTONIC in nanoseconds. Under QEMU's
 * -icount shift=0 a guest nanosecond is one retired instruction.
 * "getppid_loop mark K N" calls getpgid(K), a marker a debugger attached
 * to the guest breaks on (`make profile`), then getppid N times.
 * "getppid_loop exceptions ID N" (arm64) makes N getppid calls between
 * two marker SVCs, for `make bench`'s count of exceptions (see mark()).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

#ifdef __aarch64__
#include "bench_marks.h"

static void getppid_once(void)
{
	syscall(SYS_getppid);
}

static int exceptions(unsigned int id, long n)
{
	return marked_loop("getppid_loop", id, n, getppid_once);
}
#else
static int exceptions(unsigned int id, long n)
{
	fprintf(stderr, "getppid_loop: markers on arm64 only\n");
	return 1;
}
#endif

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000;
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	long long best = -1, t;
	long i;

	if (argc > 3 && !strcmp(argv[1], "mark")) {
		syscall(SYS_getpgid, atol(argv[2]));
		for (i = atol(argv[3]); i > 0; i--)
			syscall(SYS_getppid);
		return 0;
	}
	if (argc > 3 && !strcmp(argv[1], "exceptions"))
		return exceptions(atoi(argv[2]), atol(argv[3]));
	if (argc > 1 && !strcmp(argv[1], "now")) {
		printf("%lld\n", now());
		return 0;
	}
	while (rounds--) {
		t = now();
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		t = now() - t;
		if (best < 0 || t < best)
			best = t;
	}
	printf("%lld\n", best);
	return 0;
}
