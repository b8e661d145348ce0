// SPDX-License-Identifier: GPL-2.0
/*
 * A BPF kprobe program counting a function's calls, as bpftrace's
 * "kprobe:FUNC { @ = count(); }" does, around a command, with the raw
 * bpf() system call:
 *
 *	bpf_count [-i|-m] SYMBOL COMMAND [ARG...]
 *
 * opens a kprobe on SYMBOL through the perf kprobe PMU, attaches to it a
 * program that adds one to an array map's only element, runs COMMAND
 * (its output is this program's), and then prints "bpf_count: N hits"
 * on standard error. With -i the program stores bpf_get_func_ip() in the
 * element instead, and "bpf_count: ip 0xADDR" is printed on standard
 * output: the function's address, on an entry probe. With -m the
 * counting program is attached as a kprobe_multi link (an fprobe on
 * SYMBOL's ftrace site, BPF_TRACE_KPROBE_MULTI) instead. It exits with
 * COMMAND's status, or 1 when the probe could not be attached or the
 * element stayed 0.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf_raw.h"

static int create_map(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(__u32);
	attr.value_size = sizeof(__u64);
	attr.max_entries = 1;
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

/*
 * The program: look the map's element up, then add one to it, or with
 * @func_ip store bpf_get_func_ip(ctx) in it; return 0.
 */
static int load_program(int map, int func_ip, int attach_type)
{
	struct bpf_insn prog[16];
	size_t n = 0;

	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);
	prog[n++] = INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 0);
	prog[n++] = INSN(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, map);
	prog[n++] = INSN(0, 0, 0, 0, 0);
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
	prog[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4);
	prog[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	if (func_ip) {
		prog[n++] = INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 4, 0);
		prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 7, 0, 0, 0);
		prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0);
		prog[n++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_func_ip);
		prog[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, 7, 0, 0, 0);
	} else {
		prog[n++] = INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2, 0);
		prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1);
		prog[n++] = INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 0, BPF_ADD);
	}
	prog[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	prog[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return load_kprobe_program_for(prog, n, attach_type);
}

/* A kprobe_multi link of @prog on @symbol: its fd, or -1. */
static int attach_multi(int prog, const char *symbol)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog;
	attr.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
	attr.link_create.kprobe_multi.cnt = 1;
	attr.link_create.kprobe_multi.syms = (unsigned long)&symbol;
	return sys_bpf(BPF_LINK_CREATE, &attr);
}

static unsigned long long map_value(int map)
{
	unsigned long long value = 0;
	union bpf_attr attr;
	__u32 key = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map;
	attr.key = (unsigned long)&key;
	attr.value = (unsigned long)&value;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
		return 0;
	return value;
}

int main(int argc, char **argv)
{
	struct perf_event_attr pe;
	unsigned long long hits;
	int type, map, prog, ev, status, func_ip = 0, multi = 0;
	pid_t child;

	if (argc > 1 && !strcmp(argv[1], "-i"))
		func_ip = 1;
	else if (argc > 1 && !strcmp(argv[1], "-m"))
		multi = 1;
	if (func_ip || multi) {
		argv++;
		argc--;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: bpf_count [-i|-m] SYMBOL COMMAND [ARG...]\n");
		return 2;
	}
	type = kprobe_pmu_type();
	map = create_map();
	prog = map < 0 ? -1 : load_program(map, func_ip,
					   multi ? BPF_TRACE_KPROBE_MULTI : 0);
	if ((type < 0 && !multi) || prog < 0) {
		fprintf(stderr, "bpf_count: no kprobe PMU or no program: %s\n",
			strerror(errno));
		return 1;
	}

	if (multi) {
		ev = attach_multi(prog, argv[1]);
		if (ev < 0) {
			fprintf(stderr, "bpf_count: kprobe_multi: %s\n",
				strerror(errno));
			return 1;
		}
	} else {
		/*
		 * On CPU 0 for every task: the program runs on every CPU's
		 * hits all the same, from the probe the event registers.
		 */
		memset(&pe, 0, sizeof(pe));
		pe.size = sizeof(pe);
		pe.type = type;
		pe.kprobe_func = (unsigned long)argv[1];
		ev = syscall(SYS_perf_event_open, &pe, -1, 0, -1,
			     PERF_FLAG_FD_CLOEXEC);
		if (ev < 0 || ioctl(ev, PERF_EVENT_IOC_SET_BPF, prog) ||
		    ioctl(ev, PERF_EVENT_IOC_ENABLE, 0)) {
			fprintf(stderr, "bpf_count: attach: %s\n",
				strerror(errno));
			return 1;
		}
	}

	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (!child) {
		execv(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (waitpid(child, &status, 0) < 0) {
		perror("waitpid");
		return 1;
	}
	hits = map_value(map);
	close(ev);
	if (func_ip)
		printf("bpf_count: ip 0x%llx\n", hits);
	else
		fprintf(stderr, "bpf_count: %llu hits\n", hits);
	if (!hits)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
