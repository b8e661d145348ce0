// SPDX-License-Identifier: GPL-2.0
/*
 * A BPF kprobe program counting a function's calls, as bpftrace's
 * "kprobe:FUNC { @ = count(); }" does, around a command, with the raw
 * bpf() system call:
 *
 *	bpf_count [-i|-r|-m|-f|-x] SYMBOL COMMAND [ARG...]
 *
 * opens a kprobe on SYMBOL through the perf kprobe PMU, attaches to it a
 * program that adds one to an array map's only element, runs COMMAND
 * (its output is this program's), and then prints "bpf_count: N hits"
 * on standard error. With -i the program stores bpf_get_func_ip() in the
 * element instead, and "bpf_count: ip 0xADDR" is printed on standard
 * output: the function's address, on an entry probe. With -r the kprobe is
 * a return probe (a kretprobe program, the PMU's "config:0" bit). With -m the
 * counting program is attached as a kprobe_multi link (an fprobe on
 * SYMBOL's ftrace site, BPF_TRACE_KPROBE_MULTI) instead. With -f or -x
 * it is a tracing program attached at SYMBOL's entry or exit through a BPF
 * trampoline (fentry, fexit), SYMBOL then being the function's name in
 * the kernel's BTF. It exits with COMMAND's status, or 1 when the probe
 * could not be attached or the element stayed 0.
 */
#include <errno.h>
#include <linux/btf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf_raw.h"

/* The program as a kprobe program for @attach_type (0, or kprobe_multi). */
static int load_program(int map, int func_ip, int attach_type)
{
	struct bpf_insn prog[16];

	return load_kprobe_program_for(prog, counting_program(prog, map, func_ip),
				       attach_type);
}

/*
 * The type id of the function @name in the kernel's BTF
 * (/sys/kernel/btf/vmlinux), or -1. Types are numbered from 1 in their
 * order; each is a struct btf_type followed by data whose size its kind
 * and vlen give.
 */
static int btf_func_id(const char *name)
{
	static char buf[16 << 20];
	const struct btf_header *hdr = (const void *)buf;
	const char *types, *end, *strs;
	FILE *f = fopen("/sys/kernel/btf/vmlinux", "r");
	size_t len;
	int id = 1;

	if (!f)
		return -1;
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (len < sizeof(*hdr) || hdr->magic != BTF_MAGIC ||
	    hdr->hdr_len + hdr->str_off + hdr->str_len > len)
		return -1;
	types = buf + hdr->hdr_len + hdr->type_off;
	end = types + hdr->type_len;
	strs = buf + hdr->hdr_len + hdr->str_off;
	while (types + sizeof(struct btf_type) <= end) {
		const struct btf_type *t = (const void *)types;
		unsigned int vlen = BTF_INFO_VLEN(t->info);
		size_t extra;

		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_INT:
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
			extra = 4;
			break;
		case BTF_KIND_ARRAY:
			extra = sizeof(struct btf_array);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			extra = vlen * sizeof(struct btf_member);
			break;
		case BTF_KIND_ENUM:
			extra = vlen * sizeof(struct btf_enum);
			break;
		case BTF_KIND_ENUM64:
			extra = vlen * sizeof(struct btf_enum64);
			break;
		case BTF_KIND_FUNC_PROTO:
			extra = vlen * sizeof(struct btf_param);
			break;
		case BTF_KIND_DATASEC:
			extra = vlen * sizeof(struct btf_var_secinfo);
			break;
		default:
			extra = 0;
			break;
		}
		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC &&
		    t->name_off < hdr->str_len && !strcmp(strs + t->name_off, name))
			return id;
		types += sizeof(*t) + extra;
		id++;
	}
	return -1;
}

/*
 * The counting program as a tracing program at @symbol's entry or exit
 * (@attach_type BPF_TRACE_FENTRY or BPF_TRACE_FEXIT), attached: its
 * link's fd, or -1.
 */
static int attach_tracing(int map, const char *symbol, int attach_type)
{
	struct bpf_insn prog[16];
	union bpf_attr attr;
	int id, fd;

	id = btf_func_id(symbol);
	if (id < 0) {
		fprintf(stderr, "bpf_count: %s: not a function in the kernel's BTF\n",
			symbol);
		return -1;
	}
	fd = load_program_for(BPF_PROG_TYPE_TRACING, prog,
			      counting_program(prog, map, 0), attach_type, id);
	if (fd < 0)
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.prog_fd = fd;
	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
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
	int type, map, prog = -1, ev, status, func_ip = 0, multi = 0;
	int tracing = 0, ret = 0;
	pid_t child;

	if (argc > 1 && !strcmp(argv[1], "-i"))
		func_ip = 1;
	else if (argc > 1 && !strcmp(argv[1], "-r"))
		ret = 1;
	else if (argc > 1 && !strcmp(argv[1], "-m"))
		multi = 1;
	else if (argc > 1 && !strcmp(argv[1], "-f"))
		tracing = BPF_TRACE_FENTRY;
	else if (argc > 1 && !strcmp(argv[1], "-x"))
		tracing = BPF_TRACE_FEXIT;
	if (func_ip || ret || multi || tracing) {
		argv++;
		argc--;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: bpf_count [-i|-r|-m|-f|-x] SYMBOL COMMAND [ARG...]\n");
		return 2;
	}
	type = kprobe_pmu_type();
	map = create_map();
	if (map >= 0 && !tracing)
		prog = load_program(map, func_ip,
				    multi ? BPF_TRACE_KPROBE_MULTI : 0);
	if (map < 0 || (!tracing && ((type < 0 && !multi) || prog < 0))) {
		fprintf(stderr, "bpf_count: no kprobe PMU or no program: %s\n",
			strerror(errno));
		return 1;
	}

	if (tracing) {
		ev = attach_tracing(map, argv[1], tracing);
		if (ev < 0) {
			fprintf(stderr, "bpf_count: %s: %s\n",
				tracing == BPF_TRACE_FENTRY ? "fentry" : "fexit",
				strerror(errno));
			return 1;
		}
	} else if (multi) {
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
		pe.config = ret;	/* format "config:0": retprobe */
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
