// SPDX-License-Identifier: GPL-2.0
/*
 * "write_lines FILE < LINES" appends each line of its input to FILE with a
 * write(2) of its own, as "echo LINE >>FILE" would, and prints the
 * nanoseconds the writes took (CLOCK_MONOTONIC) and how many failed. The
 * input is read and the file opened before the clock starts: `make bench`
 * times the kernel's work per definition, not a shell's reading of them.
 * With WRITE_LINES_MARK=K in the environment it calls getpgid(K) first,
 * a marker for a debugger attached to the guest (`make profile`).
 */
#include <fcntl.h>
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

int main(int argc, char **argv)
{
	size_t size = 1 << 16, len = 0;
	char *buf = malloc(size), *line, *end;
	long long t;
	ssize_t n;
	int fd, failed = 0;

	if (argc != 2 || !buf) {
		fprintf(stderr, "usage: write_lines FILE <LINES\n");
		return 2;
	}
	while ((n = read(0, buf + len, size - len)) > 0) {
		len += n;
		if (len == size) {
			size *= 2;
			buf = realloc(buf, size);
			if (!buf)
				return 2;
		}
	}
	fd = open(argv[1], O_WRONLY | O_APPEND);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	if (getenv("WRITE_LINES_MARK"))
		syscall(SYS_getpgid, atol(getenv("WRITE_LINES_MARK")));
	t = now();
	for (line = buf; line < buf + len; line = end) {
		end = memchr(line, '\n', buf + len - line);
		end = end ? end + 1 : buf + len;
		if (write(fd, line, end - line) < 0)
			failed++;
	}
	t = now() - t;
	printf("%lld %d\n", t, failed);
	return 0;
}
