// SPDX-License-Identifier: GPL-2.0
/*
 * Run a command as an unprivileged user, for the privilege tests:
 *
 *	drop_privs [--perfmon] CMD ARGS...
 *
 * becomes uid and gid 1000, with no supplementary groups and no
 * capability at all, or, with --perfmon, CAP_PERFMON alone: in the
 * permitted, effective, inheritable and ambient sets, so that CMD (a
 * busybox applet, say, which has no file capabilities) keeps it across
 * exec. Every other capability also leaves the bounding set. Then it
 * checks what it got, and execs CMD. Raw system calls: the guest has no
 * libcap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_RAISE 2
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

#define UID 1000
#define GID 1000

static void die(const char *what)
{
	fprintf(stderr, "drop_privs: %s: %s\n", what, strerror(errno));
	exit(127);
}

static int last_cap(void)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");
	int last = 40;

	if (f) {
		if (fscanf(f, "%d", &last) != 1)
			last = 40;
		fclose(f);
	}
	return last;
}

/* Set the three sets of capabilities to @mask (bits 0-63). */
static void set_caps(unsigned long long mask)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	int i;

	memset(data, 0, sizeof(data));
	for (i = 0; i < 2; i++) {
		data[i].effective = (unsigned int)(mask >> (32 * i));
		data[i].permitted = data[i].effective;
		data[i].inheritable = data[i].effective;
	}
	if (syscall(SYS_capset, &hdr, data))
		die("capset");
}

static unsigned long long get_caps(unsigned long long *permitted)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		die("capget");
	*permitted = data[0].permitted |
		     (unsigned long long)data[1].permitted << 32;
	return data[0].effective | (unsigned long long)data[1].effective << 32;
}

int main(int argc, char **argv)
{
	unsigned long long want = 0, eff, prm;
	uid_t r, e, s;
	gid_t gr, ge, gs;
	int perfmon = 0, cap, last;

	if (argc > 1 && !strcmp(argv[1], "--perfmon")) {
		perfmon = 1;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: drop_privs [--perfmon] CMD ARGS...\n");
		return 2;
	}
	if (perfmon)
		want = 1ULL << CAP_PERFMON;

	/* The bounding set first: that needs CAP_SETPCAP, which goes later. */
	last = last_cap();
	for (cap = 0; cap <= last; cap++)
		if (!(want & (1ULL << cap)) &&
		    prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
			die("PR_CAPBSET_DROP");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0))
		die("PR_CAP_AMBIENT_CLEAR_ALL");
	/* Keep the permitted set across the change of uid, to trim it after. */
	if (prctl(PR_SET_KEEPCAPS, perfmon, 0, 0, 0))
		die("PR_SET_KEEPCAPS");
	if (syscall(SYS_setgroups, 0, NULL))
		die("setgroups");
	if (syscall(SYS_setresgid, GID, GID, GID))
		die("setresgid");
	if (syscall(SYS_setresuid, UID, UID, UID))
		die("setresuid");
	set_caps(want);
	if (perfmon &&
	    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_PERFMON, 0, 0))
		die("PR_CAP_AMBIENT_RAISE");
	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0))
		die("PR_SET_KEEPCAPS");

	/* Check: a helper that fails to drop would pass every test. */
	if (getresuid(&r, &e, &s) || getresgid(&gr, &ge, &gs))
		die("getresuid");
	eff = get_caps(&prm);
	if (r != UID || e != UID || s != UID || gr != GID || ge != GID ||
	    gs != GID || eff != want || prm != want ||
	    getgroups(0, NULL) != 0) {
		fprintf(stderr, "drop_privs: still privileged: uid %u/%u/%u gid %u/%u/%u caps %llx/%llx\n",
			r, e, s, gr, ge, gs, eff, prm);
		return 127;
	}
	execvp(argv[1], argv + 1);
	die(argv[1]);
	return 127;
}
