// SPDX-License-Identifier: GPL-2.0
/*
 * perf's kprobe and uprobe PMUs, one event at a time or fuzzed.
 *
 *	pmu_probe [OPTS] kprobe SYMBOL|0xADDR [OFFSET]
 *	pmu_probe [OPTS] uprobe PATH OFFSET
 *	pmu_probe [OPTS] tracepoint ID
 *	pmu_probe open PATH r|w
 *	pmu_probe fuzz CALLS SEED [-v] [-t SECONDS]
 *	pmu_probe [-r] sweep START END STEP
 *
 * The first three open one event with perf_event_open() (a tracefs event
 * by its id for "tracepoint") and print "ok", or the errno's name
 * (EACCES); with -n CALLS they then make CALLS getppid() calls and print
 * "ok HITS", what the event counted. OPTS: -r return probe; -c OFF the
 * uprobe's ref_ctr_offset; -k exclude_kernel; -w on CPU 0 for every task
 * (the default is this task on any CPU); -S sample PERF_SAMPLE_RAW on
 * every hit; -D the same into a mapped buffer, then print "samples N lost
 * M" and the first sample's raw record (dump_samples()). "open" opens a file for reading or writing (O_WRONLY, no
 * O_TRUNC) and prints "ok" or the errno's name, as the privilege test
 * needs. "sweep" tries a kprobe at every STEP-th byte of [START, END), by
 * address, and prints "accepted N of M", then each address accepted (up
 * to 8) with the errno's name of the first refusal, so that a test can
 * show that no instruction of a region may be probed.
 *
 * "fuzz" first runs a fixed table of edge cases, one line each:
 *
 *	case NAME RESULT
 *
 * then CALLS perf_event_open() calls with random attributes drawn from a
 * generator seeded with SEED (the same calls on every kernel, whatever
 * they return), and prints how each ended, sorted by name:
 *
 *	hist ERRNO COUNT	(ERRNO "ok" for an event opened)
 *
 * and, a character a call, how each ended, 100 calls a line:
 *
 *	seq FIRST CHARS		("." opened, N ENOENT, I EINVAL, ...: seqchar())
 *
 * so that two kernels' runs can be diffed call by call; with -v, each
 * call is printed too ("call N ERRNO k|u config name offset pid cpu").
 * With -t, the random calls stop after SECONDS ("stopped K of CALLS"), so
 * that a slow kernel cannot take its whole test run down with it.
 * Every event opened is closed. Then it checks that no uprobe is left in
 * the files it probed ("case uprobe-none-left ok") and that it has no
 * file descriptor more than when it started, and prints "done".
 * It reads /harness/bench.offsets (the getppid handler) and
 * /harness/stress.funcs (functions with the offsets of their
 * instructions), which the harness writes for the kernel it boots.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

typedef unsigned long long u64;

#define PMU_DIR "/sys/bus/event_source/devices"
#define BENCH_OFFSETS "/harness/bench.offsets"
#define STRESS_FUNCS "/harness/stress.funcs"
#define MAX_OPEN 64

/* ---- The PMUs ---------------------------------------------------------- */

struct pmu {
	int type;		/* -1: no such PMU */
	u64 retprobe;		/* the return-probe bit(s) of config */
	int ref_shift;		/* uprobe: where ref_ctr_offset goes in config */
	int ref_bits;
};

static struct pmu kpmu, upmu;

static int read_int(const char *path, int *val)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%d", val) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* A format file: "config:N" or "config:LO-HI". */
static int read_format(const char *pmu, const char *name, int *lo, int *hi)
{
	char path[256];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), PMU_DIR "/%s/format/%s", pmu, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "config:%d-%d", lo, hi);
	fclose(f);
	if (n == 1)
		*hi = *lo;
	return n >= 1 && *lo >= 0 && *hi < 64 && *lo <= *hi ? 0 : -1;
}

static void pmu_init(struct pmu *p, const char *name)
{
	char path[256];
	int lo, hi;

	memset(p, 0, sizeof(*p));
	snprintf(path, sizeof(path), PMU_DIR "/%s/type", name);
	if (read_int(path, &p->type))
		p->type = -1;
	if (read_format(name, "retprobe", &lo, &hi))
		lo = hi = 0;
	p->retprobe = 1ULL << lo;
	if (!read_format(name, "ref_ctr_offset", &lo, &hi)) {
		p->ref_shift = lo;
		p->ref_bits = hi - lo + 1;
	}
}

static const char *errname(int err)
{
	static char buf[16];
	const char *name;

	if (!err)
		return "ok";
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "E%d", err);	/* ENOTSUPP (524) and kin */
	return buf;
}

struct target {
	pid_t pid;
	int cpu;
};

static const struct target this_task = { 0, -1 };

