/* SPDX-License-Identifier: MIT */
/* run_warnings: plain-word warnings where a run session's numbers deserve suspicion. */
#ifndef PCOST_RUN_WARNINGS_H
#define PCOST_RUN_WARNINGS_H

#include "stats/analyze.h"

#define PCOST_RUN_MAX_WARNINGS 32

struct pcost_run_warnings {
	size_t n;
	char msg[PCOST_RUN_MAX_WARNINGS][256];
};

/* Fill *w from the session and its statistics (st from pcost_analyze). */
void pcost_run_warnings(const struct pcost_session *s, const struct pcost_config_stats *st,
			struct pcost_run_warnings *w);

/*
 * Append a warning for each figure whose mean and robust companion disagree
 * (analyze.h *_skewed) and each monitor whose runs slow the baseline run after
 * them (carry_over_significant); run (inside pcost_run_warnings) and probes.
 */
void pcost_stat_warnings(const struct pcost_session *s, const struct pcost_config_stats *st,
			 struct pcost_run_warnings *w);

#endif
