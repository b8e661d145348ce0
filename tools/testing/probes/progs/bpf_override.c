// SPDX-License-Identifier: GPL-2.0
/*
 * BPF error injection through the perf kprobe PMU, with the raw bpf()
 * system call, as bpftrace's override() and BCC's inject do it:
 *
 *	bpf_override [-r] SYMBOL|0xADDR OFFSET CALLS
 *
 * opens a kprobe event on SYMBOL+OFFSET (or on the address; -r: a return
 * probe) through the PMU, attaches to it a kprobe program that calls
 * bpf_override_return(ctx, -EFAULT) when this process hits it, and calls
 * getppid() CALLS times: SYMBOL is expected to be the getppid system
 * call's handler. Then it waits for the probe to be optimized, if the
 * kernel does that, calls again, detaches, and calls again. One line per
 * step, for the guest test to compare:
 *
 *	attach ok | attach E<errno>
 *	breakpoint E/CALLS		E calls failed with EFAULT
 *	optimized E/CALLS | optimized none
 *	detached E/CALLS
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bpf_raw.h"

/* The program: if (tgid == @tgid) bpf_override_return(ctx, -EFAULT). */
static int load_program(int tgid)
{
	struct bpf_insn prog[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid),
		INSN(BPF_ALU64 | BPF_RSH | BPF_K, 0, 0, 0, 32),
		INSN(BPF_JMP | BPF_JNE | BPF_K, 0, 0, 3, tgid),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, -EFAULT),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_override_return),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return load_kprobe_program(prog, sizeof(prog) / sizeof(prog[0]));
}

/* Calls getppid() @n times: how many failed with EFAULT. */
static int failed_calls(int n)
{
	int failed = 0;

	while (n--)
		if (syscall(SYS_getppid) == -1 && errno == EFAULT)
			failed++;
	return failed;
}

/* Whether kprobes/list shows a probe optimized: the test's is the only one. */
static int optimized(void)
{
	FILE *f = fopen("/sys/kernel/debug/kprobes/list", "r");
	char line[512];
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[OPTIMIZED]"))
			found = 1;
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	struct perf_event_attr pe;
	int ret = 0, type, prog, ev, calls, i;
	const char *target;

	if (argc > 1 && !strcmp(argv[1], "-r")) {
		ret = 1;
		argv++;
		argc--;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: bpf_override [-r] SYMBOL|0xADDR OFFSET CALLS\n");
		return 2;
	}
	target = argv[1];
	calls = atoi(argv[3]);
	type = kprobe_pmu_type();
	if (type < 0) {
		printf("attach ENOPMU\n");
		return 1;
	}
	prog = load_program(getpid());
	if (prog < 0) {
		printf("attach E%d\n", errno);
		return 1;
	}

	memset(&pe, 0, sizeof(pe));
	pe.size = sizeof(pe);
	pe.type = type;
	pe.config = ret;		/* format "config:0": retprobe */
	if (!strncmp(target, "0x", 2)) {
		pe.kprobe_func = 0;
		pe.kprobe_addr = strtoull(target, NULL, 16);
	} else {
		pe.kprobe_func = (unsigned long)target;
		pe.probe_offset = strtoull(argv[2], NULL, 0);
	}
	ev = syscall(SYS_perf_event_open, &pe, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (ev < 0) {
		printf("attach E%d\n", errno);
		return 1;
	}
	if (ioctl(ev, PERF_EVENT_IOC_SET_BPF, prog) ||
	    ioctl(ev, PERF_EVENT_IOC_ENABLE, 0)) {
		printf("attach E%d\n", errno);
		return 1;
	}
	printf("attach ok\n");
	printf("breakpoint %d/%d\n", failed_calls(calls), calls);

	/* The optimizer switches probes in from a worker: up to 5 s. */
	for (i = 0; i < 50 && !optimized(); i++)
		nanosleep(&tick, NULL);
	if (i < 50)
		printf("optimized %d/%d\n", failed_calls(calls), calls);
	else
		printf("optimized none\n");
	fflush(stdout);
	system("cat /sys/kernel/debug/kprobes/list >&2");

	close(ev);
	close(prog);
	printf("detached %d/%d\n", failed_calls(calls), calls);
	return 0;
}