/* Returns the fd, or -errno. */
static int event_open(struct perf_event_attr *attr, struct target t)
{
	int fd = syscall(SYS_perf_event_open, attr, t.pid, t.cpu, -1,
			 PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static void attr_init(struct perf_event_attr *a, const struct pmu *p)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = p->type;
}

/* Sample every hit, with its raw record (no buffer: the samples are lost). */
static void sample_raw(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a->sample_period = 1;
}

static void kprobe_attr(struct perf_event_attr *a, const char *func,
			u64 addr_or_offset, int ret)
{
	attr_init(a, &kpmu);
	a->config = ret ? kpmu.retprobe : 0;
	a->kprobe_func = (unsigned long)func;
	a->probe_offset = addr_or_offset;	/* kprobe_addr when no func */
}

static void uprobe_attr(struct perf_event_attr *a, const char *path, u64 off,
			u64 ref, int ret)
{
	attr_init(a, &upmu);
	a->config = ret ? upmu.retprobe : 0;
	if (upmu.ref_bits)
		a->config |= (ref & (upmu.ref_bits == 64 ? ~0ULL :
				     (1ULL << upmu.ref_bits) - 1)) << upmu.ref_shift;
	a->uprobe_path = (unsigned long)path;
	a->probe_offset = off;
}

/* The event counts CALLS getppid() calls: how many hits it saw, or -errno. */
static long long count_calls(int fd, int calls)
{
	long long count = 0;

	if (ioctl(fd, PERF_EVENT_IOC_RESET, 0) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return -errno;
	while (calls--)
		syscall(SYS_getppid);
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
		return -errno;
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return -errno;
	return count;
}

/*
 * The samples in @fd's buffer (@map, of @pages data pages after its control
 * page), each a PERF_RECORD_SAMPLE of PERF_SAMPLE_RAW alone: print how many,
 * then the first one's raw record with every byte that is not printable
 * as '.', so that a test can look for the strings the record holds.
 */
static void dump_samples(struct perf_event_mmap_page *map, size_t pages)
{
	size_t size = pages * getpagesize();
	const unsigned char *data = (const unsigned char *)map + getpagesize();
	uint64_t head = __atomic_load_n(&map->data_head, __ATOMIC_ACQUIRE);
	uint64_t pos = map->data_tail, samples = 0, lost = 0;
	unsigned char rec[4096];
	char first[4096];
	uint32_t raw, i;

	first[0] = '\0';
	while (pos < head) {
		struct perf_event_header hdr;

		for (i = 0; i < sizeof(hdr); i++)
			((unsigned char *)&hdr)[i] = data[(pos + i) % size];
		if (hdr.size < sizeof(hdr) || hdr.size > sizeof(rec))
			break;
		for (i = 0; i < hdr.size; i++)
			rec[i] = data[(pos + i) % size];
		pos += hdr.size;
		if (hdr.type == PERF_RECORD_LOST) {
			lost++;
			continue;
		}
		if (hdr.type != PERF_RECORD_SAMPLE)
			continue;
		if (!samples++) {
			memcpy(&raw, rec + sizeof(hdr), sizeof(raw));
			for (i = 0; i < raw && i < sizeof(first) - 1 &&
			     sizeof(hdr) + sizeof(raw) + i < hdr.size; i++) {
				unsigned char c = rec[sizeof(hdr) + sizeof(raw) + i];

				first[i] = c >= 0x20 && c < 0x7f ? c : '.';
			}
			first[i] = '\0';
		}
	}
	printf("samples %llu lost %llu\n", (unsigned long long)samples,
	       (unsigned long long)lost);
	printf("raw %s\n", first);
}

/* ---- One event, from the command line ---------------------------------- */

static int usage(void)
{
	fprintf(stderr,
		"usage: pmu_probe [-r] [-c REF] [-k] [-w] [-S|-D] [-n CALLS] kprobe SYMBOL|0xADDR [OFFSET]\n"
		"       pmu_probe [...] uprobe PATH OFFSET\n"
		"       pmu_probe [...] tracepoint ID\n"
		"       pmu_probe open PATH r|w\n"
		"       pmu_probe fuzz CALLS SEED [-v] [-t SECONDS]\n"
		"       pmu_probe [-r] sweep START END STEP\n");
	return 2;
}

static int open_file(const char *path, const char *how)
{
	int fd = open(path, !strcmp(how, "w") ? O_WRONLY : O_RDONLY);

	printf("%s\n", errname(fd < 0 ? errno : 0));
	if (fd >= 0)
		close(fd);
	return fd < 0;
}

static int fuzz(u64 calls, u64 seed, long limit);
static int verbose;

static int sweep(u64 start, u64 end, u64 step, int ret)
{
	u64 addr, tried = 0, accepted = 0, shown[8];
	struct perf_event_attr a;
	int fd, refusal = 0;

	if (kpmu.type < 0) {
		printf("ENOPMU\n");
		return 1;
	}
	for (addr = start; step && addr < end; addr += step) {
		kprobe_attr(&a, NULL, addr, ret);
		fd = event_open(&a, this_task);
		tried++;
		if (fd < 0) {
			if (!refusal)
				refusal = -fd;
			continue;
		}
		close(fd);
		if (accepted < 8)
			shown[accepted] = addr;
		accepted++;
	}
	printf("accepted %llu of %llu\n", accepted, tried);
	for (addr = 0; addr < accepted && addr < 8; addr++)
		printf("0x%llx\n", shown[addr]);
	printf("refused with %s\n", refusal ? errname(refusal) : "-");
	return accepted != 0;
}

int main(int argc, char **argv)
{
	struct perf_event_attr a;
	struct target t = this_task;
	int ret = 0, excl = 0, raw = 0, calls = -1, fd, i = 1;
	struct perf_event_mmap_page *map = NULL;
	u64 ref = 0;
	long long hits;

	if (argc == 4 && !strcmp(argv[1], "open"))
		return open_file(argv[2], argv[3]);
	if (argc >= 4 && !strcmp(argv[1], "fuzz")) {
		long limit = 0;

		for (i = 4; i < argc; i++) {
			if (!strcmp(argv[i], "-v"))
				verbose = 1;
			else if (!strcmp(argv[i], "-t") && i + 1 < argc)
				limit = atol(argv[++i]);
			else
				return usage();
		}
		return fuzz(strtoull(argv[2], NULL, 0), strtoull(argv[3], NULL, 0), limit);
	}
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-r"))
			ret = 1;
		else if (!strcmp(argv[i], "-k"))
			excl = 1;
		else if (!strcmp(argv[i], "-w"))
			t = (struct target){ -1, 0 };
		else if (!strcmp(argv[i], "-S"))
			raw = 1;
		else if (!strcmp(argv[i], "-D"))
			raw = 2;
		else if (!strcmp(argv[i], "-c") && i + 1 < argc)
			ref = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			calls = atoi(argv[++i]);
		else
			return usage();
	}
	if (i >= argc)
		return usage();
	pmu_init(&kpmu, "kprobe");
	pmu_init(&upmu, "uprobe");
	if (!strcmp(argv[i], "sweep") && argc - i == 4)
		return sweep(strtoull(argv[i + 1], NULL, 16),
			     strtoull(argv[i + 2], NULL, 16),
			     strtoull(argv[i + 3], NULL, 0), ret);
	if (!strcmp(argv[i], "kprobe") && (argc - i == 2 || argc - i == 3)) {
		const char *what = argv[i + 1];
		u64 off = argc - i == 3 ? strtoull(argv[i + 2], NULL, 0) : 0;

		if (!strncmp(what, "0x", 2))
			kprobe_attr(&a, NULL, strtoull(what, NULL, 16) + off, ret);
		else
			kprobe_attr(&a, what, off, ret);
		if (kpmu.type < 0) {
			printf("ENOPMU\n");
			return 1;
		}
	} else if (!strcmp(argv[i], "uprobe") && argc - i == 3) {
		uprobe_attr(&a, argv[i + 1], strtoull(argv[i + 2], NULL, 0), ref, ret);
		if (upmu.type < 0) {
			printf("ENOPMU\n");
			return 1;
		}
	} else if (!strcmp(argv[i], "tracepoint") && argc - i == 2) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = strtoull(argv[i + 1], NULL, 0);
	} else {
		return usage();
	}
	a.exclude_kernel = excl;
	a.disabled = calls >= 0;
	if (raw) {
		a.sample_type = PERF_SAMPLE_RAW;
		a.sample_period = 1;
	}
	fd = event_open(&a, t);
	if (fd < 0) {
		printf("%s\n", errname(-fd));
		return 1;
	}
	if (raw == 2) {
		/* 64 pages: room for a few hundred samples of a small record. */
		map = mmap(NULL, (1 + 64) * getpagesize(), PROT_READ | PROT_WRITE,
			   MAP_SHARED, fd, 0);
		if (map == MAP_FAILED) {
			printf("mmap %s\n", errname(errno));
			close(fd);
			return 1;
		}
	}
	if (calls < 0) {
		printf("ok\n");
		close(fd);
		return 0;
	}
	hits = count_calls(fd, calls);
	if (hits < 0) {
		printf("count %s\n", errname((int)-hits));
		close(fd);
		return 1;
	}
	printf("ok %lld\n", hits);
	if (map)
		dump_samples(map, 64);
	close(fd);
	return 0;
}

