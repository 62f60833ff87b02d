/* SPDX-License-Identifier: MIT */
/*
 * cmd-costs-machine: what calibrate and predict share about the cost table:
 * measuring and storing this machine's, and finding it in the store.
 */
#ifndef PCOST_CMD_COSTS_MACHINE_H
#define PCOST_CMD_COSTS_MACHINE_H

#include "core/costs.h"
#include "run/calibrate.h"

/*
 * Measure this machine's table into *t (initialized here: level, version,
 * host, kernel, cpu, fingerprint) and store it unless o->no_store; progress
 * lines on stderr.  Returns 0, PCOST_EXIT_NOT_STORED, PCOST_EXIT_FAIL (error
 * printed) or 128 + N when interrupted by signal N.
 */
int pcost_cli_calibrate(const struct pcost_calibrate_opts *o, const char *level,
			const char *cpu_text, struct pcost_cost_table *t);

/* No cost table of this machine in the store (why says what there is). */
#define PCOST_COSTS_NONE 100

/*
 * This machine's newest complete table from the store db into *t: 0;
 * PCOST_COSTS_NONE (no store, or no table of this machine: why); or an exit
 * code with the error printed: 2 for a stale table (this host's, another
 * kernel or machine fingerprint), naming the command that recalibrates.
 * older (NULL: not wanted): this machine's older tables, newest first, in a
 * new array of *nolder (pcost_cost_tables_free them; NULL and 0 when none).
 */
int pcost_cli_machine_costs(const char *db, struct pcost_cost_table *t,
			    struct pcost_cost_table **older, size_t *nolder, char *why, size_t len);

/*
 * The CPUs other processes took while t's entries were measured: their CPU time
 * over the wall time of the stored runs of the sessions t's entries came from
 * (run/busy.h); NAN when the store, the sessions or the figures are not there.
 */
double pcost_cli_table_others(const char *db, const struct pcost_cost_table *t);

#endif
