/* SPDX-License-Identifier: MIT */
/*
 * brief: a run session in words, for the default study: the answer first
 * (one line per monitor), then each workload's table in 100 columns, then
 * the warnings with the noisy-run ones folded into one line.  The wide
 * table (run.c) is printed instead under -v.
 */
#ifndef PCOST_REPORT_BRIEF_H
#define PCOST_REPORT_BRIEF_H

#include <stdbool.h>
#include <stdio.h>

#include "stats/analyze.h"

/* The width every line of the brief report fits in. */
#define PCOST_BRIEF_COLUMNS 100

/* Measured blocks of s (runs that were started), and warm-up blocks in *warm. */
unsigned pcost_report_blocks(const struct pcost_session *s, unsigned *warm);
/*
 * "+W warm-up", or with an adaptive run's pilot left out of the figures
 * (options pilot_blocks, run/runner.h), "+W warm-up, +P pilot that planned them".
 */
const char *pcost_report_warm_note(const struct pcost_session *s, unsigned warm, char *buf,
				   size_t len);

/* Text of s is the brief form: the default study's session, without -v. */
bool pcost_report_run_brief_wanted(const struct pcost_session *s);

void pcost_report_run_brief(const struct pcost_session *s, const struct pcost_config_stats *st,
			    FILE *out);

/* msg in lines of at most PCOST_BRIEF_COLUMNS (but for a longer word), the first after prefix. */
void pcost_report_wrapped(const char *prefix, const char *msg, FILE *out);

/*
 * The level between sessions of the configurations in[] marks (all: in NULL), where
 * s->levels has it (looked up from the store when printed): how far a session's mean
 * moves beyond its runs' "+-", its overhead's and its figures'.  Nothing where none
 * was measured.  md: markdown's one paragraph for all the groups (labels name the
 * workload); else lines under a group's table, wrapped (run.c).
 */
void pcost_report_level(const struct pcost_session *s, const bool *in, bool md, FILE *out);

#endif