/* ---- The fuzzer: what it probes ---------------------------------------- */

/* splitmix64: the same calls on every kernel and architecture. */
static u64 rng_state;

static u64 rnd(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int below(unsigned int n)
{
	return n ? rnd() % n : 0;
}

/* True with a chance of @pct percent. */
static int chance(unsigned int pct)
{
	return below(100) < pct;
}

struct func {
	char name[128];
	u64 addr;		/* from /proc/kallsyms; 0 if not found */
	unsigned int noffs;
	unsigned int *offs;	/* instruction offsets, ascending */
};

static struct func *funcs;
static unsigned int nfuncs;
static int arm64;

/* Kernel symbols the cases need. */
static struct {
	const char *name;
	u64 addr;
	unsigned int count;
} syms[] = {
	{ .name = "init_task" },		/* data */
	{ .name = "linux_banner" },		/* read-only data */
	{ .name = "vectors" },			/* arm64's exception vectors */
	{ .name = "entry_SYSCALL_64" },		/* x86's system call entry */
	{ .name = "aggr_pre_handler" },		/* on the kprobe blacklist */
	{ .name = "name_show" },		/* several functions of that name */
	{ .name = "_text" },
	{ .name = "_end" },
	{ .name = "" },				/* the getppid handler, filled in */
};
#define NSYMS (sizeof(syms) / sizeof(syms[0]))
#define SYM_BENCH (NSYMS - 1)

static char bench_func[128];
static unsigned int bench_body;

static u64 sym_addr(const char *name)
{
	unsigned int i;

	for (i = 0; i < NSYMS; i++)
		if (!strcmp(syms[i].name, name))
			return syms[i].addr;
	return 0;
}

static unsigned int sym_count(const char *name)
{
	unsigned int i;

	for (i = 0; i < NSYMS; i++)
		if (!strcmp(syms[i].name, name))
			return syms[i].count;
	return 0;
}

static void load_bench(void)
{
	FILE *f = fopen(BENCH_OFFSETS, "r");
	char key[32], val[128];

	if (!f)
		return;
	while (fscanf(f, "%31s %127s", key, val) == 2) {
		if (!strcmp(key, "func"))
			snprintf(bench_func, sizeof(bench_func), "%s", val);
		else if (!strcmp(key, "body"))
			bench_body = strtoul(val, NULL, 0);
	}
	fclose(f);
}

static void load_funcs(void)
{
	FILE *f = fopen(STRESS_FUNCS, "r");
	char line[16384], *tok, *save;
	struct func *fn;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		tok = strtok_r(line, " \t\n", &save);
		if (!tok)
			continue;
		funcs = realloc(funcs, (nfuncs + 1) * sizeof(*funcs));
		fn = &funcs[nfuncs++];
		memset(fn, 0, sizeof(*fn));
		snprintf(fn->name, sizeof(fn->name), "%s", tok);
		while ((tok = strtok_r(NULL, " \t\n", &save))) {
			fn->offs = realloc(fn->offs, (fn->noffs + 1) * sizeof(*fn->offs));
			fn->offs[fn->noffs++] = strtoul(tok, NULL, 0);
		}
		if (!fn->noffs) {
			fn->offs = malloc(sizeof(*fn->offs));
			fn->offs[fn->noffs++] = 0;
		}
	}
	fclose(f);
}

static void load_kallsyms(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], type;
	unsigned long long addr;
	unsigned int i;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    strchr(line, '['))	/* a module's */
			continue;
		for (i = 0; i < NSYMS; i++) {
			if (!syms[i].name[0] || strcmp(syms[i].name, name))
				continue;
			if (!syms[i].count++)
				syms[i].addr = addr;
		}
		if (type != 't' && type != 'T')
			continue;
		for (i = 0; i < nfuncs; i++)
			if (!funcs[i].addr && !strcmp(funcs[i].name, name))
				funcs[i].addr = addr;
	}
	fclose(f);
}

/*
 * Where a string may run into a page that cannot be read: the last bytes
 * of a readable page followed by an inaccessible one.
 */
static char *edge_page;		/* the readable page; edge_page + page is not */
static long page;
static char *big;		/* a scratch buffer for long strings */
static char *big2;		/* and another */
#define BIG_SIZE 16384

/* @len bytes of @c with no NUL before the inaccessible page. */
static const char *unterminated(size_t len, char c)
{
	char *s;

	if (len > (size_t)page)
		len = page;
	s = edge_page + page - len;
	memset(s, c, len);
	return s;
}

/* A NUL-terminated string of @len letters. */
static const char *long_name(size_t len, char c)
{
	if (len >= BIG_SIZE)
		len = BIG_SIZE - 1;
	memset(big, c, len);
	big[len] = 0;
	return big;
}

/* The files the uprobe cases use, in a directory of their own. */
static char dir[64];
static char target[128], mapped[128], self_exe[128];
static char fifo[128], subdir[128], symlink_ok[128], dangling[128], loop[128];
static char deleted[128], deleted_fd[64], unreadable[128], socket_fd[64];
static char notdir[128], slashed[128], missing[128];
static u64 target_size, entry_off, probe_me_off;
static void *mapped_map;
static int deleted_fdn = -1, socket_fdn = -1;

/* A function for the uprobe hit cases: @probe_me_off is its file offset. */
__attribute__((noinline)) int probe_me(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

static int copy_file(const char *from, const char *to, u64 *size)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;
	struct stat st;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			n = -1;
	/* A whole number of pages: an offset at the end is aligned. */
	if (!fstat(out, &st) && ftruncate(out, (st.st_size + page - 1) / page * page))
		n = -1;
	if (size && !fstat(out, &st))
		*size = st.st_size;
	close(in);
	close(out);
	return n < 0 ? -1 : 0;
}

/* The file offset of @addr in this program, from /proc/self/maps. */
static u64 file_offset_of(const void *addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long lo, hi, off;
	char line[512];
	u64 ret = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx %*s %llx", &lo, &hi, &off) == 3 &&
		    (u64)(unsigned long)addr >= lo && (u64)(unsigned long)addr < hi)
			ret = (u64)(unsigned long)addr - lo + off;
	fclose(f);
	return ret;
}

