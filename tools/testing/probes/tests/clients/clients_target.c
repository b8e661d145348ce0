// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of the bpftrace, perf and libbpf-tools tests (make
 * check-clients): calls whose number and arguments the tests know, so that
 * they can check the values the tools report, not only that something
 * printed. Built dynamically, with DWARF, against the Debian userland's libc.
 *
 *   clients_target open PATH N     N times openat(AT_FDCWD, PATH,
 *                                  O_WRONLY | O_CREAT | O_TRUNC); prints
 *                                  "fd FD" of the last
 *   clients_target read N SIZE     N reads of SIZE bytes from /dev/zero
 *   clients_target add N           add3(i, 2, 3) for i in 0..N-1; prints
 *                                  "sum S", the sum of what it returned
 *   clients_target atoi N          N calls of libc's atoi("4242")
 *   clients_target getppid N       N getppid system calls; prints
 *                                  "errors E errno X", those that failed
 *   clients_target stop CMD ARGS   stops itself (SIGSTOP), then, once
 *                                  continued, runs CMD ARGS as above: a
 *                                  tracer started meanwhile that filters on
 *                                  its pid sees the command's calls and
 *                                  none of the dynamic loader's
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A function of the binary itself, for uprobes and perf probe -x. */
int add3(int a, int b, int c)
{
	/* Keeps the call: the compiler may not fold it into the loop. */
	asm volatile("" : "+r"(a));
	return a + b * c;
}

int main(int argc, char **argv)
{
	long i, n, sum = 0, errors = 0;
	int fd = -1, err = 0;
	char *buf;
	/*
	 * Called through pointers hidden from the compiler, so that it can
	 * inline neither: every call reaches add3's own code and libc's atoi.
	 */
	int (*add)(int, int, int) = add3;
	int (*libc_atoi)(const char *) = atoi;

	asm volatile("" : "+r"(add), "+r"(libc_atoi));

	/*
	 * Stopped until the test has its tracer attached; then the command,
	 * its arguments shifted down, the program's name kept in argv[0].
	 */
	if (argc > 2 && !strcmp(argv[1], "stop")) {
		raise(SIGSTOP);
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: %s [stop] open PATH N | read N SIZE | add N | %s\n",
			argv[0], "atoi N | getppid N");
		return 2;
	}
	if (!strcmp(argv[1], "open") && argc > 3) {
		n = atol(argv[3]);
		for (i = 0; i < n; i++) {
			fd = openat(AT_FDCWD, argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0) {
				perror(argv[2]);
				return 1;
			}
			if (i + 1 < n)
				close(fd);
		}
		printf("fd %d\n", fd);
	} else if (!strcmp(argv[1], "read") && argc > 3) {
		n = atol(argv[2]);
		buf = malloc(atol(argv[3]));
		fd = open("/dev/zero", O_RDONLY);
		if (!buf || fd < 0) {
			perror("/dev/zero");
			return 1;
		}
		for (i = 0; i < n; i++)
			if (read(fd, buf, atol(argv[3])) != atol(argv[3]))
				return 1;
	} else if (!strcmp(argv[1], "add")) {
		n = atol(argv[2]);
		for (i = 0; i < n; i++)
			sum += add(i, 2, 3);
		printf("sum %ld\n", sum);
	} else if (!strcmp(argv[1], "atoi")) {
		n = atol(argv[2]);
		for (i = 0; i < n; i++)
			sum += libc_atoi("4242");
		printf("sum %ld\n", sum);
	} else if (!strcmp(argv[1], "getppid")) {
		n = atol(argv[2]);
		for (i = 0; i < n; i++) {
			if (syscall(SYS_getppid) < 0) {
				errors++;
				err = errno;
			}
		}
		printf("errors %ld errno %d\n", errors, err);
	} else {
		fprintf(stderr, "%s: unknown command %s\n", argv[0], argv[1]);
		return 2;
	}
	return 0;
}
