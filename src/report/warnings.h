/* SPDX-License-Identifier: MIT */
/* run_warnings: plain-word warnings where a run session's numbers deserve suspicion. */
#ifndef PCOST_RUN_WARNINGS_H
#define PCOST_RUN_WARNINGS_H

#include "report/emit.h"
#include "stats/analyze.h"

#define PCOST_RUN_MAX_WARNINGS 32

/*
 * What a warning is about.  The advisory kinds say a row's runs were noisy,
 * which its interval already carries; a short report may fold them into one
 * line (brief.c).  The others change what a reader concludes.
 */
enum pcost_warn_kind {
	PCOST_WARN_OTHER,
	PCOST_WARN_LOW_CPU,    /* value: CPU use / elapsed */
	PCOST_WARN_HIGH_COV,   /* value: the CoV */
	PCOST_WARN_OUTLIERS,   /* value: outlier runs */
	PCOST_WARN_SLOW_FIRST, /* value: first block / median */
};

struct pcost_run_warnings {
	size_t n;
	char msg[PCOST_RUN_MAX_WARNINGS][PCOST_WARNING_LEN];
	enum pcost_warn_kind kind[PCOST_RUN_MAX_WARNINGS];
	double value[PCOST_RUN_MAX_WARNINGS];
};

/* The layout=... word of a configuration's arguments into buf ("default" and false without one). */
bool pcost_config_layout(const struct pcost_config *c, char *buf, size_t len);
/* The KEY=... word of a configuration's arguments ("k=v k=v") into buf ("" and false without one). */
bool pcost_config_arg(const struct pcost_config *c, const char *key, char *buf, size_t len);
/*
 * The load generators' open loop (server, http with rate=): its rate asked, 0
 * for a closed loop or another workload.
 */
double pcost_config_rate(const struct pcost_config *c);

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
