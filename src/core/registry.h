/* SPDX-License-Identifier: MIT */
/*
 * registry: the rows `probecost list` prints.  Each registry (workloads,
 * monitors, counters, probe arming methods) exposes its table as rows with a
 * run-time availability check, so help text and behaviour cannot drift.
 */
#ifndef PCOST_REGISTRY_H
#define PCOST_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

struct pcost_param_desc;

struct pcost_list_row {
	const char *name;
	const char *kind; /* "wrap", "attach", "self", "baseline", "workload", ... */
	const char *summary;
	bool available;
	char why[256]; /* when !available: why, and the fix (package, sysctl) */
	/* The row's key=value parameters (key == NULL ends them), or NULL: none. */
	const struct pcost_param_desc *params;
};

/*
 * Each fills *rows (malloc'd array, caller frees) and returns the count.
 * Implemented by the registry that owns the table.
 */
size_t pcost_workload_list_rows(struct pcost_list_row **rows);
size_t pcost_monitor_list_rows(struct pcost_list_row **rows);
size_t pcost_counter_list_rows(struct pcost_list_row **rows);
size_t pcost_probe_method_list_rows(struct pcost_list_row **rows);

#endif
