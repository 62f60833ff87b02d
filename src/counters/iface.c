// SPDX-License-Identifier: MIT
/* counters/iface: the perf_event rows and the baselines of the counter-interface table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counters/counters.h"
#include "core/registry.h"
#include "probecost/counters.h"

/* ---- perf-read, perf-group, perf-mmap --------------------------------------- */

/* Count user space only: set when the kernel refuses kernel counting to this user. */
static bool user_only;

void pcost_counter_set_user_only(bool on)
{
	user_only = on;
}

bool pcost_counter_user_only(void)
{
	return user_only;
}

void pcost_counter_explain_eacces(char *buf, size_t len)
{
	char v[32];
	ssize_t n = pcost_read_file("/proc/sys/kernel/perf_event_paranoid", v, sizeof(v));

	/* Levels from Documentation/admin-guide/perf-security.rst. */
	snprintf(buf, len,
		 "perf_event_open not permitted: kernel.perf_event_paranoid is %s (3 or more: "
		 "no unprivileged use; 2: user space only; 1: kernel too; -1: everything); run "
		 "as root, grant CAP_PERFMON, or 'sysctl -w kernel.perf_event_paranoid=1'",
		 n > 0 ? v : "unknown");
}

int pcost_counter_probe_kernel(void)
{
	static const char *const tc[] = { "task-clock" };
	struct pcost_counters *c;
	int rc = pcost_counters_open(&c, tc, 1);

	if (rc == -EACCES) {
		PCOST_OPTS(pcost_counter_opts, o, .exclude_kernel = true);

		rc = pcost_counters_open_opts(&c, tc, 1, &o);
		if (rc == 0) {
			pcost_counters_close(c);
			user_only = true;
			return 1;
		}
		return rc;
	}
	if (rc == 0)
		pcost_counters_close(c);
	return rc;
}

static int perf_open_mode(void **st, const char *const *names, unsigned k, char *why, size_t len,
			  enum pcost_read_mode mode, bool with_mmap)
{
	struct pcost_counters *c;
	int failed = -1, rc;
	PCOST_OPTS(pcost_counter_opts, o, .read_mode = mode, .mmap = with_mmap,
		   .exclude_kernel = user_only, .failed_index = &failed);

	rc = pcost_counters_open_opts(&c, names, k, &o);
	if (rc < 0) {
		const char *ev = failed >= 0 ? names[failed] : "?";

		if (rc == -EOPNOTSUPP)
			snprintf(why, len, "event '%s' is not supported by this kernel/CPU", ev);
		else if (rc == -ENOENT)
			snprintf(why, len, "libpfm4 does not know an event named '%s'", ev);
		else if (rc == -EMFILE || rc == -ENFILE)
			snprintf(
				why, len,
				"too many open descriptors at event %d of %u ('%s'): one per event; "
				"raise 'ulimit -n' or ask for fewer events",
				failed + 1, k, ev);
		else if (rc == -EACCES)
			pcost_counter_explain_eacces(why, len);
		else
			snprintf(why, len, "could not open '%s': %s", ev, strerror(-rc));
		return rc;
	}
	*st = c;
	return 0;
}

static int perf_read_open(void **st, const char *const *names, unsigned k, char *why, size_t len)
{
	return perf_open_mode(st, names, k, why, len, PCOST_READ_EACH, false);
}

static int perf_group_open(void **st, const char *const *names, unsigned k, char *why, size_t len)
{
	return perf_open_mode(st, names, k, why, len, PCOST_READ_GROUP, false);
}

static int perf_mmap_open(void **st, const char *const *names, unsigned k, char *why, size_t len)
{
	struct pcost_counters *c;
	int rc = perf_open_mode(st, names, k, why, len, PCOST_READ_EACH, true);

	if (rc < 0)
		return rc;
	c = *st;
	/* The index is only meaningful while the events are scheduled: look while started. */
	rc = pcost_counters_start(c);
	if (rc == 0) {
		rc = pcost_counters_mmap_check(c, why, len);
		pcost_counters_stop(c);
	}
	if (rc < 0) {
		pcost_counters_close(c);
		*st = NULL;
	}
	return rc;
}

static int perf_start(void *st)
{
	return pcost_counters_start(st);
}

static int perf_stop(void *st)
{
	return pcost_counters_stop(st);
}

static int perf_read(void *st, uint64_t *v)
{
	return pcost_counters_read(st, v);
}

static int perf_read_mmap(void *st, uint64_t *v)
{
	return pcost_counters_read_mmap(st, v);
}

static void perf_close(void *st)
{
	pcost_counters_close(st);
}

static bool perf_available(char *why, size_t len)
{
	int rc = pcost_counter_probe_kernel();

	if (rc >= 0)
		return true;
	if (rc == -EACCES)
		pcost_counter_explain_eacces(why, len);
	else
		snprintf(why, len, "perf_event_open of task-clock failed: %s", strerror(-rc));
	return false;
}

static bool perf_mmap_available(char *why, size_t len)
{
	char pmu_why[200];
	char *names[1] = { NULL };
	void *st = NULL;
	bool pmu, ok;

	if (!perf_available(why, len))
		return false;
	pmu = pcost_counters_have_pmu(pmu_why, sizeof(pmu_why));
	if (!pmu) {
		snprintf(why, len, "%s; software events have index 0 in their user page", pmu_why);
		return false;
	}
	/* A PMU exists: does the page of a hardware event carry an index here? */
	if (pcost_counter_default_events(true, 1, names) < 0)
		return false;
	ok = perf_mmap_open(&st, (const char *const *)names, 1, why, len) == 0;
	if (ok)
		perf_close(st);
	free(names[0]);
	return ok;
}

