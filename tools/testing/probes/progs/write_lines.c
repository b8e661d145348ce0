// SPDX-License-Identifier: GPL-2.0
/*
 * "write_lines FILE < LINES" appends each line of its input to FILE with a
 * write(2) of its own, as "echo LINE >>FILE" would, and prints the
 * nanoseconds the writes took (CLOCK_MONOTONIC) and how many failed. The
 * input is read and the file opened before the clock starts: `make bench`
 * times the kernel's work per definition, not a shell's reading of them.
 * With WRITE_LINES_MARK=K in the environment it calls getpgid(K) first,
 * in either form, a marker for a debugger attached to the guest (`make
 * profile`).
 *
 * "write_lines -to-each TEXT < FILES" writes TEXT into each file its input
 * names, one line a file, opening and closing each around the write as
 * "echo TEXT >FILE" does, and prints the same: the open, write and close of
 * each file timed together.
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

/* Write @text into each file @buf's lines name; the time it took. */
static long long to_each(const char *text, char *buf, size_t len, int *failed)
{
	char *line, *end;
	long long t;
	int fd;

	for (line = buf; line < buf + len; line = end + 1) {
		end = memchr(line, '\n', buf + len - line);
		if (!end)
			end = buf + len;
		*end = '\0';
	}
	t = now();
	for (line = buf; line < buf + len; line += strlen(line) + 1) {
		fd = open(line, O_WRONLY | O_TRUNC);
		if (fd < 0 || write(fd, text, strlen(text)) < 0)
			(*failed)++;
		if (fd >= 0)
			close(fd);
	}
	return now() - t;
}

int main(int argc, char **argv)
{
	size_t size = 1 << 16, len = 0;
	char *buf = malloc(size), *line, *end;
	int each = argc == 3 && !strcmp(argv[1], "-to-each");
	long long t;
	ssize_t n;
	int fd, failed = 0;

	if ((argc != 2 && !each) || !buf) {
		fprintf(stderr, "usage: write_lines FILE <LINES\n"
			"       write_lines -to-each TEXT <FILES\n");
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
	if (each) {
		if (getenv("WRITE_LINES_MARK"))
			syscall(SYS_getpgid, atol(getenv("WRITE_LINES_MARK")));
		t = to_each(argv[2], buf, len, &failed);
		printf("%lld %d\n", t, failed);
		return 0;
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
