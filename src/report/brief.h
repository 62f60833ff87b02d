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

#endif
