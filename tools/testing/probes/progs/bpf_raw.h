/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the harness's BPF programs (bpf_override.c, bpf_count.c,
 * bpf_attach_many.c) share: the raw bpf() system call, an instruction
 * written out, loading a kprobe program, the counting program and its
 * map, and the perf kprobe PMU's type. No libbpf: the guest's
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

/* An array map of one u64, the counting program's: its fd, or -1. */
static inline int create_map(void)
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
 * The counting program, into @prog (16 instructions at most): look the map's
 * element up, then add one to it, or with @func_ip store
 * bpf_get_func_ip(ctx) in it; return 0. Its length.
 */
static inline size_t counting_program(struct bpf_insn *prog, int map, int func_ip)
{
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
	return n;
}

#endif /* BPF_RAW_H */