/* The file offset of an ELF file's entry point. */
static u64 elf_entry_offset(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY), i;
	u64 ret = 0;

	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) == sizeof(eh))
		for (i = 0; i < eh.e_phnum; i++) {
			if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) != sizeof(ph))
				break;
			if (ph.p_type == PT_LOAD && eh.e_entry >= ph.p_vaddr &&
			    eh.e_entry < ph.p_vaddr + ph.p_filesz)
				ret = eh.e_entry - ph.p_vaddr + ph.p_offset;
		}
	close(fd);
	return ret;
}

static int setup_files(void)
{
	ssize_t n;
	int fd;

	strcpy(dir, "/tmp/pmu_probe.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(mapped, sizeof(mapped), "%s/mapped", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(subdir, sizeof(subdir), "%s/dir", dir);
	snprintf(symlink_ok, sizeof(symlink_ok), "%s/link", dir);
	snprintf(dangling, sizeof(dangling), "%s/dangling", dir);
	snprintf(loop, sizeof(loop), "%s/loop", dir);
	snprintf(deleted, sizeof(deleted), "%s/deleted", dir);
	snprintf(unreadable, sizeof(unreadable), "%s/unreadable", dir);
	snprintf(notdir, sizeof(notdir), "%s/target/x", dir);
	snprintf(slashed, sizeof(slashed), "%s/target/", dir);
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	if (copy_file("/proc/self/exe", target, &target_size) ||
	    copy_file("/proc/self/exe", mapped, NULL) ||
	    copy_file("/proc/self/exe", deleted, NULL) ||
	    copy_file("/proc/self/exe", unreadable, NULL) ||
	    chmod(unreadable, 0) || mkfifo(fifo, 0600) || mkdir(subdir, 0700) ||
	    symlink(target, symlink_ok) || symlink(missing, dangling) ||
	    symlink(loop, loop))
		return -1;
	deleted_fdn = open(deleted, O_RDONLY);
	if (deleted_fdn < 0 || unlink(deleted))
		return -1;
	snprintf(deleted_fd, sizeof(deleted_fd), "/proc/self/fd/%d", deleted_fdn);
	socket_fdn = socket(AF_INET, SOCK_DGRAM, 0);
	snprintf(socket_fd, sizeof(socket_fd), "/proc/self/fd/%d", socket_fdn);
	/* Mapped (never run): its uprobes are installed in this process. */
	fd = open(mapped, O_RDONLY);
	if (fd < 0)
		return -1;
	mapped_map = mmap(NULL, target_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (mapped_map == MAP_FAILED)
		return -1;
	n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (n < 0)
		return -1;
	self_exe[n] = 0;
	entry_off = elf_entry_offset(target);
	probe_me_off = file_offset_of((const void *)probe_me);
	return 0;
}

static void remove_files(void)
{
	char path[192];
	static const char *const names[] = {
		"target", "mapped", "unreadable", "fifo", "dir", "link",
		"dangling", "loop",
	};
	unsigned int i;

	if (mapped_map && mapped_map != MAP_FAILED)
		munmap(mapped_map, target_size);
	if (deleted_fdn >= 0)
		close(deleted_fdn);
	if (socket_fdn >= 0)
		close(socket_fdn);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!strcmp(names[i], "dir"))
			rmdir(path);
		else
			unlink(path);
	}
	rmdir(dir);
}

/*
 * No uprobe left: a fresh private mapping of each file probed reads as
 * the file does (a breakpoint would be in it), as does the mapping that
 * was there all along.
 */
static int mapping_differs(const char *path, const void *old)
{
	int fd = open(path, O_RDONLY), ret = 1;
	struct stat st;
	void *map, *buf;

	if (fd < 0 || fstat(fd, &st))
		return 1;
	buf = malloc(st.st_size);
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (buf && map != MAP_FAILED &&
	    pread(fd, buf, st.st_size, 0) == st.st_size)
		ret = memcmp(map, buf, st.st_size) ||
		      (old && memcmp(old, buf, st.st_size));
	if (map != MAP_FAILED)
		munmap(map, st.st_size);
	free(buf);
	close(fd);
	return ret;
}

/* ---- The fuzzer: the edge cases ---------------------------------------- */

static int fds[MAX_OPEN];
static int nfds;

static void close_all(void)
{
	while (nfds)
		close(fds[--nfds]);
}

/* Open, keep the fd for close_all(); 0 or -errno. */
static int try_open(struct perf_event_attr *a, struct target t)
{
	int fd = event_open(a, t);

	if (fd < 0)
		return fd;
	if (nfds < MAX_OPEN)
		fds[nfds++] = fd;
	else
		close(fd);
	return 0;
}

static void report(const char *name, const char *result)
{
	printf("case %s %s\n", name, result);
	fflush(stdout);
}

static void kcase(const char *name, const char *func, u64 off, int ret)
{
	struct perf_event_attr a;

	kprobe_attr(&a, func, off, ret);
	report(name, errname(-try_open(&a, this_task)));
	close_all();
}

static void ucase(const char *name, const char *path, u64 off, u64 ref, int ret)
{
	struct perf_event_attr a;

	uprobe_attr(&a, path, off, ref, ret);
	report(name, errname(-try_open(&a, this_task)));
	close_all();
}

/* @n events at once, all to be ok; the first error otherwise. */
static void many_case(const char *name, struct perf_event_attr *a,
		      const struct perf_event_attr *b, int n)
{
	int i, err = 0, e;

	for (i = 0; i < n; i++) {
		e = try_open(i & 1 && b ? (struct perf_event_attr *)b : a,
			     i % 3 ? this_task : (struct target){ -1, 0 });
		if (e && !err)
			err = e;
	}
	report(name, errname(-err));
	close_all();
}

