// SPDX-License-Identifier: MIT
/*
 * inject: the known answer of bench/coverage.sh.  inject:event=N,fixed=F sets
 * PCOST_INJECT_EVENT_NS and PCOST_INJECT_FIXED_NS in the workload's
 * environment; the spin workload then spins F ns once before its timed region
 * and N ns per event inside it, timing those spins itself; the syscall
 * workload spins N ns after each call and F once, the null workload F once
 * (so a cost table prices inject per syscall: the known answer of predict).  Nothing else is
 * added (no exec, no preload), so the true fixed and per-event costs are what
 * the workload measured.
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
	uint64_t event_ns, fixed_ns;
	unsigned fault;		/* index in faults[], 0: none */
};

static int inject_wrap(struct pcost_monitor *m, struct pcost_launch *l)
{
	struct inject_monitor *d = container_of(m, struct inject_monitor, m);
	char v[32];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)d->event_ns);
	pcost_launch_setenv(l, "PCOST_INJECT_EVENT_NS", v);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)d->fixed_ns);
	pcost_launch_setenv(l, "PCOST_INJECT_FIXED_NS", v);
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

/* "event=N,fixed=F,fault=WHAT" in any order, each optional, at least one. */
static int parse(const char *arg, struct inject_monitor *d)
{
	char *copy = xstrdup(arg ? arg : ""), *save = NULL;
	int n = 0, rc = 0;

	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save), n++) {
		/* Up to 10 ms an event and 10 s once: known costs, not sleeps. */
		if (!strncmp(t, "event=", 6)) {
			rc = pcost_parse_u64(t + 6, 0, 10000000, &d->event_ns);
		} else if (!strncmp(t, "fixed=", 6)) {
			rc = pcost_parse_u64(t + 6, 0, 10000000000ULL, &d->fixed_ns);
		} else if (!strncmp(t, "fault=", 6)) {
			for (d->fault = ARRAY_SIZE(faults) - 1; d->fault && strcmp(t + 6, faults[d->fault]);
			     d->fault--)
				;
			rc = d->fault ? 0 : -1;
		} else {
			rc = -1;
		}
	}
	free(copy);
	return rc || !n ? -1 : 0;
}

static struct pcost_monitor *inject_new(const char *arg, char *err, size_t len)
{
	struct inject_monitor *d = xcalloc(1, sizeof(*d));

	if (parse(arg, d) < 0) {
		free(d);
		snprintf(err, len, "monitor 'inject' needs ':event=NS,fixed=NS,fault=WHAT' (event "
			 "0..10000000, fixed 0..10000000000, fault segv, exit or check; one at least), "
			 "e.g. inject:event=500,fixed=5000000");
		return NULL;
	}
	d->m.ops = &inject_ops;
	snprintf(d->m.name, sizeof(d->m.name), "inject:event=%llu,fixed=%llu%s%s",
		 (unsigned long long)d->event_ns, (unsigned long long)d->fixed_ns,
		 d->fault ? ",fault=" : "", faults[d->fault]);
	return &d->m;
}

const struct pcost_monitor_def pcost_monitor_def_inject = {
	"inject", PCOST_MON_PRELOAD,
	"known answer: inject:event=N,fixed=F makes the spin and syscall workloads spin N ns per "
	"event (syscall) and F once; fault=segv|exit|check makes spin fail",
	NULL, NULL, NULL, inject_new
};
