// SPDX-License-Identifier: MIT
/* ptree: a process's tree from /proc: its pids and the CPU time it used (see ptree.h). */
#include "core/ptree.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct proc_row {
	pid_t pid, ppid;
	unsigned long long utime, stime, cutime, cstime; /* clock ticks */
};

/* One /proc/PID/stat: the fields after the command, whose name may hold ") ". */
static bool read_row(pid_t pid, struct proc_row *r)
{
	char path[64], buf[1024], *p;
	long long ppid;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return false;
	/* state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
	 * cutime cstime (proc(5), fields 3 to 17) */
	if (sscanf(p + 1, " %*c %lld %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
		   &ppid, &r->utime, &r->stime, &r->cutime, &r->cstime) != 5)
		return false;
	r->pid = pid;
	r->ppid = (pid_t)ppid;
	return true;
}

/* Every process of the machine; *n rows (caller frees). */
static struct proc_row *all_rows(size_t *n)
{
	DIR *d = opendir("/proc");
	struct proc_row *rows = NULL;
	size_t cap = 0;
	struct dirent *e;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		xgrow((void **)&rows, &cap, *n + 1, sizeof(*rows));
		if (read_row((pid_t)pid, &rows[*n]))
			(*n)++;
	}
	closedir(d);
	return rows;
}

/* The rows of root's tree, root first, into in[] (indexes); how many. */
static size_t tree_of(pid_t root, const struct proc_row *rows, size_t n, size_t *in)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (rows[i].pid == root)
			in[k++] = i;
	/* Breadth first: each member's children join the end of the list. */
	for (size_t q = 0; q < k; q++)
		for (size_t i = 0; i < n; i++)
			if (rows[i].ppid == rows[in[q]].pid && rows[i].pid != root)
				in[k++] = i;
	return k;
}

size_t pcost_ptree_pids(pid_t root, pid_t *pids, size_t max)
{
	size_t n, k, out = 0;
	struct proc_row *rows = all_rows(&n);
	size_t *in = xcalloc(n + 1, sizeof(*in));

	k = tree_of(root, rows, n, in);
	for (size_t i = 0; i < k && out < max; i++)
		pids[out++] = rows[in[i]].pid;
	free(in);
	free(rows);
	return out;
}

bool pcost_ptree_cpu(pid_t root, pcost_ns *user, pcost_ns *sys)
{
	size_t n, k;
	struct proc_row *rows = all_rows(&n);
	size_t *in = xcalloc(n + 1, sizeof(*in));
	long hz = sysconf(_SC_CLK_TCK);
	double tick = 1e9 / (double)(hz > 0 ? hz : 100);
	unsigned long long u = 0, s = 0;

	k = tree_of(root, rows, n, in);
	for (size_t i = 0; i < k; i++) {
		u += rows[in[i]].utime + rows[in[i]].cutime;
		s += rows[in[i]].stime + rows[in[i]].cstime;
	}
	*user = (pcost_ns)((double)u * tick);
	*sys = (pcost_ns)((double)s * tick);
	free(in);
	free(rows);
	return k > 0;
}

/*
 * Ticks of the descendants pid's threads' children files name, depth levels
 * down, and of pid itself when self.
 */
static bool tree_ticks(pid_t pid, bool self, unsigned depth, unsigned long long *ticks)
{
	struct proc_row r;
	char path[64];
	struct dirent *e;
	DIR *d;

	if (!read_row(pid, &r))
		return false;
	if (self)
		*ticks += r.utime + r.stime + r.cutime + r.cstime;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!depth || !(d = opendir(path)))
		return true;
	while ((e = readdir(d))) {
		char kids[4096], *p, *end;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/children", (int)pid, e->d_name);
		if (pcost_read_file(path, kids, sizeof(kids)) <= 0)
			continue;
		for (p = kids; *p; p = end) {
			long kid = strtol(p, &end, 10);

			if (end == p)
				break;
			if (kid > 0)
				tree_ticks((pid_t)kid, true, depth - 1, ticks);
		}
	}
	closedir(d);
	return true;
}

bool pcost_ptree_cpu_below(pid_t root, pcost_ns *cpu)
{
	char path[64];
	long hz = sysconf(_SC_CLK_TCK);
	unsigned long long t = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)root, (int)root);
	/* A tree deeper than 16 is not a study's; its deeper members go uncounted. */
	if (access(path, R_OK) || !tree_ticks(root, false, 16, &t))
		return false;
	*cpu = (pcost_ns)((double)t * 1e9 / (double)(hz > 0 ? hz : 100));
	return true;
}

void pcost_ptree_list(pid_t root, char *buf, size_t len)
{
	pid_t pids[512];
	size_t n = pcost_ptree_pids(root, pids, sizeof(pids) / sizeof(pids[0])), o = 0;

	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "," : "", (int)pids[i]);
}
