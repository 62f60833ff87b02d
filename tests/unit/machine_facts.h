/* SPDX-License-Identifier: MIT */
/*
 * machine_facts: what this machine can do, from files in /proc and /sys and
 * the PATH, for the unit tests' skips (tests/cli/lib.bash's twins).  Never
 * probecost's own verdict: a broken probecost must fail a test, not skip it.
 * Each returns true when the fact holds, else false with the reason in why.
 */
#ifndef PCOST_TEST_MACHINE_FACTS_H
#define PCOST_TEST_MACHINE_FACTS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline bool fact_file(const char *path, char *why, size_t len)
{
	if (access(path, F_OK) == 0)
		return true;
	snprintf(why, len, "%s does not exist", path);
	return false;
}

static inline bool fact_root(char *why, size_t len)
{
	if (geteuid() == 0)
		return true;
	snprintf(why, len, "not root (uid %u)", (unsigned)geteuid());
	return false;
}

/* perf_event_open of a software event: the kernel has perf events, and root or paranoid <= 2. */
static inline bool fact_perf_events(char *why, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int paranoid = 99;

	if (!f) {
		snprintf(why, len,
			 "no /proc/sys/kernel/perf_event_paranoid: no perf events in this kernel");
		return false;
	}
	if (fscanf(f, "%d", &paranoid) != 1)
		paranoid = 99;
	fclose(f);
	if (!fact_file("/sys/bus/event_source/devices/software", why, len))
		return false;
	if (geteuid() != 0 && paranoid > 2) {
		snprintf(why, len, "kernel.perf_event_paranoid is %d and not root", paranoid);
		return false;
	}
	return true;
}

/* A hardware PMU (libpfm4, under PAPI, needs one for any event, even a software one). */
static inline bool fact_hardware_pmu(char *why, size_t len)
{
	if (access("/sys/bus/event_source/devices/cpu", F_OK) == 0 ||
	    access("/sys/bus/event_source/devices/cpu_core", F_OK) == 0)
		return true;
	snprintf(why, len, "no hardware PMU (/sys/bus/event_source/devices/cpu)");
	return false;
}

/* The uprobe PMU with reference counters (semaphores): perf_event_open of a uprobe. */
static inline bool fact_uprobe_pmu(char *why, size_t len)
{
	return fact_file("/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset", why, len);
}

/* tracefs in the kernel, and a place to mount it (probecost mounts it when it is not). */
static inline bool fact_tracefs(char *why, size_t len)
{
	FILE *f = fopen("/proc/filesystems", "r");
	char line[128];
	bool found = false;

	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, "\ttracefs") != NULL;
	if (f)
		fclose(f);
	if (!found) {
		snprintf(why, len, "no tracefs in /proc/filesystems");
		return false;
	}
	return fact_file("/sys/kernel/tracing", why, len);
}

/* A program on the PATH. */
static inline bool fact_command(const char *name, char *why, size_t len)
{
	const char *path = getenv("PATH");
	char dir[4096], full[4200];

	for (const char *p = path ? path : ""; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(dir, sizeof(dir), "%.*s", (int)n, p);
		snprintf(full, sizeof(full), "%s/%s", dir[0] ? dir : ".", name);
		if (access(full, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	snprintf(why, len, "'%s' is not on the PATH", name);
	return false;
}

#endif
