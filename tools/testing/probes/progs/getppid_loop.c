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
/*
 * make bench counts, in QEMU's "-d int" log, the exceptions a CPU takes
 * between "svc #(0x100 + ID)" and "svc #(0x200 + ID)", the markers of the
 * loop of kind ID (below 256). QEMU logs the immediate in the ESR's ISS
 * (0x56000100 + ID); Linux ignores it, takes the call's number from x8
 * and runs getpid. An SVC's immediate is in its encoding, so each marker
 * is a stub of its own: bench_marks is 512 stubs "svc #IMM; ret" of 8
 * bytes, IMM from 0x100.
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
 * N getppid calls between the markers of kind ID, on the CPU the program
 * is pinned to: the log is read CPU by CPU, and a migration would leave
 * the exceptions of the loop's end on another CPU than its start.
 */
static int exceptions(unsigned int id, long n)
{
	cpu_set_t cpus;
	long i;

	if (id > 255) {
		fprintf(stderr, "getppid_loop: marker IDs go up to 255\n");
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
		syscall(SYS_getppid);
	mark(0x200 + id);
	return 0;
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
