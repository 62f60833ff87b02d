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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitors/monitor.h"
#include "monitors/monitor_table.h"

struct inject_monitor {
	struct pcost_monitor m;
	uint64_t event_ns, fixed_ns;
};

static int inject_wrap(struct pcost_monitor *m, struct pcost_launch *l)
{
	struct inject_monitor *d = container_of(m, struct inject_monitor, m);
	char v[32];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)d->event_ns);
	pcost_launch_setenv(l, "PCOST_INJECT_EVENT_NS", v);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)d->fixed_ns);
	pcost_launch_setenv(l, "PCOST_INJECT_FIXED_NS", v);
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

/* "event=N,fixed=F" in either order, each optional, at least one. */
static int parse(const char *arg, uint64_t *event, uint64_t *fixed)
{
	char *copy = xstrdup(arg ? arg : ""), *save = NULL;
	int n = 0, rc = 0;

	*event = *fixed = 0;
	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save), n++) {
		/* Up to 10 ms an event and 10 s once: known costs, not sleeps. */
		if (!strncmp(t, "event=", 6))
			rc = pcost_parse_u64(t + 6, 0, 10000000, event);
		else if (!strncmp(t, "fixed=", 6))
			rc = pcost_parse_u64(t + 6, 0, 10000000000ULL, fixed);
		else
			rc = -1;
	}
	free(copy);
	return rc || !n ? -1 : 0;
}

static struct pcost_monitor *inject_new(const char *arg, char *err, size_t len)
{
	struct inject_monitor *d;
	uint64_t ev, fx;

	if (parse(arg, &ev, &fx) < 0) {
		snprintf(err, len, "monitor 'inject' needs ':event=NS,fixed=NS' (event 0..10000000, "
			 "fixed 0..10000000000), e.g. inject:event=500,fixed=5000000");
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	d->m.ops = &inject_ops;
	d->event_ns = ev;
	d->fixed_ns = fx;
	snprintf(d->m.name, sizeof(d->m.name), "inject:event=%llu,fixed=%llu",
		 (unsigned long long)ev, (unsigned long long)fx);
	return &d->m;
}

const struct pcost_monitor_def pcost_monitor_def_inject = {
	"inject", PCOST_MON_PRELOAD,
	"known answer: inject:event=N,fixed=F makes the spin and syscall workloads spin N ns per "
	"event (syscall) and F once",
	NULL, NULL, NULL, inject_new
};
