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

#include "core/format.h"
#include "core/result.h"

/* Renderers, one per session kind: 0, or -errno when the output fails. */
int pcost_report_run(const struct pcost_session *s, enum pcost_format f, FILE *out);
int pcost_report_probes(const struct pcost_session *s, enum pcost_format f, FILE *out);
int pcost_report_counters(const struct pcost_session *s, enum pcost_format f, FILE *out);

/* A row format (not html) by the renderer of s->kind; -EINVAL for a kind it does not know. */
int pcost_report_rows(const struct pcost_session *s, enum pcost_format f, FILE *out);
/* Any format: html as a page (html.c), the others by pcost_report_rows. */
int pcost_report_session(const struct pcost_session *s, enum pcost_format f, FILE *out);

#endif
