/* SPDX-License-Identifier: MIT */
/*
 * report/run_figures: a run session's figures (--metric values, a workload's facts
 * such as the server's p99_us, a --service's CPU time; stats/figures.h) in
 * each format: text lines under each group's table, the "metrics" member of
 * each JSON statistics row, CSV columns at the end of each row (one set per
 * figure), a Markdown table.  They read the session and the statistics only.
 */
#ifndef PCOST_REPORT_FIGURES_H
#define PCOST_REPORT_FIGURES_H

#include <stdbool.h>
#include <stdio.h>

#include "core/result.h"
#include "report/emit.h"
#include "stats/analyze.h"
#include "stats/figures.h"

/* The figures of a session, analysed once for a renderer. */
struct pcost_report_figures {
	struct pcost_figure_stats *fig; /* [config * nmetrics + k], NULL when none */
	struct pcost_figure_stats *svc; /* [config]: the service's CPU time per run */
	bool *shown;			/* [k]: measured in some run (else left out) */
	bool service;			/* some run recorded the service's CPU time */
};

void pcost_report_figures_init(struct pcost_report_figures *f, const struct pcost_session *s,
			       const struct pcost_config_stats *st);
void pcost_report_figures_release(struct pcost_report_figures *f);

/*
 * Text: under a group's table, one block per figure ("tps (tps, higher is
 * better)"), a line per configuration of the group (in[i] true), label width
 * mw; within 100 columns for labels up to 30.
 */
void pcost_report_figures_text(const struct pcost_report_figures *f, const struct pcost_session *s,
			       const bool *in, int mw, FILE *out);
/* JSON: row i's "metrics" array and "service_cpu_ns" object (null without a service). */
void pcost_report_figures_json(const struct pcost_report_figures *f, const struct pcost_session *s,
			       size_t i, struct cJSON *row);
/* CSV: the header's columns (each beginning with a comma), then row i's fields. */
void pcost_report_figures_csv_header(const struct pcost_report_figures *f,
				     const struct pcost_session *s, FILE *out);
void pcost_report_figures_csv(const struct pcost_report_figures *f, const struct pcost_session *s,
			      size_t i, struct pcost_csv *c);
/* Markdown: one table of every figure of every configuration (nothing without figures). */
void pcost_report_figures_markdown(const struct pcost_report_figures *f,
				   const struct pcost_session *s, FILE *out);

#endif
