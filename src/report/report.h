/* SPDX-License-Identifier: MIT */
/*
 * report: everything probecost prints about a session.  One renderer per
 * session kind (run.c, probes.c, counters.c) and the page (html.c) behind
 * one format table (report.c), the shared warnings (warnings.c) and the plots (plot*.c).  All
 * read only the result structs (and stats/analyze.c), so a stored session
 * renders exactly as the live command printed it.
 */
#ifndef PCOST_REPORT_H
#define PCOST_REPORT_H

#include <stdio.h>

#include "core/costs.h"
#include "core/format.h"
#include "core/result.h"
#include "stats/predict.h"

/* Renderers, one per session kind: 0, or -errno when the output fails. */
int pcost_report_run(const struct pcost_session *s, enum pcost_format f, FILE *out);
int pcost_report_probes(const struct pcost_session *s, enum pcost_format f, FILE *out);
int pcost_report_counters(const struct pcost_session *s, enum pcost_format f, FILE *out);

/* A row format (not html) by the renderer of s->kind; -EINVAL for a kind it does not know. */
int pcost_report_rows(const struct pcost_session *s, enum pcost_format f, FILE *out);
/* Any format: html as a page (html.c), the others by pcost_report_rows. */
int pcost_report_session(const struct pcost_session *s, enum pcost_format f, FILE *out);

/*
 * The cost tables t[0..n) (costs_tables.c): one table row by row, several side by
 * side (a column a machine and kernel) with the fingerprint fields in which
 * they differ.  Every format, html a whole page.  0, or -errno.
 */
int pcost_report_costs(const struct pcost_cost_table *t, size_t n, enum pcost_format f, FILE *out);

/* What `probecost predict` prints (prediction.c). */
struct pcost_predict_report {
	const char *command; /* the command, argv joined */
	const struct pcost_cost_table *table;
	/* per monitor: the older table its costs came from (the newest lacked them); NULL: table */
	const struct pcost_cost_table *const *from;
	const char *placement; /* the runs predicted: "unpinned" or "cpu=LIST" (costs.h) */
	const struct pcost_counts *counts;
	double table_others; /* CPUs other processes took in the table's runs; NAN: unknown */
	const char *service; /* --service CMD, NULL */
	const struct pcost_counts *service_counts; /* its processes' counts, NULL */
	unsigned count_runs, plain_runs;
	size_t n;
	const struct pcost_prediction *p;	    /* one per monitor */
	const struct pcost_prediction_check *check; /* --verify: one per monitor; NULL without */
	int64_t verify_session;			    /* the stored run session of --verify, 0 */
	bool check_only; /* text: only the comparison (the predictions came first) */
};

/* Text, json, csv or markdown.  0, or -errno. */
int pcost_report_predict(const struct pcost_predict_report *r, enum pcost_format f, FILE *out);

#endif