static const struct pcost_counter_iface perf_read_row = {
	.name = "perf-read",
	.kind = "perf_event",
	.summary = "one read() per event descriptor, group started by one ioctl",
	.takes_events = true,
	.available = perf_available,
	.open = perf_read_open,
	.start = perf_start,
	.read = perf_read,
	.stop = perf_stop,
	.close = perf_close,
};

static const struct pcost_counter_iface perf_group_row = {
	.name = "perf-group",
	.kind = "perf_event",
	.summary = "one read() of the group leader with PERF_FORMAT_GROUP",
	.takes_events = true,
	.available = perf_available,
	.open = perf_group_open,
	.start = perf_start,
	.read = perf_read,
	.stop = perf_stop,
	.close = perf_close,
};

static const struct pcost_counter_iface perf_mmap_row = {
	.name = "perf-mmap",
	.kind = "perf_event",
	.summary = "mmap'd user page: seqlock + rdpmc + time scaling, no syscall",
	.takes_events = true,
	.available = perf_mmap_available,
	.open = perf_mmap_open,
	.start = perf_start,
	.read = perf_read_mmap,
	.stop = perf_stop,
	.close = perf_close,
};

/* ---- baselines ---------------------------------------------------------------- */

static bool always(char *why, size_t len)
{
	(void)why;
	(void)len;
	return true;
}

static bool x86_only(char *why, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
	(void)why;
	(void)len;
	return true;
#else
	snprintf(why, len, "not an x86 CPU");
	return false;
#endif
}

static int base_open(void **st, const char *const *names, unsigned k, char *why, size_t len)
{
	*st = NULL;
	return 0;
}

static int clock_read(void *st, uint64_t *v)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	v[0] = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return 0;
}

static int rdtsc_read(void *st, uint64_t *v)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	v[0] = (uint64_t)hi << 32 | lo;
#endif
	return 0;
}

static int rdtscp_read(void *st, uint64_t *v)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	v[0] = (uint64_t)hi << 32 | lo;
#endif
	return 0;
}

static const struct pcost_counter_iface clock_row = {
	.name = "clock_gettime",
	.kind = "baseline",
	.summary = "clock_gettime(CLOCK_MONOTONIC) through the vDSO",
	.available = always,
	.open = base_open,
	.read = clock_read,
};

static const struct pcost_counter_iface rdtsc_row = {
	.name = "rdtsc",
	.kind = "baseline",
	.summary = "the rdtsc instruction, unserialized",
	.available = x86_only,
	.open = base_open,
	.read = rdtsc_read,
};

static const struct pcost_counter_iface rdtscp_row = {
	.name = "rdtscp",
	.kind = "baseline",
	.summary = "the rdtscp instruction (waits for earlier instructions)",
	.available = x86_only,
	.open = base_open,
	.read = rdtscp_read,
};

static const struct pcost_counter_iface empty_row = {
	.name = "empty",
	.kind = "baseline",
	.summary = "an empty timed region: the timer's own cost, to subtract",
	.available = always,
	.open = base_open,
};

const struct pcost_counter_iface *const pcost_counter_ifaces[] = {
	&perf_read_row, &perf_group_row, &perf_mmap_row, &pcost_counter_iface_papi,
	&clock_row,	&rdtsc_row,	 &rdtscp_row,	 &empty_row,
	NULL,
};

const struct pcost_counter_iface *pcost_counter_iface_find(const char *name)
{
	const struct pcost_counter_iface *ifc;

	for_each_counter_iface(ifc)
		if (!strcmp(ifc->name, name))
			return ifc;
	return NULL;
}

size_t pcost_counter_list_rows(struct pcost_list_row **rows)
{
	const struct pcost_counter_iface *ifc;
	size_t n = 0;

	for_each_counter_iface(ifc)
		n++;
	*rows = xcalloc(n, sizeof(**rows));
	n = 0;
	for_each_counter_iface(ifc) {
		struct pcost_list_row *r = &(*rows)[n++];

		r->name = ifc->name;
		r->kind = ifc->kind;
		r->summary = ifc->summary;
		r->available = ifc->available(r->why, sizeof(r->why));
	}
	return n;
}

/* ---- default events ------------------------------------------------------------ */

/* Generic events the kernel maps to PMU counters (perf's names, known to libpfm4). */
static const char *const hw_events[] = { "cycles", "instructions", "branches", "branch-misses" };
/* Software events: every kernel has them, PMU or not. */
static const char *const sw_events[] = { "task-clock",	     "cpu-clock",      "page-faults",
					 "context-switches", "cpu-migrations", "minor-faults",
					 "major-faults" };

int pcost_counter_default_events(bool pmu, unsigned k, char **names)
{
	static const char *const quals[] = { "", ":u=1", ":k=1" };
	unsigned nhw = pmu ? ARRAY_SIZE(hw_events) : 0, nsw = ARRAY_SIZE(sw_events);
	unsigned max = nhw + nsw * ARRAY_SIZE(quals);

	if (k > max)
		return -E2BIG;
	for (unsigned i = 0; i < k; i++) {
		if (i < nhw) {
			names[i] = xstrdup(hw_events[i]);
		} else {
			unsigned j = i - nhw;

			names[i] = xasprintf("%s%s", sw_events[j % nsw], quals[j / nsw]);
		}
	}
	return (int)k;
}
