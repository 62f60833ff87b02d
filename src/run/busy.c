// SPDX-License-Identifier: MIT
/* busy: other processes' CPU time and steal time around a run, from /proc/stat (see busy.h). */
#include "run/busy.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void pcost_cpu_times_read(uint64_t cpu_mask, struct pcost_cpu_times *t)
{
	FILE *f = fopen("/proc/stat", "re");
	char line[512];

	memset(t, 0, sizeof(*t));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = { 0 };
		int cpu = -1;

		if (strncmp(line, "cpu", 3))
			break; /* the cpu lines come first */
		if (line[3] == ' ') {
			if (cpu_mask)
				continue;
		} else if (sscanf(line + 3, "%d", &cpu) != 1 || cpu < 0 || cpu >= 64 || !cpu_mask ||
			   !(cpu_mask & (1ULL << cpu))) {
			continue;
		}
		/* user nice system idle iowait irq softirq steal (guest time is inside user/nice) */
		if (sscanf(line + strcspn(line, " "), "%llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 8)
			continue;
		t->busy += v[0] + v[1] + v[2] + v[5] + v[6];
		t->steal += v[7];
		t->ok = true;
	}
	fclose(f);
}

void pcost_busy_fill(const struct pcost_cpu_times *before, const struct pcost_cpu_times *after,
		     struct pcost_run_sample *smp)
{
	long hz = sysconf(_SC_CLK_TCK);
	double tick = hz > 0 ? 1e9 / (double)hz : 1e7, busy, own;

	if (!before->ok || !after->ok || after->busy < before->busy || after->steal < before->steal)
		return;
	busy = (double)(after->busy - before->busy) * tick;
	/* The run's own, and its --service's: the system measured, never interference. */
	own = (double)(smp->user_ns + smp->sys_ns);
	if (smp->has_service)
		own += (double)(smp->service_user_ns + smp->service_sys_ns);
	smp->has_busy = true;
	smp->other_cpu_ns = busy > own ? (pcost_ns)(busy - own) : 0;
	smp->steal_ns = (pcost_ns)((double)(after->steal - before->steal) * tick);
}
