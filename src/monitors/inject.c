// SPDX-License-Identifier: MIT
/*
 * inject: the known answer of bench/coverage.sh.  inject:event=N,fixed=F sets
 * PCOST_INJECT_EVENT_NS and PCOST_INJECT_FIXED_NS in the workload's
 * environment; the spin workload then spins F ns once before its timed region
 * and N ns per event inside it, timing those spins itself; the syscall
 * workload spins N ns after each call and F once, the null workload F once
 * (so a cost table prices inject per syscall: the known answer of predict).
 * dist=normal|lognormal,cov=C makes each run's cost vary (a factor of mean 1
 * and CoV C on both), hiccup=P,hiccup_ns=H adds H ns once mid-run to a share P
 * of the runs (workloads/injected.h draws them).  Nothing else is added (no
 * exec, no preload), so the true costs are what the workload measured.
 *
 * inject:fault=segv|exit|check (with or without the costs) is the known answer
 * of outcomes (stats/outcome.h): PCOST_INJECT_FAULT makes the spin workload,
 * after its timed region, write to address 8 (SIGSEGV at address 0x8), exit
 * 3, or report check=bad: the program fails under this monitor and
 * not in its plain runs, so the row must end changed-program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitors/monitor.h"
#include "monitors/monitor_table.h"

/* What fault= can ask the spin workload to do (index: the value of PCOST_INJECT_FAULT). */
static const char *const faults[] = { "", "segv", "exit", "check" };

struct inject_monitor {
	struct pcost_monitor m;
	uint64_t event_ns, fixed_ns, hiccup_ns;
	const char *dist; /* NULL: const */
	double cov, hiccup;
	unsigned fault; /* index in faults[], 0: none */
};

static void setenv_num(struct pcost_launch *l, const char *key, const char *fmt, double v)
{
	char buf[48];

	snprintf(buf, sizeof(buf), fmt, v);
	pcost_launch_setenv(l, key, buf);
}

static int inject_wrap(struct pcost_monitor *m, struct pcost_launch *l)
{
	struct inject_monitor *d = container_of(m, struct inject_monitor, m);

	setenv_num(l, "PCOST_INJECT_EVENT_NS", "%.0f", (double)d->event_ns);
	setenv_num(l, "PCOST_INJECT_FIXED_NS", "%.0f", (double)d->fixed_ns);
	if (d->dist) {
		pcost_launch_setenv(l, "PCOST_INJECT_DIST", d->dist);
		setenv_num(l, "PCOST_INJECT_COV", "%.17g", d->cov);
	}
	if (d->hiccup > 0) {
		setenv_num(l, "PCOST_INJECT_HICCUP", "%.17g", d->hiccup);
		setenv_num(l, "PCOST_INJECT_HICCUP_NS", "%.0f", (double)d->hiccup_ns);
	}
	if (d->fault)
		pcost_launch_setenv(l, "PCOST_INJECT_FAULT", faults[d->fault]);
	return 0;
}

static void inject_free(struct pcost_monitor *m)
{
	free(container_of(m, struct inject_monitor, m));
}

static const struct pcost_monitor_ops inject_ops = {
	.kind = PCOST_MON_PRELOAD,
	.wrap = inject_wrap,
	.free = inject_free,
};

/* One key=value of the argument into d; 0 or -1. */
static int parse_one(const char *t, struct inject_monitor *d)
{
	/* Up to 10 ms an event and 10 s once: known costs, not sleeps. */
	if (!strncmp(t, "event=", 6))
		return pcost_parse_u64(t + 6, 0, 10000000, &d->event_ns);
	if (!strncmp(t, "fixed=", 6))
		return pcost_parse_u64(t + 6, 0, 10000000000ULL, &d->fixed_ns);
	if (!strncmp(t, "hiccup_ns=", 10))
		return pcost_parse_u64(t + 10, 0, 10000000000ULL, &d->hiccup_ns);
	if (!strncmp(t, "hiccup=", 7))
		return pcost_parse_double(t + 7, 0, 1, &d->hiccup);
	if (!strncmp(t, "cov=", 4))
		return pcost_parse_double(t + 4, 0, 10, &d->cov);
	if (!strncmp(t, "fault=", 6)) {
		for (d->fault = ARRAY_SIZE(faults) - 1; d->fault && strcmp(t + 6, faults[d->fault]);
		     d->fault--)
			;
		return d->fault ? 0 : -1;
	}
	if (!strcmp(t, "dist=const"))
		return d->dist = NULL, 0;
	if (!strcmp(t, "dist=normal") || !strcmp(t, "dist=lognormal"))
		return d->dist = t + 5, 0;
	return -1;
}

/* "event=N,fixed=F[,dist=D,cov=C][,hiccup=P,hiccup_ns=H][,fault=WHAT]" in any order, each optional. */
static int parse(struct inject_monitor *d, char *copy)
{
	char *save = NULL;
	int n = 0;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save), n++)
		if (parse_one(t, d) < 0)
			return -1;
	/* a distribution needs its spread, a hiccup its size; neither alone injects anything */
	if (!n || (d->dist && !(d->cov > 0)) || ((d->hiccup > 0) != (d->hiccup_ns > 0)))
		return -1;
	return 0;
}

static struct pcost_monitor *inject_new(const char *arg, char *err, size_t len)
{
	struct inject_monitor *d = xcalloc(1, sizeof(*d) + strlen(arg ? arg : "") + 1);
	char *copy = (char *)(d + 1); /* dist points into it: kept with the monitor */

	strcpy(copy, arg ? arg : "");
	if (parse(d, copy) < 0) {
		snprintf(err, len,
			 "monitor 'inject' needs ':event=NS,fixed=NS' (event 0..10000000, "
			 "fixed 0..10000000000), optionally dist=normal|lognormal,cov=C (0..10), "
			 "hiccup=P,hiccup_ns=NS (P 0..1) and fault=segv|exit|check, e.g. "
			 "inject:event=500,fixed=5000000");
		free(d);
		return NULL;
	}
	d->m.ops = &inject_ops;
	snprintf(d->m.name, sizeof(d->m.name), "inject:event=%llu,fixed=%llu",
		 (unsigned long long)d->event_ns, (unsigned long long)d->fixed_ns);
	if (d->dist)
		snprintf(d->m.name + strlen(d->m.name), sizeof(d->m.name) - strlen(d->m.name),
			 ",dist=%s,cov=%g", d->dist, d->cov);
	if (d->hiccup > 0)
		snprintf(d->m.name + strlen(d->m.name), sizeof(d->m.name) - strlen(d->m.name),
			 ",hiccup=%g,hiccup_ns=%llu", d->hiccup, (unsigned long long)d->hiccup_ns);
	if (d->fault)
		snprintf(d->m.name + strlen(d->m.name), sizeof(d->m.name) - strlen(d->m.name),
			 ",fault=%s", faults[d->fault]);
	return &d->m;
}

const struct pcost_monitor_def pcost_monitor_def_inject = {
	"inject",
	PCOST_MON_PRELOAD,
	"known answer: inject:event=N,fixed=F[,dist=normal|lognormal,cov=C][,hiccup=P,hiccup_ns=H] "
	"makes the spin and syscall workloads spin N ns per event (syscall) and F once, each run's "
	"cost scaled by a draw of mean 1 and CoV C, plus H ns in a share P of the runs; "
	"fault=segv|exit|check makes spin fail",
	NULL,
	NULL,
	NULL,
	inject_new
};
