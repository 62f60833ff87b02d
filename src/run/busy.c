// SPDX-License-Identifier: MIT
/* busy: other processes' CPU time and steal time around a run, from /proc/stat (see busy.h). */
#include "run/busy.h"

#include "core/ptree.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void pcost_cpu_times_read(uint64_t cpu_mask, struct pcost_cpu_times *t)
{
	FILE *f = fopen("/proc/stat", "re");
	struct timespec self;
	char line[512];

	memset(t, 0, sizeof(*t));
	t->at = pcost_now_ns();
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
			/* The aggregate line's CPUs: every cpuN line after it. */
			t->cpus += !cpu_mask && cpu >= 0;
			continue;
		}
		t->cpus += cpu_mask != 0;
		/* user nice system idle iowait irq softirq steal (guest time is inside user/nice) */
		if (sscanf(line + strcspn(line, " "), "%llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 8)
			continue;
		t->busy += v[0] + v[1] + v[2] + v[5] + v[6];
		t->steal += v[7];
		t->ok = true;
	}
	fclose(f);
	t->study_ok = pcost_ptree_cpu_below(getpid(), &t->study) &&
		      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &self) == 0;
	if (t->study_ok)
		t->study += (pcost_ns)self.tv_sec * 1000000000ULL + (pcost_ns)self.tv_nsec;
}

void pcost_busy_fill(const struct pcost_cpu_times *before, const struct pcost_cpu_times *after,
		     struct pcost_run_sample *smp)
{
	long hz = sysconf(_SC_CLK_TCK);
	double tick = hz > 0 ? 1e9 / (double)hz : 1e7, busy, own, window, svc = 0, study = 0;

	if (!before->ok || !after->ok || after->busy < before->busy || after->steal < before->steal)
		return;
	busy = (double)(after->busy - before->busy) * tick;
	/* The run's own, and its --service's: the system measured, never interference. */
	if (smp->has_service)
		svc = (double)(smp->service_user_ns + smp->service_sys_ns);
	/* The study's own processes beside the run (an attach monitor, probecost) are not other. */
	if (before->study_ok && after->study_ok && after->study > before->study)
		study = (double)(after->study - before->study);
	own = (double)(smp->user_ns + smp->sys_ns) + fmax(svc, study);
	/*
	 * The readings bracket more than the run (its start, its reaping; longer
	 * where probecost waited for a CPU): the others' time at their pace over
	 * the window, over the run's wall time alone.
	 */
	window = (double)(after->at - before->at);
	if (busy > own && window > (double)smp->wall_ns && smp->wall_ns)
		busy = own + (busy - own) * (double)smp->wall_ns / window;
	/*
	 * Shorter than the source resolves (busy.h): no figure rather than a wrong
	 * one.  The length judged is the run's less the others' time on a CPU of
	 * those read (their time over the CPUs), so that their interference, which
	 * stretches a run, does not decide which runs have one; others that fill
	 * every CPU take a CPU's worth of the run's time, not that of every CPU.
	 */
	if ((double)smp->wall_ns - fmax(busy - own, 0) / (after->cpus ? after->cpus : 1) <
	    PCOST_BUSY_MIN_TICKS * tick)
		return;
	smp->has_busy = true;
	smp->other_cpu_ns = busy > own ? (pcost_ns)(busy - own) : 0;
	smp->steal_ns = (pcost_ns)((double)(after->steal - before->steal) * tick);
}
