// SPDX-License-Identifier: GPL-2.0
/*
 * One BPF kprobe program attached at the entry of many functions at once,
 * timed, as bpftrace and libbpf attach a wildcard:
 *
 *	bpf_attach_many perf|multi FILE
 *
 * FILE lists the functions, one a line. The program (the counting one of
 * bpf_count.c) is loaded once; then "perf" opens a kprobe for each
 * function through perf's kprobe PMU, attaches the program to it and
 * enables it, one function after another, as bpftrace does for a
 * wildcard whose program names its probe; "multi" attaches it to all of
 * them with one kprobe_multi link (an fprobe), as bpftrace does for any
 * other wildcard. Then all is detached (the perf events or the link
 * closed). It prints on standard output, for the bench's report:
 *
 *	@reg MODE-attach NANOSECONDS
 *	@reg perf-attach-first100 NANOSECONDS	(200 functions or more)
 *	@reg perf-attach-last100 NANOSECONDS
 *	@reg MODE-detach NANOSECONDS
 *	@reg perf-released NANOSECONDS
 *	@reg MODE-attached N
 *
 * the time taken (CLOCK_MONOTONIC: under make bench's QEMU -icount, the
 * guest's instructions); with "perf", also from the first close until no
 * kprobe is left registered (/sys/kernel/debug/kprobes/list empty, read
 * every millisecond), which a close need not wait for; and the functions
 * attached: with "perf", those
 * whose kprobe opened (a function the kprobes core refuses is skipped, as
 * bpftrace skips it); with "multi", all or none. Exit status 1 when none
 * could be attached.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bpf_raw.h"

#define MAX_FUNCS 20000

static char *funcs[MAX_FUNCS];
static int fds[MAX_FUNCS];

static long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* bpf_count.c's counting program, for @attach_type. */
/*
 * When no kprobe is left registered: the time, or -1 if one still is
 * after 10 s or the list cannot be read.
 */
static long long kprobes_released(void)
{
	const struct timespec ms = { .tv_nsec = 1000000 };
	char c;
	int i;

	for (i = 0; i < 10000; i++) {
		FILE *f = fopen("/sys/kernel/debug/kprobes/list", "r");
		int empty;

		if (!f)
			return -1;
		empty = fread(&c, 1, 1, f) == 0;
		fclose(f);
		if (empty)
			return now();
		nanosleep(&ms, NULL);
	}
	return -1;
}

static int load(int attach_type)
{
	struct bpf_insn prog[16];
	int map = create_map();

	if (map < 0)
		return -1;
	return load_kprobe_program_for(prog, counting_program(prog, map, 0),
				       attach_type);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	struct rlimit nofile = { MAX_FUNCS + 64, MAX_FUNCS + 64 };
	long long t0, t1, t2, t3, first = 0, last = 0;
	char line[512];
	int perf, nfuncs = 0, attached = 0, prog, type, i;
	FILE *f;

	if (argc != 3 || (strcmp(argv[1], "perf") && strcmp(argv[1], "multi"))) {
		fprintf(stderr, "usage: bpf_attach_many perf|multi FILE\n");
		return 2;
	}
	perf = !strcmp(argv[1], "perf");
	f = fopen(argv[2], "r");
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	while (nfuncs < MAX_FUNCS && fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \t\n")] = 0;
		if (line[0])
			funcs[nfuncs++] = strdup(line);
	}
	fclose(f);
	/* A file descriptor for each perf event. */
	if (perf && setrlimit(RLIMIT_NOFILE, &nofile)) {
		perror("setrlimit");
		return 1;
	}
	type = kprobe_pmu_type();
	prog = load(perf ? 0 : BPF_TRACE_KPROBE_MULTI);
	if (prog < 0 || (perf && type < 0)) {
		fprintf(stderr, "bpf_attach_many: no program or no kprobe PMU: %s\n",
			strerror(errno));
		return 1;
	}

	if (perf) {
		struct perf_event_attr pe;

		t0 = now();
		for (i = 0; i < nfuncs; i++) {
			/*
			 * The first and the last 100 opens timed apart: what
			 * an open costs with few and with many events open.
			 */
			if (i == 100)
				first = now() - t0;
			if (i == nfuncs - 100)
				last = now();
			/* As libbpf opens them: every task, CPU 0. */
			memset(&pe, 0, sizeof(pe));
			pe.size = sizeof(pe);
			pe.type = type;
			pe.kprobe_func = (unsigned long)funcs[i];
			fds[i] = syscall(SYS_perf_event_open, &pe, -1, 0, -1,
					 PERF_FLAG_FD_CLOEXEC);
			if (fds[i] < 0)
				continue;
			if (ioctl(fds[i], PERF_EVENT_IOC_SET_BPF, prog) ||
			    ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0)) {
				close(fds[i]);
				fds[i] = -1;
				continue;
			}
			attached++;
		}
		t1 = now();
		if (nfuncs >= 200)
			printf("@reg perf-attach-first100 %lld\n@reg perf-attach-last100 %lld\n",
			       first, t1 - last);
		for (i = 0; i < nfuncs; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		t2 = now();
		t3 = kprobes_released();
		if (t3 >= 0)
			printf("@reg perf-released %lld\n", t3 - t1);
	} else {
		union bpf_attr attr;
		int link;

		/* The kernel looks the names up in order. */
		qsort(funcs, nfuncs, sizeof(funcs[0]), by_name);
		memset(&attr, 0, sizeof(attr));
		attr.link_create.prog_fd = prog;
		attr.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
		attr.link_create.kprobe_multi.cnt = nfuncs;
		attr.link_create.kprobe_multi.syms = (unsigned long)funcs;
		t0 = now();
		link = sys_bpf(BPF_LINK_CREATE, &attr);
		t1 = now();
		if (link < 0) {
			fprintf(stderr, "bpf_attach_many: kprobe_multi link of %d functions: %s\n",
				nfuncs, strerror(errno));
			return 1;
		}
		attached = nfuncs;
		close(link);
		t2 = now();
	}
	printf("@reg %s-attach %lld\n", argv[1], t1 - t0);
	printf("@reg %s-detach %lld\n", argv[1], t2 - t1);
	printf("@reg %s-attached %d\n", argv[1], attached);
	return attached ? 0 : 1;
}
