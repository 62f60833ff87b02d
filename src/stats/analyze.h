/* SPDX-License-Identifier: MIT */
/*
 * analyze: the statistics of a run/probes session, computed from its raw
 * samples only (so live output, `show`, `report`, plots and `compare` agree).
 *
 * Baseline of a configuration: the configuration of the same session with the
 * same workload, workload_args and variant whose monitor is "none" (run) or
 * "dormant" (probes).  Overheads are paired within blocks (ratio of block
 * means), and their CI is a seeded bootstrap over blocks.
 * Owned by the `run` area (issue 3).
 */
#ifndef PCOST_ANALYZE_H
#define PCOST_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "stats/stats.h"

struct pcost_config_stats {
	size_t nok, nfailed, noutliers;
	struct pcost_summary wall;	/* ns, measured (non-warm-up, non-failed) samples */
	struct pcost_summary user, sys;	/* ns */
	double cpu_util;		/* (user + sys) / wall */
	int baseline;			/* index of the baseline config, -1 when this is one */
	double overhead;		/* mean(this)/mean(baseline) - 1, as a fraction */
	double overhead_lo, overhead_hi; /* 95% bootstrap CI over paired blocks */
	double p_value;			/* Welch */
	bool significant;		/* p < 0.05 and CI excludes 0 */
	double extra_ns;		/* mean wall - baseline mean wall */
	double extra_cycles;		/* extra_ns x TSC Hz (0 when TSC unknown) */
	uint64_t events;		/* events per run (median of reports / --events) */
	double per_event_ns;		/* extra_ns / events; NAN when no events */
	int64_t monitor_events;		/* what the monitor counted (median), -1 unknown */
	/*
	 * Events made minus events the monitor saw (median over runs), when both
	 * count the same thing: the workload's unit is "syscall" and the monitor
	 * counted syscalls.  has_lost false: not counted.
	 */
	bool has_lost;
	int64_t lost_events;
	bool has_fit;			/* --scale: time = fixed + per_event x events */
	double fit_fixed_ns, fit_per_event_ns, fit_r2;
};

/* Analyze every configuration of s; *out gets s->nconfigs rows (caller frees). */
int pcost_analyze(const struct pcost_session *s, struct pcost_config_stats **out);

#endif
