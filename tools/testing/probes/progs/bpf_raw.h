/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the harness's BPF programs (bpf_override.c, bpf_count.c) share:
 * the raw bpf() system call, an instruction written out, loading a kprobe
 * program, and the perf kprobe PMU's type. No libbpf: the guest's
 * initramfs has only static programs of the harness's own.
 */
#ifndef BPF_RAW_H
#define BPF_RAW_H

#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })

static inline long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/*
 * Load @n instructions as a GPL program of @prog_type for @attach_type,
 * and for a tracing program the function of BTF id @btf_id; the
 * verifier's log on error.
 */
static inline int load_program_for(int prog_type, const struct bpf_insn *insns,
				   size_t n, int attach_type, int btf_id)
{
	static char log[4096];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = prog_type;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = n;
	attr.license = (unsigned long)"GPL";
	attr.log_buf = (unsigned long)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	attr.expected_attach_type = attach_type;
	attr.attach_btf_id = btf_id;
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0)
		fprintf(stderr, "BPF_PROG_LOAD: %s\n%s", strerror(errno), log);
	return fd;
}

/* A kprobe program for @attach_type (0, or BPF_TRACE_KPROBE_MULTI). */
static inline int load_kprobe_program_for(const struct bpf_insn *insns,
					  size_t n, int attach_type)
{
	return load_program_for(BPF_PROG_TYPE_KPROBE, insns, n, attach_type, 0);
}

static inline int load_kprobe_program(const struct bpf_insn *insns, size_t n)
{
	return load_kprobe_program_for(insns, n, 0);
}

/* The perf kprobe PMU's event type, or -1 without it. */
static inline int kprobe_pmu_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/kprobe/type", "r");
	int type = -1;

	if (f) {
		if (fscanf(f, "%d", &type) != 1)
			type = -1;
		fclose(f);
	}
	return type;
}

#endif /* BPF_RAW_H */
