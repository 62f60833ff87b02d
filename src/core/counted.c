// SPDX-License-Identifier: MIT
/* counted: the names and units of the counted kinds, and the result's lifecycle. */
#include "core/counted.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name, *unit;
} kinds[PCOST_EVC_N] = {
	[PCOST_EVC_SYSCALLS] = { "syscalls", "syscall" },
	[PCOST_EVC_CSWITCHES] = { "context_switches", "switch" },
	[PCOST_EVC_CSW_VOLUNTARY] = { "voluntary_switches", "switch" },
	[PCOST_EVC_CSW_INVOLUNTARY] = { "involuntary_switches", "switch" },
	[PCOST_EVC_MINOR_FAULTS] = { "minor_faults", "fault" },
	[PCOST_EVC_MAJOR_FAULTS] = { "major_faults", "fault" },
	[PCOST_EVC_TASKS] = { "tasks_created", "task" },
	[PCOST_EVC_THREADS] = { "threads_created", "task" },
	[PCOST_EVC_EXECS] = { "execs", "exec" },
	[PCOST_EVC_TASK_CLOCK] = { "task_clock_ns", "ns" },
};

const char *pcost_evc_kind_name(enum pcost_evc_kind k)
{
	return (unsigned)k < PCOST_EVC_N ? kinds[k].name : NULL;
}

const char *pcost_evc_kind_unit(enum pcost_evc_kind k)
{
	return (unsigned)k < PCOST_EVC_N ? kinds[k].unit : NULL;
}

void pcost_evcount_init(struct pcost_evcount *c)
{
	memset(c, 0, sizeof(*c));
	for (int k = 0; k < PCOST_EVC_N; k++)
		c->v[k] = -1;
	c->wait_status = -1;
}

void pcost_evcount_release(struct pcost_evcount *c)
{
	free(c->command);
	free(c->by_nr);
	free(c->probes);
	c->command = NULL;
	c->by_nr = NULL;
	c->probes = NULL;
	c->nby_nr = c->nprobes = 0;
}