/* The event must count one hit for each of five calls. */
static void hits_case(const char *name, struct perf_event_attr *a,
		      void (*load)(int))
{
	char res[32];
	long long hits = 0;
	int fd;

	a->disabled = 1;
	fd = event_open(a, this_task);
	if (fd < 0) {
		report(name, errname(-fd));
		return;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		hits = -errno;
	load(5);
	if (!hits && ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
		hits = -errno;
	if (!hits && read(fd, &hits, sizeof(hits)) != sizeof(hits))
		hits = -errno;
	close(fd);
	if (hits < 0)
		snprintf(res, sizeof(res), "read-%s", errname((int)-hits));
	else if (hits == 5)
		snprintf(res, sizeof(res), "ok");
	else
		snprintf(res, sizeof(res), "hits-%lld", hits);
	report(name, res);
}

static void getppid_load(int n)
{
	while (n--)
		syscall(SYS_getppid);
}

static volatile int sink;

static void probe_me_load(int n)
{
	while (n--)
		sink = probe_me(sink);
}

/* An offset inside an instruction of @fn, and the instruction's offset. */
static unsigned int inside_insn(const struct func *fn, unsigned int *insn)
{
	unsigned int i;

	for (i = 0; i + 1 < fn->noffs; i++)
		if (fn->offs[i + 1] - fn->offs[i] >= 2) {
			*insn = fn->offs[i];
			return fn->offs[i] + 1;
		}
	*insn = fn->offs[0];
	return fn->offs[0] + 1;
}

static void edge_cases(void)
{
	const char *f = bench_func;
	struct perf_event_attr a, b;
	const struct func *fn = nfuncs ? &funcs[0] : NULL;
	unsigned int in = 0, insn = 0, last = 0;
	char buf[256];
	u64 fa = sym_addr(f);

	if (fn) {
		in = inside_insn(fn, &insn);
		last = fn->offs[fn->noffs - 1];
	}

	/* kprobe: by name. */
	kcase("kprobe-entry", f, 0, 0);
	kcase("kprobe-body", f, bench_body, 0);
	kcase("kprobe-retprobe-entry", f, 0, 1);
	kcase("kprobe-retprobe-body", f, bench_body, 1);
	if (fn) {
		kcase("kprobe-last-insn", fn->name, last, 0);
		kcase("kprobe-inside-insn", fn->name, in, 0);
	}
	kcase("kprobe-offset-4g", f, 1ULL << 32, 0);	/* kprobe offsets are 32-bit */
	kcase("kprobe-offset-4g-minus-4", f, 0xfffffffcULL, 0);
	kcase("kprobe-unknown-symbol", "pmu_probe_no_such_function", 0, 0);
	kprobe_attr(&a, NULL, 0, 0);
	report("kprobe-null-name-no-addr", errname(-try_open(&a, this_task)));
	close_all();
	kcase("kprobe-empty-name-no-addr", "", 0, 0);
	kcase("kprobe-name-511", long_name(511, 'a'), 0, 0);
	kcase("kprobe-name-512", long_name(512, 'a'), 0, 0);
	kcase("kprobe-name-unterminated", unterminated(100, 'a'), 0, 0);
	kcase("kprobe-name-unterminated-long", unterminated(600, 'a'), 0, 0);
	kcase("kprobe-name-bad-pointer", (const char *)1, 0, 0);
	kcase("kprobe-name-kernel-pointer",
	      (const char *)(unsigned long)sym_addr("linux_banner"), 0, 0);
	if (sym_count("name_show") > 1)
		kcase("kprobe-duplicate-symbol", "name_show", 0, 0);
	else
		report("kprobe-duplicate-symbol", "skip");
	kcase("kprobe-data-symbol", "init_task", 0, 0);
	kcase("kprobe-blacklisted", "aggr_pre_handler", 0, 0);
	snprintf(buf, sizeof(buf), "pmu_probe_no_such_module:%s", f);
	kcase("kprobe-module-not-loaded", buf, 0, 0);
	/* MODULE_NAME_LEN is 56: the longest name, and one more. */
	snprintf(buf, sizeof(buf), "%.55s:%s", long_name(55, 'm'), f);
	kcase("kprobe-module-name-55", buf, 0, 0);
	snprintf(buf, sizeof(buf), "%.56s:%s", long_name(56, 'm'), f);
	kcase("kprobe-module-name-56", buf, 0, 0);
	kcase("kprobe-colon-only", ":", 0, 0);
	snprintf(buf, sizeof(buf), "%s+4", f);
	kcase("kprobe-symbol-plus-offset", buf, 0, 0);
	kcase("kprobe-name-non-ascii", "\xff\xfe\x80", 0, 0);

	/* kprobe: by address. */
	kcase("kprobe-addr-entry", NULL, fa, 0);
	kcase("kprobe-addr-body", NULL, fa + bench_body, 0);
	kcase("kprobe-addr-retprobe-entry", NULL, fa, 1);
	if (fn)
		kcase("kprobe-addr-inside-insn", NULL, fn->addr + in, 0);
	kcase("kprobe-addr-data", NULL, sym_addr("init_task"), 0);
	kcase("kprobe-addr-rodata", NULL, sym_addr("linux_banner"), 0);
	kcase("kprobe-addr-user", NULL, 0x400000, 0);
	kcase("kprobe-addr-low", NULL, 0x10, 0);
	kcase("kprobe-addr-vectors", NULL,
	      sym_addr(arm64 ? "vectors" : "entry_SYSCALL_64"), 0);
	/* Module space (no module is loaded): below the arm64 image, past x86's. */
	kcase("kprobe-addr-module-space", NULL,
	      arm64 ? sym_addr("_text") - 0x1000000 : 0xffffffffc0100000ULL, 0);
	kcase("kprobe-addr-non-canonical", NULL, 0xdead000000000000ULL, 0);

	/* kprobe: the other attributes. */
	kprobe_attr(&a, f, 0, 0);
	a.config = ~0ULL & ~kpmu.retprobe;
	report("kprobe-config-high-bits", errname(-try_open(&a, this_task)));
	close_all();
	kprobe_attr(&a, f, 0, 0);
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	report("kprobe-branch-stack", errname(-try_open(&a, this_task)));
	close_all();
	kprobe_attr(&a, f, 0, 0);
	hits_case("kprobe-counts-hits", &a, getppid_load);
	kprobe_attr(&a, f, 0, 1);
	hits_case("kretprobe-counts-hits", &a, getppid_load);
	kprobe_attr(&a, f, 0, 0);
	sample_raw(&a);
	hits_case("kprobe-sample-raw-counts-hits", &a, getppid_load);
	kprobe_attr(&a, NULL, fa, 0);
	hits_case("kprobe-addr-counts-hits", &a, getppid_load);

	/* Many on one address at once. */
	kprobe_attr(&a, f, 0, 0);
	many_case("kprobe-16-same-address", &a, NULL, 16);
	kprobe_attr(&b, f, 0, 1);
	many_case("kprobe-kretprobe-16-same-address", &a, &b, 16);
	kprobe_attr(&a, NULL, fa, 0);
	many_case("kprobe-name-and-addr-16-same-address", &a, &b, 16);

	/* uprobe: the file and the offset. */
	ucase("uprobe-offset-0", target, 0, 0, 0);
	ucase("uprobe-entry", target, entry_off, 0, 0);
	ucase("uprobe-offset-eof", target, target_size, 0, 0);
	ucase("uprobe-offset-past-eof", target, target_size + 4, 0, 0);
	ucase("uprobe-offset-unaligned", target, entry_off + 1, 0, 0);
	ucase("uprobe-offset-huge", target, 1ULL << 40, 0, 0);
	ucase("uprobe-offset-negative", target, -4ULL, 0, 0);
	ucase("uprobe-retprobe", target, entry_off, 0, 1);
	ucase("uprobe-directory", subdir, 0, 0, 0);
	ucase("uprobe-root-directory", "/", 0, 0, 0);
	ucase("uprobe-device", "/dev/null", 0, 0, 0);
	ucase("uprobe-fifo", fifo, 0, 0, 0);
	if (socket_fdn >= 0)
		ucase("uprobe-socket", socket_fd, 0, 0, 0);
	else
		report("uprobe-socket", "skip");
	ucase("uprobe-procfs-file", "/proc/version", 0, 0, 0);
	ucase("uprobe-tracefs-file", "/sys/kernel/tracing/README", 0, 0, 0);
	ucase("uprobe-missing", missing, 0, 0, 0);
	ucase("uprobe-not-a-directory", notdir, 0, 0, 0);
	ucase("uprobe-trailing-slash", slashed, 0, 0, 0);
	ucase("uprobe-symlink", symlink_ok, entry_off, 0, 0);
	ucase("uprobe-dangling-symlink", dangling, 0, 0, 0);
	ucase("uprobe-symlink-loop", loop, 0, 0, 0);
	ucase("uprobe-deleted-by-name", deleted, 0, 0, 0);
	ucase("uprobe-deleted-open", deleted_fd, entry_off, 0, 0);
	ucase("uprobe-unreadable", unreadable, entry_off, 0, 0);
	if (!chdir(dir)) {
		ucase("uprobe-relative-path", "target", entry_off, 0, 0);
		if (chdir("/"))
			report("chdir", "failed");
	}

	/* uprobe: the path's string. */
	uprobe_attr(&a, NULL, 0, 0, 0);
	report("uprobe-path-null", errname(-try_open(&a, this_task)));
	close_all();
	ucase("uprobe-path-empty", "", 0, 0, 0);
	snprintf(big2, BIG_SIZE, "/%s", long_name(255, 'p'));
	ucase("uprobe-path-component-255", big2, 0, 0, 0);
	snprintf(big2, BIG_SIZE, "/%s", long_name(256, 'p'));
	ucase("uprobe-path-component-256", big2, 0, 0, 0);
	/* PATH_MAX with its NUL: slashes, then the target. */
	memset(big, '/', 4095 - strlen(target));
	strcpy(big + 4095 - strlen(target), target);
	ucase("uprobe-path-4095", big, entry_off, 0, 0);
	memset(big, '/', 4096 - strlen(target));
	strcpy(big + 4096 - strlen(target), target);
	ucase("uprobe-path-4096", big, entry_off, 0, 0);
	ucase("uprobe-path-unterminated", unterminated(100, 'p'), 0, 0, 0);
	ucase("uprobe-path-unterminated-4096", unterminated(4096, 'p'), 0, 0, 0);
	ucase("uprobe-path-bad-pointer", (const char *)1, 0, 0, 0);

	/* uprobe: the reference counter. */
	ucase("uprobe-ref-ctr", target, entry_off, 2, 0);
	ucase("uprobe-ref-ctr-odd", target, entry_off, 1, 0);
	ucase("uprobe-ref-ctr-past-eof", target, entry_off, 0xfffffffeULL, 0);
	uprobe_attr(&a, target, entry_off, 0, 0);
	uprobe_attr(&b, target, entry_off, 2, 0);
	if (try_open(&a, this_task))
		report("uprobe-ref-ctr-mismatch", "first-failed");
	else
		report("uprobe-ref-ctr-mismatch", errname(-try_open(&b, this_task)));
	close_all();

	/* uprobe: the other attributes. */
	uprobe_attr(&a, target, entry_off, 0, 0);
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	report("uprobe-branch-stack", errname(-try_open(&a, this_task)));
	close_all();

	/* Many on one offset at once; in a file mapped here, installed. */
	uprobe_attr(&a, target, entry_off, 0, 0);
	uprobe_attr(&b, target, entry_off, 0, 1);
	many_case("uprobe-16-same-offset", &a, &b, 16);
	uprobe_attr(&a, mapped, entry_off, 0, 0);
	uprobe_attr(&b, mapped, entry_off, 0, 1);
	many_case("uprobe-mapped-16-same-offset", &a, &b, 16);

	/* uprobe: hits, on a function of this program. */
	uprobe_attr(&a, self_exe, probe_me_off, 0, 0);
	hits_case("uprobe-counts-hits", &a, probe_me_load);
	uprobe_attr(&a, self_exe, probe_me_off, 0, 1);
	hits_case("uretprobe-counts-hits", &a, probe_me_load);
	uprobe_attr(&a, self_exe, probe_me_off, 0, 0);
	sample_raw(&a);
	hits_case("uprobe-sample-raw-counts-hits", &a, probe_me_load);
}

/* ---- The fuzzer: random calls ------------------------------------------ */

static unsigned long long hist[4096];
static unsigned long long done_calls, total_calls;
static char seq[101];

static char seqchar(int err)
{
	static const struct {
		int err;
		char c;
	} chars[] = {
		{ 0, '.' }, { ENOENT, 'N' }, { EINVAL, 'I' }, { EFAULT, 'F' },
		{ E2BIG, '2' }, { EIO, 'O' }, { ELOOP, 'L' }, { ENOTDIR, 'D' },
		{ EADDRNOTAVAIL, 'A' }, { EOPNOTSUPP, 'P' }, { EACCES, 'C' },
		{ EPERM, 'M' }, { ENAMETOOLONG, 'T' }, { EILSEQ, 'S' },
		{ EBUSY, 'B' }, { ENOMEM, 'm' }, { EEXIST, 'E' }, { ENOEXEC, 'X' },
		{ 524, 'U' },	/* ENOTSUPP */
	};
	unsigned int i;

	for (i = 0; i < sizeof(chars) / sizeof(chars[0]); i++)
		if (chars[i].err == err)
			return chars[i].c;
	return '?';
}

/* Up to @size - 1 bytes of the string at @p, which may not be readable. */
static const char *peek(u64 p, char *buf, size_t size)
{
	static int fds[2] = { -1, -1 };
	size_t len = size - 1;
	ssize_t n = -1, i;

	/* The bytes go through a pipe: a bad pointer fails write() with EFAULT. */
	if (fds[0] < 0 && pipe(fds))
		fds[0] = -1;
	if (len > page - p % page)	/* the rest of its page */
		len = page - p % page;
	if (p && fds[0] >= 0) {
		n = write(fds[1], (const void *)(unsigned long)p, len);
		if (n > 0 && read(fds[0], buf, n) != n)
			n = -1;
	}
	if (n <= 0) {
		snprintf(buf, size, "<%#llx>", p);
		return buf;
	}
	buf[n] = 0;
	for (i = 0; i < n && buf[i]; i++)
		if (buf[i] <= ' ' || buf[i] > '~')
			buf[i] = '?';
	return buf;
}

/* How the call went; with -v, what it was too, one line each. */
static void count(int err, const struct perf_event_attr *a, struct target t)
{
	char name[48];

	hist[err > 0 && err < 4096 ? err : 0]++;
	seq[done_calls % 100] = seqchar(err);
	if (done_calls % 100 == 99 || done_calls + 1 == total_calls) {
		seq[done_calls % 100 + 1] = 0;
		printf("seq %llu %s\n", done_calls / 100 * 100, seq);
	}
	if (verbose)
		printf("call %llu %s %s cfg=%#llx name=%s off=%#llx pid=%d cpu=%d\n",
		       done_calls, errname(err), a->type == (unsigned int)kpmu.type ? "k" : "u",
		       a->config, peek(a->config1, name, sizeof(name)), a->config2,
		       t.pid, t.cpu);
	done_calls++;
}

static const char *random_ident(char *buf, size_t size)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz_0123456789";
	size_t n = 1 + below(40), i;

	if (n >= size)
		n = size - 1;
	for (i = 0; i < n; i++)
		buf[i] = chars[below(i ? sizeof(chars) - 1 : 27)];
	buf[n] = 0;
	return buf;
}

static const struct func *random_func(void)
{
	return nfuncs ? &funcs[below(nfuncs)] : NULL;
}

/* An offset into @fn: its entry, an instruction, inside one, past it, huge. */
static u64 random_offset(const struct func *fn)
{
	static const u64 huge[] = {
		1ULL << 32, (1ULL << 32) + 4, 0xffffffffULL, 0xfffffffcULL,
		1ULL << 63, ~0ULL, 0x80000000ULL, 0x100000ULL,
	};
	unsigned int insn, r = below(100);

	if (r < 35)
		return 0;
	if (r < 60)
		return fn->offs[below(fn->noffs)];
	if (r < 75)
		return inside_insn(fn, &insn) + below(3) * (arm64 ? 1 : 0);
	if (r < 85)
		return fn->offs[fn->noffs - 1] + 4 + 4 * below(16);
	if (r < 95)
		return huge[below(sizeof(huge) / sizeof(huge[0]))];
	return rnd();
}

/*
 * A kprobe's name: config1, maybe a bad pointer; NULL for a probe by
 * address. Sets *off to what config2 should be.
 */
static const char *random_kprobe_name(char *buf, size_t size, u64 *off)
{
	static const char *const odd[] = {
		":", "::", ":vfs_read", "vfs_read:", "pmu_probe_nomod:vfs_read",
		"vfs_read+4", "vfs_read ", " vfs_read", "%s%n", "\xff\xfe",
		"kprobes:vfs_read", "vfs_read.cold", "VFS_READ", "init_task",
		"linux_banner", "aggr_pre_handler", "name_show", "_text",
		"_etext", "vfs_read\n", "vfs_read%return", "p:vfs_read",
	};
	static const u64 bad[] = {
		1, 0x1000, 0xfffffffffffff000ULL, ~0ULL, 0xdead0000ULL, 8,
	};
	const struct func *fn = random_func();
	unsigned int r = below(100);

	*off = 0;
	if (r < 3 && fn) {
		*off = random_offset(fn);
		return fn->name;
	}
	if (r < 45)
		return random_ident(buf, size);
	if (r < 65) {
		*off = chance(50) ? 0 : (fn ? random_offset(fn) : 4);
		return odd[below(sizeof(odd) / sizeof(odd[0]))];
	}
	if (r < 77) {
		static const size_t lens[] = { 100, 255, 510, 511, 512, 513, 1000, 4096, 9000 };
		size_t len = lens[below(sizeof(lens) / sizeof(lens[0]))];

		return long_name(len, 'a' + below(26));
	}
	if (r < 87) {
		size_t len = 1 + below(700);

		return unterminated(len, 'a' + below(26));
	}
	if (r < 94) {
		if (chance(30))
			return (const char *)(unsigned long)sym_addr("linux_banner");
		if (chance(30))
			return edge_page + page;	/* inaccessible */
		return (const char *)(unsigned long)bad[below(sizeof(bad) / sizeof(bad[0]))];
	}
	return NULL;	/* by address: config2 */
}

/* A kprobe's address, for a probe without a name. */
static u64 random_kprobe_addr(void)
{
	const struct func *fn = random_func();
	unsigned int r = below(100), insn;
	static const char *const data[] = { "init_task", "linux_banner", "_end" };

	if (fn && !fn->addr)
		fn = NULL;
	if (r < 5 && fn)
		return fn->addr;
	if (r < 10 && fn)
		return fn->addr + fn->offs[below(fn->noffs)];
	if (r < 20 && fn)
		return fn->addr + inside_insn(fn, &insn);
	if (r < 35) {
		u64 base = sym_addr(data[below(3)]);

		return base + 8 * below(64);
	}
	if (r < 50)
		return below(10) ? rnd() & 0x0000ffffffffffffULL : below(0x10000);
	if (r < 65) {
		if (arm64) {
			u64 vector = 0x80 * below(16);

			return sym_addr("vectors") + vector + 4 * below(32);
		}
		return sym_addr("entry_SYSCALL_64") + below(64);
	}
	if (r < 80) {
		if (arm64)
			return sym_addr("_text") - 4 * (u64)below(0x20000000);
		return 0xffffffffa0000000ULL + below(0x5f000000);
	}
	return rnd();
}

static void random_kprobe(struct perf_event_attr *a)
{
	static char name[64];
	const char *func;
	u64 off;

	func = random_kprobe_name(name, sizeof(name), &off);
	if (!func || chance(3)) {
		/* By address: no name, or an empty one. */
		const char *none = chance(50) ? NULL : "";

		kprobe_attr(a, none, random_kprobe_addr(), 0);
	} else {
		kprobe_attr(a, func, off, 0);
	}
	if (chance(25))
		a->config |= kpmu.retprobe;
	if (chance(10))
		a->config |= rnd() & ~kpmu.retprobe;
}

static const char *random_upath(char *buf, size_t size)
{
	static const char *const special[] = {
		"/", ".", "..", "/dev/null", "/dev/zero", "/proc/version",
		"/proc/self/status", "/sys/kernel/tracing/README",
		"/sys/kernel/tracing/trace", "/harness", "/bin/busybox/",
		"//tmp//../tmp", "/proc/self/exe/",
	};
	const char *files[] = {
		subdir, fifo, socket_fdn >= 0 ? socket_fd : fifo, symlink_ok,
		dangling, loop, deleted, deleted_fd, unreadable, notdir,
		slashed, missing,
	};
	unsigned int r = below(100);

	if (r < 3)
		return target;
	if (r < 5)
		return mapped;
	if (r < 22)
		return files[below(sizeof(files) / sizeof(files[0]))];
	if (r < 32)
		return special[below(sizeof(special) / sizeof(special[0]))];
	if (r < 57) {
		char ident[48];

		snprintf(buf, size, "%s/%s", dir, random_ident(ident, sizeof(ident)));
		return buf;
	}
	if (r < 69) {
		static const size_t lens[] = { 255, 256, 4094, 4095, 4096, 4097, 9000 };

		return long_name(lens[below(sizeof(lens) / sizeof(lens[0]))], '/');
	}
	if (r < 81)
		return unterminated(1 + below(page), '/');
	if (r < 90)
		return (const char *)(unsigned long)(chance(50) ? 1 : 0xfffffffffffff000ULL);
	if (r < 95)
		return NULL;
	return "";
}

static u64 random_uoffset(void)
{
	static const u64 huge[] = {
		1ULL << 40, 1ULL << 63, ~0ULL, -4ULL, 0xffffffffULL,
		0x100000000ULL,
	};
	unsigned int r = below(100);

	if (r < 25)
		return 4 * below(target_size / 4);
	if (r < 35)
		return below(target_size);
	if (r < 45)
		return target_size;
	if (r < 55)
		return target_size + 1 + below(64);
	if (r < 65)
		return huge[below(sizeof(huge) / sizeof(huge[0]))];
	if (r < 75)
		return entry_off;
	return 4 * below(16);
}

static u64 random_ref(void)
{
	unsigned int r = below(100);

	if (r < 70)
		return 0;
	if (r < 80)
		return 2 * below(64);
	if (r < 85)
		return 1 + 2 * below(64);
	if (r < 95)
		return rnd() & 0xffffffffULL;
	return 0xfffffffeULL;
}

static void random_uprobe(struct perf_event_attr *a)
{
	static char path[128];
	/* One draw after the other, in this order on every compiler. */
	const char *p = random_upath(path, sizeof(path));
	u64 off = random_uoffset();
	u64 ref = random_ref();

	uprobe_attr(a, p, off, ref, chance(25));
}

static struct target random_target(void)
{
	unsigned int r = below(100);

	if (r < 50)
		return this_task;
	if (r < 90)
		return (struct target){ -1, 0 };
	return (struct target){ -1, 1 };
}

static void random_common(struct perf_event_attr *a)
{
	a->disabled = chance(50);
	if (chance(30))
		sample_raw(a);
}

/*
 * Many events on one kprobe or uprobe, all open together: a place that
 * can be probed, or any.
 */
static void random_group(u64 *left)
{
	struct perf_event_attr a, b;
	unsigned int n = 2 + below(15), i;
	int valid = chance(30);
	const struct func *fn = random_func();

	if (chance(60)) {
		if (valid)
			kprobe_attr(&a, fn->name, fn->offs[below(2) ? 0 : below(fn->noffs)], 0);
		else
			random_kprobe(&a);
		b = a;
		b.config ^= kpmu.retprobe;
	} else {
		if (valid) {
			const char *p = chance(50) ? target : mapped;
			u64 off = chance(50) ? entry_off : 4 * below(target_size / 4);

			uprobe_attr(&a, p, off, 2 * below(2), 0);
		} else
			random_uprobe(&a);
		b = a;
		if (chance(30))		/* another ref_ctr_offset: refused */
			b.config ^= 2ULL << upmu.ref_shift;
		else
			b.config ^= upmu.retprobe;
	}
	random_common(&a);
	for (i = 0; i < n && *left; i++, (*left)--) {
		struct perf_event_attr *e = chance(50) ? &a : &b;
		struct target t = random_target();

		count(-try_open(e, t), e, t);
	}
	close_all();
}

static unsigned int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned int n = 0;

	if (!d)
		return 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static int cmp_names(const void *x, const void *y)
{
	char a[32];

	snprintf(a, sizeof(a), "%s", errname(*(const int *)x));
	return strcmp(a, errname(*(const int *)y));
}

static int fuzz(u64 calls, u64 seed, long limit)
{
	struct perf_event_attr a;
	struct target t;
	struct timespec t0, t1;
	struct utsname u;
	unsigned int fds0, i, n = 0;
	int errs[4096], rc = 0;
	u64 left = calls, next_check = 0;
	char names[2][32];

	setvbuf(stdout, NULL, _IOLBF, 0);
	page = sysconf(_SC_PAGESIZE);
	arm64 = !uname(&u) && !strcmp(u.machine, "aarch64");
	pmu_init(&kpmu, "kprobe");
	pmu_init(&upmu, "uprobe");
	if (kpmu.type < 0 || upmu.type < 0) {
		printf("no kprobe or uprobe PMU\n");
		return 1;
	}
	if (chdir("/"))
		return 1;
	load_bench();
	load_funcs();
	syms[SYM_BENCH].name = bench_func;
	load_kallsyms();
	if (!bench_func[0] || !sym_addr(bench_func) || !nfuncs ||
	    !funcs[0].addr) {
		printf("missing %s, %s or /proc/kallsyms\n", BENCH_OFFSETS,
		       STRESS_FUNCS);
		return 1;
	}
	edge_page = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	big = malloc(BIG_SIZE);
	big2 = malloc(BIG_SIZE);
	if (edge_page == MAP_FAILED || !big || !big2 ||
	    mprotect(edge_page + page, page, PROT_NONE))
		return 1;
	fds0 = count_fds();
	if (setup_files()) {
		printf("cannot set up the files in %s: %s\n", dir, strerror(errno));
		remove_files();
		return 1;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	edge_cases();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("cases in %lld s\n", (long long)(t1.tv_sec - t0.tv_sec));

	rng_state = seed;
	total_calls = calls;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (left) {
		if (limit && done_calls >= next_check) {
			next_check = done_calls + 100;
			clock_gettime(CLOCK_MONOTONIC, &t1);
			if (t1.tv_sec - t0.tv_sec >= limit) {
				if (done_calls % 100) {
					seq[done_calls % 100] = 0;
					printf("seq %llu %s\n", done_calls / 100 * 100, seq);
				}
				printf("stopped %llu of %llu\n", done_calls, calls);
				break;
			}
		}
		if (!below(200)) {
			random_group(&left);
			continue;
		}
		if (chance(60))
			random_kprobe(&a);
		else
			random_uprobe(&a);
		random_common(&a);
		t = random_target();
		count(-try_open(&a, t), &a, t);
		close_all();
		left--;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	for (i = 0; i < 4096; i++)
		if (hist[i])
			errs[n++] = i;
	qsort(errs, n, sizeof(errs[0]), cmp_names);
	for (i = 0; i < n; i++)
		printf("hist %s %llu\n", errname(errs[i]), hist[errs[i]]);
	printf("calls %llu in %lld s\n", done_calls,
	       (long long)(t1.tv_sec - t0.tv_sec));

	/* Nothing left behind. */
	snprintf(names[0], sizeof(names[0]), "ok");
	names[1][0] = 0;
	if (mapping_differs(target, NULL) || mapping_differs(mapped, mapped_map) ||
	    mapping_differs(self_exe, NULL))
		snprintf(names[0], sizeof(names[0]), "breakpoint-left");
	report("uprobe-none-left", names[0]);
	remove_files();
	if (count_fds() != fds0) {
		printf("fds %u, %u before\n", count_fds(), fds0);
		rc = 1;
	}
	printf("done\n");
	return rc;
}
